package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice"
)

// TestExecutionTimeout: an operation still waiting when its
// executionTimeout passes ends TIMEOUT, does not run, and has no results.
func TestExecutionTimeout(t *testing.T) {
	jobs := sluice.NewJobManager()
	defer jobs.Close()
	cat := sluice.NewCatalog()
	ss := &session{id: newHandle(), s: sluice.NewSession(cat, jobs), ops: map[string]*operation{}}
	defer ss.close()
	ss.exec.Lock() // a statement before it is still running
	op := ss.submit("CREATE TABLE t (a INT) WITH ('connector' = 'datagen')", nil, time.Millisecond)
	deadline := time.Now().Add(time.Minute)
	for op.status() != statusTimeout {
		if time.Now().After(deadline) {
			ss.exec.Unlock()
			t.Fatalf("status %s a minute after a timeout of 1 ms", op.status())
		}
		time.Sleep(time.Millisecond)
	}
	ss.exec.Unlock()
	for {
		ss.mu.Lock()
		n := len(ss.queue)
		ss.mu.Unlock()
		if n == 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if got := op.status(); got != statusTimeout {
		t.Errorf("status %s after the queue ran", got)
	}
	if res, err := sluice.NewSession(cat, sluice.NewJobManager()).Execute(context.Background(), "SHOW TABLES"); err != nil || len(res[0].Rows) != 0 {
		t.Errorf("the timed-out statement ran: SHOW TABLES gives %v, %v", res, err)
	}
	_, err := op.fetch(0, "JSON", func(int64) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "Can not fetch results from the TIMEOUT operation") {
		t.Errorf("fetch: %v", err)
	}
}

// TestHandlerPanic: a handler that panics answers 500 in Flink's error
// shape instead of dropping the connection.
func TestHandlerPanic(t *testing.T) {
	s := New(sluice.NewCatalog(), sluice.NewJobManager(), Options{})
	defer s.Close()
	s.handle("GET /v1/boom", func(*http.Request) (any, error) { panic("boom") })
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/v1/boom", nil))
	if w.Code != 500 || !strings.Contains(w.Body.String(), `"Internal server error."`) || !strings.Contains(w.Body.String(), "GET /v1/boom failed: boom") {
		t.Errorf("%d %s", w.Code, w.Body)
	}
}
