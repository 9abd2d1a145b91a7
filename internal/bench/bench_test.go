package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRun runs the whole harness on a small data set: every pipeline must
// report a measurement and a CPU profile, and Run fails when a pipeline's
// result is wrong.
func TestRun(t *testing.T) {
	for _, tc := range []struct {
		format      string
		parallelism int
	}{{formatAvro, 1}, {formatJSON, 2}} {
		t.Run(tc.format, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			const n = 2000
			profile := filepath.Join(t.TempDir(), "cpu.prof")
			rep, err := Run(ctx, Config{Records: n, Parallelism: tc.parallelism, Format: tc.format, Rounds: 2, CPUProfile: profile})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range append(rep.Pipelines, rep.Baseline) {
				if st, err := os.Stat(profilePath(profile, r.Name)); err != nil || st.Size() == 0 {
					t.Errorf("%s: no CPU profile: %v", r.Name, err)
				}
			}
			want := expect(n)
			outputs := map[string]int64{
				"scan-count":     1,
				"filter-project": want.big.count,
				"group-agg":      n, // one change per input row, the -U rows left out
				"tumble-window":  int64(len(want.byWindow)),
			}
			if len(rep.Pipelines) != len(outputs) {
				t.Fatalf("%d pipelines measured, want %d", len(rep.Pipelines), len(outputs))
			}
			for _, r := range append(rep.Pipelines, rep.Baseline) {
				if r.Records != n || r.Throughput() <= 0 || r.AllocBytes == 0 {
					t.Errorf("%s: %+v", r.Name, r)
				}
			}
			for _, r := range rep.Pipelines {
				if w, ok := outputs[r.Name]; !ok || r.Output != w {
					t.Errorf("%s: %d rows out, want %d", r.Name, r.Output, w)
				}
			}
			var out strings.Builder
			if err := rep.Print(&out); err != nil {
				t.Fatal(err)
			}
			if lines := strings.Count(out.String(), "\n"); lines != 3+1+len(outputs) {
				t.Errorf("report has %d lines:\n%s", lines, out.String())
			}
		})
	}
}

// TestExpect checks the data set's expectations against each other.
func TestExpect(t *testing.T) {
	const n = 50_000
	e := expect(n)
	var byTitle, byWindow totals
	for _, v := range e.byTitle {
		byTitle.count += v.count
		byTitle.sum += v.sum
	}
	for _, v := range e.byWindow {
		byWindow.count += v.count
		byWindow.sum += v.sum
	}
	if byTitle.count != n || byTitle != byWindow || len(e.byTitle) != len(titles) {
		t.Errorf("per title %+v over %d titles, per window %+v", byTitle, len(e.byTitle), byWindow)
	}
	if e.big.count == 0 || e.big.count == n || e.big.sum <= 2*bigTicket*e.big.count {
		t.Errorf("sales above %d: %+v", bigTicket, e.big)
	}
}

func TestCompare(t *testing.T) {
	want := map[string]totals{"a": {1, 2}, "b": {3, 4}}
	for _, got := range []map[string]totals{
		{"a": {1, 2}},
		{"a": {1, 2}, "b": {3, 5}},
		{"a": {1, 2}, "b": {3, 4}, "c": {0, 0}},
	} {
		if compare(got, want) == nil {
			t.Errorf("compare(%v, %v) found no difference", got, want)
		}
	}
	if err := compare(want, want); err != nil {
		t.Error(err)
	}
}
