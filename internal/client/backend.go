package client

import (
	"context"
	"fmt"
	"io"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// Backend runs the client's statements: an engine in this process
// (Embedded) or a session of a SQL Gateway (Gateway). The client prints
// what either gives the same way.
type Backend interface {
	// Execute runs one statement: st is its syntax tree, src its text
	// (error positions are relative to it).
	Execute(ctx context.Context, st ast.Statement, src string) (*Result, error)
	// Settings returns the session's effective settings (what SET lists).
	Settings(ctx context.Context) (map[string]string, error)
	// Complete returns the completions of the word that ends at position
	// (a character index) of statement: keywords, tables and views,
	// columns, functions (sluice.Session.Complete).
	Complete(ctx context.Context, statement string, position int) ([]string, error)
}

// Result is a statement's outcome as the client prints it.
type Result struct {
	Kind sluice.ResultKind
	// Headers and Rows hold a ResultTable.
	Headers []string
	Rows    [][]string
	// Stream delivers a ResultStream.
	Stream Stream
	// JobID identifies a ResultJob's job (a statement set's one job).
	JobID string
	// Text holds a ResultText.
	Text string
}

// Stream is the changelog of a running query.
type Stream interface {
	// Schema returns the result's columns.
	Schema() types.Schema
	// Next returns the next changes, waiting until some arrive, the query
	// ends (more false, nil error), it fails or ctx ends.
	Next(ctx context.Context) (changes []Change, more bool, err error)
	// Close stops the query.
	Close()
}

// Change is one change of a query's result, its values printed as the
// SQL client shows them (types.PrintValue).
type Change struct {
	Kind  types.RowKind
	Cells []string
}

// Embedded runs statements on an engine in this process; its jobs run
// here and stop when it closes.
type Embedded struct {
	Engine *sluice.Engine
	// DataDir is the data directory the engine keeps its jobs in, if any.
	DataDir string

	// streamStarted, when set, is called with every query's stream as it
	// starts.
	streamStarted func(*sluice.Stream)
}

// Execute runs a statement on the engine.
func (e *Embedded) Execute(ctx context.Context, st ast.Statement, src string) (*Result, error) {
	res, err := e.Engine.ExecuteStatement(ctx, st, src)
	if err != nil {
		return nil, err
	}
	out := &Result{Kind: res.Kind, Headers: res.Headers, Rows: res.Rows, JobID: res.JobID, Text: res.Text}
	if res.Stream != nil {
		if e.streamStarted != nil {
			e.streamStarted(res.Stream)
		}
		out.Stream = embeddedStream{res.Stream}
	}
	return out, nil
}

// Settings returns the engine session's settings.
func (e *Embedded) Settings(context.Context) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range e.Engine.Config().All() {
		out[kv[0]] = kv[1]
	}
	return out, nil
}

// Complete completes a word of a statement on the engine's session.
func (e *Embedded) Complete(_ context.Context, statement string, position int) ([]string, error) {
	return e.Engine.Complete(statement, position)
}

// printer is a backend whose jobs print where the client says (the
// embedded engine's).
type printer interface {
	// setOutput makes the jobs started from now on print to stdout and
	// stderr.
	setOutput(stdout, stderr io.Writer)
}

func (e *Embedded) setOutput(stdout, stderr io.Writer) { e.Engine.SetOutput(stdout, stderr) }

func (e *Embedded) runningJobs() []string {
	var out []string
	for _, j := range e.Engine.Jobs() {
		if j.Status() == "RUNNING" {
			out = append(out, fmt.Sprintf("%s (%s)", j.ID, j.Name))
		}
	}
	return out
}

func (e *Embedded) resumable() bool { return e.DataDir != "" }

// embeddedStream is a Stream of the engine's, its values printed in the
// session's time zone.
type embeddedStream struct{ s *sluice.Stream }

func (s embeddedStream) Schema() types.Schema { return s.s.Schema }

func (s embeddedStream) Next(ctx context.Context) ([]Change, bool, error) {
	changes, more, err := s.s.Next(ctx)
	out := make([]Change, len(changes))
	for i, ch := range changes {
		cells := make([]string, len(ch.Row))
		for j, v := range ch.Row {
			cells[j] = types.PrintValue(s.s.Schema[j].Type, v, s.s.TimeZone)
		}
		out[i] = Change{Kind: ch.Kind, Cells: cells}
	}
	return out, more, err
}

func (s embeddedStream) Close() { s.s.Close() }
