package devcluster

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/sr"
)

// TestRegistryRefusesCrossSite: what a browser page on another site can
// send (a text/plain or form POST, or a JSON one that says it is
// cross-site) registers no schema; the registry's own clients still do.
func TestRegistryRefusesCrossSite(t *testing.T) {
	c := start(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const body = `{"schema": "\"string\""}`
	url := c.RegistryURL() + "/subjects/t-value/versions"
	for _, tc := range []struct {
		name    string
		headers map[string]string
		status  int
	}{
		{"text/plain", map[string]string{"Content-Type": "text/plain"}, 415},
		{"form", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415},
		{"cross-site JSON", map[string]string{"Content-Type": "application/vnd.schemaregistry.v1+json", "Origin": "http://evil.test", "Sec-Fetch-Site": "cross-site"}, 403},
		{"text/plain from another origin", map[string]string{"Content-Type": "text/plain", "Origin": "http://evil.test"}, 403},
	} {
		req, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range tc.headers {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.status)
		}
	}
	reg, err := sr.NewClient(sr.URLs(c.RegistryURL()))
	if err != nil {
		t.Fatal(err)
	}
	if subjects, err := reg.Subjects(ctx); err != nil || len(subjects) != 0 {
		t.Fatalf("subjects after the refused requests: %v %v", subjects, err)
	}
	if _, err := reg.CreateSchema(ctx, "t-value", sr.Schema{Schema: `"string"`, Type: sr.TypeAvro}); err != nil {
		t.Fatalf("the registry's own client: %v", err)
	}
}
