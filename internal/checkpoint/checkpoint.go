// Package checkpoint stores the checkpoints of jobs: for each checkpoint,
// the state of every part of a job (an operator instance's keyed state, a
// source instance's positions) and, written last, a metadata file that
// lists the parts with their sizes and checksums. A checkpoint counts only
// once its metadata is in place, and it is used only if every part it
// lists reads back intact: a crash while writing leaves a checkpoint that
// is skipped for the previous complete one, never loaded.
//
// A checkpoint may also refer to shared files: state kept once and
// referred to by every checkpoint that holds it (the files of the Pebble
// state backend's incremental snapshots), named by the SHA-256 of their
// content, listed with their sizes in the metadata of every checkpoint
// that refers to them, and deleted by Prune once no retained checkpoint
// does, as Flink's shared state registry keeps the files of incremental
// checkpoints.
//
// Storage is an interface so that checkpoints can live where every process
// running a job can reach them: Dir keeps them in a local directory, S3 in
// an S3-compatible object store, and Open picks one from a location as
// Flink's state.checkpoints.dir names it.
package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrNotFound is returned by Latest when a job has no complete checkpoint.
var ErrNotFound = errors.New("no complete checkpoint")

// Metadata describes one complete checkpoint.
type Metadata struct {
	// Job is the job's ID and ID the checkpoint's, increasing per job.
	Job string `json:"job"`
	ID  int64  `json:"id"`
	// Time is when the checkpoint completed.
	Time time.Time `json:"time"`
	// Plan identifies the execution plan the state belongs to.
	Plan string `json:"plan,omitempty"`
	// Parts lists the state written, by part name.
	Parts map[string]Part `json:"parts"`
	// Finished lists the parts that had ended by the checkpoint (a
	// bounded source that read everything): restored, they end at once.
	Finished []string `json:"finished,omitempty"`
	// Shared lists the shared files the parts refer to, by name.
	Shared map[string]Part `json:"shared,omitempty"`
}

// Part is one piece of state of a checkpoint.
type Part struct {
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// PartOf describes data as a Part.
func PartOf(data []byte) Part {
	sum := sha256.Sum256(data)
	return Part{Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
}

// Verify checks that data is the part p describes.
func (p Part) Verify(data []byte) error {
	got := PartOf(data)
	if got.Size != p.Size {
		return fmt.Errorf("%d bytes, expected %d", got.Size, p.Size)
	}
	if got.SHA256 != p.SHA256 {
		return fmt.Errorf("checksum %s, expected %s", got.SHA256, p.SHA256)
	}
	return nil
}

// metadataName is the name of a checkpoint's metadata, beside its parts.
const metadataName = "_metadata"

// checkJob refuses job IDs that cannot name a directory of their own.
func checkJob(job string) error {
	if job == "" || strings.ContainsAny(job, `/\`) || job == "." || job == ".." {
		return fmt.Errorf("invalid job id %q for checkpoint storage", job)
	}
	return nil
}

// checkCheckpoint refuses a job ID or checkpoint ID that Started could not
// list back.
func checkCheckpoint(job string, id int64) error {
	if err := checkJob(job); err != nil {
		return err
	}
	if id <= 0 {
		return fmt.Errorf("invalid checkpoint id %d of job %s: checkpoint ids start at 1", id, job)
	}
	return nil
}

// checkPart refuses part names that are not a plain file name of their
// own, or that would be taken for the metadata or a temporary file.
func checkPart(part string) error {
	if part == "" || part == metadataName || strings.ContainsAny(part, `/\`) || strings.HasPrefix(part, ".") {
		return fmt.Errorf("invalid checkpoint part name %q", part)
	}
	return nil
}

// checkShared refuses shared file names that are not a plain file name.
func checkShared(name string) error {
	if name == "" || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return fmt.Errorf("invalid shared file name %q", name)
	}
	return nil
}

// sharedDir is the name of the directory of a job's shared files, beside
// its checkpoints' (Flink's layout has the same).
const sharedDir = "shared"

// chkName is the name of the directory of checkpoint id within its job's.
func chkName(id int64) string { return "chk-" + strconv.FormatInt(id, 10) }

// parseChkName returns the checkpoint ID a directory name chkName gave
// stands for.
func parseChkName(name string) (int64, bool) {
	n, ok := strings.CutPrefix(name, "chk-")
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(n, 10, 64)
	if err != nil || id <= 0 || chkName(id) != name {
		return 0, false
	}
	return id, true
}

// encodeMetadata is the stored form of meta.
func encodeMetadata(meta *Metadata) ([]byte, error) {
	if err := checkCheckpoint(meta.Job, meta.ID); err != nil {
		return nil, err
	}
	return json.MarshalIndent(meta, "", "  ")
}

// decodeMetadata reads metadata stored at where.
func decodeMetadata(b []byte, where string) (*Metadata, error) {
	var m Metadata
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("reading %s: %w", where, err)
	}
	return &m, nil
}

// Storage keeps checkpoints. Implementations are safe for concurrent use.
type Storage interface {
	// WriteState durably stores one part of checkpoint id of job.
	WriteState(ctx context.Context, job string, id int64, part string, data []byte) error
	// ReadState reads back a part written by WriteState.
	ReadState(ctx context.Context, job string, id int64, part string) ([]byte, error)
	// Complete durably writes the metadata of a checkpoint whose parts are
	// all written; from then on the checkpoint counts.
	Complete(ctx context.Context, meta *Metadata) error
	// Checkpoints lists the IDs of the checkpoints of job that have
	// metadata, oldest first.
	Checkpoints(ctx context.Context, job string) ([]int64, error)
	// Metadata reads the metadata of checkpoint id of job.
	Metadata(ctx context.Context, job string, id int64) (*Metadata, error)
	// Delete removes checkpoint id of job, complete or not.
	Delete(ctx context.Context, job string, id int64) error
	// Started lists the IDs of every checkpoint of job with anything
	// written, complete or not, oldest first.
	Started(ctx context.Context, job string) ([]int64, error)
	// WriteShared durably stores a shared file of job.
	WriteShared(ctx context.Context, job, name string, data []byte) error
	// ReadShared reads back a shared file written by WriteShared.
	ReadShared(ctx context.Context, job, name string) ([]byte, error)
	// Shared lists the names of the shared files of job, sorted.
	Shared(ctx context.Context, job string) ([]string, error)
	// DeleteShared removes a shared file of job.
	DeleteShared(ctx context.Context, job, name string) error
}

// Latest returns the newest complete checkpoint of job whose parts all read
// back intact, with its state by part name. Checkpoints that fail the
// check are skipped; the errors met are returned with ErrNotFound when no
// checkpoint passes.
func Latest(ctx context.Context, s Storage, job string) (*Metadata, map[string][]byte, error) {
	ids, err := s.Checkpoints(ctx, job)
	if err != nil {
		return nil, nil, err
	}
	var skipped []error
	for _, id := range slices.Backward(ids) {
		meta, state, err := load(ctx, s, job, id)
		if err == nil {
			return meta, state, nil
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		skipped = append(skipped, fmt.Errorf("checkpoint %d skipped: %w", id, err))
	}
	return nil, nil, errors.Join(append([]error{fmt.Errorf("job %s: %w", job, ErrNotFound)}, skipped...)...)
}

// load reads and verifies one checkpoint.
func load(ctx context.Context, s Storage, job string, id int64) (*Metadata, map[string][]byte, error) {
	meta, err := s.Metadata(ctx, job, id)
	if err != nil {
		return nil, nil, err
	}
	if meta.Job != job || meta.ID != id {
		return nil, nil, fmt.Errorf("its metadata names job %s checkpoint %d", meta.Job, meta.ID)
	}
	state := make(map[string][]byte, len(meta.Parts))
	for name, p := range meta.Parts {
		data, err := s.ReadState(ctx, job, id, name)
		if err != nil {
			return nil, nil, fmt.Errorf("part %s: %w", name, err)
		}
		if err := p.Verify(data); err != nil {
			return nil, nil, fmt.Errorf("part %s: %w", name, err)
		}
		state[name] = data
	}
	// Shared files are read and checked, not kept: the restore reads
	// them again (SharedFiles).
	for _, name := range slices.Sorted(maps.Keys(meta.Shared)) {
		if err := checkShared(name); err != nil {
			return nil, nil, err
		}
		data, err := s.ReadShared(ctx, job, name)
		if err != nil {
			return nil, nil, fmt.Errorf("shared file %s: %w", name, err)
		}
		if err := meta.Shared[name].Verify(data); err != nil {
			return nil, nil, fmt.Errorf("shared file %s: %w", name, err)
		}
	}
	return meta, state, nil
}

// SharedFiles returns a reader of the shared files of the checkpoint
// meta describes, in s: each is checked against the metadata, and a name
// the checkpoint does not list is an error.
func SharedFiles(s Storage, meta *Metadata) func(ctx context.Context, name string) ([]byte, error) {
	return func(ctx context.Context, name string) ([]byte, error) {
		p, ok := meta.Shared[name]
		if !ok {
			return nil, fmt.Errorf("checkpoint %d of job %s lists no shared file %s", meta.ID, meta.Job, name)
		}
		data, err := s.ReadShared(ctx, meta.Job, name)
		if err != nil {
			return nil, fmt.Errorf("shared file %s of job %s: %w", name, meta.Job, err)
		}
		if err := p.Verify(data); err != nil {
			return nil, fmt.Errorf("shared file %s of job %s: %w", name, meta.Job, err)
		}
		return data, nil
	}
}

// Prune keeps the newest retain complete checkpoints of job (at least
// one) and deletes the older ones, complete or not. Checkpoints newer than
// the newest complete one may still be in progress and are left alone.
// Then it deletes the shared files that no remaining complete checkpoint
// refers to: it must not run while a checkpoint of the job that wrote
// shared files is in progress (its metadata, not written yet, would be
// the only one to refer to them), as the runtime's coordinator, which
// prunes after a checkpoint completes and takes one at a time, ensures.
func Prune(ctx context.Context, s Storage, job string, retain int) error {
	retain = max(retain, 1)
	complete, err := s.Checkpoints(ctx, job)
	if err != nil || len(complete) == 0 {
		return err
	}
	oldestKept := complete[max(0, len(complete)-retain)]
	started, err := s.Started(ctx, job)
	if err != nil {
		return err
	}
	for _, id := range started {
		if id < oldestKept {
			if err := s.Delete(ctx, job, id); err != nil {
				return err
			}
		}
	}
	return pruneShared(ctx, s, job, complete[max(0, len(complete)-retain):])
}

// pruneShared deletes the shared files of job that none of the complete
// checkpoints kept refers to. A metadata that cannot be read leaves every
// file in place.
func pruneShared(ctx context.Context, s Storage, job string, kept []int64) error {
	names, err := s.Shared(ctx, job)
	if err != nil || len(names) == 0 {
		return err
	}
	referred := map[string]bool{}
	for _, id := range kept {
		meta, err := s.Metadata(ctx, job, id)
		if err != nil {
			return fmt.Errorf("pruning the shared files of job %s: checkpoint %d: %w", job, id, err)
		}
		for name := range meta.Shared {
			referred[name] = true
		}
	}
	for _, name := range names {
		if !referred[name] {
			if err := s.DeleteShared(ctx, job, name); err != nil {
				return err
			}
		}
	}
	return nil
}
