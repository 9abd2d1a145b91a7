package checkpoint

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// write stores a checkpoint with the given parts and, if complete, its
// metadata.
func write(t *testing.T, s Storage, job string, id int64, parts map[string]string, complete bool) {
	t.Helper()
	ctx := context.Background()
	meta := &Metadata{Job: job, ID: id, Time: time.Unix(id, 0).UTC(), Parts: map[string]Part{}}
	for name, data := range parts {
		if err := s.WriteState(ctx, job, id, name, []byte(data)); err != nil {
			t.Fatal(err)
		}
		meta.Parts[name] = PartOf([]byte(data))
	}
	if complete {
		if err := s.Complete(ctx, meta); err != nil {
			t.Fatal(err)
		}
	}
}

func newDir(t *testing.T) (*Dir, string) {
	t.Helper()
	root := t.TempDir()
	d, err := NewDir(root)
	if err != nil {
		t.Fatal(err)
	}
	return d, root
}

func TestLatestReadsTheNewestCompleteCheckpoint(t *testing.T) {
	d, _ := newDir(t)
	ctx := context.Background()
	if _, _, err := Latest(ctx, d, "j"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no checkpoints: %v, want ErrNotFound", err)
	}
	write(t, d, "j", 1, map[string]string{"source-0": "a", "agg-0": "b"}, true)
	write(t, d, "j", 2, map[string]string{"source-0": "c", "agg-0": "d"}, true)
	// Checkpoint 3 was cut short before its metadata: it does not count.
	write(t, d, "j", 3, map[string]string{"source-0": "e"}, false)
	meta, state, err := Latest(ctx, d, "j")
	if err != nil {
		t.Fatal(err)
	}
	if meta.ID != 2 || string(state["source-0"]) != "c" || string(state["agg-0"]) != "d" || len(state) != 2 {
		t.Fatalf("got checkpoint %d with %v", meta.ID, state)
	}
	// Another job's checkpoints are its own.
	if _, _, err := Latest(ctx, d, "k"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("job k: %v, want ErrNotFound", err)
	}
}

// TestCorruptCheckpointIsSkipped: a part that changed, went missing or was
// cut short, or metadata that does not parse, makes the checkpoint be
// skipped for the previous complete one, with the reason.
func TestCorruptCheckpointIsSkipped(t *testing.T) {
	for name, damage := range map[string]func(chk string) error{
		"changed part":   func(chk string) error { return os.WriteFile(filepath.Join(chk, "agg-0"), []byte("X"), 0o644) },
		"truncated part": func(chk string) error { return os.WriteFile(filepath.Join(chk, "agg-0"), nil, 0o644) },
		"missing part":   func(chk string) error { return os.Remove(filepath.Join(chk, "agg-0")) },
		"bad metadata":   func(chk string) error { return os.WriteFile(filepath.Join(chk, "_metadata"), []byte("{"), 0o644) },
	} {
		t.Run(name, func(t *testing.T) {
			d, root := newDir(t)
			write(t, d, "j", 1, map[string]string{"agg-0": "old"}, true)
			write(t, d, "j", 2, map[string]string{"agg-0": "new"}, true)
			if err := damage(filepath.Join(root, "j", "chk-2")); err != nil {
				t.Fatal(err)
			}
			meta, state, err := Latest(context.Background(), d, "j")
			if err != nil {
				t.Fatal(err)
			}
			if meta.ID != 1 || string(state["agg-0"]) != "old" {
				t.Fatalf("got checkpoint %d with %q, want 1 with \"old\"", meta.ID, state["agg-0"])
			}
		})
	}
	d, root := newDir(t)
	write(t, d, "j", 1, map[string]string{"agg-0": "only"}, true)
	if err := os.WriteFile(filepath.Join(root, "j", "chk-1", "agg-0"), []byte("0nly"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := Latest(context.Background(), d, "j")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "checkpoint 1 skipped: part agg-0: checksum") {
		t.Fatalf("the only checkpoint corrupt: %v", err)
	}
}

func TestPruneKeepsTheNewest(t *testing.T) {
	d, _ := newDir(t)
	ctx := context.Background()
	for id := int64(1); id <= 4; id++ {
		write(t, d, "j", id, map[string]string{"p": "x"}, id != 2)
	}
	write(t, d, "j", 5, map[string]string{"p": "in progress"}, false)
	if err := Prune(ctx, d, "j", 2); err != nil {
		t.Fatal(err)
	}
	started, _ := d.Started(ctx, "j")
	if want := []int64{3, 4, 5}; !slices.Equal(started, want) {
		t.Fatalf("left %v, want %v", started, want)
	}
	complete, _ := d.Checkpoints(ctx, "j")
	if want := []int64{3, 4}; !slices.Equal(complete, want) {
		t.Fatalf("complete %v, want %v", complete, want)
	}
}

func TestNamesAreChecked(t *testing.T) {
	d, root := newDir(t)
	ctx := context.Background()
	for _, c := range []struct{ job, part string }{{"../x", "p"}, {"", "p"}, {"j", "../p"}, {"j", "_metadata"}, {"j", ".hidden"}} {
		if err := d.WriteState(ctx, c.job, 1, c.part, nil); err == nil {
			t.Errorf("job %q part %q accepted", c.job, c.part)
		}
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 0 {
		t.Fatalf("files written outside a job: %v", entries)
	}
	// No temporary files are left behind.
	write(t, d, "j", 1, map[string]string{"p": "x"}, true)
	files, _ := os.ReadDir(filepath.Join(root, "j", "chk-1"))
	var names []string
	for _, f := range files {
		names = append(names, f.Name())
	}
	if want := []string{"_metadata", "p"}; !slices.Equal(names, want) {
		t.Fatalf("files %v, want %v", names, want)
	}
	meta, _ := d.Metadata(ctx, "j", 1)
	if !slices.Equal(slices.Collect(maps.Keys(meta.Parts)), []string{"p"}) {
		t.Fatalf("metadata parts %v", meta.Parts)
	}
}
