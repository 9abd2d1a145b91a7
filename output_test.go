package sluice

import (
	"bytes"
	"testing"
)

// TestSessionsPrintToTheirOwnOutput: the 'print' connector writes through
// the output of the session that started the job, so that two sessions of
// one process (sluice server's, or the interactive client's and another)
// each get their own rows; a session without one prints to its job
// manager's.
func TestSessionsPrintToTheirOwnOutput(t *testing.T) {
	c, jobs := NewCatalog(), NewJobManager()
	t.Cleanup(jobs.Close)
	var managerOut, out1, err1, out2 bytes.Buffer
	jobs.SetOutput(&managerOut, &managerOut)
	s1, s2, s3 := NewSession(c, jobs), NewSession(c, jobs), NewSession(c, jobs)
	s1.SetOutput(&out1, &err1)
	s2.SetOutput(&out2, &out2)
	execute(t, s1, `
CREATE TABLE g (n INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3',
    'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '3');
CREATE TABLE o (n INT) WITH ('connector' = 'print', 'print-identifier' = 'o');
CREATE TABLE e (n INT) WITH ('connector' = 'print', 'standard-error' = 'true')`)
	execute(t, s1, "INSERT INTO o SELECT n FROM g WHERE n = 1; INSERT INTO e SELECT n FROM g WHERE n = 2")
	execute(t, s2, "INSERT INTO o SELECT n FROM g WHERE n = 3")
	execute(t, s3, "INSERT INTO e SELECT n FROM g WHERE n < 3")
	if err := jobs.WaitJobs(testContext(t)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want string
	}{
		{"session 1's output", out1.String(), "o> +I[1]\n"},
		{"session 1's error output", err1.String(), "+I[2]\n"},
		{"session 2's output", out2.String(), "o> +I[3]\n"},
		{"the job manager's output", managerOut.String(), "+I[1]\n+I[2]\n"},
	} {
		if c.got != c.want {
			t.Errorf("%s holds %q, want %q", c.name, c.got, c.want)
		}
	}
}
