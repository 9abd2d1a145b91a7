package sqltest

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice"
)

// TestPrintSink runs INSERTs into print tables and reads what they wrote:
// Flink's Row.toString lines with the 'print-identifier' and, above
// parallelism 1, the subtask number; an updating query's changes included.
func TestPrintSink(t *testing.T) {
	for _, p := range []int{1, 4} {
		var out, errs bytes.Buffer
		e := sluice.NewEngine()
		e.SetOutput(&out, &errs)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		script := fmt.Sprintf(`
SET 'parallelism.default' = '%d';
CREATE TABLE gen (id INT, name STRING) WITH (
    'connector' = 'datagen', 'rows-per-second' = '1000000',
    'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '9',
    'fields.name.kind' = 'sequence', 'fields.name.start' = '101', 'fields.name.end' = '109');
CREATE TABLE rows_out (id INT, name STRING) WITH ('connector' = 'print', 'print-identifier' = 'rows');
CREATE TABLE counts_out (k INT, cnt BIGINT) WITH ('connector' = 'print', 'standard-error' = 'true');
INSERT INTO rows_out SELECT id, name FROM gen WHERE id <= 3;
INSERT INTO counts_out SELECT id %% 3, COUNT(*) FROM gen GROUP BY id %% 3;
`, p)
		if _, err := e.Execute(ctx, script); err != nil {
			t.Fatal(err)
		}
		if err := e.WaitQuiet(ctx); err != nil {
			t.Fatal(err)
		}
		e.Close()
		cancel()

		prefix := regexp.MustCompile(`^rows> `)
		if p > 1 {
			prefix = regexp.MustCompile(`^rows:[1-4]> `)
		}
		var rows []string
		for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			if !prefix.MatchString(l) {
				t.Errorf("parallelism %d: line %q lacks the prefix %s", p, l, prefix)
			}
			rows = append(rows, prefix.ReplaceAllString(l, ""))
		}
		slices.Sort(rows)
		if want := []string{"+I[1, 101]", "+I[2, 102]", "+I[3, 103]"}; !slices.Equal(rows, want) {
			t.Errorf("parallelism %d: printed %q, want %q", p, rows, want)
		}

		// The counts' changelog depends on how rows arrive; its last change
		// per key is the final count.
		final := map[string]string{}
		kinds := map[string]bool{}
		for _, l := range strings.Split(strings.TrimSpace(errs.String()), "\n") {
			if p > 1 {
				l = regexp.MustCompile(`^[1-4]> `).ReplaceAllString(l, "")
			}
			kind, row, ok := strings.Cut(l, "[")
			kinds[kind] = true
			if !ok {
				t.Fatalf("parallelism %d: bad line %q", p, l)
			}
			k, cnt, _ := strings.Cut(strings.TrimSuffix(row, "]"), ", ")
			if kind == "+I" || kind == "+U" {
				final[k] = cnt
			}
		}
		if want := map[string]string{"0": "3", "1": "3", "2": "3"}; fmt.Sprint(final) != fmt.Sprint(want) || !kinds["+I"] {
			t.Errorf("parallelism %d: final counts %v (kinds %v), want %v:\n%s", p, final, kinds, want, errs.String())
		}
	}
}
