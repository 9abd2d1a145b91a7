package checkpoint

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/s3utils"
)

// The keys the test server accepts.
const (
	testAccessKey = "sluice-test"
	testSecretKey = "sluice-test-secret"
	testBucket    = "checkpoints"
)

// s3Server is an in-process S3 service holding testBucket in memory.
type s3Server struct {
	url string
	// continued counts the list requests that continued a listing,
	// multipart the multipart uploads started.
	continued, multipart atomic.Int64
}

// newS3Server serves gofakes3 over HTTP behind a check of AWS Signature
// Version 4 with testAccessKey and testSecretKey, which gofakes3 does not
// check itself, and a check that every PUT has its MD5 checksum.
func newS3Server(t *testing.T) *s3Server {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket(testBucket); err != nil {
		t.Fatal(err)
	}
	faker := gofakes3.New(backend).Server()
	srv := &s3Server{}
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fail := func(status int, code string) {
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(status)
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>request refused: %s</Message><Resource>%s</Resource></Error>`, code, code, r.URL.Path)
		}
		if code := checkSignature(r); code != "" {
			fail(http.StatusForbidden, code)
			return
		}
		// As a bucket with object lock does, and so that every PUT is
		// one request with its length.
		if r.Method == http.MethodPut && r.Header.Get("Content-Md5") == "" {
			fail(http.StatusBadRequest, "InvalidRequest")
			return
		}
		if r.URL.Query().Get("continuation-token") != "" {
			srv.continued.Add(1)
		}
		if r.URL.Query().Has("uploads") {
			srv.multipart.Add(1)
		}
		faker.ServeHTTP(w, r)
	}))
	t.Cleanup(h.Close)
	srv.url = h.URL
	return srv
}

// checkSignature checks the request's Signature Version 4 (the
// Authorization header form of AWS's "Signature Calculations for the
// Authorization Header") and returns the S3 error code of a failure.
func checkSignature(r *http.Request) string {
	fields := map[string]string{}
	rest, ok := strings.CutPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ")
	if !ok {
		return "AccessDenied"
	}
	for f := range strings.SplitSeq(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(f), "=")
		fields[k] = v
	}
	scope := strings.Split(fields["Credential"], "/")
	if len(scope) != 5 {
		return "AuthorizationHeaderMalformed"
	}
	if scope[0] != testAccessKey {
		return "InvalidAccessKeyId"
	}
	var headers strings.Builder
	for h := range strings.SplitSeq(fields["SignedHeaders"], ";") {
		v := strings.Join(r.Header.Values(h), ",")
		if h == "host" {
			v = r.Host
		}
		headers.WriteString(h + ":" + strings.Join(strings.Fields(v), " ") + "\n")
	}
	request := strings.Join([]string{
		r.Method,
		s3utils.EncodePath(r.URL.Path),
		strings.ReplaceAll(r.URL.Query().Encode(), "+", "%20"),
		headers.String(),
		fields["SignedHeaders"],
		r.Header.Get("X-Amz-Content-Sha256"),
	}, "\n")
	sum := sha256.Sum256([]byte(request))
	toSign := strings.Join([]string{"AWS4-HMAC-SHA256", r.Header.Get("X-Amz-Date"), strings.Join(scope[1:], "/"), hex.EncodeToString(sum[:])}, "\n")
	key := []byte("AWS4" + testSecretKey)
	for _, s := range append(scope[1:], toSign) {
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(s))
		key = mac.Sum(nil)
	}
	if hex.EncodeToString(key) != fields["Signature"] {
		return "SignatureDoesNotMatch"
	}
	return ""
}

// props are the options reaching srv with the right keys, with more.
func (srv *s3Server) props(more ...string) map[string]string {
	p := map[string]string{
		"s3.endpoint":          srv.url,
		"s3.access-key":        testAccessKey,
		"s3.secret-key":        testSecretKey,
		"s3.path.style.access": "true",
	}
	for i := 0; i+1 < len(more); i += 2 {
		p[more[i]] = more[i+1]
	}
	return p
}

// openS3 opens location as an *S3.
func openS3(t *testing.T, location string, props map[string]string) *S3 {
	t.Helper()
	s, err := Open(location, props)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*S3)
}

func newS3Fixture(t *testing.T) *fixture {
	t.Helper()
	s := openS3(t, "s3://"+testBucket+"/flink/checkpoints", newS3Server(t).props())
	key := func(job string, id int64, name string) string { return s.prefix + job + "/" + chkName(id) + "/" + name }
	ctx := context.Background()
	return &fixture{
		Storage: s,
		put: func(job string, id int64, name string, data []byte) error {
			return s.put(ctx, key(job, id, name), data)
		},
		remove: func(job string, id int64, name string) error {
			return s.client.RemoveObject(ctx, s.bucket, key(job, id, name), minio.RemoveObjectOptions{})
		},
		files: func() ([]string, error) {
			// Keys outside the prefix are listed whole, so that they show.
			var files []string
			for obj := range s.client.ListObjectsIter(ctx, s.bucket, minio.ListObjectsOptions{Recursive: true}) {
				if obj.Err != nil {
					return nil, obj.Err
				}
				files = append(files, strings.TrimPrefix(obj.Key, "flink/checkpoints/"))
			}
			return files, nil
		},
	}
}

// TestS3ListsEveryPage: with s3.paging.maximum at 2, every listing takes
// many requests, and none of its pages is missed.
func TestS3ListsEveryPage(t *testing.T) {
	srv := newS3Server(t)
	s := openS3(t, "s3://"+testBucket+"/paged", srv.props("s3.paging.maximum", "2"))
	ctx := context.Background()
	for id := int64(1); id <= 6; id++ {
		write(t, s, "j", id, map[string]string{"a": "1", "b": "2", "c": "3"}, id != 5)
	}
	before := srv.continued.Load()
	ids, err := s.Checkpoints(ctx, "j")
	if want := []int64{1, 2, 3, 4, 6}; err != nil || !slices.Equal(ids, want) {
		t.Fatalf("checkpoints %v (%v), want %v", ids, err, want)
	}
	// 23 objects, 2 a page: 11 requests continue the first.
	if n := srv.continued.Load() - before; n != 11 {
		t.Fatalf("%d list requests continued the first, want 11", n)
	}
	if err := Prune(ctx, s, "j", 2); err != nil {
		t.Fatal(err)
	}
	ids, err = s.Started(ctx, "j")
	if want := []int64{4, 5, 6}; err != nil || !slices.Equal(ids, want) {
		t.Fatalf("started %v (%v), want %v", ids, err, want)
	}
	meta, state, err := Latest(ctx, s, "j")
	if err != nil || meta.ID != 6 || len(state) != 3 {
		t.Fatalf("latest %v %v (%v)", meta, state, err)
	}
}

// TestS3LargePart: a part above minio-go's single PUT size (16 MiB) is a
// multipart upload, whole once completed, and reads back intact.
func TestS3LargePart(t *testing.T) {
	srv := newS3Server(t)
	s := openS3(t, "s3://"+testBucket+"/large", srv.props())
	data := strings.Repeat("0123456789abcdef", 17<<20/16)
	write(t, s, "j", 1, map[string]string{"large": data}, true)
	if n := srv.multipart.Load(); n != 1 {
		t.Fatalf("%d multipart uploads, want 1", n)
	}
	_, state, err := Latest(context.Background(), s, "j")
	if err != nil || string(state["large"]) != data {
		t.Fatalf("%d bytes read back (%v), want %d", len(state["large"]), err, len(data))
	}
}

// TestS3Errors: a bucket that does not exist, keys the service refuses and
// a listing cut short are errors that name the operation, the bucket and
// the key; none of them passes for a job with no checkpoint.
func TestS3Errors(t *testing.T) {
	srv := newS3Server(t)
	ctx := context.Background()
	for name, c := range map[string]struct {
		bucket string
		props  map[string]string
		code   string
	}{
		"no bucket":        {"no-such-bucket", srv.props(), "NoSuchBucket"},
		"wrong secret key": {testBucket, srv.props("s3.secret-key", "guess"), "SignatureDoesNotMatch"},
		"unknown key":      {testBucket, srv.props("s3.access-key", "nobody"), "InvalidAccessKeyId"},
		// A region given, so the first request is the operation's own.
		"wrong key, region given": {testBucket, srv.props("s3.access-key", "nobody", "s3.region", "eu-west-3"), "InvalidAccessKeyId"},
	} {
		t.Run(name, func(t *testing.T) {
			s := openS3(t, "s3://"+c.bucket+"/base", c.props)
			err := s.WriteState(ctx, "j", 7, "p", []byte("x"))
			want := "put s3://" + c.bucket + "/base/j/chk-7/p: "
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), c.code) {
				t.Fatalf("write: %v, want an error with %q and %s", err, want, c.code)
			}
			_, _, err = Latest(ctx, s, "j")
			want = "list s3://" + c.bucket + "/base/j/: "
			if err == nil || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), c.code) {
				t.Fatalf("latest: %v, want an error with %q and %s", err, want, c.code)
			}
		})
	}
	s := openS3(t, "s3://"+testBucket, srv.props())
	write(t, s, "j", 1, map[string]string{"p": "x"}, true)
	if _, err := s.ReadState(ctx, "j", 1, "q"); err == nil || !strings.Contains(err.Error(), "get s3://"+testBucket+"/j/chk-1/q: ") || !strings.Contains(err.Error(), "NoSuchKey") {
		t.Fatalf("missing part: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if ids, err := s.Checkpoints(cancelled, "j"); !errors.Is(err, context.Canceled) {
		t.Fatalf("listing with a cancelled context: %v (%v), want context.Canceled", ids, err)
	}
}
