// Package httpguard keeps browsers on other sites from driving Sluice's
// HTTP endpoints (the SQL Gateway REST API, the embedded Schema Registry).
//
// A page on any site can make a browser send a "simple" request to a
// loopback port: a POST whose body is text/plain, a form or multipart,
// without the page being allowed to read the answer. Such a request must
// not register a schema or run a statement, so a guarded handler refuses
//
//   - a request that is not safe (not GET, HEAD or OPTIONS) whose
//     Sec-Fetch-Site says it comes from another origin, or whose Origin is
//     not the host it was sent to (net/http's CrossOriginProtection), and
//   - a request with a body whose Content-Type is not one the endpoint
//     takes: JSON cannot be sent cross-site without the browser asking the
//     server first (a CORS preflight), which Sluice never allows.
package httpguard

import (
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"
)

// Refusal says why a request was refused, with the status to answer.
type Refusal struct {
	Status int
	Msg    string
}

// Guard checks requests against cross-site use.
type Guard struct {
	// ContentTypes are the media types a request body may have (without
	// parameters, lower case).
	ContentTypes []string
	cop          *http.CrossOriginProtection
}

// New returns a guard that takes bodies of the given media types.
func New(contentTypes ...string) *Guard {
	return &Guard{ContentTypes: contentTypes, cop: http.NewCrossOriginProtection()}
}

// Check returns why r must be refused, or nil.
func (g *Guard) Check(r *http.Request) *Refusal {
	if err := g.cop.Check(r); err != nil {
		return &Refusal{Status: http.StatusForbidden, Msg: fmt.Sprintf(
			"Forbidden: cross-origin request refused (%v; Origin %q, Sec-Fetch-Site %q): this endpoint takes requests from its own origin and non-browser clients only",
			err, r.Header.Get("Origin"), r.Header.Get("Sec-Fetch-Site"))}
	}
	if r.ContentLength == 0 {
		return nil // no body (a body of unknown length is checked)
	}
	ct := r.Header.Get("Content-Type")
	media, _, err := mime.ParseMediaType(ct)
	if err != nil || !slices.Contains(g.ContentTypes, strings.ToLower(media)) {
		if ct == "" {
			ct = "none"
		}
		return &Refusal{Status: http.StatusUnsupportedMediaType, Msg: fmt.Sprintf(
			"Unsupported Media Type: a request body must have Content-Type %s, not %s",
			strings.Join(g.ContentTypes, " or "), ct)}
	}
	return nil
}
