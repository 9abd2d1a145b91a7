package checkpoint

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fixture is a Storage under test with a way to look at what it stored and
// to damage it, as a crash or a careless hand would.
type fixture struct {
	Storage
	// put replaces the file name of checkpoint id of job with data.
	put func(job string, id int64, name string, data []byte) error
	// remove deletes the file name of checkpoint id of job.
	remove func(job string, id int64, name string) error
	// files lists everything stored, as JOB/chk-ID/NAME, sorted.
	files func() ([]string, error)
}

// forEachStorage runs test against every Storage: the same behaviour is
// expected of each.
func forEachStorage(t *testing.T, test func(t *testing.T, f *fixture)) {
	t.Run("dir", func(t *testing.T) { test(t, newDirFixture(t)) })
	t.Run("s3", func(t *testing.T) { test(t, newS3Fixture(t)) })
}

func newDirFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	d, err := NewDir(root)
	if err != nil {
		t.Fatal(err)
	}
	path := func(job string, id int64, name string) string { return filepath.Join(root, job, chkName(id), name) }
	return &fixture{
		Storage: d,
		put: func(job string, id int64, name string, data []byte) error {
			return os.WriteFile(path(job, id, name), data, 0o644)
		},
		remove: func(job string, id int64, name string) error { return os.Remove(path(job, id, name)) },
		files: func() ([]string, error) {
			var files []string
			err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
				if err == nil && !e.IsDir() {
					rel, _ := filepath.Rel(root, p)
					files = append(files, filepath.ToSlash(rel))
				}
				return err
			})
			return files, err
		},
	}
}

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

func TestLatestReadsTheNewestCompleteCheckpoint(t *testing.T) {
	forEachStorage(t, func(t *testing.T, s *fixture) {
		ctx := context.Background()
		if _, _, err := Latest(ctx, s, "j"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("no checkpoints: %v, want ErrNotFound", err)
		}
		write(t, s, "j", 1, map[string]string{"source-0": "a", "agg-0": "b"}, true)
		write(t, s, "j", 2, map[string]string{"source-0": "c", "agg-0": "d", "empty-0": ""}, true)
		// Checkpoint 3 was cut short before its metadata: it does not count.
		write(t, s, "j", 3, map[string]string{"source-0": "e"}, false)
		meta, state, err := Latest(ctx, s, "j")
		if err != nil {
			t.Fatal(err)
		}
		if meta.ID != 2 || string(state["source-0"]) != "c" || string(state["agg-0"]) != "d" || len(state) != 3 {
			t.Fatalf("got checkpoint %d with %v", meta.ID, state)
		}
		// Another job's checkpoints are its own, even one whose name
		// begins like this one's.
		for _, job := range []string{"k", "jj"} {
			if _, _, err := Latest(ctx, s, job); !errors.Is(err, ErrNotFound) {
				t.Fatalf("job %s: %v, want ErrNotFound", job, err)
			}
		}
	})
}

// TestCorruptCheckpointIsSkipped: a part that changed, went missing or was
// cut short, or metadata that does not parse, makes the checkpoint be
// skipped for the previous complete one, with the reason.
func TestCorruptCheckpointIsSkipped(t *testing.T) {
	forEachStorage(t, func(t *testing.T, s *fixture) {
		// Each damage befalls a job of its own.
		for job, damage := range map[string]func(job string) error{
			"changed-part":   func(job string) error { return s.put(job, 2, "agg-0", []byte("X")) },
			"truncated-part": func(job string) error { return s.put(job, 2, "agg-0", nil) },
			"missing-part":   func(job string) error { return s.remove(job, 2, "agg-0") },
			"bad-metadata":   func(job string) error { return s.put(job, 2, metadataName, []byte("{")) },
		} {
			t.Run(job, func(t *testing.T) {
				write(t, s, job, 1, map[string]string{"agg-0": "old"}, true)
				write(t, s, job, 2, map[string]string{"agg-0": "new"}, true)
				if err := damage(job); err != nil {
					t.Fatal(err)
				}
				meta, state, err := Latest(context.Background(), s, job)
				if err != nil {
					t.Fatal(err)
				}
				if meta.ID != 1 || string(state["agg-0"]) != "old" {
					t.Fatalf("got checkpoint %d with %q, want 1 with \"old\"", meta.ID, state["agg-0"])
				}
			})
		}
		write(t, s, "only", 1, map[string]string{"agg-0": "only"}, true)
		if err := s.put("only", 1, "agg-0", []byte("0nly")); err != nil {
			t.Fatal(err)
		}
		_, _, err := Latest(context.Background(), s, "only")
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "checkpoint 1 skipped: part agg-0: checksum") {
			t.Fatalf("the only checkpoint corrupt: %v", err)
		}
	})
}

func TestPruneKeepsTheNewest(t *testing.T) {
	forEachStorage(t, func(t *testing.T, s *fixture) {
		ctx := context.Background()
		for id := int64(1); id <= 4; id++ {
			write(t, s, "j", id, map[string]string{"p": "x", "q": "y"}, id != 2)
		}
		write(t, s, "j", 5, map[string]string{"p": "in progress"}, false)
		if err := Prune(ctx, s, "j", 2); err != nil {
			t.Fatal(err)
		}
		started, err := s.Started(ctx, "j")
		if want := []int64{3, 4, 5}; err != nil || !slices.Equal(started, want) {
			t.Fatalf("left %v (%v), want %v", started, err, want)
		}
		complete, err := s.Checkpoints(ctx, "j")
		if want := []int64{3, 4}; err != nil || !slices.Equal(complete, want) {
			t.Fatalf("complete %v (%v), want %v", complete, err, want)
		}
		files, err := s.files()
		want := []string{
			"j/chk-3/_metadata", "j/chk-3/p", "j/chk-3/q",
			"j/chk-4/_metadata", "j/chk-4/p", "j/chk-4/q",
			"j/chk-5/p",
		}
		if err != nil || !slices.Equal(files, want) {
			t.Fatalf("files %v (%v), want %v", files, err, want)
		}
	})
}

func TestNamesAreChecked(t *testing.T) {
	forEachStorage(t, func(t *testing.T, s *fixture) {
		ctx := context.Background()
		for _, c := range []struct {
			job  string
			id   int64
			part string
		}{{"../x", 1, "p"}, {"", 1, "p"}, {"a/b", 1, "p"}, {"j", 1, "../p"}, {"j", 1, "_metadata"}, {"j", 1, ".hidden"}, {"j", 0, "p"}, {"j", -1, "p"}} {
			if err := s.WriteState(ctx, c.job, c.id, c.part, nil); err == nil {
				t.Errorf("job %q checkpoint %d part %q accepted", c.job, c.id, c.part)
			}
		}
		if err := s.Complete(ctx, &Metadata{Job: "j", ID: 0}); err == nil {
			t.Errorf("metadata of checkpoint 0 accepted")
		}
		if files, err := s.files(); err != nil || len(files) != 0 {
			t.Fatalf("files written outside a job: %v (%v)", files, err)
		}
		// No temporary files are left behind.
		write(t, s, "j", 1, map[string]string{"p": "x"}, true)
		files, err := s.files()
		if want := []string{"j/chk-1/_metadata", "j/chk-1/p"}; err != nil || !slices.Equal(files, want) {
			t.Fatalf("files %v (%v), want %v", files, err, want)
		}
		meta, err := s.Metadata(ctx, "j", 1)
		if err != nil || !slices.Equal(slices.Collect(maps.Keys(meta.Parts)), []string{"p"}) {
			t.Fatalf("metadata %v (%v)", meta, err)
		}
	})
}

// TestSharedFiles: shared files stay while a retained checkpoint refers
// to them and go when none does (an orphan of a checkpoint that never
// completed too); Latest checks them and skips a checkpoint whose file is
// damaged; SharedFiles reads only the files a checkpoint lists, checked.
func TestSharedFiles(t *testing.T) {
	forEachStorage(t, func(t *testing.T, s *fixture) {
		ctx := context.Background()
		files := map[string][]byte{"a": []byte("A"), "b": []byte("BB"), "c": []byte("CCC"), "orphan": []byte("O")}
		for name, data := range files {
			if err := s.WriteShared(ctx, "j", name, data); err != nil {
				t.Fatal(err)
			}
		}
		refers := map[int64][]string{1: {"a", "b"}, 2: {"b", "c"}, 3: {"c"}}
		for id := int64(1); id <= 3; id++ {
			meta := &Metadata{Job: "j", ID: id, Parts: map[string]Part{}, Shared: map[string]Part{}}
			for _, name := range refers[id] {
				meta.Shared[name] = PartOf(files[name])
			}
			if err := s.Complete(ctx, meta); err != nil {
				t.Fatal(err)
			}
		}
		if err := Prune(ctx, s, "j", 2); err != nil {
			t.Fatal(err)
		}
		names, err := s.Shared(ctx, "j")
		if want := []string{"b", "c"}; err != nil || !slices.Equal(names, want) {
			t.Fatalf("shared files %v (%v), want %v", names, err, want)
		}
		meta, _, err := Latest(ctx, s, "j")
		if err != nil || meta.ID != 3 {
			t.Fatalf("latest: %v %v", meta, err)
		}
		read := SharedFiles(s, meta)
		if data, err := read(ctx, "c"); err != nil || string(data) != "CCC" {
			t.Fatalf("read c: %q %v", data, err)
		}
		if _, err := read(ctx, "b"); err == nil {
			t.Fatal("read a shared file the checkpoint does not list")
		}
		// c damaged: checkpoint 3 is skipped for 2, which refers to c too.
		if err := s.WriteShared(ctx, "j", "c", []byte("CCX")); err != nil {
			t.Fatal(err)
		}
		if _, err := read(ctx, "c"); err == nil || !strings.Contains(err.Error(), "checksum") {
			t.Fatalf("read of a damaged file: %v", err)
		}
		_, _, err = Latest(ctx, s, "j")
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "checkpoint 3 skipped: shared file c: checksum") {
			t.Fatalf("latest with a damaged shared file: %v", err)
		}
		// Every checkpoint gone: so are the files (Prune keeps one complete
		// checkpoint, 3, which refers to c only).
		if err := s.Delete(ctx, "j", 2); err != nil {
			t.Fatal(err)
		}
		if err := Prune(ctx, s, "j", 1); err != nil {
			t.Fatal(err)
		}
		if names, _ := s.Shared(ctx, "j"); !slices.Equal(names, []string{"c"}) {
			t.Fatalf("shared files %v, want [c]", names)
		}
		if err := s.WriteShared(ctx, "j", "../x", nil); err == nil {
			t.Fatal("a shared file named ../x was written")
		}
	})
}
