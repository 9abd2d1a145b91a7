package checkpoint

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/minio/minio-go/v7"
)

// awsVars are the environment variables Open reads.
var awsVars = []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"}

// clearAWSEnv leaves the AWS variables empty for the test, as unset.
func clearAWSEnv(t *testing.T) {
	for _, v := range awsVars {
		t.Setenv(v, "")
	}
}

func TestOpenLocations(t *testing.T) {
	clearAWSEnv(t)
	root := t.TempDir()
	for loc, want := range map[string]string{
		filepath.Join(root, "plain"):         filepath.Join(root, "plain"),
		"file://" + root + "/url":            root + "/url",
		"file:" + root + "/java":             root + "/java",
		"FILE://localhost" + root + "/upper": root + "/upper",
	} {
		s, err := Open(loc, map[string]string{"parallelism.default": "2"})
		if d, ok := s.(*Dir); err != nil || !ok || d.root != want {
			t.Errorf("%s: %#v (%v), want a directory at %s", loc, s, err, want)
		}
	}
	keys := map[string]string{"s3.access-key": "a", "s3.secret-key": "b"}
	for loc, want := range map[string][2]string{
		"s3://bucket":                 {"bucket", ""},
		"s3://bucket/":                {"bucket", ""},
		"s3://bucket/flink/chk/":      {"bucket", "flink/chk/"},
		"S3://bucket/a%20b":           {"bucket", "a b/"},
		"s3a://hadoop-bucket/x":       {"hadoop-bucket", "x/"},
		"s3p://presto-bucket/x/y":     {"presto-bucket", "x/y/"},
		"s3://dotted.bucket.name/top": {"dotted.bucket.name", "top/"},
	} {
		s, err := Open(loc, keys)
		if b, ok := s.(*S3); err != nil || !ok || b.bucket != want[0] || b.prefix != want[1] {
			t.Errorf("%s: %#v (%v), want bucket %s prefix %q", loc, s, err, want[0], want[1])
		}
	}
	for loc, want := range map[string]string{
		"hdfs://namenode/chk":   "unsupported scheme hdfs",
		"s3://":                 "names no bucket",
		"s3:///path":            "names no bucket",
		"s3:bucket/path":        "names no bucket",
		"s3://-bucket/x":        "bucket \"-bucket\"",
		"s3://bucket:9000/x":    "a bucket has no port",
		"s3://bucket/x?v=1":     "query",
		"s3://key:pw@bucket/x":  "user information",
		"s3://bucket/a//b":      "invalid key prefix",
		"s3://bucket/a/../b":    "invalid key prefix",
		"file://host/tmp/chk":   "expected file:///ABSOLUTE/PATH",
		"file:relative/chk":     "expected file:///ABSOLUTE/PATH",
		"s3://bucket/%zz":       "invalid URL escape",
		"gs://bucket/chk":       "expected a path, file:// or s3://",
		"s3://bucket/x#section": "fragment",
	} {
		_, err := Open(loc, keys)
		if err == nil || !strings.Contains(err.Error(), "checkpoint location "+loc) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error naming it with %q", loc, err, want)
		}
	}
	if _, err := Open("", nil); err == nil || !strings.Contains(err.Error(), "empty checkpoint location") {
		t.Errorf("empty location: %v", err)
	}
	if _, err := Open("s3://bucket/x", nil); err == nil || !strings.Contains(err.Error(), "checkpoint location s3://bucket/x: no S3 credentials") {
		t.Errorf("no credentials: %v", err)
	}
	// The s3.* options are checked for every location.
	if _, err := Open(filepath.Join(root, "local"), map[string]string{"s3.endpoint.url": "http://x"}); err == nil || !strings.Contains(err.Error(), "unknown S3 option 's3.endpoint.url'") {
		t.Errorf("unknown option with a local location: %v", err)
	}
	if _, err := Open(filepath.Join(root, "local"), map[string]string{"s3.path.style.access": "yes"}); err == nil {
		t.Errorf("invalid option value with a local location accepted")
	}
}

// TestOpenFromEnvironment: with no s3.* options, the standard AWS
// variables say where the service is and which keys to sign with (the
// test server checks the signature).
func TestOpenFromEnvironment(t *testing.T) {
	clearAWSEnv(t)
	srv := newS3Server(t)
	t.Setenv("AWS_ENDPOINT_URL_S3", srv.url)
	t.Setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1")
	t.Setenv("AWS_ACCESS_KEY_ID", testAccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", testSecretKey)
	t.Setenv("AWS_REGION", "eu-central-1")
	s, err := Open("s3://"+testBucket+"/env", nil)
	if err != nil {
		t.Fatal(err)
	}
	write(t, s, "j", 1, map[string]string{"p": "from the environment"}, true)
	if _, state, err := Latest(context.Background(), s, "j"); err != nil || string(state["p"]) != "from the environment" {
		t.Fatalf("%q (%v)", state["p"], err)
	}
	// Options take precedence: the secret key given is the one used.
	s, err = Open("s3://"+testBucket+"/env", map[string]string{"s3.access-key": testAccessKey, "s3.secret-key": "guess"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Latest(context.Background(), s, "j"); err == nil || !strings.Contains(err.Error(), "SignatureDoesNotMatch") {
		t.Fatalf("the option's secret key: %v", err)
	}
}

func TestS3Options(t *testing.T) {
	envOf := func(vars map[string]string) func(string) (string, bool) {
		return func(name string) (string, bool) { v, ok := vars[name]; return v, ok }
	}
	for name, c := range map[string]struct {
		props, env map[string]string
		want       s3Config
	}{
		"defaults": {nil, nil, s3Config{endpoint: "s3.amazonaws.com", secure: true, lookup: minio.BucketLookupAuto}},
		"flink's documented names": {
			map[string]string{"s3.endpoint": "http://minio:9000", "s3.access-key": "a", "s3.secret-key": "b", "s3.path.style.access": "true"}, nil,
			s3Config{endpoint: "minio:9000", accessKey: "a", secretKey: "b", lookup: minio.BucketLookupPath},
		},
		"hadoop's names": {
			map[string]string{"s3.endpoint": "storage.example.com", "s3.access.key": "a", "s3.secret.key": "b", "s3.endpoint.region": "r", "s3.paging.maximum": "500"}, nil,
			s3Config{endpoint: "storage.example.com", secure: true, accessKey: "a", secretKey: "b", region: "r", lookup: minio.BucketLookupAuto, pageSize: 500},
		},
		"native file system's names": {
			map[string]string{"s3.endpoint": "https://h:9443/", "s3.region": "r", "s3.path-style-access": "False"}, nil,
			s3Config{endpoint: "h:9443", secure: true, region: "r", lookup: minio.BucketLookupDNS},
		},
		"two spellings that agree": {
			map[string]string{"s3.path.style.access": "true", "s3.path-style-access": "true"}, nil,
			s3Config{endpoint: "s3.amazonaws.com", secure: true, lookup: minio.BucketLookupPath},
		},
		"environment": {
			map[string]string{"other.option": "x"},
			map[string]string{
				"AWS_ENDPOINT_URL_S3": "http://s3.local:9000", "AWS_ENDPOINT_URL": "http://other:1",
				"AWS_REGION": "r", "AWS_DEFAULT_REGION": "d",
				"AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b", "AWS_SESSION_TOKEN": "t",
			},
			s3Config{endpoint: "s3.local:9000", accessKey: "a", secretKey: "b", sessionToken: "t", region: "r", lookup: minio.BucketLookupAuto},
		},
		"environment, fallbacks": {
			nil,
			map[string]string{"AWS_ENDPOINT_URL_S3": "", "AWS_ENDPOINT_URL": "http://all.local", "AWS_DEFAULT_REGION": "d"},
			s3Config{endpoint: "all.local", region: "d", lookup: minio.BucketLookupAuto},
		},
		"options before the environment": {
			map[string]string{"s3.endpoint": "http://opt", "s3.access-key": "a", "s3.secret-key": "b", "s3.region": "r"},
			map[string]string{"AWS_ENDPOINT_URL_S3": "http://env", "AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "y", "AWS_SESSION_TOKEN": "t", "AWS_REGION": "e"},
			s3Config{endpoint: "opt", accessKey: "a", secretKey: "b", region: "r", lookup: minio.BucketLookupAuto},
		},
	} {
		got, err := s3ConfigFrom(c.props, envOf(c.env))
		if err != nil || *got != c.want {
			t.Errorf("%s: %+v (%v), want %+v", name, got, err, c.want)
		}
	}
	for name, c := range map[string]struct {
		props, env map[string]string
		want       string
	}{
		"unknown option":     {map[string]string{"s3.connection.maximum": "10"}, nil, "unknown S3 option 's3.connection.maximum': supported are s3.access-key, s3.access.key,"},
		"empty value":        {map[string]string{"s3.region": ""}, nil, "invalid value '' for 's3.region'"},
		"boolean":            {map[string]string{"s3.path.style.access": "yes"}, nil, "invalid value 'yes' for 's3.path.style.access': expected true or false"},
		"page size zero":     {map[string]string{"s3.paging.maximum": "0"}, nil, "invalid value '0' for 's3.paging.maximum': expected a positive integer"},
		"page size word":     {map[string]string{"s3.paging.maximum": "many"}, nil, "invalid value 'many' for 's3.paging.maximum'"},
		"endpoint scheme":    {map[string]string{"s3.endpoint": "ftp://h"}, nil, "invalid value 'ftp://h' for 's3.endpoint': unsupported scheme ftp"},
		"endpoint path":      {map[string]string{"s3.endpoint": "http://h/bucket"}, nil, "invalid value 'http://h/bucket' for 's3.endpoint': an endpoint is"},
		"endpoint host path": {map[string]string{"s3.endpoint": "h/bucket"}, nil, "invalid value 'h/bucket' for 's3.endpoint': expected host[:port]"},
		"endpoint no host":   {map[string]string{"s3.endpoint": "https://"}, nil, "invalid value 'https://' for 's3.endpoint': no host"},
		"endpoint from env":  {nil, map[string]string{"AWS_ENDPOINT_URL_S3": "s3.local/x"}, "for 'AWS_ENDPOINT_URL_S3'"},
		"conflict":           {map[string]string{"s3.path.style.access": "true", "s3.path-style-access": "false"}, nil, "conflicting S3 options: 's3.path-style-access' = 'false' and 's3.path.style.access' = 'true'"},
		"access key alone":   {map[string]string{"s3.access-key": "a"}, nil, "S3 access key 's3.access-key' is given without a secret key"},
		"secret key alone":   {map[string]string{"s3.secret.key": "b"}, nil, "S3 secret key 's3.secret.key' is given without an access key"},
		"env access alone":   {nil, map[string]string{"AWS_ACCESS_KEY_ID": "a"}, "S3 access key 'AWS_ACCESS_KEY_ID' is given without a secret key"},
		// The keys are a pair: an option's is never completed with the
		// environment's.
		"mixed sources": {map[string]string{"s3.access-key": "a"}, map[string]string{"AWS_SECRET_ACCESS_KEY": "b"}, "'s3.access-key' is given without a secret key"},
	} {
		_, err := s3ConfigFrom(c.props, envOf(c.env))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, c.want)
		}
	}
}

func TestOpenCheckpoint(t *testing.T) {
	clearAWSEnv(t)
	root := t.TempDir()
	for _, path := range []string{root + "/job-1/chk-7", root + "/job-1/chk-7/", root + "/job-1/chk-7/_metadata"} {
		s, job, id, err := OpenCheckpoint(path, nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if _, ok := s.(*Dir); !ok || job != "job-1" || id != 7 {
			t.Errorf("%s: %T, %q, %d", path, s, job, id)
		}
	}
	for _, path := range []string{root + "/job-1", root + "/job-1/chk-x", "chk-7", "/chk-7", root + "/job-1/chk-0"} {
		if _, _, _, err := OpenCheckpoint(path, nil); err == nil || !strings.Contains(err.Error(), "expected LOCATION/JOB/chk-N") {
			t.Errorf("%s: %v", path, err)
		}
	}
	if _, job, id, err := OpenCheckpoint("s3://bucket/base/j/chk-3", map[string]string{"s3.access-key": "a", "s3.secret-key": "b", "s3.endpoint": "http://localhost:1"}); err != nil || job != "j" || id != 3 {
		t.Errorf("s3: %q %d %v", job, id, err)
	}
}
