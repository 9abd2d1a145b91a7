package checkpoint

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Open returns the Storage at location, written as Flink's
// state.checkpoints.dir is: a plain path or a file:// URL is a Dir;
// s3://BUCKET/PREFIX is an S3 bucket (s3a:// and s3p://, the schemes of
// Flink's Hadoop and Presto S3 file systems, are the same), set up by the
// s3.* options of props under the names of Flink's S3 file systems (see
// s3Spellings), falling back to the standard AWS environment variables
// for the settings that are not given. Keys of props outside s3.* are not
// Open's concern. The s3.* options are checked whatever the location: an
// unknown one or a value that is not understood is an error. Open makes no
// request: a bucket that does not exist or credentials that are refused
// show in the first operation's error.
func Open(location string, props map[string]string) (Storage, error) {
	scheme, isURL := urlScheme(location)
	if !isURL {
		if location == "" {
			return nil, fmt.Errorf("empty checkpoint location")
		}
		if _, err := s3ConfigFrom(props, noEnv); err != nil {
			return nil, err
		}
		return NewDir(location)
	}
	u, err := url.Parse(location)
	if err != nil {
		return nil, fmt.Errorf("checkpoint location %s: %w", location, err)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("checkpoint location %s: user information, a query or a fragment is not supported", location)
	}
	switch scheme {
	case "file":
		if u.Opaque != "" || (u.Host != "" && u.Host != "localhost") || !strings.HasPrefix(u.Path, "/") {
			return nil, fmt.Errorf("checkpoint location %s: expected file:///ABSOLUTE/PATH", location)
		}
		if _, err := s3ConfigFrom(props, noEnv); err != nil {
			return nil, err
		}
		return NewDir(u.Path)
	case "s3", "s3a", "s3p":
		if u.Opaque != "" || u.Host == "" {
			return nil, fmt.Errorf("checkpoint location %s names no bucket: expected %s://BUCKET/PATH", location, scheme)
		}
		if u.Port() != "" {
			return nil, fmt.Errorf("checkpoint location %s: a bucket has no port; the service's goes in 's3.endpoint'", location)
		}
		cfg, err := s3ConfigFrom(props, os.LookupEnv)
		if err != nil {
			return nil, err
		}
		if cfg.accessKey == "" {
			return nil, fmt.Errorf("checkpoint location %s: no S3 credentials: set 's3.access-key' and 's3.secret-key', or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (IAM roles and credential files are not read)", location)
		}
		client, err := minio.New(cfg.endpoint, &minio.Options{
			Creds:        credentials.NewStaticV4(cfg.accessKey, cfg.secretKey, cfg.sessionToken),
			Secure:       cfg.secure,
			Region:       cfg.region,
			BucketLookup: cfg.lookup,
		})
		if err != nil {
			return nil, fmt.Errorf("checkpoint location %s: S3 endpoint %s: %w", location, cfg.endpoint, err)
		}
		s, err := NewS3(client, u.Host, u.Path)
		if err != nil {
			return nil, fmt.Errorf("checkpoint location %s: %w", location, err)
		}
		s.pageSize = cfg.pageSize
		return s, nil
	}
	return nil, fmt.Errorf("checkpoint location %s: unsupported scheme %s: expected a path, file:// or s3://", location, scheme)
}

// schemeRE matches the scheme of a URL (RFC 3986), of two letters at least
// so that a Windows drive is no scheme.
var schemeRE = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]+):`)

// urlScheme returns the scheme of location, in lower case, if it is a URL.
func urlScheme(location string) (string, bool) {
	m := schemeRE.FindStringSubmatch(location)
	if m == nil {
		return "", false
	}
	return strings.ToLower(m[1]), true
}

// s3Spellings maps each s3.* option Open understands to the setting it
// spells. Flink's S3 file systems name some settings differently: its
// documentation (s3.endpoint, s3.access-key, s3.secret-key,
// s3.path.style.access), its Hadoop file system, where s3.X stands for
// Hadoop's fs.s3a.X (s3.access.key, s3.endpoint.region,
// s3.paging.maximum), and its native one (s3.region,
// s3.path-style-access).
var s3Spellings = map[string]string{
	"s3.endpoint":          "s3.endpoint",
	"s3.access-key":        "s3.access-key",
	"s3.access.key":        "s3.access-key",
	"s3.secret-key":        "s3.secret-key",
	"s3.secret.key":        "s3.secret-key",
	"s3.path.style.access": "s3.path.style.access",
	"s3.path-style-access": "s3.path.style.access",
	"s3.region":            "s3.region",
	"s3.endpoint.region":   "s3.region",
	"s3.paging.maximum":    "s3.paging.maximum",
}

// s3Config is how to reach an S3-compatible service.
type s3Config struct {
	// endpoint is host[:port], secure whether through TLS.
	endpoint string
	secure   bool
	// accessKey is empty when no credentials were given.
	accessKey, secretKey, sessionToken string
	// region is empty to ask the service for the bucket's.
	region   string
	lookup   minio.BucketLookupType
	pageSize int
}

// setting is the value of a setting and the option or environment variable
// it came from.
type setting struct{ from, value string }

// noEnv is an environment with no variables.
func noEnv(string) (string, bool) { return "", false }

// s3ConfigFrom reads the s3.* options of props, with lookupEnv's AWS
// variables for the settings they leave out.
func s3ConfigFrom(props map[string]string, lookupEnv func(string) (string, bool)) (*s3Config, error) {
	given := map[string]setting{}
	for _, key := range slices.Sorted(maps.Keys(props)) {
		if !strings.HasPrefix(key, "s3.") {
			continue
		}
		name, ok := s3Spellings[key]
		if !ok {
			return nil, fmt.Errorf("unknown S3 option '%s': supported are %s", key, strings.Join(slices.Sorted(maps.Keys(s3Spellings)), ", "))
		}
		value := props[key]
		if value == "" {
			return nil, fmt.Errorf("invalid value '' for '%s': expected a value", key)
		}
		if prev, ok := given[name]; ok && prev.value != value {
			return nil, fmt.Errorf("conflicting S3 options: '%s' = '%s' and '%s' = '%s'", prev.from, prev.value, key, value)
		}
		given[name] = setting{key, value}
	}
	env := func(vars ...string) (setting, bool) {
		for _, v := range vars {
			if value, ok := lookupEnv(v); ok && value != "" {
				return setting{v, value}, true
			}
		}
		return setting{}, false
	}
	get := func(name string, vars ...string) (setting, bool) {
		if s, ok := given[name]; ok {
			return s, true
		}
		return env(vars...)
	}

	cfg := &s3Config{endpoint: "s3.amazonaws.com", secure: true, lookup: minio.BucketLookupAuto}
	if s, ok := get("s3.endpoint", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"); ok {
		var err error
		if cfg.endpoint, cfg.secure, err = parseEndpoint(s.value); err != nil {
			return nil, fmt.Errorf("invalid value '%s' for '%s': %v", s.value, s.from, err)
		}
	}
	if s, ok := get("s3.region", "AWS_REGION", "AWS_DEFAULT_REGION"); ok {
		cfg.region = s.value
	}
	if s, ok := get("s3.path.style.access"); ok {
		switch strings.ToLower(s.value) {
		case "true":
			cfg.lookup = minio.BucketLookupPath
		case "false":
			cfg.lookup = minio.BucketLookupDNS
		default:
			return nil, fmt.Errorf("invalid value '%s' for '%s': expected true or false", s.value, s.from)
		}
	}
	if s, ok := get("s3.paging.maximum"); ok {
		n, err := strconv.Atoi(s.value)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("invalid value '%s' for '%s': expected a positive integer", s.value, s.from)
		}
		cfg.pageSize = n
	}

	// Keys come as a pair, both from the options or both from the
	// environment, never one of each.
	access, hasAccess := given["s3.access-key"]
	secret, hasSecret := given["s3.secret-key"]
	if !hasAccess && !hasSecret {
		access, hasAccess = env("AWS_ACCESS_KEY_ID")
		secret, hasSecret = env("AWS_SECRET_ACCESS_KEY")
		if token, ok := env("AWS_SESSION_TOKEN"); ok && hasAccess {
			cfg.sessionToken = token.value
		}
	}
	switch {
	case hasAccess && !hasSecret:
		return nil, fmt.Errorf("S3 access key '%s' is given without a secret key", access.from)
	case hasSecret && !hasAccess:
		return nil, fmt.Errorf("S3 secret key '%s' is given without an access key", secret.from)
	}
	cfg.accessKey, cfg.secretKey = access.value, secret.value
	return cfg, nil
}

// parseEndpoint reads an S3 endpoint, a URL with an http or https scheme
// or a host[:port] reached through https.
func parseEndpoint(endpoint string) (host string, secure bool, err error) {
	if !strings.Contains(endpoint, "://") {
		if strings.ContainsAny(endpoint, "/?#@") {
			return "", false, fmt.Errorf("expected host[:port] or an http(s) URL")
		}
		return endpoint, true, nil
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", false, err
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", false, fmt.Errorf("unsupported scheme %s: expected http or https", u.Scheme)
	case u.Host == "":
		return "", false, fmt.Errorf("no host")
	case (u.Path != "" && u.Path != "/") || u.User != nil || u.RawQuery != "" || u.Fragment != "":
		return "", false, fmt.Errorf("an endpoint is a scheme, a host and a port, with no path, user, query or fragment")
	}
	return u.Host, u.Scheme == "https", nil
}

// OpenCheckpoint opens the storage holding the checkpoint at path, written
// LOCATION/JOB/chk-N as Flink's execution.savepoint.path names a retained
// checkpoint (a trailing '/' or '/_metadata' is allowed), and returns it
// with the job and checkpoint it names.
func OpenCheckpoint(path string, props map[string]string) (Storage, string, int64, error) {
	p := strings.TrimSuffix(strings.TrimSuffix(path, "/"), "/"+metadataName)
	chk := p[strings.LastIndex(p, "/")+1:]
	id, ok := parseChkName(chk)
	rest := strings.TrimSuffix(p, "/"+chk)
	job := rest[strings.LastIndex(rest, "/")+1:]
	root := strings.TrimSuffix(rest, "/"+job)
	if !ok || job == "" || root == rest || root == "" || checkJob(job) != nil {
		return nil, "", 0, fmt.Errorf("checkpoint path '%s': expected LOCATION/JOB/chk-N", path)
	}
	s, err := Open(root, props)
	if err != nil {
		return nil, "", 0, err
	}
	return s, job, id, nil
}

// Load reads checkpoint id of job and checks every part against its
// metadata: a damaged or incomplete checkpoint is an error, never loaded.
func Load(ctx context.Context, s Storage, job string, id int64) (*Metadata, map[string][]byte, error) {
	meta, state, err := load(ctx, s, job, id)
	if err != nil {
		return nil, nil, fmt.Errorf("checkpoint %d of job %s: %w", id, job, err)
	}
	return meta, state, nil
}
