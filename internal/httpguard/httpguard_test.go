package httpguard

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCheck: requests a browser page on another site can send are
// refused; those of non-browser clients and of the endpoint's own origin
// pass.
func TestCheck(t *testing.T) {
	g := New("application/json")
	for _, tc := range []struct {
		name    string
		method  string
		body    string
		headers map[string]string
		status  int // 0: allowed
	}{
		{"curl JSON", "POST", `{}`, map[string]string{"Content-Type": "application/json"}, 0},
		{"JSON with a charset", "POST", `{}`, map[string]string{"Content-Type": "application/json; charset=UTF-8"}, 0},
		{"no body", "POST", "", nil, 0},
		{"same origin", "POST", `{}`, map[string]string{"Content-Type": "application/json", "Origin": "http://example.com", "Sec-Fetch-Site": "same-origin"}, 0},
		{"cross-site text/plain", "POST", `{}`, map[string]string{"Content-Type": "text/plain", "Origin": "http://evil.test", "Sec-Fetch-Site": "cross-site"}, 403},
		{"cross-site JSON", "POST", `{}`, map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403},
		{"same-site other port", "DELETE", "", map[string]string{"Origin": "http://example.com:3000", "Sec-Fetch-Site": "same-site"}, 403},
		{"other origin without Sec-Fetch-Site", "POST", "", map[string]string{"Origin": "http://evil.test"}, 403},
		{"text/plain without Origin", "POST", `{}`, map[string]string{"Content-Type": "text/plain"}, 415},
		{"form", "POST", `a=b`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415},
		{"body without a type", "POST", `{}`, nil, 415},
		{"cross-site GET", "GET", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, 0},
	} {
		r := httptest.NewRequest(tc.method, "http://example.com/v1/sessions", strings.NewReader(tc.body))
		for k, v := range tc.headers {
			r.Header.Set(k, v)
		}
		got := g.Check(r)
		switch {
		case tc.status == 0 && got != nil:
			t.Errorf("%s: refused: %d %s", tc.name, got.Status, got.Msg)
		case tc.status != 0 && (got == nil || got.Status != tc.status):
			t.Errorf("%s: %+v, want status %d", tc.name, got, tc.status)
		case got != nil && tc.status == http.StatusUnsupportedMediaType && !strings.Contains(got.Msg, "application/json"):
			t.Errorf("%s: %q does not name the type to use", tc.name, got.Msg)
		}
	}
}
