package server

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/sql/parser"
	"github.com/sluicesql/sluice/internal/types"
)

// session is one client's session: its statements run one at a time, in
// the order they were submitted, as operations it keeps until they are
// closed.
type session struct {
	id, name string
	s        *sluice.Session
	// exec is held while a statement runs or the settings are read.
	exec sync.Mutex

	mu     sync.Mutex
	ops    map[string]*operation
	queue  []*operation // submitted, not yet run
	closed bool

	// last is when the session was last accessed (guarded by Server.mu).
	last time.Time
}

// Operation statuses, Flink's OperationStatus.
const (
	statusPending  = "PENDING"
	statusRunning  = "RUNNING"
	statusFinished = "FINISHED"
	statusCanceled = "CANCELED"
	statusClosed   = "CLOSED"
	statusError    = "ERROR"
	statusTimeout  = "TIMEOUT"
)

// operation is one statement of a session and its result.
type operation struct {
	id     string
	text   string
	ctx    context.Context
	cancel context.CancelFunc
	// settings are the statement's own (executionConfig), over the
	// session's.
	settings map[string]string
	timer    *time.Timer // of executionTimeout

	mu     sync.Mutex
	state  string
	err    error   // why it failed (ERROR)
	result *result // what it gave (FINISHED)
	// Fetching, as Flink's ResultFetcher: token is the next batch's;
	// prev is the last batch, fetched again with token-1.
	token int64
	prev  []change
	eos   bool
}

// result is what a statement gave: a static table or a query's stream.
type result struct {
	columns []types.Field
	kind    string // SUCCESS or SUCCESS_WITH_CONTENT
	isQuery bool
	jobID   string
	rows    []change // a static table's rows not fetched yet
	stream  *sluice.Stream
	zone    *time.Location // the session's time zone when it ran
}

// change is one row of a result with its kind.
type change struct {
	kind types.RowKind
	row  types.Row
}

// submit queues a statement as a new operation and returns it at once;
// settings apply to it alone, and one not finished after timeout (if
// positive) times out.
func (ss *session) submit(text string, settings map[string]string, timeout time.Duration) *operation {
	ctx, cancel := context.WithCancel(context.Background())
	op := &operation{id: newHandle(), text: text, ctx: ctx, cancel: cancel, state: statusPending, settings: settings}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		cancel()
		op.state = statusClosed
		return op
	}
	if timeout > 0 {
		op.timer = time.AfterFunc(timeout, op.timeOut)
	}
	ss.ops[op.id] = op
	ss.queue = append(ss.queue, op)
	if len(ss.queue) == 1 {
		go ss.runQueue()
	}
	return op
}

// runQueue runs the queued operations in order until none is left.
func (ss *session) runQueue() {
	for {
		ss.mu.Lock()
		if len(ss.queue) == 0 {
			ss.mu.Unlock()
			return
		}
		op := ss.queue[0]
		ss.mu.Unlock()
		ss.exec.Lock()
		op.run(ss.s)
		ss.exec.Unlock()
		ss.mu.Lock()
		ss.queue = ss.queue[1:]
		ss.mu.Unlock()
	}
}

// operation returns the operation with the given handle.
func (ss *session) operation(id string) (*operation, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	op, ok := ss.ops[id]
	return op, ok
}

// remove forgets an operation.
func (ss *session) remove(op *operation) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	delete(ss.ops, op.id)
}

// close closes every operation of the session (their queries stop; the
// jobs they started keep running).
func (ss *session) close() {
	ss.mu.Lock()
	ss.closed = true
	ops := ss.ops
	ss.ops = map[string]*operation{}
	ss.mu.Unlock()
	for _, op := range ops {
		op.close()
	}
}

// run runs the operation's statement in s, unless it was canceled or
// closed while it waited.
func (op *operation) run(s *sluice.Session) {
	op.mu.Lock()
	if op.state != statusPending {
		op.mu.Unlock()
		return
	}
	op.state = statusRunning
	op.mu.Unlock()

	var res *sluice.Result
	var err error
	if op.settings != nil {
		s, err = s.WithSettings(op.settings)
	}
	if err == nil {
		res, err = execute(op.ctx, s, op.text)
	}
	op.mu.Lock()
	if op.state != statusRunning { // canceled or closed meanwhile
		op.mu.Unlock()
		if res != nil && res.Stream != nil {
			res.Stream.Close()
		}
		return
	}
	defer op.mu.Unlock()
	if err != nil {
		op.state, op.err = statusError, err
		return
	}
	op.state, op.result = statusFinished, newResult(res, s.Config().TimeZone())
}

// execute runs a text holding one statement (a final semicolon is
// optional), as Flink's gateway takes one statement per request.
func execute(ctx context.Context, s *sluice.Session, text string) (*sluice.Result, error) {
	stmts, err := parser.ParseScript(text)
	if err != nil {
		return nil, err
	}
	switch len(stmts) {
	case 0:
		return nil, fmt.Errorf("the request holds no statement")
	case 1:
	default:
		return nil, fmt.Errorf("Only single statement is supported now: the request holds %d statements", len(stmts))
	}
	return s.ExecuteStatement(ctx, stmts[0], text)
}

// newResult describes a statement's result as Flink's gateway shows it:
// a statement that only changed the session is one row "OK" in a column
// "result"; an INSERT the ID of its job in a column "job id"; text in a
// column "result".
func newResult(res *sluice.Result, zone *time.Location) *result {
	str := func(names ...string) []types.Field {
		out := make([]types.Field, len(names))
		for i, n := range names {
			out[i] = types.Field{Name: n, Type: types.StringType}
		}
		return out
	}
	row := func(values ...string) change {
		r := make(types.Row, len(values))
		for i, v := range values {
			r[i] = types.Value{S: v}
		}
		return change{kind: types.Insert, row: r}
	}
	r := &result{kind: "SUCCESS_WITH_CONTENT", zone: zone}
	switch res.Kind {
	case sluice.ResultOK:
		r.kind, r.columns, r.rows = "SUCCESS", str("result"), []change{row("OK")}
	case sluice.ResultTable:
		r.columns = str(res.Headers...)
		for _, values := range res.Rows {
			r.rows = append(r.rows, row(values...))
		}
	case sluice.ResultText:
		r.columns, r.rows = str("result"), []change{row(res.Text)}
	case sluice.ResultJob:
		r.columns, r.rows, r.jobID = str("job id"), []change{row(res.JobID)}, res.JobID
	case sluice.ResultStream:
		r.columns, r.isQuery, r.stream = res.Stream.Schema, true, res.Stream
	}
	return r
}

// status returns the operation's status.
func (op *operation) status() string {
	op.mu.Lock()
	defer op.mu.Unlock()
	return op.state
}

// cancelRun cancels an operation that has not finished, as Flink's
// Operation.cancel does; one that has is an error.
func (op *operation) cancelRun() error {
	op.mu.Lock()
	defer op.mu.Unlock()
	switch op.state {
	case statusPending, statusRunning:
		op.state = statusCanceled
		op.cancel()
		return nil
	}
	return fmt.Errorf("Failed to convert the Operation Status from %s to %s for %s.", op.state, statusCanceled, op.id)
}

// close closes the operation and stops its query.
func (op *operation) close() {
	op.mu.Lock()
	op.state = statusClosed
	if op.timer != nil {
		op.timer.Stop()
	}
	var stream *sluice.Stream
	if op.result != nil {
		stream, op.result.stream = op.result.stream, nil
	}
	op.mu.Unlock()
	op.cancel()
	if stream != nil {
		stream.Close()
	}
}

// fetchResponse is Flink's FetchResultsResponseBody as its serializer
// writes it: resultType always; isQueryResult, jobID, resultKind and
// results unless NOT_READY; nextResultUri unless the result has ended.
type fetchResponse struct {
	ResultType    string      `json:"resultType"`
	IsQueryResult *bool       `json:"isQueryResult,omitempty"`
	JobID         string      `json:"jobID,omitempty"`
	ResultKind    string      `json:"resultKind,omitempty"`
	Results       *resultInfo `json:"results,omitempty"`
	NextResultURI string      `json:"nextResultUri,omitempty"`
}

// resultInfo is Flink's ResultInfo as ResultInfoSerializer writes it.
type resultInfo struct {
	Columns   []columnInfo `json:"columns"`
	RowFormat string       `json:"rowFormat"`
	Data      []rowData    `json:"data"`
}

// columnInfo is Flink's ColumnInfo.
type columnInfo struct {
	Name        string      `json:"name"`
	LogicalType logicalType `json:"logicalType"`
	Comment     *string     `json:"comment"`
}

// rowData is one row: its kind (INSERT, UPDATE_BEFORE, UPDATE_AFTER,
// DELETE) and its fields.
type rowData struct {
	Kind   string `json:"kind"`
	Fields []any  `json:"fields"`
}

// rowKinds are Flink's RowKind names.
var rowKinds = map[types.RowKind]string{
	types.Insert: "INSERT", types.UpdateBefore: "UPDATE_BEFORE", types.UpdateAfter: "UPDATE_AFTER", types.Delete: "DELETE",
}

// fetch returns the batch of results that token names, as Flink's
// ResultFetcher does: the current token takes the next batch (everything
// there is now, possibly nothing while a query waits for rows), the one
// before it gives the last batch again, any other is an error. next
// builds the URI of a token.
func (op *operation) fetch(token int64, format string, next func(int64) string) (*fetchResponse, error) {
	op.mu.Lock()
	defer op.mu.Unlock()
	switch op.state {
	case statusPending, statusRunning:
		return &fetchResponse{ResultType: "NOT_READY", NextResultURI: next(token)}, nil
	case statusError:
		return nil, fmt.Errorf("Failed to fetchResults: the operation %s failed: %w", op.id, op.err)
	case statusCanceled, statusClosed, statusTimeout:
		return nil, fmt.Errorf("Can not fetch results from the %s operation %s.", op.state, op.id)
	}
	r := op.result
	switch {
	case token == op.token:
		if op.eos {
			return op.response("EOS", nil, format, ""), nil
		}
		batch, ended, err := r.take()
		switch {
		case err != nil && r.isQuery && op.token == 0:
			// A query's first batch gives its columns even when it
			// failed at once, so that a client can show them before
			// the failure, which the next fetch gives.
			batch, ended = nil, false
		case err != nil:
			return nil, fmt.Errorf("Failed to fetchResults: %w", err)
		}
		if len(batch) == 0 && ended {
			op.eos = true
			return op.response("EOS", nil, format, ""), nil
		}
		op.token++
		op.prev = batch
		return op.response("PAYLOAD", batch, format, next(op.token)), nil
	case token == op.token-1 && token >= 0:
		return op.response("PAYLOAD", op.prev, format, next(op.token)), nil
	case op.token == 0:
		return nil, fmt.Errorf("Expecting token to be 0, but found %d.", token)
	}
	return nil, fmt.Errorf("Expecting token to be %d or %d, but found %d.", op.token, op.token-1, token)
}

// take returns the rows there are now and whether the result has ended.
func (r *result) take() ([]change, bool, error) {
	if r.stream == nil {
		rows := r.rows
		r.rows = nil
		return rows, len(rows) == 0, nil
	}
	drained := r.stream.Drain()
	if len(drained) == 0 {
		if err := r.stream.Err(); err != nil {
			return nil, false, err
		}
		// Rows that came between Drain and Ended are taken now.
		if !r.stream.Ended() {
			return nil, false, nil
		}
		drained = r.stream.Drain()
		if len(drained) == 0 {
			return nil, true, nil
		}
	}
	out := make([]change, len(drained))
	for i, c := range drained {
		out[i] = change{kind: c.Kind, row: c.Row}
	}
	return out, false, nil
}

// response builds a PAYLOAD or EOS response. An EOS carries no job ID and
// isQueryResult false, as Flink's ResultFetcher.buildEOSResultSet leaves
// them.
func (op *operation) response(kind string, batch []change, format, nextURI string) *fetchResponse {
	r := op.result
	isQuery := r.isQuery && kind == "PAYLOAD"
	resp := &fetchResponse{ResultType: kind, IsQueryResult: &isQuery, ResultKind: r.kind, NextResultURI: nextURI,
		Results: &resultInfo{RowFormat: format, Columns: make([]columnInfo, len(r.columns)), Data: make([]rowData, len(batch))}}
	if kind == "PAYLOAD" {
		resp.JobID = r.jobID
	} else {
		resp.ResultKind = "SUCCESS_WITH_CONTENT"
	}
	for i, f := range r.columns {
		resp.Results.Columns[i] = columnInfo{Name: f.Name, LogicalType: toLogicalType(f.Type)}
	}
	for i, c := range batch {
		fields := make([]any, len(c.row))
		for j, v := range c.row {
			t := r.columns[j].Type
			if format == "PLAIN_TEXT" {
				fields[j] = plainText(t, v, r.zone)
			} else {
				fields[j] = jsonValue(t, v, r.zone)
			}
		}
		resp.Results.Data[i] = rowData{Kind: rowKinds[c.kind], Fields: fields}
	}
	return resp
}

// fetchResults serves GET .../operations/:operation_handle/result/:token,
// with rowFormat JSON (the default) or PLAIN_TEXT.
func (s *Server) fetchResults(r *http.Request) (any, error) {
	token, err := strconv.ParseInt(r.PathValue("token"), 10, 64)
	if err != nil {
		return nil, &restError{status: http.StatusBadRequest,
			msg: fmt.Sprintf("Bad request, could not parse parameters: Cannot resolve path parameter (token) from value \"%s\": not an integer.", r.PathValue("token"))}
	}
	format := r.URL.Query().Get("rowFormat")
	switch format {
	case "":
		format = "JSON"
	case "JSON", "PLAIN_TEXT":
	default:
		return nil, &restError{status: http.StatusBadRequest,
			msg: fmt.Sprintf("Bad request, could not parse parameters: Cannot resolve query parameter (rowFormat) from value \"%s\": expected JSON or PLAIN_TEXT.", format)}
	}
	ss, op, err := s.operation(r)
	if err != nil {
		return nil, err
	}
	version := r.URL.Path[1:3] // "v1", "v2"
	next := func(t int64) string {
		uri := fmt.Sprintf("/%s/sessions/%s/operations/%s/result/%d", version, ss.id, op.id, t)
		if version != "v1" {
			uri += "?rowFormat=" + format
		}
		return uri
	}
	return op.fetch(token, format, next)
}
