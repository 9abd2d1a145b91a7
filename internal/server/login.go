package server

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
)

// A browser cannot send the bearer token with the dashboard's page loads,
// so a server with a token also takes a cookie: POST /login with the
// token sets it. The cookie holds a value derived from the token (an
// HMAC), not the token; it is HttpOnly and SameSite=Strict, and requests
// from other sites are refused anyway (httpguard), so it cannot be used
// by another page.

// loginCookie is the name of the dashboard's cookie.
const loginCookie = "sluice_session"

// cookieValue is the cookie that proves the token was given.
func (s *Server) cookieValue() string {
	m := hmac.New(sha256.New, []byte(s.opts.Token))
	m.Write([]byte("sluice dashboard login"))
	return hex.EncodeToString(m.Sum(nil))
}

// authorized reports whether r carries the token, as a bearer header or
// as the login cookie.
func (s *Server) authorized(r *http.Request) bool {
	if got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) == 1
	}
	if c, err := r.Cookie(loginCookie); err == nil {
		return subtle.ConstantTimeCompare([]byte(c.Value), []byte(s.cookieValue())) == 1
	}
	return false
}

// loginPage asks for the token.
const loginPage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Sluice: log in</title>
<link rel="stylesheet" href="/web/style.css"></head>
<body><main><h1>Sluice</h1>
<p>This server requires its token (<code>sluice server -token</code>).</p>
<form id="login"><label>Token <input id="token" type="password" autocomplete="current-password" autofocus></label>
<button type="submit">Log in</button></form><p id="error" class="error"></p></main>
<script>
document.getElementById("login").addEventListener("submit", async (e) => {
  e.preventDefault();
  const resp = await fetch("/login", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({token: document.getElementById("token").value})});
  if (resp.ok) { location.href = "/"; return; }
  const data = await resp.json();
  document.getElementById("error").textContent = (data.errors || [resp.statusText]).join("\n");
});
</script></body></html>
`

// serveLogin serves GET and POST /login, which need no token. It reports
// whether it served r.
func (s *Server) serveLogin(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.Path != "/login" {
		return false
	}
	switch r.Method {
	case http.MethodGet:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write([]byte(loginPage))
	case http.MethodPost:
		var body struct {
			Token string `json:"token"`
		}
		r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			writeError(w, &restError{status: http.StatusBadRequest, msg: "Bad request: expected {\"token\": \"...\"}"})
			return true
		}
		if subtle.ConstantTimeCompare([]byte(body.Token), []byte(s.opts.Token)) != 1 {
			writeError(w, &restError{status: http.StatusUnauthorized, msg: "Unauthorized: wrong token"})
			return true
		}
		http.SetCookie(w, &http.Cookie{Name: loginCookie, Value: s.cookieValue(), Path: "/",
			HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
		writeJSON(w, http.StatusOK, map[string]any{})
	default:
		w.Header().Set("Allow", "GET, POST")
		writeError(w, &restError{status: http.StatusMethodNotAllowed, msg: "Method not allowed: /login takes GET and POST"})
	}
	return true
}
