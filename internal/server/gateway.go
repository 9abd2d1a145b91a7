package server

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

// Defaults of the server's options: Flink's for its SQL Gateway
// (SqlGatewayServiceConfigOptions), and Sluice's bound on a statement.
const (
	// DefaultSessionIdleTimeout is sql-gateway.session.idle-timeout's.
	DefaultSessionIdleTimeout = 10 * time.Minute
	// DefaultSessionCheckInterval is sql-gateway.session.check-interval's.
	DefaultSessionCheckInterval = time.Minute
	// DefaultMaxSessions is sql-gateway.session.max-num's.
	DefaultMaxSessions = 1000000
	// DefaultMaxStatementLength bounds a statement's text: 1 MiB.
	DefaultMaxStatementLength = 1 << 20
)

// Names of the options as Flink's configuration and sluice server's -D
// name them.
const (
	OptSessionIdleTimeout   = "sql-gateway.session.idle-timeout"
	OptSessionCheckInterval = "sql-gateway.session.check-interval"
	OptMaxSessions          = "sql-gateway.session.max-num"
	OptMaxContentLength     = "rest.server.max-content-length"
	OptMaxStatementLength   = "sluice.server.max-statement-length"
)

// Set sets an option by its Flink name: the session options, with Flink's
// syntax (a duration such as "10 min"; 0 or less turns expiry or the
// check off), rest.server.max-content-length, and Sluice's own
// sluice.server.max-statement-length. Any other key is refused by name.
func (o *Options) Set(key, value string) error {
	switch key {
	case OptSessionIdleTimeout, OptSessionCheckInterval:
		d, err := parseDuration(value)
		if err != nil {
			return fmt.Errorf("invalid value '%s' for '%s': %v", value, key, err)
		}
		if d <= 0 {
			d = -1
		}
		if key == OptSessionIdleTimeout {
			o.SessionIdleTimeout = d
		} else {
			o.SessionCheckInterval = d
		}
	case OptMaxSessions, OptMaxContentLength, OptMaxStatementLength:
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil || n < 1 || key != OptMaxContentLength && n > 1<<31-1 {
			return fmt.Errorf("invalid value '%s' for '%s': expected a positive integer", value, key)
		}
		switch key {
		case OptMaxSessions:
			o.MaxSessions = int(n)
		case OptMaxContentLength:
			o.MaxContentLength = n
		default:
			o.MaxStatementLength = int(n)
		}
	default:
		return fmt.Errorf("'%s' is not an option of sluice server; it takes %s, %s, %s, %s and %s",
			key, OptSessionIdleTimeout, OptSessionCheckInterval, OptMaxSessions, OptMaxContentLength, OptMaxStatementLength)
	}
	return nil
}

// parseDuration reads a duration in Flink's syntax, where a negative one
// (turning a check off) is allowed too.
func parseDuration(v string) (time.Duration, error) {
	if rest, ok := strings.CutPrefix(strings.TrimSpace(v), "-"); ok {
		d, err := sluice.ParseDuration(rest)
		return -d, err
	}
	return sluice.ParseDuration(v)
}

// withDefaults fills in the options left zero.
func (o Options) withDefaults() Options {
	if o.MaxContentLength <= 0 {
		o.MaxContentLength = DefaultMaxContentLength
	}
	if o.MaxStatementLength <= 0 {
		o.MaxStatementLength = DefaultMaxStatementLength
	}
	if o.SessionIdleTimeout == 0 {
		o.SessionIdleTimeout = DefaultSessionIdleTimeout
	}
	if o.SessionCheckInterval == 0 {
		o.SessionCheckInterval = DefaultSessionCheckInterval
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	return o
}

// Sessions returns the number of open sessions.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// add keeps a new session, unless there are sql-gateway.session.max-num
// already (Flink's SessionManagerImpl.checkSessionCount).
func (s *Server) add(ss *session) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.sessions) >= s.opts.MaxSessions {
		return fmt.Errorf("Failed to create session, the count of active sessions exceeds the max count: %d (%s)", s.opts.MaxSessions, OptMaxSessions)
	}
	ss.last = s.now()
	s.sessions[ss.id] = ss
	return nil
}

// touch returns the session with the handle id, accessed now; one idle for
// longer than sql-gateway.session.idle-timeout is closed instead, as the
// periodic check would have closed it, and is gone like an unknown one.
func (s *Server) touch(id string) (*session, bool) {
	now := s.now()
	s.mu.Lock()
	ss, ok := s.sessions[id]
	expired := ok && s.idle(ss, now)
	if expired {
		delete(s.sessions, id)
	} else if ok {
		ss.last = now
	}
	s.mu.Unlock()
	if expired {
		ss.close()
		return nil, false
	}
	return ss, ok
}

// idle reports whether a session has not been accessed for longer than
// the idle timeout (s.mu held).
func (s *Server) idle(ss *session, now time.Time) bool {
	return s.opts.SessionIdleTimeout > 0 && now.Sub(ss.last) > s.opts.SessionIdleTimeout
}

// expireIdle closes the idle sessions every interval until the server
// closes, as Flink's SessionManagerImpl.cleanupExpiredSessions.
func (s *Server) expireIdle(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-t.C:
		}
		now := s.now()
		var expired []*session
		s.mu.Lock()
		for id, ss := range s.sessions {
			if s.idle(ss, now) {
				delete(s.sessions, id)
				expired = append(expired, ss)
			}
		}
		s.mu.Unlock()
		for _, ss := range expired {
			ss.close()
		}
	}
}

// notFound answers a request no endpoint takes: 405 with the methods
// the path takes, if it is an endpoint's; 404 otherwise, as Flink's
// router does.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	var allowed []string
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
		if m == r.Method {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "/" {
			allowed = append(allowed, m)
		}
	}
	if len(allowed) > 0 {
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		writeError(w, &restError{status: http.StatusMethodNotAllowed,
			msg: fmt.Sprintf("Method not allowed: %s %s (it takes %s)", r.Method, r.URL.Path, strings.Join(allowed, ", "))})
		return
	}
	writeError(w, &restError{status: http.StatusNotFound, msg: "Not found: " + r.URL.Path})
}

// Endpoints of Flink's specification that Sluice refuses, and why.
const (
	refusedRefresh = "refreshing a materialized table (POST .../materialized-tables/:identifier/refresh) is not supported: Sluice has no materialized tables"
	refusedScripts = "deploying a script in application mode (POST .../scripts) is not supported: Sluice runs no Flink clusters; submit the script's statements to .../statements one by one"
)

// refused returns a handler that refuses an endpoint of the specification
// by name: 501 with Flink's error shape.
func refused(why string) func(*http.Request) (any, error) {
	return func(*http.Request) (any, error) {
		return nil, &restError{status: http.StatusNotImplemented, msg: "Not implemented: " + why}
	}
}

// checkStatement checks a request's statement and executionTimeout
// (milliseconds), and returns the timeout.
func (s *Server) checkStatement(stmt *string, timeoutMs int64, body string) (time.Duration, error) {
	if stmt == nil {
		return 0, &restError{status: http.StatusBadRequest, msg: fmt.Sprintf("Request did not match expected format %s: the field 'statement' is missing", body)}
	}
	if n := len(*stmt); n > s.opts.MaxStatementLength {
		return 0, &restError{status: http.StatusRequestEntityTooLarge,
			msg: fmt.Sprintf("Request entity too large: the statement is %d bytes, over the limit of %d bytes (%s)", n, s.opts.MaxStatementLength, OptMaxStatementLength)}
	}
	if timeoutMs < 0 || timeoutMs > int64(time.Duration(1<<63-1)/time.Millisecond) {
		return 0, &restError{status: http.StatusBadRequest, msg: fmt.Sprintf("Request did not match expected format %s: 'executionTimeout' %d is not a number of milliseconds from 0 (none) up", body, timeoutMs)}
	}
	return time.Duration(timeoutMs) * time.Millisecond, nil
}

// timeOut ends an operation that has not finished when its
// executionTimeout passes: TIMEOUT, its statement canceled, as Flink's
// Operation.timeout does.
func (op *operation) timeOut() {
	op.mu.Lock()
	defer op.mu.Unlock()
	if op.state == statusPending || op.state == statusRunning {
		op.state = statusTimeout
		op.cancel()
	}
}

// configureSessionRequest is Flink's ConfigureSessionRequestBody.
type configureSessionRequest struct {
	Statement        *string `json:"statement"`
	ExecutionTimeout int64   `json:"executionTimeout"`
}

// configureSession runs one statement that changes the session or the
// catalog, at once: Flink's configureSession, which takes SET, RESET and
// DDL (of these, Sluice has CREATE, DROP and ALTER TABLE and CREATE and
// DROP VIEW). It answers {} once the statement has run.
func (s *Server) configureSession(r *http.Request) (any, error) {
	var req configureSessionRequest
	if err := readBody(r, &req, "ConfigureSessionRequestBody"); err != nil {
		return nil, err
	}
	timeout, err := s.checkStatement(req.Statement, req.ExecutionTimeout, "ConfigureSessionRequestBody")
	if err != nil {
		return nil, err
	}
	ss, err := s.session(r)
	if err != nil {
		return nil, err
	}
	text := *req.Statement
	stmts, err := parser.ParseScript(text)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, fmt.Errorf("Only single statement is supported now: the request holds %d statements", len(stmts))
	}
	if !configures(stmts[0]) {
		p := stmts[0].Position()
		return nil, fmt.Errorf("Unsupported statement for configuring session at line %d, column %d: the configureSession API only supports SET, RESET, CREATE TABLE (without AS), DROP TABLE, ALTER TABLE, CREATE VIEW and DROP VIEW; run others through .../statements", p.Line, p.Col)
	}
	ctx := r.Context()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	ss.exec.Lock()
	defer ss.exec.Unlock()
	if _, err := ss.s.ExecuteStatement(ctx, stmts[0], text); err != nil {
		return nil, err
	}
	return struct{}{}, nil
}

// configures reports whether configureSession takes a statement.
func configures(st ast.Statement) bool {
	switch s := st.(type) {
	case *ast.Set:
		return s.HasKey
	case *ast.CreateTable:
		return s.AsQuery == nil
	case *ast.Reset, *ast.Drop, *ast.AlterTable, *ast.CreateView:
		return true
	}
	return false
}

// completeStatementRequest is Flink's CompleteStatementRequestBody.
type completeStatementRequest struct {
	Statement *string `json:"statement"`
	Position  *int32  `json:"position"`
}

// completeStatement answers {"candidates": [...]}, the completion hints
// for the word before the position (sluice.Session.Complete).
func (s *Server) completeStatement(r *http.Request) (any, error) {
	var req completeStatementRequest
	if err := readBody(r, &req, "CompleteStatementRequestBody"); err != nil {
		return nil, err
	}
	if _, err := s.checkStatement(req.Statement, 0, "CompleteStatementRequestBody"); err != nil {
		return nil, err
	}
	if req.Position == nil {
		return nil, &restError{status: http.StatusBadRequest, msg: "Request did not match expected format CompleteStatementRequestBody: the field 'position' is missing"}
	}
	ss, err := s.session(r)
	if err != nil {
		return nil, err
	}
	candidates, err := ss.s.Complete(*req.Statement, int(*req.Position))
	if err != nil {
		return nil, &restError{status: http.StatusBadRequest, msg: "Request did not match expected format CompleteStatementRequestBody: " + err.Error()}
	}
	if candidates == nil {
		candidates = []string{}
	}
	return map[string][]string{"candidates": candidates}, nil
}
