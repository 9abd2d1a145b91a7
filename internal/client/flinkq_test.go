package client

import (
	"bufio"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/devcluster"
)

// The scripts of testdata/flinkq are Flink's SQL client test scripts
// (flink-table/flink-sql-client/src/test/resources/sql/*.q, run by
// Flink's CliClientITCase), in their format: a statement ending with ';',
// the output the client prints for it, and a line !ok, !info or !error.
// A statement is checked as Flink's output has it unless a comment line
// "# sluice: KIND: why" right before it says otherwise; KIND is
//
//   - adapted: the statement or its output had to change for Sluice (a
//     connector Sluice has instead of a test connector of Flink's, a
//     path); the output is what Flink prints for the adapted statement;
//   - refused: Sluice refuses the statement, saying "... is not
//     supported"; the output is Sluice's refusal;
//   - differs: Sluice answers otherwise, for the reason given; the output
//     is Sluice's.
//
// As in Flink's scripts, $VAR_NAME stands for a value of the test's run:
// $VAR_BOOTSTRAP_SERVERS for the address of an embedded Kafka cluster,
// started for the scripts that name it.
//
// Expected errors are compared as Flink's script runner compares them:
// ignoring how spaces and line ends fall, and here also the Java class of
// the exception, which Sluice has none of.
//
// When Sluice's own answers change (a refusal's or an EXPLAIN's text),
// `go test ./internal/client -run TestFlinkClientScripts -update-flinkq`
// writes them into the scripts; a statement answered as in Flink, or
// adapted, keeps Flink's output and fails until Sluice prints it again.

// updateFlinkq rewrites the expected output of the statements marked
// refused or differs with what Sluice prints; those as in Flink and the
// adapted ones keep Flink's output, and still fail when they differ.
var updateFlinkq = flag.Bool("update-flinkq", false, "rewrite Sluice's own answers (refused, differs) in testdata/flinkq")

// qCase is one statement of a script with what it should print.
type qCase struct {
	line      int    // of the statement's first line
	outLines  [2]int // the lines of its output, the first and the one of its !kind
	stmt      string // the statement, with its ';'
	want      string // the output expected
	kind      string // ok, info or error
	deviation string // adapted, refused, differs, or "" (as Flink)
	why       string
}

// readQ reads a script of testdata/flinkq.
func readQ(t *testing.T, path string) []qCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		cases     []qCase
		cur       *qCase
		stmt, out []string
		deviation string
		why       string
		inOutput  bool
	)
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case inOutput:
			if kind, ok := strings.CutPrefix(line, "!"); ok && (kind == "ok" || kind == "info" || kind == "error") {
				cur.want, cur.kind = strings.Join(out, "\n"), kind
				cur.outLines[1] = n
				cases = append(cases, *cur)
				cur, stmt, out, inOutput, deviation, why = nil, nil, nil, false, "", ""
				continue
			}
			out = append(out, line)
		case len(stmt) == 0 && strings.HasPrefix(line, "#"):
			if d, ok := strings.CutPrefix(line, "# sluice: "); ok {
				kind, reason, _ := strings.Cut(d, ":")
				if kind != "adapted" && kind != "refused" && kind != "differs" {
					t.Fatalf("%s:%d: unknown deviation %q", path, n, kind)
				}
				deviation, why = kind, strings.TrimSpace(reason)
			}
		case len(stmt) == 0 && strings.TrimSpace(line) == "":
		default:
			if len(stmt) == 0 {
				cur = &qCase{line: n, deviation: deviation, why: why}
			}
			stmt = append(stmt, line)
			if strings.HasSuffix(strings.TrimSpace(line), ";") {
				cur.stmt = strings.Join(stmt, "\n")
				cur.outLines[0] = n + 1
				inOutput = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Fatalf("%s:%d: a statement without its expected output", path, cur.line)
	}
	return cases
}

// scriptVars gives the values of the $VAR_ names the cases use.
func scriptVars(t *testing.T, cases []qCase) *strings.Replacer {
	t.Helper()
	for _, qc := range cases {
		if strings.Contains(qc.stmt, "$VAR_BOOTSTRAP_SERVERS") {
			cluster, err := devcluster.Start(devcluster.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(cluster.Close)
			return strings.NewReplacer("$VAR_BOOTSTRAP_SERVERS", cluster.BootstrapServers())
		}
	}
	return strings.NewReplacer()
}

// javaException is the class name Flink's client prints before an
// error's message.
var javaException = regexp.MustCompile(`(?m)^(?:[a-z][a-z0-9_]*\.)+[A-Za-z$]+(?:Exception|Error): `)

// sluicePosition is how Sluice frames an error at a position: a prefix
// naming it, and the statement's line with a caret under it.
var sluicePosition = regexp.MustCompile(`(?s)SQL (?:parse|validation) error at line \d+, column \d+: (.*?)\n  [^\n]*\n *\^$`)

// sameError compares an error's output as Flink's script runner does;
// want may be Flink's message, without Sluice's framing of its position.
func sameError(got, want string) bool {
	norm := func(s string) string { return strings.Join(strings.Fields(javaException.ReplaceAllString(s, "")), " ") }
	return norm(got) == norm(want) || norm(sluicePosition.ReplaceAllString(got, "$1")) == norm(want)
}

// TestFlinkClientScripts runs the scripts of testdata/flinkq through the
// client on an embedded engine, statement by statement, and checks each
// prints what Flink's script expects (or, where the script says so,
// Sluice's refusal or answer). It reports how many statements behave as
// in Flink, are refused, or differ.
func TestFlinkClientScripts(t *testing.T) {
	paths, err := filepath.Glob("testdata/flinkq/*.q")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	counts := map[string]int{}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			cases := readQ(t, path)
			vars := scriptVars(t, cases)
			e := sluice.NewEngine()
			defer e.Close()
			out := newOutput()
			c := &Client{Backend: &Embedded{Engine: e}, Out: out}
			answers := map[int]string{} // by the line of the case, Sluice's own answers
			for _, qc := range cases {
				before, _ := out.snapshot()
				c.Execute(context.Background(), vars.Replace(qc.stmt))
				all, _ := out.snapshot()
				got := strings.TrimRight(strings.TrimPrefix(all, before), "\n")
				want := strings.TrimRight(vars.Replace(qc.want), "\n")
				ok := got == want
				if qc.kind == "error" {
					ok = sameError(got, want)
				}
				if !ok && *updateFlinkq && (qc.deviation == "refused" || qc.deviation == "differs") {
					answers[qc.line], ok = got, true
				}
				if !ok {
					t.Errorf("%s:%d: %s\nprinted:\n%s\nwant:\n%s", path, qc.line, qc.stmt, got, want)
				}
				switch qc.deviation {
				case "refused":
					if !strings.Contains(got, "is not supported") && !strings.Contains(got, "are not supported") {
						t.Errorf("%s:%d: marked refused, but the error does not say what is not supported:\n%s", path, qc.line, got)
					}
					counts["refused"]++
				case "":
					counts["as in Flink"]++
				default:
					counts[qc.deviation]++
				}
			}
			if len(answers) > 0 {
				rewriteAnswers(t, path, cases, answers)
			}
		})
	}
	t.Logf("statements of Flink's client scripts: %d as in Flink, %d adapted, %d refused, %d differ",
		counts["as in Flink"], counts["adapted"], counts["refused"], counts["differs"])
}

// rewriteAnswers writes a script again with the given outputs of its
// cases, each followed by the !kind its first line calls for.
func rewriteAnswers(t *testing.T, path string, cases []qCase, answers map[int]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	// From the last case up, so that the line numbers of those above hold.
	for i := len(cases) - 1; i >= 0; i-- {
		qc := cases[i]
		got, ok := answers[qc.line]
		if !ok {
			continue
		}
		kind := "ok"
		switch {
		case strings.HasPrefix(got, "[ERROR]"):
			kind = "error"
		case strings.HasPrefix(got, "[INFO]"), strings.HasPrefix(got, "[WARNING]"):
			kind = "info"
		}
		out := append(strings.Split(got, "\n"), "!"+kind)
		if got == "" {
			out = out[1:]
		}
		first, last := qc.outLines[0]-1, qc.outLines[1]-1 // 0-based: the output's first line, the !kind line
		lines = append(lines[:first], append(out, lines[last+1:]...)...)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}
