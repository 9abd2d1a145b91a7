package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/sluicesql/sluice/internal/atomicfile"
)

// Dir is a Storage in a local directory (state.checkpoints.dir):
// DIR/JOB/chk-ID/PART for each part, DIR/JOB/chk-ID/_metadata and
// DIR/JOB/shared/NAME for each shared file, the layout of Flink's file
// system checkpoint storage. Every file is written
// to a temporary name, synced and renamed, so a file that exists is whole.
type Dir struct {
	root string
}

// NewDir returns a Storage rooted at dir, creating it if needed. What it
// creates is readable by its owner only: directories 0700, files 0600.
func NewDir(dir string) (*Dir, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("checkpoint directory: %w", err)
	}
	return &Dir{root: dir}, nil
}

func (d *Dir) jobDir(job string) (string, error) {
	if err := checkJob(job); err != nil {
		return "", err
	}
	return filepath.Join(d.root, job), nil
}

func (d *Dir) chkDir(job string, id int64) (string, error) {
	if err := checkCheckpoint(job, id); err != nil {
		return "", err
	}
	return filepath.Join(d.root, job, chkName(id)), nil
}

func (d *Dir) partPath(job string, id int64, part string) (string, error) {
	if err := checkPart(part); err != nil {
		return "", err
	}
	cd, err := d.chkDir(job, id)
	if err != nil {
		return "", err
	}
	return filepath.Join(cd, part), nil
}

// WriteState implements Storage.
func (d *Dir) WriteState(_ context.Context, job string, id int64, part string, data []byte) error {
	p, err := d.partPath(job, id, part)
	if err != nil {
		return err
	}
	return atomicfile.Write(p, data, 0o600)
}

// ReadState implements Storage.
func (d *Dir) ReadState(_ context.Context, job string, id int64, part string) ([]byte, error) {
	p, err := d.partPath(job, id, part)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

// Complete implements Storage.
func (d *Dir) Complete(_ context.Context, meta *Metadata) error {
	b, err := encodeMetadata(meta)
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(d.root, meta.Job, chkName(meta.ID), metadataName), b, 0o600)
}

// Metadata implements Storage.
func (d *Dir) Metadata(_ context.Context, job string, id int64) (*Metadata, error) {
	cd, err := d.chkDir(job, id)
	if err != nil {
		return nil, err
	}
	p := filepath.Join(cd, metadataName)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return decodeMetadata(b, p)
}

// Checkpoints implements Storage.
func (d *Dir) Checkpoints(ctx context.Context, job string) ([]int64, error) {
	ids, err := d.Started(ctx, job)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(ids, func(id int64) bool {
		cd, _ := d.chkDir(job, id)
		_, err := os.Stat(filepath.Join(cd, metadataName))
		return err != nil
	}), nil
}

// Started implements Storage.
func (d *Dir) Started(_ context.Context, job string) ([]int64, error) {
	jd, err := d.jobDir(job)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(jd)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, e := range entries {
		if id, ok := parseChkName(e.Name()); ok && e.IsDir() {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// Delete implements Storage.
func (d *Dir) Delete(_ context.Context, job string, id int64) error {
	cd, err := d.chkDir(job, id)
	if err != nil {
		return err
	}
	return os.RemoveAll(cd)
}

func (d *Dir) sharedPath(job, name string) (string, error) {
	if err := checkShared(name); err != nil {
		return "", err
	}
	jd, err := d.jobDir(job)
	if err != nil {
		return "", err
	}
	return filepath.Join(jd, sharedDir, name), nil
}

// WriteShared implements Storage.
func (d *Dir) WriteShared(_ context.Context, job, name string, data []byte) error {
	p, err := d.sharedPath(job, name)
	if err != nil {
		return err
	}
	return atomicfile.Write(p, data, 0o600)
}

// ReadShared implements Storage.
func (d *Dir) ReadShared(_ context.Context, job, name string) ([]byte, error) {
	p, err := d.sharedPath(job, name)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

// Shared implements Storage. Temporary files of writes cut short are
// not listed.
func (d *Dir) Shared(_ context.Context, job string) ([]string, error) {
	jd, err := d.jobDir(job)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(filepath.Join(jd, sharedDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && checkShared(e.Name()) == nil {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// DeleteShared implements Storage.
func (d *Dir) DeleteShared(_ context.Context, job, name string) error {
	p, err := d.sharedPath(job, name)
	if err != nil {
		return err
	}
	return os.Remove(p)
}
