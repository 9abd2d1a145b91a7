package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// acceptanceDir holds the seed tutorials' golden cases, beside the repository.
const acceptanceDir = "../../../shared/acceptance"

// binary is the sluice command built for the tests.
var binary string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "sluice-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binary = filepath.Join(dir, "sluice")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building sluice: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// result is what a run of the command printed and its exit status.
type result struct {
	stdout, stderr string
	code           int
}

// runSluice runs the built command with stdin as its input (nil: /dev/null).
func runSluice(t *testing.T, stdin io.Reader, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running sluice %s: %v", strings.Join(args, " "), err)
	}
	if ctx.Err() != nil {
		t.Fatalf("sluice %s did not finish; printed:\n%s\n%s", strings.Join(args, " "), stdout.String(), stderr.String())
	}
	return result{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
}

func TestTestCommandPasses(t *testing.T) {
	file := filepath.Join(acceptanceDir, "aggregate-count.sql")
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("the acceptance cases must sit beside the repository: %v", err)
	}
	r := runSluice(t, nil, "test", "-parallelism", "4", file)
	if r.code != 0 || r.stdout != "PASS "+file+"\n1 passed, 0 failed\n" {
		t.Errorf("exit status %d, printed:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestTestCommandFails(t *testing.T) {
	sql, err := os.ReadFile(filepath.Join(acceptanceDir, "aggregate-count.sql"))
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join(acceptanceDir, "aggregate-count.out"))
	if err != nil {
		t.Fatal(err)
	}
	// A golden file expecting five Aliens tickets cannot pass.
	const right = "| +I |                         Aliens |                    1 |"
	const wrong = "| +I |                         Aliens |                    5 |"
	if !bytes.Contains(golden, []byte(right)) {
		t.Fatalf("aggregate-count.out lacks %q", right)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.sql")
	writeFile(t, bad, string(sql))
	writeFile(t, filepath.Join(dir, "bad.out"), strings.Replace(string(golden), right, wrong, 1))
	orphan := filepath.Join(dir, "orphan.sql") // has no .out beside it
	writeFile(t, orphan, "SHOW TABLES;\n")

	r := runSluice(t, nil, "test", bad, orphan)
	if r.code != 1 {
		t.Errorf("exit status %d, want 1", r.code)
	}
	for _, want := range []string{
		"FAIL " + bad + "\n",
		"- " + wrong + "\n",
		"+ " + right + "\n",
		"FAIL " + orphan + "\n",
		"0 passed, 2 failed\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the output lacks %q; printed:\n%s", want, r.stdout)
		}
	}
	if r.stderr != "sluice: 2 of 2 tests failed\n" {
		t.Errorf("stderr: %q", r.stderr)
	}

	if r := runSluice(t, nil, "test"); r.code != 1 || !strings.Contains(r.stderr, "no SQL files given") {
		t.Errorf("sluice test without files: exit status %d, stderr %q", r.code, r.stderr)
	}
}

// freePort returns a port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSQLScript(t *testing.T) {
	kafka, registry := freePort(t), freePort(t)
	script := filepath.Join(t.TempDir(), "script.sql")
	writeFile(t, script, fmt.Sprintf(`-- a table on the embedded cluster
CREATE TABLE clicks (user_id STRING, page STRING) WITH (
    'connector' = 'kafka',
    'topic' = 'clicks',
    'properties.bootstrap.servers' = 'localhost:%d',
    'format' = 'json'
);
INSERT INTO clicks VALUES ('u1', '/home');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT page, COUNT(*) AS n FROM (VALUES ('/home'), ('/cart'), ('/home')) AS v(page) GROUP BY page;
`, kafka))
	r := runSluice(t, nil, "sql", "-kafka-port", fmt.Sprint(kafka), "-registry-port", fmt.Sprint(registry), "-f", script)
	if r.code != 0 {
		t.Fatalf("exit status %d; printed:\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := regexp.MustCompile(`^\[INFO\] Executing SQL from file\.
Sluice SQL> CREATE TABLE clicks \(user_id STRING, page STRING\) WITH \(
(.*\n){4}\);
\[INFO\] Execute statement succeed\.

Sluice SQL> INSERT INTO clicks VALUES \('u1', '/home'\);
\[INFO\] Submitting SQL update statement to the cluster\.\.\.
\[INFO\] SQL update statement has been successfully submitted to the cluster:
Job ID: [0-9a-f]{32}

Sluice SQL> SET 'sql-client.execution.result-mode' = 'tableau';
\[INFO\] Execute statement succeed\.

Sluice SQL> SELECT page, .*;
\+----\+-{32}\+-{22}\+
\| op \|                           page \|                    n \|
\+----\+-{32}\+-{22}\+
(\| [-+][IU] \| +/(home|cart) \| +[12] \|\n){4}\+----\+-{32}\+-{22}\+
Received a total of 4 rows


Shutting down the session\.\.\.
done\.
$`)
	if !want.MatchString(r.stdout) {
		t.Errorf("printed:\n%s\nwant it to match:\n%s", r.stdout, want)
	}
	if wantErr := fmt.Sprintf("Embedded Kafka broker at 127.0.0.1:%d, Schema Registry at http://127.0.0.1:%d\n", kafka, registry); strings.TrimSuffix(r.stderr, waitingForOne) != wantErr {
		t.Errorf("stderr %q, want %q", r.stderr, wantErr)
	}
}

func TestSQLScriptStopsAtFirstError(t *testing.T) {
	script := filepath.Join(t.TempDir(), "script.sql")
	writeFile(t, script, "SET 'sql-client.execution.result-mode' = 'tableau';\nSELECT nope FROM nowhere;\nSHOW TABLES;\n")
	r := runSluice(t, nil, "sql", "-kafka-port", "0", "-registry-port", "0", "-f", script)
	if r.code != 1 || !strings.HasSuffix(r.stderr, "sluice: script "+script+" failed\n") {
		t.Errorf("exit status %d, stderr %q; want 1 and the failed script", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "[INFO] Execute statement succeed.\n") ||
		!strings.Contains(r.stdout, "Sluice SQL> SELECT nope FROM nowhere;\n[ERROR] Could not execute SQL statement. Reason:\n") ||
		strings.Contains(r.stdout, "SHOW TABLES") {
		t.Errorf("printed:\n%s", r.stdout)
	}
	if r := runSluice(t, nil, "sql", "-f", filepath.Join(t.TempDir(), "missing.sql")); r.code != 1 {
		t.Errorf("a missing script: exit status %d, want 1", r.code)
	}
}

func TestSQLFromPipe(t *testing.T) {
	// Input that is not a terminal gets no prompts; the last statement may
	// lack its ';'.
	r := runSluice(t, strings.NewReader("SET 'parallelism.default' = '2';\nSHOW TABLES"), "sql", "-kafka-port", "0", "-registry-port", "0")
	want := "[INFO] Execute statement succeed.\n\nEmpty set\n\n\nShutting down the session...\ndone.\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("exit status %d, printed %q; want 0 and %q", r.code, r.stdout, want)
	}
	// Input from /dev/null gets no prompts either.
	r = runSluice(t, nil, "sql", "-kafka-port", "0", "-registry-port", "0")
	if want := "\nShutting down the session...\ndone.\n"; r.code != 0 || r.stdout != want {
		t.Errorf("with /dev/null as input: exit status %d, printed %q; want 0 and %q", r.code, r.stdout, want)
	}
	if r := runSluice(t, nil, "sql", "script.sql"); r.code != 2 || !strings.Contains(r.stderr, `unexpected argument "script.sql"`) {
		t.Errorf("a stray argument: exit status %d, stderr %q", r.code, r.stderr)
	}
}

func TestIsTerminal(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	// /dev/null is a character device, but not a terminal.
	if isTerminal(null) {
		t.Errorf("%s is taken for a terminal", os.DevNull)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	if isTerminal(pr) {
		t.Error("a pipe is taken for a terminal")
	}
	// The controlling terminal, when the tests have one.
	if tty, err := os.Open("/dev/tty"); err == nil {
		defer tty.Close()
		if !isTerminal(tty) {
			t.Error("/dev/tty is not taken for a terminal")
		}
	}
}

// TestInitScript: -i sets the session up (DDL, SET) silently before -f
// runs; a query in the initialization file is refused and nothing runs.
func TestInitScript(t *testing.T) {
	dir := t.TempDir()
	initFile, script := filepath.Join(dir, "init.sql"), filepath.Join(dir, "script.sql")
	writeFile(t, initFile, "SET 'sql-client.execution.result-mode' = 'tableau';\n"+
		"CREATE TABLE t (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '2',\n"+
		"  'fields.a.kind' = 'sequence', 'fields.a.start' = '1', 'fields.a.end' = '2');\n")
	writeFile(t, script, "SELECT a FROM t;\n")
	r := runSluice(t, nil, "sql", "-external", "-i", initFile, "-f", script)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "[INFO] Successfully initialized from sql script: file:"+initFile+"\n") ||
		!strings.Contains(r.stdout, "| +I |           2 |\n") || !strings.Contains(r.stdout, "Received a total of 2 rows\n") {
		t.Errorf("exit status %d, printed:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	writeFile(t, initFile, "SELECT 1;\n")
	r = runSluice(t, nil, "sql", "-external", "-i", initFile, "-f", script)
	if r.code != 1 || !strings.Contains(r.stdout, "unsupported statement in the initialization file") || strings.Contains(r.stdout, "Executing SQL from file") {
		t.Errorf("exit status %d, printed:\n%s", r.code, r.stdout)
	}
}

// waitingForOne is the notice of a script that ends with one job running.
const waitingForOne = "Waiting for 1 running job(s) to finish; Ctrl-C stops them.\n"

// TestSQLScriptWaitsForJobs checks that a script's INSERT jobs run to their
// end before the process exits: every row of a bounded INSERT is in the
// topic when a second run (same -data-dir, which keeps the catalog) reads
// it back through the table the first run created.
func TestSQLScriptWaitsForJobs(t *testing.T) {
	dir := t.TempDir()
	kafka := freePort(t)
	table := fmt.Sprintf(`CREATE TABLE nums (n BIGINT) WITH (
    'connector' = 'kafka', 'topic' = 'nums', 'format' = 'json',
    'properties.bootstrap.servers' = 'localhost:%d',
    'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset');
CREATE TABLE gen (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '50000', 'rows-per-second' = '1000000',
    'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '50000');
`, kafka)
	write, read := filepath.Join(dir, "write.sql"), filepath.Join(dir, "read.sql")
	writeFile(t, write, table+"INSERT INTO nums SELECT n FROM gen;\n")
	writeFile(t, read, "SET 'sql-client.execution.result-mode' = 'tableau';\nSELECT COUNT(*) AS c, SUM(n) AS s FROM nums;\n")
	args := []string{"sql", "-data-dir", filepath.Join(dir, "data"), "-kafka-port", fmt.Sprint(kafka), "-registry-port", "0", "-f"}
	if r := runSluice(t, nil, append(args, write)...); r.code != 0 {
		t.Fatalf("writing: exit status %d; printed:\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := runSluice(t, nil, append(args, read)...)
	if r.code != 0 || !strings.Contains(r.stdout, "|                50000 |           1250025000 |\n") {
		t.Errorf("reading back: exit status %d; printed:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestSQLScriptStopsUnboundedJobOnSignal runs a script whose INSERT never
// ends: the process keeps it running until SIGTERM, then shuts down.
func TestSQLScriptStopsUnboundedJobOnSignal(t *testing.T) {
	script := filepath.Join(t.TempDir(), "script.sql")
	writeFile(t, script, "CREATE TABLE gen (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100');\n"+
		"CREATE TABLE sink (n BIGINT) WITH ('connector' = 'blackhole');\n"+
		"INSERT INTO sink SELECT n FROM gen;\n")
	cmd := exec.Command(binary, "sql", "-external", "-f", script)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil || line != waitingForOne {
		_ = cmd.Process.Kill()
		t.Fatalf("stderr %q, %v; want the waiting notice", line, err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		// 128 + 15, as Flink's client (the JVM) exits on SIGTERM.
		if code := cmd.ProcessState.ExitCode(); code != 143 || !strings.HasSuffix(stdout.String(), "Shutting down the session...\ndone.\n") {
			t.Errorf("exit status %d, want 143; printed:\n%s", code, stdout.String())
		}
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("sluice did not stop on SIGTERM")
	}
}

// TestSQLScriptReportsFailedJob: a job that failed while the script was
// still running makes the exit status non-zero, with the job and the cause.
func TestSQLScriptReportsFailedJob(t *testing.T) {
	script := filepath.Join(t.TempDir(), "script.sql")
	// The query after the INSERT takes about a second, long after the job
	// failed on its first row.
	writeFile(t, script, `CREATE TABLE words (s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '5');
CREATE TABLE bh (a INT) WITH ('connector' = 'blackhole');
INSERT INTO bh SELECT CAST(s AS INT) FROM words;
CREATE TABLE slow (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'rows-per-second' = '10');
SET 'sql-client.execution.result-mode' = 'tableau';
SELECT COUNT(*) AS c FROM slow;
`)
	r := runSluice(t, nil, "sql", "-external", "-f", script)
	want := regexp.MustCompile(`(?m)^sluice: job [0-9a-f]{32} \(insert-into_default_catalog\.default_database\.bh\) failed: Calc: cannot cast '[0-9a-f]+' to INT`)
	if r.code != 1 || !want.MatchString(r.stderr) {
		t.Errorf("exit status %d, stderr %q; want 1 and the failed job", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "|                   10 |\n") || !strings.HasSuffix(r.stdout, "Shutting down the session...\ndone.\n") {
		t.Errorf("printed:\n%s", r.stdout)
	}
}

// TestSQLScriptQueryStopsOnSignal: SIGTERM or SIGINT while a script shows
// an unbounded query stops the query, runs no further statement, closes
// the session and exits with 128 + the signal's number.
func TestSQLScriptQueryStopsOnSignal(t *testing.T) {
	for sig, code := range map[syscall.Signal]int{syscall.SIGTERM: 143, syscall.SIGINT: 130} {
		script := filepath.Join(t.TempDir(), "script.sql")
		writeFile(t, script, "CREATE TABLE gen (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '20');\n"+
			"SET 'sql-client.execution.result-mode' = 'tableau';\n"+
			"SELECT n FROM gen;\n"+
			"SHOW TABLES;\n")
		cmd := exec.Command(binary, "sql", "-external", "-f", script)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Signal once the query shows a row.
		var stdout strings.Builder
		lines := bufio.NewScanner(out)
		for lines.Scan() {
			stdout.WriteString(lines.Text() + "\n")
			if strings.HasPrefix(lines.Text(), "| +I |") {
				break
			}
		}
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		for lines.Scan() {
			stdout.WriteString(lines.Text() + "\n")
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			_ = cmd.Process.Kill()
			t.Fatalf("sluice did not stop on %v", sig)
		}
		printed := stdout.String()
		if got := cmd.ProcessState.ExitCode(); got != code || stderr.String() != "sluice: stopped by "+map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT"}[sig]+"\n" {
			t.Errorf("%v: exit status %d, stderr %q; want %d", sig, got, stderr.String(), code)
		}
		if !strings.HasSuffix(printed, "Shutting down the session...\ndone.\n") || strings.Contains(printed, "SHOW TABLES") {
			t.Errorf("%v: printed:\n%s", sig, printed)
		}
	}
}

// TestExplicitPortTaken: a -kafka-port that is taken is an error naming
// it, not a broker on another port that the tables naming the requested
// one would miss.
func TestExplicitPortTaken(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	for _, cmd := range []string{"sql", "server"} {
		args := []string{cmd, "-kafka-port", port, "-registry-port", "0"}
		if cmd == "sql" {
			args = append(args, "-f", os.DevNull)
		} else {
			args = append(args, "-port", "0")
		}
		r := runSluice(t, nil, args...)
		want := "cannot start the embedded cluster on the requested ports (-kafka-port " + port + ", -registry-port 0)"
		if r.code == 0 || !strings.Contains(r.stderr, want) {
			t.Errorf("sluice %s with a taken -kafka-port: exit %d, stderr %q; want an error containing %q", cmd, r.code, r.stderr, want)
		}
	}
}

// TestHelpAndVersion: sluice -h and sluice help list every command, exit
// 0; sluice version names the build.
func TestHelpAndVersion(t *testing.T) {
	for _, arg := range []string{"-h", "--help", "help"} {
		r := runSluice(t, nil, arg)
		for _, cmd := range []string{"sluice sql", "sluice server", "sluice test", "sluice bench", "sluice topic", "sluice version"} {
			if r.code != 0 || !strings.Contains(r.stderr, cmd) {
				t.Errorf("sluice %s: exit %d, does not list %q:\n%s", arg, r.code, cmd, r.stderr)
			}
		}
	}
	if r := runSluice(t, nil, "version"); r.code != 0 || !strings.HasPrefix(r.stdout, "sluice ") || !strings.Contains(r.stdout, "go1.") {
		t.Errorf("sluice version: exit %d, %q", r.code, r.stdout)
	}
}

// TestHelpCommand: sluice help COMMAND prints that command's flags, as
// COMMAND -h does (go help's convention); an unknown command is an error.
func TestHelpCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "sql"}, "-endpoint"},
		{[]string{"help", "server"}, "-tls-client-ca"},
		{[]string{"help", "test"}, "-parallelism"},
		{[]string{"help", "bench"}, "-state-backend"},
		{[]string{"help", "bench", "nexmark"}, "-events"},
		{[]string{"help", "bench", "latency"}, "-source-options"},
		{[]string{"help", "topic"}, "sluice topic consume NAME"},
	} {
		r := runSluice(t, nil, c.args...)
		if r.code != 0 || !strings.Contains(r.stderr, c.want) || strings.Contains(r.stderr, "sluice version") {
			t.Errorf("sluice %s: exit %d, want only its flags, with %q:\n%s", strings.Join(c.args, " "), r.code, c.want, r.stderr)
		}
	}
	if r := runSluice(t, nil, "help", "nosuch"); r.code != 2 || !strings.Contains(r.stderr, `unknown command "nosuch"`) {
		t.Errorf("sluice help nosuch: exit %d, %q; want exit 2 naming the command", r.code, r.stderr)
	}
}

// TestUsageNamesEveryFlag: the list sluice -h prints names every flag of
// the commands it shows with their flags.
func TestUsageNamesEveryFlag(t *testing.T) {
	r := runSluice(t, nil, "-h")
	for _, cmd := range [][]string{{"test"}, {"bench"}, {"bench", "nexmark"}, {"bench", "latency"}} {
		h := runSluice(t, nil, append(cmd, "-h")...)
		for _, line := range strings.Split(h.stderr, "\n") {
			f, ok := strings.CutPrefix(line, "  -") // flag.PrintDefaults: "  -name type"
			if !ok {
				continue
			}
			flag := "-" + strings.Fields(f)[0]
			if !strings.Contains(r.stderr, flag+" ") && !strings.Contains(r.stderr, flag+"]") && !strings.Contains(r.stderr, flag+"=") {
				t.Errorf("sluice -h does not name the flag %s of sluice %s", flag, strings.Join(cmd, " "))
			}
		}
	}
}
