package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// Gateway runs statements in a session of a SQL Gateway (sluice server,
// or Flink's SQL Gateway) over its REST API, version v2, as Flink's SQL
// client does in gateway mode (sql-client.sh gateway --endpoint). Jobs
// run on the server and outlive the client.
//
// Results are fetched in the PLAIN_TEXT row format, every value as the
// SQL client prints it, so that the client prints exactly what the
// embedded one does; the columns' types (Flink's LogicalType JSON) give
// the widths of the streaming views.
type Gateway struct {
	endpoint string
	token    string
	http     *http.Client
	session  string

	stop    chan struct{} // closed by Close: the heartbeats stop
	stopped sync.WaitGroup
	closing sync.Once
}

// heartbeatInterval is how often an open session tells the server it is
// in use, well within Flink's sql-gateway.session.idle-timeout (10 min).
const heartbeatInterval = time.Minute

// Polling of a result that has no new rows: the first pause, doubled up
// to the longest.
const (
	firstPoll = 5 * time.Millisecond
	maxPoll   = 100 * time.Millisecond
)

// requestTimeout bounds the requests made after the caller's context has
// ended (closing an operation, the session).
const requestTimeout = 10 * time.Second

// OpenGateway opens a session on the SQL Gateway at endpoint
// ("http://host:port", "https://...", or "host:port"), sending token as
// a bearer token when it is not empty, over TLS with tlsConfig for an
// https endpoint (nil: the system's roots, no client certificate).
func OpenGateway(ctx context.Context, endpoint, token string, tlsConfig *tls.Config) (*Gateway, error) {
	if !strings.Contains(endpoint, "://") {
		endpoint = "http://" + endpoint
	}
	hc := &http.Client{}
	if tlsConfig != nil {
		if !strings.HasPrefix(endpoint, "https://") {
			return nil, fmt.Errorf("the TLS settings are for an https endpoint, not %s", endpoint)
		}
		transport := http.DefaultTransport.(*http.Transport).Clone()
		transport.TLSClientConfig = tlsConfig
		hc.Transport = transport
	}
	g := &Gateway{endpoint: strings.TrimRight(endpoint, "/"), token: token, http: hc, stop: make(chan struct{})}
	var versions struct {
		Versions []string `json:"versions"`
	}
	if err := g.call(ctx, "GET", "/v1/api_versions", nil, &versions); err != nil {
		return nil, err
	}
	if !slices.Contains(versions.Versions, "V2") {
		return nil, fmt.Errorf("the SQL gateway at %s serves REST API versions %s; this client needs V2", g.endpoint, strings.Join(versions.Versions, ", "))
	}
	var opened struct {
		SessionHandle string `json:"sessionHandle"`
	}
	body := map[string]any{"sessionName": "sluice-sql", "properties": map[string]string{}}
	if err := g.call(ctx, "POST", "/v2/sessions", body, &opened); err != nil {
		return nil, err
	}
	if opened.SessionHandle == "" {
		return nil, fmt.Errorf("the SQL gateway at %s opened a session without a handle", g.endpoint)
	}
	g.session = opened.SessionHandle
	g.stopped.Add(1)
	go g.heartbeats()
	return g, nil
}

// Endpoint returns the URL of the gateway.
func (g *Gateway) Endpoint() string { return g.endpoint }

// Close closes the session; its queries stop, its jobs keep running.
// Closing again does nothing.
func (g *Gateway) Close() error {
	var err error
	g.closing.Do(func() {
		close(g.stop)
		g.stopped.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		err = g.call(ctx, "DELETE", g.sessionPath(), nil, nil)
	})
	return err
}

// heartbeats keeps the session alive until Close.
func (g *Gateway) heartbeats() {
	defer g.stopped.Done()
	t := time.NewTicker(heartbeatInterval)
	defer t.Stop()
	for {
		select {
		case <-g.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
			// A session that is gone shows at the next statement.
			_ = g.call(ctx, "POST", g.sessionPath()+"/heartbeat", nil, nil)
			cancel()
		}
	}
}

func (g *Gateway) sessionPath() string { return "/v2/sessions/" + g.session }

// Settings returns the session's settings (GET /sessions/:session).
func (g *Gateway) Settings(ctx context.Context) (map[string]string, error) {
	var conf struct {
		Properties map[string]string `json:"properties"`
	}
	if err := g.call(ctx, "GET", g.sessionPath(), nil, &conf); err != nil {
		return nil, err
	}
	return conf.Properties, nil
}

// Complete asks the gateway for the completions of a word of a statement
// (GET /sessions/:session/complete-statement).
func (g *Gateway) Complete(ctx context.Context, statement string, position int) ([]string, error) {
	var out struct {
		Candidates []string `json:"candidates"`
	}
	body := map[string]any{"statement": statement, "position": position}
	if err := g.call(ctx, "GET", g.sessionPath()+"/complete-statement", body, &out); err != nil {
		return nil, err
	}
	return out.Candidates, nil
}

// fetchResponse is Flink's FetchResultsResponseBody.
type fetchResponse struct {
	ResultType    string `json:"resultType"`
	IsQueryResult bool   `json:"isQueryResult"`
	JobID         string `json:"jobID"`
	ResultKind    string `json:"resultKind"`
	Results       struct {
		Columns []struct {
			Name        string      `json:"name"`
			LogicalType logicalType `json:"logicalType"`
		} `json:"columns"`
		Data []struct {
			Kind   string `json:"kind"`
			Fields []any  `json:"fields"`
		} `json:"data"`
	} `json:"results"`
	NextResultURI string `json:"nextResultUri"`
}

// Execute submits the statement as an operation of the session and
// fetches its result: a query's as a stream, any other's whole.
func (g *Gateway) Execute(ctx context.Context, st ast.Statement, src string) (*Result, error) {
	var submitted struct {
		OperationHandle string `json:"operationHandle"`
	}
	if err := g.call(ctx, "POST", g.sessionPath()+"/statements", map[string]string{"statement": src}, &submitted); err != nil {
		return nil, err
	}
	if submitted.OperationHandle == "" {
		return nil, fmt.Errorf("the SQL gateway at %s took the statement without an operation handle", g.endpoint)
	}
	op := &operation{g: g, path: g.sessionPath() + "/operations/" + submitted.OperationHandle}
	op.next = op.path + "/result/0?rowFormat=PLAIN_TEXT"
	first, err := op.fetchReady(ctx)
	if err != nil {
		op.close(ctx.Err() != nil)
		return nil, err
	}
	if _, query := st.(*ast.QueryStatement); query {
		s, err := newGatewayStream(op, first)
		if err != nil {
			op.close(false)
			return nil, err
		}
		return &Result{Kind: sluice.ResultStream, Stream: s}, nil
	}
	defer func() { op.close(ctx.Err() != nil) }()
	return op.staticResult(ctx, first)
}

// operation is one statement's operation and where its results go on.
type operation struct {
	g    *Gateway
	path string // .../operations/:operation
	next string // the URI of the next result; "" after EOS
	wait time.Duration
}

// fetch fetches the next result once. A request that fails leaves next
// unchanged: fetching the same token again gives the same batch, so none
// is lost.
func (op *operation) fetch(ctx context.Context) (*fetchResponse, error) {
	var r fetchResponse
	if err := op.g.call(ctx, "GET", op.next, nil, &r); err != nil {
		return nil, statementError(err)
	}
	switch r.ResultType {
	case "EOS":
		op.next = ""
	case "PAYLOAD", "NOT_READY":
		if r.NextResultURI == "" {
			return nil, fmt.Errorf("the SQL gateway at %s sent a %s result without nextResultUri", op.g.endpoint, r.ResultType)
		}
		op.next = r.NextResultURI
	default:
		return nil, fmt.Errorf("the SQL gateway at %s sent a result of the unknown type %q", op.g.endpoint, r.ResultType)
	}
	return &r, nil
}

// fetchReady fetches until the operation has a result (not NOT_READY).
// If ctx ends first, the operation is canceled.
func (op *operation) fetchReady(ctx context.Context) (*fetchResponse, error) {
	for {
		r, err := op.fetch(ctx)
		if err != nil {
			return nil, err
		}
		if r.ResultType != "NOT_READY" {
			op.wait = 0
			return r, nil
		}
		if err := op.pause(ctx); err != nil {
			return nil, err
		}
	}
}

// pause waits before the next poll, longer each time in a row.
func (op *operation) pause(ctx context.Context) error {
	op.wait = min(max(2*op.wait, firstPoll), maxPoll)
	t := time.NewTimer(op.wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// close closes the operation (a query stops); canceled cancels it first,
// as a statement interrupted before it finished is.
func (op *operation) close(canceled bool) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	if canceled {
		_ = op.g.call(ctx, "POST", op.path+"/cancel", nil, nil)
	}
	_ = op.g.call(ctx, "DELETE", op.path+"/close", nil, nil)
}

// staticResult reads a statement's result to its end and describes it as
// the embedded engine does: SUCCESS is a statement that only changed the
// session; a column "job id" names the jobs an INSERT started, a column
// "result" holds text (EXPLAIN, SHOW CREATE TABLE); anything else is a
// table.
func (op *operation) staticResult(ctx context.Context, r *fetchResponse) (*Result, error) {
	// The kind is the first response's: Flink's EOS says
	// SUCCESS_WITH_CONTENT whatever the statement was.
	kind := r.ResultKind
	var header []string
	for _, c := range r.Results.Columns {
		header = append(header, c.Name)
	}
	var rows [][]string
	for {
		for _, d := range r.Results.Data {
			row := make([]string, len(d.Fields))
			for i, f := range d.Fields {
				switch v := f.(type) {
				case nil: // Flink prints NULL in statement results as ""
				case string:
					row[i] = v
				default:
					return nil, fmt.Errorf("the SQL gateway at %s sent a PLAIN_TEXT field that is no string: %v", op.g.endpoint, f)
				}
			}
			rows = append(rows, row)
		}
		if op.next == "" {
			break
		}
		var err error
		if r, err = op.fetchReady(ctx); err != nil {
			return nil, err
		}
	}
	switch {
	case kind == "SUCCESS":
		return &Result{Kind: sluice.ResultOK}, nil
	case len(header) == 1 && header[0] == "job id" && len(rows) == 1:
		return &Result{Kind: sluice.ResultJob, JobID: rows[0][0]}, nil
	case len(header) == 1 && header[0] == "result" && len(rows) == 1:
		return &Result{Kind: sluice.ResultText, Text: rows[0][0]}, nil
	}
	return &Result{Kind: sluice.ResultTable, Headers: header, Rows: rows}, nil
}

// gatewayStream is a query's result fetched through its tokens.
type gatewayStream struct {
	op      *operation
	schema  types.Schema
	pending []Change // changes of the first response
}

// newGatewayStream starts reading a query's result from its first
// response, whose columns give the schema.
func newGatewayStream(op *operation, first *fetchResponse) (*gatewayStream, error) {
	s := &gatewayStream{op: op}
	for _, c := range first.Results.Columns {
		t, err := c.LogicalType.toType()
		if err != nil {
			return nil, fmt.Errorf("column '%s': %w", c.Name, err)
		}
		s.schema = append(s.schema, types.Field{Name: c.Name, Type: t})
	}
	var err error
	s.pending, err = s.changes(first)
	return s, err
}

func (s *gatewayStream) Schema() types.Schema { return s.schema }

func (s *gatewayStream) Next(ctx context.Context) ([]Change, bool, error) {
	for {
		if len(s.pending) > 0 {
			out := s.pending
			s.pending = nil
			return out, true, nil
		}
		if s.op.next == "" {
			return nil, false, nil
		}
		r, err := s.op.fetch(ctx)
		if err != nil {
			return nil, false, err
		}
		if s.pending, err = s.changes(r); err != nil {
			return nil, false, err
		}
		if len(s.pending) == 0 && s.op.next != "" {
			if err := s.op.pause(ctx); err != nil {
				return nil, false, err
			}
		} else {
			s.op.wait = 0
		}
	}
}

func (s *gatewayStream) Close() { s.op.close(false) }

// rowKinds are Flink's RowKind names.
var rowKinds = map[string]types.RowKind{
	"INSERT": types.Insert, "UPDATE_BEFORE": types.UpdateBefore, "UPDATE_AFTER": types.UpdateAfter, "DELETE": types.Delete,
}

// changes returns the rows of a response, NULL printed as the client
// prints it.
func (s *gatewayStream) changes(r *fetchResponse) ([]Change, error) {
	out := make([]Change, 0, len(r.Results.Data))
	for _, d := range r.Results.Data {
		kind, ok := rowKinds[d.Kind]
		if !ok {
			return nil, fmt.Errorf("the SQL gateway at %s sent a row of the unknown kind %q", s.op.g.endpoint, d.Kind)
		}
		if len(d.Fields) != len(s.schema) {
			return nil, fmt.Errorf("the SQL gateway at %s sent a row of %d fields for %d columns", s.op.g.endpoint, len(d.Fields), len(s.schema))
		}
		cells := make([]string, len(d.Fields))
		for i, f := range d.Fields {
			switch v := f.(type) {
			case nil:
				cells[i] = types.NullText
			case string:
				cells[i] = v
			default:
				return nil, fmt.Errorf("the SQL gateway at %s sent a PLAIN_TEXT field that is no string: %v", s.op.g.endpoint, f)
			}
		}
		out = append(out, Change{Kind: kind, Cells: cells})
	}
	return out, nil
}

// logicalType is a column's type as Flink's LogicalTypeJsonSerializer
// writes it; only what the views' widths depend on is read.
type logicalType struct {
	Type      string `json:"type"`
	Nullable  *bool  `json:"nullable"`
	Length    int    `json:"length"`
	Precision int    `json:"precision"`
	Scale     int    `json:"scale"`
}

// typeRoots are the LogicalTypeRoot names the client can show.
var typeRoots = map[string]types.Kind{
	"NULL": types.Null, "BOOLEAN": types.Boolean, "TINYINT": types.TinyInt, "SMALLINT": types.SmallInt,
	"INTEGER": types.Int, "BIGINT": types.BigInt, "FLOAT": types.Float, "DOUBLE": types.Double,
	"DECIMAL": types.Decimal, "CHAR": types.Char, "VARCHAR": types.Varchar, "BINARY": types.Binary,
	"VARBINARY": types.Varbinary, "DATE": types.Date, "TIME_WITHOUT_TIME_ZONE": types.Time,
	"TIMESTAMP_WITHOUT_TIME_ZONE": types.Timestamp, "TIMESTAMP_WITH_LOCAL_TIME_ZONE": types.TimestampLTZ,
	"INTERVAL_DAY_TIME": types.IntervalDayTime, "INTERVAL_YEAR_MONTH": types.IntervalYearMonth,
}

// toType returns the type; one of a root Sluice does not know is refused
// by name.
func (t logicalType) toType() (types.Type, error) {
	switch t.Type {
	case "ARRAY", "MAP", "MULTISET", "ROW":
		// Their values come printed; like a STRING they take the maximum
		// column width (TableauStyle.columnWidthsByType).
		return types.StringType.WithNotNull(t.Nullable != nil && !*t.Nullable), nil
	}
	kind, ok := typeRoots[t.Type]
	if !ok {
		return types.Type{}, fmt.Errorf("the type %q cannot be shown by this client", t.Type)
	}
	return types.Type{Kind: kind, NotNull: t.Nullable != nil && !*t.Nullable, Length: t.Length, Precision: t.Precision, Scale: t.Scale}, nil
}

// gatewayError is an error response of the gateway: its HTTP status and
// the service's message.
type gatewayError struct {
	endpoint string
	status   int
	msg      string
}

func (e *gatewayError) Error() string {
	return fmt.Sprintf("the SQL gateway at %s answered %d: %s", e.endpoint, e.status, e.msg)
}

// failedFetch is how the gateway words the error of a statement that
// failed, or of a query that failed while its result was fetched, ahead
// of the statement's own error.
var failedFetch = regexp.MustCompile(`^Failed to fetchResults: (the operation [0-9a-fA-F-]+ failed: )?`)

// statementError returns the statement's own error, as the embedded
// engine gives it, when err is the gateway's answer to fetching the
// result of a statement that failed; any other error as it is.
func statementError(err error) error {
	var ge *gatewayError
	if errors.As(err, &ge) && failedFetch.MatchString(ge.msg) {
		return errors.New(failedFetch.ReplaceAllString(ge.msg, ""))
	}
	return err
}

// call sends a request with a JSON body (none if nil) and decodes the
// answer into out (unless nil). An error answer is a gatewayError with
// the service's message; an endpoint that cannot be reached is an error
// naming it.
func (g *Gateway) call(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, g.endpoint+path, rd)
	if err != nil {
		return fmt.Errorf("the SQL gateway at %s: %w", g.endpoint, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if g.token != "" {
		req.Header.Set("Authorization", "Bearer "+g.token)
	}
	resp, err := g.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("cannot reach the SQL gateway at %s: %w", g.endpoint, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("the SQL gateway at %s: %s %s: %w", g.endpoint, method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return &gatewayError{endpoint: g.endpoint, status: resp.StatusCode, msg: errorMessage(data)}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("the SQL gateway at %s answered %s %s with JSON this client cannot read: %w", g.endpoint, method, path, err)
	}
	return nil
}

// errorMessage is the message of Flink's ErrorResponseBody: the
// exception between "<Exception on server side:" and its end marker if
// there is one, else the errors joined.
func errorMessage(body []byte) string {
	var r struct {
		Errors []string `json:"errors"`
	}
	if err := json.Unmarshal(body, &r); err != nil || len(r.Errors) == 0 {
		return strings.TrimSpace(string(body))
	}
	for _, e := range r.Errors {
		if m, ok := strings.CutPrefix(e, "<Exception on server side:\n"); ok {
			return strings.TrimSuffix(m, "\nEnd of exception on server side>")
		}
	}
	return strings.Join(r.Errors, "; ")
}
