package sluice

import (
	"io"
	"sync"
)

// output is where the jobs of a session or job manager print (the 'print'
// connector's rows): nil writers are the process's standard output and
// error, as a Flink TaskManager's print sinks write to its .out file.
type output struct{ stdout, stderr io.Writer }

// newOutput returns the output over stdout and stderr, which may be the
// same writer: one lock keeps each Write whole, whatever writes
// concurrently to either.
func newOutput(stdout, stderr io.Writer) *output {
	mu := &sync.Mutex{}
	return &output{stdout: &lockedWriter{mu: mu, w: stdout}, stderr: &lockedWriter{mu: mu, w: stderr}}
}

// lockedWriter is a writer whose Writes hold a lock.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// SetOutput makes the jobs the job manager recovers, and those of sessions
// that set no output of their own, print to stdout and stderr rather than
// the process's standard output and error. Jobs started before keep
// theirs.
func (m *JobManager) SetOutput(stdout, stderr io.Writer) {
	o := newOutput(stdout, stderr)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.out = o
}

// output returns the job manager's output.
func (m *JobManager) output() *output {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.out == nil {
		return &output{}
	}
	return m.out
}

// SetOutput makes the jobs the session starts from now on print to stdout
// and stderr (the interactive client's terminal) instead of its job
// manager's output. Jobs started before keep theirs. Not safe to call
// while the session runs a statement.
func (e *Session) SetOutput(stdout, stderr io.Writer) { e.out = newOutput(stdout, stderr) }

// output returns where the session's jobs print.
func (e *Session) output() *output {
	if e.out != nil {
		return e.out
	}
	return e.jobs.output()
}

// SetOutput makes the engine's jobs print to stdout and stderr, those its
// session starts and those it recovers alike.
func (e *Engine) SetOutput(stdout, stderr io.Writer) {
	e.jobs.SetOutput(stdout, stderr)
	e.Session.SetOutput(stdout, stderr)
}
