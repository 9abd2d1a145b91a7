// Package server serves Flink's SQL Gateway REST API (versions v1 to v4,
// as Flink 1.16–1.20 define them) over a Sluice catalog and job manager:
// clients open sessions, submit statements as operations and fetch their
// results through tokens. Jobs belong to the job manager and outlive the
// sessions that started them.
//
// The published specification is Flink's
// docs/static/generated/rest_v{1,2,3,4}_sql_gateway.yml (kept in
// testdata/flink, where the conformance test reads them);
// the JSON the generated schemas leave vague (results, errors) follows
// Flink's serializers (FetchResultsResponseBodySerializer,
// ResultInfoSerializer, LogicalTypeJsonSerializer) and its handlers'
// error responses (AbstractHandler).
package server

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/httpguard"
)

// DefaultMaxContentLength is the largest request body accepted unless
// Options say otherwise: Flink's rest.server.max-content-length default.
const DefaultMaxContentLength = 104857600

// Options configure a Server.
type Options struct {
	// Token, when set, must come with every request as
	// "Authorization: Bearer TOKEN".
	Token string
	// MaxContentLength bounds request bodies (DefaultMaxContentLength
	// when 0).
	MaxContentLength int64
	// MaxStatementLength bounds the text of a statement, in bytes
	// (DefaultMaxStatementLength when 0).
	MaxStatementLength int
	// SessionIdleTimeout closes a session not accessed for that long
	// (DefaultSessionIdleTimeout when 0; never when negative).
	SessionIdleTimeout time.Duration
	// SessionCheckInterval is how often idle sessions are looked for
	// (DefaultSessionCheckInterval when 0; never when negative, though an
	// idle session is still closed when it is next accessed).
	SessionCheckInterval time.Duration
	// MaxSessions bounds the number of open sessions
	// (DefaultMaxSessions when 0).
	MaxSessions int
	// Now is the clock idleness is measured by (time.Now when nil).
	Now func() time.Time
}

// Server is the SQL Gateway endpoint: an http.Handler.
type Server struct {
	catalog *sluice.Catalog
	jobs    *sluice.JobManager
	opts    Options
	mux     *http.ServeMux

	guard *httpguard.Guard
	now   func() time.Time
	done  chan struct{} // closed by Close

	mu       sync.Mutex
	sessions map[string]*session
	closed   bool
}

// versions are the REST API versions served, as /api_versions names them.
var versions = []string{"V1", "V2", "V3", "V4"}

// New returns a server whose sessions share catalog and jobs.
func New(catalog *sluice.Catalog, jobs *sluice.JobManager, opts Options) *Server {
	opts = opts.withDefaults()
	s := &Server{catalog: catalog, jobs: jobs, opts: opts, mux: http.NewServeMux(), sessions: map[string]*session{},
		guard: httpguard.New("application/json"), now: opts.Now, done: make(chan struct{})}
	if s.now == nil {
		s.now = time.Now
	}
	for _, e := range endpoints(s) {
		for v := e.from; v <= e.to; v++ {
			s.handle(e.method+" /v"+fmt.Sprint(v)+e.path, e.handler)
		}
	}
	s.routeJobs()
	s.routeMetrics()
	s.routeDashboard()
	s.mux.HandleFunc("/", s.notFound)
	if opts.SessionIdleTimeout > 0 && opts.SessionCheckInterval > 0 {
		go s.expireIdle(opts.SessionCheckInterval)
	}
	return s
}

// endpoint is one operation of Flink's specification: served (or refused
// by name) under the versions from..to.
type endpoint struct {
	method, path string
	from, to     int
	handler      func(*http.Request) (any, error)
}

// endpoints are the operations of Flink's rest_v{1,2,3,4}_sql_gateway.yml.
func endpoints(s *Server) []endpoint {
	const session = "/sessions/{session_handle}"
	const operation = session + "/operations/{operation_handle}"
	return []endpoint{
		{"GET", "/info", 1, 4, s.info},
		{"GET", "/api_versions", 1, 4, s.apiVersions},
		{"POST", "/sessions", 1, 4, s.openSession},
		{"GET", session, 1, 4, s.getSessionConfig},
		{"DELETE", session, 1, 4, s.closeSession},
		{"POST", session + "/heartbeat", 1, 4, s.heartbeat},
		{"POST", session + "/statements", 1, 4, s.executeStatement},
		{"GET", operation + "/status", 1, 4, s.operationStatus},
		{"POST", operation + "/cancel", 1, 4, s.cancelOperation},
		{"DELETE", operation + "/close", 1, 4, s.closeOperation},
		{"GET", operation + "/result/{token}", 1, 4, s.fetchResults},
		{"POST", session + "/configure-session", 2, 4, s.configureSession},
		{"GET", session + "/complete-statement", 2, 4, s.completeStatement},
		{"POST", session + "/materialized-tables/{identifier}/refresh", 3, 3, refused(refusedRefresh)},
		{"POST", session + "/scripts", 4, 4, refused(refusedScripts)},
	}
}

// handle registers a handler that answers with a JSON body or an error;
// a handler that panics answers 500 in Flink's error shape, and the panic
// is logged with its stack.
func (s *Server) handle(pattern string, h func(*http.Request) (any, error)) {
	s.handleStatus(pattern, http.StatusOK, h)
}

// handleStatus registers a handler that answers with a JSON body and
// status, or an error.
func (s *Server) handleStatus(pattern string, status int, h func(*http.Request) (any, error)) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				slog.Error(fmt.Sprintf("REST %s %s: panic: %v\n%s", r.Method, r.URL.Path, p, debug.Stack()))
				writeError(w, fmt.Errorf("%s %s failed: %v", r.Method, r.URL.Path, p))
			}
		}()
		body, err := h(r)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, status, body)
	})
}

// ServeHTTP refuses cross-site requests, checks the token if the server
// has one (a bearer header, or the dashboard's login cookie: login.go),
// and serves the request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if refusal := s.guard.Check(r); refusal != nil {
		writeError(w, &restError{status: refusal.Status, msg: refusal.Msg})
		return
	}
	if s.opts.Token != "" {
		if s.serveLogin(w, r) {
			return
		}
		if !s.authorized(r) {
			if r.Method == http.MethodGet && r.URL.Path == "/" {
				// A browser opening the dashboard: ask for the token.
				http.Redirect(w, r, "/login", http.StatusSeeOther)
				return
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="sluice"`)
			writeError(w, &restError{status: http.StatusUnauthorized, msg: "Unauthorized: this server requires the header 'Authorization: Bearer <token>' with its token (a browser logs in at /login)"})
			return
		}
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxContentLength)
	s.mux.ServeHTTP(w, r)
}

// Close closes every session: their queries stop; jobs keep running.
func (s *Server) Close() {
	s.mu.Lock()
	sessions := s.sessions
	s.sessions = map[string]*session{}
	if !s.closed {
		s.closed = true
		close(s.done)
	}
	s.mu.Unlock()
	for _, ss := range sessions {
		ss.close()
	}
}

// restError is an error answered with a status of its own and the
// message as the only entry of "errors", as Flink's RestHandlerException.
type restError struct {
	status int
	msg    string
}

func (e *restError) Error() string { return e.msg }

// writeError answers err in Flink's ErrorResponseBody, {"errors": [...]}:
// a restError with its status and message; any other error, one of the
// service (an unknown session, a statement that failed), as Flink answers
// an exception that is not a RestHandlerException: 500 with "Internal
// server error." and the exception between Flink's markers.
func writeError(w http.ResponseWriter, err error) {
	var re *restError
	if errors.As(err, &re) {
		writeJSON(w, re.status, map[string][]string{"errors": {re.msg}})
		return
	}
	writeJSON(w, http.StatusInternalServerError, map[string][]string{"errors": {
		"Internal server error.",
		"<Exception on server side:\n" + err.Error() + "\nEnd of exception on server side>",
	}})
}

// writeJSON writes body as JSON with the status.
func writeJSON(w http.ResponseWriter, status int, body any) {
	data, err := json.Marshal(body)
	if err != nil {
		slog.Error(fmt.Sprintf("REST response: %v", err))
		status, data = http.StatusInternalServerError, []byte(`{"errors":["Internal server error."]}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// readBody decodes a request body strictly (unknown fields are errors, as
// Flink's strict object mapper has them); an empty body is {}.
func readBody(r *http.Request, into any, name string) error {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return &restError{status: http.StatusRequestEntityTooLarge,
				msg: fmt.Sprintf("Request entity too large: the body exceeds %d bytes (rest.server.max-content-length)", tooLarge.Limit)}
		}
		return &restError{status: http.StatusBadRequest, msg: "Bad request received: " + err.Error()}
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil
	}
	// Go's decoder reads a byte that is not UTF-8 as U+FFFD; Jackson, as
	// JSON requires, refuses it.
	if !utf8.Valid(data) {
		off := 0
		for {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			off += n
		}
		return &restError{status: http.StatusBadRequest, msg: fmt.Sprintf("Request did not match expected format %s: invalid UTF-8 byte 0x%02x at offset %d", name, data[off], off)}
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return &restError{status: http.StatusBadRequest, msg: fmt.Sprintf("Request did not match expected format %s: %v", name, err)}
	}
	if dec.More() {
		return &restError{status: http.StatusBadRequest, msg: fmt.Sprintf("Request did not match expected format %s: more than one JSON value", name)}
	}
	return nil
}

// uuidPattern is the form of session and operation handles.
var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// newHandle returns a random (version 4) UUID.
func newHandle() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// pathHandle reads a handle from the path; one that is not a UUID is a
// bad request, as Flink's path parameters answer.
func pathHandle(r *http.Request, name string) (string, error) {
	v := r.PathValue(name)
	if !uuidPattern.MatchString(v) {
		return "", &restError{status: http.StatusBadRequest,
			msg: fmt.Sprintf("Bad request, could not parse parameters: Cannot resolve path parameter (%s) from value \"%s\": not a UUID.", name, v)}
	}
	return strings.ToLower(v), nil
}

// session looks up the session the path names.
func (s *Server) session(r *http.Request) (*session, error) {
	id, err := pathHandle(r, "session_handle")
	if err != nil {
		return nil, err
	}
	ss, ok := s.touch(id)
	if !ok {
		return nil, fmt.Errorf("Session '%s' does not exist.", id)
	}
	return ss, nil
}

func (s *Server) info(*http.Request) (any, error) {
	return map[string]string{"productName": "Sluice", "version": version()}, nil
}

// version is the module version sluice was built as ("(devel)" from a
// working tree).
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func (s *Server) apiVersions(*http.Request) (any, error) {
	return map[string][]string{"versions": versions}, nil
}

// openSessionRequest is Flink's OpenSessionRequestBody.
type openSessionRequest struct {
	SessionName string            `json:"sessionName"`
	Properties  map[string]string `json:"properties"`
}

func (s *Server) openSession(r *http.Request) (any, error) {
	var req openSessionRequest
	if err := readBody(r, &req, "OpenSessionRequestBody"); err != nil {
		return nil, err
	}
	sess := sluice.NewSession(s.catalog, s.jobs)
	for k, v := range req.Properties {
		if err := sess.Config().Set(k, v); err != nil {
			return nil, fmt.Errorf("session property: %w", err)
		}
	}
	ss := &session{id: newHandle(), name: req.SessionName, s: sess, ops: map[string]*operation{}}
	if err := s.add(ss); err != nil {
		return nil, err
	}
	return map[string]string{"sessionHandle": ss.id}, nil
}

func (s *Server) getSessionConfig(r *http.Request) (any, error) {
	ss, err := s.session(r)
	if err != nil {
		return nil, err
	}
	props := map[string]string{}
	ss.exec.Lock()
	for _, kv := range ss.s.Config().All() {
		props[kv[0]] = sluice.MaskValue(kv[0], kv[1])
	}
	ss.exec.Unlock()
	return map[string]map[string]string{"properties": props}, nil
}

func (s *Server) closeSession(r *http.Request) (any, error) {
	ss, err := s.session(r)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	delete(s.sessions, ss.id)
	s.mu.Unlock()
	ss.close()
	return map[string]string{"status": "CLOSED"}, nil
}

func (s *Server) heartbeat(r *http.Request) (any, error) {
	if _, err := s.session(r); err != nil {
		return nil, err
	}
	return struct{}{}, nil
}

// executeStatementRequest is Flink's ExecuteStatementRequestBody.
type executeStatementRequest struct {
	Statement        *string           `json:"statement"`
	ExecutionTimeout int64             `json:"executionTimeout"`
	ExecutionConfig  map[string]string `json:"executionConfig"`
}

func (s *Server) executeStatement(r *http.Request) (any, error) {
	var req executeStatementRequest
	if err := readBody(r, &req, "ExecuteStatementRequestBody"); err != nil {
		return nil, err
	}
	timeout, err := s.checkStatement(req.Statement, req.ExecutionTimeout, "ExecuteStatementRequestBody")
	if err != nil {
		return nil, err
	}
	for k := range req.ExecutionConfig {
		if !sluice.IsSupportedSetting(k) {
			return nil, &restError{status: http.StatusBadRequest,
				msg: fmt.Sprintf("executionConfig: '%s' is not a setting Sluice supports for one statement; set it in the session (SET) instead", k)}
		}
	}
	ss, err := s.session(r)
	if err != nil {
		return nil, err
	}
	op := ss.submit(*req.Statement, req.ExecutionConfig, timeout)
	return map[string]string{"operationHandle": op.id}, nil
}

// operation looks up the session and operation the path names.
func (s *Server) operation(r *http.Request) (*session, *operation, error) {
	ss, err := s.session(r)
	if err != nil {
		return nil, nil, err
	}
	id, err := pathHandle(r, "operation_handle")
	if err != nil {
		return nil, nil, err
	}
	op, ok := ss.operation(id)
	if !ok {
		return nil, nil, fmt.Errorf("Can not find the submitted operation in the OperationManager with the %s.", id)
	}
	return ss, op, nil
}

func (s *Server) operationStatus(r *http.Request) (any, error) {
	_, op, err := s.operation(r)
	if err != nil {
		return nil, err
	}
	return map[string]string{"status": op.status()}, nil
}

func (s *Server) cancelOperation(r *http.Request) (any, error) {
	_, op, err := s.operation(r)
	if err != nil {
		return nil, err
	}
	if err := op.cancelRun(); err != nil {
		return nil, err
	}
	return map[string]string{"status": op.status()}, nil
}

func (s *Server) closeOperation(r *http.Request) (any, error) {
	ss, op, err := s.operation(r)
	if err != nil {
		return nil, err
	}
	ss.remove(op)
	op.close()
	return map[string]string{"status": op.status()}, nil
}
