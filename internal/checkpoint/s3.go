package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/s3utils"
)

// S3 is a Storage in a bucket of an S3-compatible object store
// (state.checkpoints.dir = s3://BUCKET/PREFIX), in Dir's layout under the
// prefix: PREFIX/JOB/chk-ID/PART, PREFIX/JOB/chk-ID/_metadata and
// PREFIX/JOB/shared/NAME. An S3
// upload is atomic, so an object that exists is whole; the metadata is
// written after every part, so a checkpoint whose metadata exists has all
// its parts written.
type S3 struct {
	client *minio.Client
	bucket string
	// prefix is empty or ends with a slash.
	prefix string
	// pageSize is how many keys one list request asks for, 0 for the
	// server's default (s3.paging.maximum).
	pageSize int
}

// NewS3 returns a Storage in bucket under the key prefix (a path of names
// separated by slashes, or empty), reached through client.
func NewS3(client *minio.Client, bucket, prefix string) (*S3, error) {
	if err := s3utils.CheckValidBucketName(bucket); err != nil {
		return nil, fmt.Errorf("checkpoint storage: bucket %q: %w", bucket, err)
	}
	prefix = strings.Trim(prefix, "/")
	if prefix != "" {
		for name := range strings.SplitSeq(prefix, "/") {
			if name == "" || name == "." || name == ".." {
				return nil, fmt.Errorf("checkpoint storage: invalid key prefix %q in bucket %s: empty, . and .. names are not allowed", prefix, bucket)
			}
		}
		prefix += "/"
	}
	return &S3{client: client, bucket: bucket, prefix: prefix}, nil
}

func (s *S3) jobPrefix(job string) (string, error) {
	if err := checkJob(job); err != nil {
		return "", err
	}
	return s.prefix + job + "/", nil
}

func (s *S3) chkPrefix(job string, id int64) (string, error) {
	if err := checkCheckpoint(job, id); err != nil {
		return "", err
	}
	return s.prefix + job + "/" + chkName(id) + "/", nil
}

func (s *S3) partKey(job string, id int64, part string) (string, error) {
	if err := checkPart(part); err != nil {
		return "", err
	}
	cp, err := s.chkPrefix(job, id)
	if err != nil {
		return "", err
	}
	return cp + part, nil
}

// fail describes an error of operation op on key, with the error code the
// server gave.
func (s *S3) fail(op, key string, err error) error {
	where := fmt.Sprintf("checkpoint storage: %s s3://%s/%s", op, s.bucket, key)
	if resp := minio.ToErrorResponse(err); resp.Code != "" {
		return fmt.Errorf("%s: %w (%s, HTTP status %d)", where, err, resp.Code, resp.StatusCode)
	}
	return fmt.Errorf("%s: %w", where, err)
}

// put writes an object, in one request or above minio-go's part size in a
// multipart upload, either way whole or not at all. Each request carries
// its MD5 checksum, which the service checks, and an unsigned payload:
// minio-go's default over plain HTTP, a payload signed chunk by chunk, is
// not understood by every S3-compatible service, and minio-go sends it
// without a Content-Length when data is empty.
func (s *S3) put(ctx context.Context, key string, data []byte) error {
	_, err := s.client.PutObject(ctx, s.bucket, key, bytes.NewReader(data), int64(len(data)), minio.PutObjectOptions{
		ContentType:          "application/octet-stream",
		SendContentMd5:       true,
		DisableContentSha256: true,
	})
	if err != nil {
		return s.fail("put", key, err)
	}
	return nil
}

func (s *S3) get(ctx context.Context, key string) ([]byte, error) {
	obj, err := s.client.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, s.fail("get", key, err)
	}
	defer obj.Close()
	data, err := io.ReadAll(obj)
	if err != nil {
		return nil, s.fail("get", key, err)
	}
	return data, nil
}

// WriteState implements Storage.
func (s *S3) WriteState(ctx context.Context, job string, id int64, part string, data []byte) error {
	key, err := s.partKey(job, id, part)
	if err != nil {
		return err
	}
	return s.put(ctx, key, data)
}

// ReadState implements Storage.
func (s *S3) ReadState(ctx context.Context, job string, id int64, part string) ([]byte, error) {
	key, err := s.partKey(job, id, part)
	if err != nil {
		return nil, err
	}
	return s.get(ctx, key)
}

// Complete implements Storage.
func (s *S3) Complete(ctx context.Context, meta *Metadata) error {
	b, err := encodeMetadata(meta)
	if err != nil {
		return err
	}
	return s.put(ctx, s.prefix+meta.Job+"/"+chkName(meta.ID)+"/"+metadataName, b)
}

// Metadata implements Storage.
func (s *S3) Metadata(ctx context.Context, job string, id int64) (*Metadata, error) {
	cp, err := s.chkPrefix(job, id)
	if err != nil {
		return nil, err
	}
	key := cp + metadataName
	b, err := s.get(ctx, key)
	if err != nil {
		return nil, err
	}
	return decodeMetadata(b, "s3://"+s.bucket+"/"+key)
}

// list returns the keys under prefix, every page of the listing.
func (s *S3) list(ctx context.Context, prefix string) ([]string, error) {
	noOwner := false
	var keys []string
	for obj := range s.client.ListObjectsIter(ctx, s.bucket, minio.ListObjectsOptions{
		Prefix: prefix, Recursive: true, MaxKeys: s.pageSize, FetchOwner: &noOwner,
	}) {
		if obj.Err != nil {
			return nil, s.fail("list", prefix, obj.Err)
		}
		keys = append(keys, obj.Key)
	}
	// The listing stops without an error when ctx ends.
	if err := ctx.Err(); err != nil {
		return nil, s.fail("list", prefix, err)
	}
	return keys, nil
}

// checkpoints lists the checkpoints of job with anything written, each
// with whether its metadata is.
func (s *S3) checkpoints(ctx context.Context, job string) (map[int64]bool, error) {
	jp, err := s.jobPrefix(job)
	if err != nil {
		return nil, err
	}
	keys, err := s.list(ctx, jp)
	if err != nil {
		return nil, err
	}
	complete := map[int64]bool{}
	for _, key := range keys {
		dir, name, ok := strings.Cut(strings.TrimPrefix(key, jp), "/")
		if id, isChk := parseChkName(dir); ok && isChk {
			complete[id] = complete[id] || name == metadataName
		}
	}
	return complete, nil
}

// Checkpoints implements Storage.
func (s *S3) Checkpoints(ctx context.Context, job string) ([]int64, error) {
	all, err := s.checkpoints(ctx, job)
	if err != nil {
		return nil, err
	}
	maps.DeleteFunc(all, func(_ int64, complete bool) bool { return !complete })
	return slices.Sorted(maps.Keys(all)), nil
}

// Started implements Storage.
func (s *S3) Started(ctx context.Context, job string) ([]int64, error) {
	all, err := s.checkpoints(ctx, job)
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(all)), nil
}

// Delete implements Storage. The metadata goes first, so a checkpoint
// deleted in part no longer counts as complete and is deleted again by a
// later Prune.
func (s *S3) Delete(ctx context.Context, job string, id int64) error {
	cp, err := s.chkPrefix(job, id)
	if err != nil {
		return err
	}
	if err := s.client.RemoveObject(ctx, s.bucket, cp+metadataName, minio.RemoveObjectOptions{}); err != nil {
		return s.fail("delete", cp+metadataName, err)
	}
	keys, err := s.list(ctx, cp)
	if err != nil || len(keys) == 0 {
		return err
	}
	objects := func(yield func(minio.ObjectInfo) bool) {
		for _, key := range keys {
			if !yield(minio.ObjectInfo{Key: key}) {
				return
			}
		}
	}
	results, err := s.client.RemoveObjectsWithIter(ctx, s.bucket, objects, minio.RemoveObjectsOptions{})
	if err != nil {
		return s.fail("delete", cp, err)
	}
	var errs []error
	for r := range results {
		if r.Err != nil {
			errs = append(errs, s.fail("delete", r.ObjectName, r.Err))
		}
	}
	if err := ctx.Err(); err != nil {
		errs = append(errs, s.fail("delete", cp, err))
	}
	return errors.Join(errs...)
}

func (s *S3) sharedKey(job, name string) (string, error) {
	if err := checkShared(name); err != nil {
		return "", err
	}
	jp, err := s.jobPrefix(job)
	if err != nil {
		return "", err
	}
	return jp + sharedDir + "/" + name, nil
}

// WriteShared implements Storage.
func (s *S3) WriteShared(ctx context.Context, job, name string, data []byte) error {
	key, err := s.sharedKey(job, name)
	if err != nil {
		return err
	}
	return s.put(ctx, key, data)
}

// ReadShared implements Storage.
func (s *S3) ReadShared(ctx context.Context, job, name string) ([]byte, error) {
	key, err := s.sharedKey(job, name)
	if err != nil {
		return nil, err
	}
	return s.get(ctx, key)
}

// Shared implements Storage.
func (s *S3) Shared(ctx context.Context, job string) ([]string, error) {
	jp, err := s.jobPrefix(job)
	if err != nil {
		return nil, err
	}
	keys, err := s.list(ctx, jp+sharedDir+"/")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, key := range keys {
		if name := strings.TrimPrefix(key, jp+sharedDir+"/"); checkShared(name) == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names, nil
}

// DeleteShared implements Storage.
func (s *S3) DeleteShared(ctx context.Context, job, name string) error {
	key, err := s.sharedKey(job, name)
	if err != nil {
		return err
	}
	if err := s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}); err != nil {
		return s.fail("delete", key, err)
	}
	return nil
}
