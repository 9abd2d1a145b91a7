// Package server serves Flink's SQL Gateway REST API (versions v1 and v2,
// as Flink 1.16–1.20 define them) over a Sluice catalog and job manager:
// clients open sessions, submit statements as operations and fetch their
// results through tokens. Jobs belong to the job manager and outlive the
// sessions that started them.
//
// The published specification is Flink's
// docs/static/generated/rest_v1_sql_gateway.yml and rest_v2_sql_gateway.yml;
// the JSON the generated schemas leave vague (results, errors) follows
// Flink's serializers (FetchResultsResponseBodySerializer,
// ResultInfoSerializer, LogicalTypeJsonSerializer) and its handlers'
// error responses (AbstractHandler).
package server

import (
	"crypto/rand"
	"crypto/subtle"
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

	"github.com/sluicesql/sluice"
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
}

// Server is the SQL Gateway endpoint: an http.Handler.
type Server struct {
	catalog *sluice.Catalog
	jobs    *sluice.JobManager
	opts    Options
	mux     *http.ServeMux

	mu       sync.Mutex
	sessions map[string]*session
}

// versions are the REST API versions served, as /api_versions names them.
var versions = []string{"V1", "V2"}

// New returns a server whose sessions share catalog and jobs.
func New(catalog *sluice.Catalog, jobs *sluice.JobManager, opts Options) *Server {
	if opts.MaxContentLength <= 0 {
		opts.MaxContentLength = DefaultMaxContentLength
	}
	s := &Server{catalog: catalog, jobs: jobs, opts: opts, mux: http.NewServeMux(), sessions: map[string]*session{}}
	for _, v := range versions {
		p := "/" + strings.ToLower(v)
		s.handle("GET "+p+"/info", s.info)
		s.handle("GET "+p+"/api_versions", s.apiVersions)
		s.handle("POST "+p+"/sessions", s.openSession)
		s.handle("GET "+p+"/sessions/{session_handle}", s.getSessionConfig)
		s.handle("DELETE "+p+"/sessions/{session_handle}", s.closeSession)
		s.handle("POST "+p+"/sessions/{session_handle}/heartbeat", s.heartbeat)
		s.handle("POST "+p+"/sessions/{session_handle}/statements", s.executeStatement)
		s.handle("GET "+p+"/sessions/{session_handle}/operations/{operation_handle}/status", s.operationStatus)
		s.handle("POST "+p+"/sessions/{session_handle}/operations/{operation_handle}/cancel", s.cancelOperation)
		s.handle("DELETE "+p+"/sessions/{session_handle}/operations/{operation_handle}/close", s.closeOperation)
		s.handle("GET "+p+"/sessions/{session_handle}/operations/{operation_handle}/result/{token}", s.fetchResults)
	}
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		// Flink's router answers an unknown path (or method) so.
		writeError(w, &restError{status: http.StatusNotFound, msg: "Not found: " + r.URL.Path})
	})
	return s
}

// handle registers a handler that answers with a JSON body or an error.
func (s *Server) handle(pattern string, h func(*http.Request) (any, error)) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		body, err := h(r)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, body)
	})
}

// ServeHTTP checks the bearer token, if the server has one, and serves
// the request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.Token != "" {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sluice"`)
			writeError(w, &restError{status: http.StatusUnauthorized, msg: "Unauthorized: this server requires the header 'Authorization: Bearer <token>' with its token"})
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
	s.mu.Lock()
	ss, ok := s.sessions[id]
	s.mu.Unlock()
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
	s.mu.Lock()
	s.sessions[ss.id] = ss
	s.mu.Unlock()
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
		props[kv[0]] = kv[1]
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
	if req.Statement == nil {
		return nil, &restError{status: http.StatusBadRequest, msg: "Request did not match expected format ExecuteStatementRequestBody: the field 'statement' is missing"}
	}
	if req.ExecutionTimeout != 0 {
		return nil, &restError{status: http.StatusBadRequest, msg: "'executionTimeout' is not supported yet: leave it out or 0"}
	}
	if len(req.ExecutionConfig) > 0 {
		return nil, &restError{status: http.StatusBadRequest, msg: "'executionConfig' is not supported yet: set options in the session (SET or the session's properties)"}
	}
	ss, err := s.session(r)
	if err != nil {
		return nil, err
	}
	op := ss.submit(*req.Statement)
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
