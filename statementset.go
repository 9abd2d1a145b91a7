package sluice

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/sql/ast"
)

// A statement set, after Flink's SQL Gateway (1.17 on): BEGIN STATEMENT
// SET starts collecting INSERTs, each checked as it comes and kept or
// refused on its own; END runs those collected as one job, or nothing
// when there are none. In between, anything but an INSERT or END is
// refused and the set is kept; so is CREATE TABLE AS, which Flink takes
// into a set and Sluice does not.

// statementSet is a session's statement set: open between BEGIN
// STATEMENT SET and END, with the INSERTs collected since BEGIN.
type statementSet struct {
	open  bool
	sinks []*planner.Sink
	texts []string
}

// Flink's messages (the SQL Gateway's OperationExecutor).
var (
	errOnlyInsert     = errors.New("Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' statement to submit Statement Set.")
	errNoStatementSet = errors.New("No Statement Set to submit. 'END' statement should be used after 'BEGIN STATEMENT SET'.")
)

// InStatementSet reports whether the session is collecting a statement
// set (after BEGIN STATEMENT SET, before END).
func (e *Session) InStatementSet() bool { return e.set.open }

// inStatementSet runs a statement while a statement set is open: an
// INSERT is planned and added (ResultOK), END runs the set (ResultJob, or
// ResultOK when it is empty), anything else is refused.
func (e *Session) inStatementSet(ctx context.Context, st ast.Statement, src string) (*Result, error) {
	switch s := st.(type) {
	case *ast.Insert:
		sink, err := e.binder(ctx).Insert(s)
		if err != nil {
			return nil, err
		}
		e.set.sinks = append(e.set.sinks, sink)
		e.set.texts = append(e.set.texts, statementText(src, s.Pos))
		return &Result{Kind: ResultOK}, nil
	case *ast.EndStatementSet:
		sinks, texts := e.set.sinks, e.set.texts
		*e.set = statementSet{}
		if len(sinks) == 0 {
			return &Result{Kind: ResultOK}, nil
		}
		return e.runInserts(ctx, sinks, setText(texts))
	case *ast.CreateTable:
		if s.AsQuery != nil {
			return nil, &planner.Error{Pos: s.Pos, Msg: "CREATE TABLE AS in a statement set is not supported: run it on its own"}
		}
	}
	return nil, errOnlyInsert
}

// setText is the statement a job of a statement set collected by BEGIN
// STATEMENT SET records: the set written as one statement.
func setText(inserts []string) string {
	return "EXECUTE STATEMENT SET BEGIN\n" + strings.Join(inserts, ";\n") + ";\nEND"
}

// runInserts starts one job writing every sink and, with table.dml-sync,
// waits until it has ended.
func (e *Session) runInserts(ctx context.Context, sinks []*planner.Sink, text string) (*Result, error) {
	j, err := e.startJob(sinks, text)
	if err != nil {
		return nil, err
	}
	return e.jobResult(ctx, j)
}

// jobResult is the result of a statement that started job j. With
// table.dml-sync it waits for the job to end, as Flink's
// TableResult.await does: a job that fails is the statement's error, and
// one still running when ctx ends (Ctrl-C) is cancelled.
func (e *Session) jobResult(ctx context.Context, j *Job) (*Result, error) {
	res := &Result{Kind: ResultJob, JobID: j.ID}
	if !e.config.DMLSync() {
		return res, nil
	}
	select {
	case <-j.Done():
	case <-ctx.Done():
		j.stop()
		return nil, fmt.Errorf("Fail to wait execution finish: job %s (%s) was cancelled: %w", j.ID, j.Name, context.Cause(ctx))
	}
	if err := j.Err(); err != nil {
		return nil, fmt.Errorf("Fail to wait execution finish: job %s (%s) failed: %w", j.ID, j.Name, err)
	}
	return res, nil
}
