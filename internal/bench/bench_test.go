package bench

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/checkpoint"
)

// TestRun runs the whole harness on a small data set: every pipeline must
// report a measurement and a CPU profile, the INSERT pipelines with
// checkpoints too, and Run fails when a pipeline's result is wrong.
func TestRun(t *testing.T) {
	for _, tc := range []struct {
		format       string
		parallelism  int
		pipelines    []string
		stateBackend string
	}{
		{formatAvro, 1, nil, ""},
		{formatJSON, 2, []string{"scan-count", "filter-project", "group-agg", "group-agg-wide", "tumble-window"}, ""},
		{formatJSON, 2, []string{"scan-count", "filter-project", "group-agg", "group-agg-wide", "tumble-window"}, "rocksdb"},
	} {
		t.Run(tc.format+tc.stateBackend, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			const n = 2000
			profile := filepath.Join(t.TempDir(), "cpu.prof")
			rep, err := Run(ctx, Config{Records: n, Parallelism: tc.parallelism, Format: tc.format, Rounds: 2, Pipelines: tc.pipelines,
				CheckpointIntervals: []time.Duration{10 * time.Millisecond}, CPUProfile: profile,
				StateBackend: tc.stateBackend, Incremental: tc.stateBackend != ""})
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
			inserts := []string{"filter-project", "group-agg", "tumble-window"}
			if tc.pipelines != nil {
				outputs["group-agg-wide"] = n // one change per input row too
				inserts = append(inserts, "group-agg-wide")
			}
			for _, p := range inserts {
				outputs[p+"+chk10ms"] = outputs[p]
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
				if chk := r.Pipeline + "+chk10ms"; r.Name != r.Pipeline && (r.Name != chk || r.Interval != 10*time.Millisecond) {
					t.Errorf("%s: pipeline %s, interval %v", r.Name, r.Pipeline, r.Interval)
				}
			}
			var out strings.Builder
			if err := rep.Print(&out); err != nil {
				t.Fatal(err)
			}
			// The title, a blank line, the header and a line per measurement,
			// then a blank line, the title of the checkpoint table, a blank
			// line, its header and a line per checkpointed measurement.
			if lines := strings.Count(out.String(), "\n"); lines != 3+1+len(outputs)+4+len(inserts) {
				t.Errorf("report has %d lines:\n%s", lines, out.String())
			}
		})
	}
}

// TestRunRefuses checks that a configuration Run cannot honour is refused
// before anything runs.
func TestRunRefuses(t *testing.T) {
	ok := Config{Records: 1, Parallelism: 1, Format: formatAvro, Rounds: 1}
	for _, tc := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Pipelines = []string{"group-agg", "join"} }, `unknown pipeline "join"`},
		{func(c *Config) { c.CheckpointIntervals = []time.Duration{time.Second, 0} }, "must be positive"},
		{func(c *Config) { c.CheckpointIntervals = []time.Duration{time.Second, time.Second} }, "distinct"},
		{func(c *Config) { c.Format = "csv" }, `unknown format "csv"`},
	} {
		cfg := ok
		tc.change(&cfg)
		if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want an error with %q", cfg, err, tc.want)
		}
	}
}

// TestMeasurements checks that every INSERT pipeline is measured at every
// checkpoint interval right after its run without checkpoints, and that a
// query is not (its results are not checkpointed).
func TestMeasurements(t *testing.T) {
	ps := new(env).selected([]string{"scan-count", "group-agg"})
	var got []string
	for _, m := range measurements(ps, []time.Duration{10 * time.Second, 100 * time.Millisecond}) {
		got = append(got, m.name())
	}
	want := []string{"scan-count", "group-agg", "group-agg+chk10s", "group-agg+chk100ms"}
	if !slices.Equal(got, want) {
		t.Errorf("measurements %v, want %v", got, want)
	}
	var defaults []string
	for _, p := range new(env).selected(nil) {
		defaults = append(defaults, p.name)
	}
	if want := []string{"scan-count", "filter-project", "group-agg", "tumble-window"}; !slices.Equal(defaults, want) {
		t.Errorf("measured by default: %v, want %v", defaults, want)
	}
}

// TestCheckpointStats checks the count and size of checkpoints read from a
// directory written by the checkpoint storage: the largest checkpoint's
// state is reported, not the newest one's, and a newest checkpoint that
// does not read back is an error.
func TestCheckpointStats(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := checkpoint.NewDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n, size, err := checkpointStats(ctx, dir, "job"); n != 0 || size != 0 || err != nil {
		t.Errorf("no checkpoint: %d checkpoints of up to %d B, %v", n, size, err)
	}
	// Checkpoint 2 wrote the most: 3*20 B of parts, their names, and the
	// shared file a; checkpoint 3 wrote b (7 B), not a, 2's already.
	shared := map[string][]byte{"a": []byte("aaaaa"), "b": []byte("bbbbbbb")}
	for name, data := range shared {
		if err := store.WriteShared(ctx, "job", name, data); err != nil {
			t.Fatal(err)
		}
	}
	refers := map[int64][]string{2: {"a"}, 3: {"a", "b"}}
	for id, parts := range map[int64][]string{1: {"source-0", "agg-0"}, 2: {"source-0", "agg-0", "agg-1"}, 3: {"source-0"}} {
		meta := &checkpoint.Metadata{Job: "job", ID: id, Parts: map[string]checkpoint.Part{}, Shared: map[string]checkpoint.Part{}}
		for _, name := range refers[id] {
			meta.Shared[name] = checkpoint.PartOf(shared[name])
		}
		for _, part := range parts {
			data := []byte(strings.Repeat("x", 10*int(id)) + part)
			if err := store.WriteState(ctx, "job", id, part, data); err != nil {
				t.Fatal(err)
			}
			meta.Parts[part] = checkpoint.PartOf(data)
		}
		if err := store.Complete(ctx, meta); err != nil {
			t.Fatal(err)
		}
	}
	n, size, err := checkpointStats(ctx, dir, "job")
	if want := int64(3*20 + len("source-0agg-0agg-1") + 5); n != 3 || size != want || err != nil {
		t.Errorf("got %d checkpoints of up to %d B (%v), want 3 of up to %d B", n, size, err, want)
	}
	meta, err := store.Metadata(ctx, "job", 3)
	if err != nil {
		t.Fatal(err)
	}
	meta.Parts["agg-0"] = checkpoint.PartOf([]byte("lost"))
	if err := store.Complete(ctx, meta); err != nil {
		t.Fatal(err)
	}
	if _, _, err := checkpointStats(ctx, dir, "job"); err == nil {
		t.Error("a newest checkpoint that does not read back was taken as intact")
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
	var bySec totals
	seconds := bySecond(n)
	for _, v := range seconds {
		bySec.count += v.count
		bySec.sum += v.sum
	}
	if byTitle.count != n || byTitle != byWindow || byTitle != bySec || len(e.byTitle) != len(titles) {
		t.Errorf("per title %+v over %d titles, per window %+v, per second %+v", byTitle, len(e.byTitle), byWindow, bySec)
	}
	// A second holds 100 sales: a title sells in it with probability
	// 1-(49/50)^100, 0.867, so 2.3 sales to a group on average.
	if g := float64(n) / float64(len(seconds)); g < 2.2 || g > 2.4 {
		t.Errorf("%d groups per title and second: %.2f sales each", len(seconds), g)
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
