package kafka

// SASL for security.protocol SASL_PLAINTEXT and SASL_SSL, set up from
// Kafka's sasl.mechanism and sasl.jaas.config client properties.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// The sasl.* client properties Sluice supports.
const (
	saslMechanism        = "sasl.mechanism"
	saslJAASConfig       = "sasl.jaas.config"
	saslLoginHandler     = "sasl.login.callback.handler.class"
	saslTokenEndpointURL = "sasl.oauthbearer.token.endpoint.url"
	saslSubClaimName     = "sasl.oauthbearer.sub.claim.name"
	saslScopeClaimName   = "sasl.oauthbearer.scope.claim.name"
)

var saslProperties = []string{saslMechanism, saslJAASConfig, saslLoginHandler, saslTokenEndpointURL, saslSubClaimName, saslScopeClaimName}

// Login modules, named as in Kafka; Flink's SQL connector jar shades them
// under a prefix (org.apache.flink.kafka.shaded.), which is accepted.
const (
	plainModule = "org.apache.kafka.common.security.plain.PlainLoginModule"
	scramModule = "org.apache.kafka.common.security.scram.ScramLoginModule"
	oauthModule = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
)

// Kafka's login callback handler that fetches OAUTHBEARER tokens, before
// and since Kafka 3.4.
var oauthLoginHandlers = []string{
	"org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
	"org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler",
}

// isClass tells whether name is class, possibly shaded under a prefix.
func isClass(name, class string) bool {
	return name == class || strings.HasSuffix(name, "."+class)
}

// saslOptions maps sasl.mechanism and sasl.jaas.config, with the
// OAUTHBEARER token settings.
func saslOptions(props map[string]string) ([]kgo.Opt, error) {
	mech := props[saslMechanism]
	if mech != "OAUTHBEARER" {
		for _, k := range []string{saslLoginHandler, saslTokenEndpointURL, saslSubClaimName, saslScopeClaimName} {
			if _, ok := props[k]; ok {
				return nil, badProperty(props, k, "applies only to '%s%s' OAUTHBEARER", propertiesPrefix, saslMechanism)
			}
		}
	}
	var m sasl.Mechanism
	var err error
	switch mech {
	case "", "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512":
		m, err = passwordMechanism(props, mech)
	case "OAUTHBEARER":
		m, err = oauthMechanism(props)
	case "GSSAPI":
		return nil, badProperty(props, saslMechanism, "Kerberos (GSSAPI) is not supported; supported: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER")
	default:
		return nil, badProperty(props, saslMechanism, "unsupported SASL mechanism '%s'; supported: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER", mech)
	}
	if err != nil {
		return nil, err
	}
	return []kgo.Opt{kgo.SASL(m)}, nil
}

// passwordMechanism is PLAIN (also when sasl.mechanism is not set) or
// SCRAM with the username and password of PlainLoginModule or
// ScramLoginModule (Kafka reads both modules' credentials the same way),
// and ScramLoginModule's tokenauth for delegation tokens.
func passwordMechanism(props map[string]string, mech string) (sasl.Mechanism, error) {
	if props[saslJAASConfig] == "" {
		return nil, badProperty(props, securityProtocolKey, `SASL needs '%s%s' with username="..." and password="..."`, propertiesPrefix, saslJAASConfig)
	}
	module, opts, err := parseJAAS(props[saslJAASConfig])
	if err != nil {
		return nil, badProperty(props, saslJAASConfig, "%v", err)
	}
	if !isClass(module, plainModule) && !isClass(module, scramModule) {
		return nil, badProperty(props, saslJAASConfig, "SASL mechanism %s needs %s or %s, not %s", orDefault(mech, "PLAIN"), plainModule, scramModule, module)
	}
	allowed := []string{"username", "password"}
	if strings.HasPrefix(mech, "SCRAM") {
		allowed = append(allowed, "tokenauth")
	}
	if err := onlyOptions(opts, allowed...); err != nil {
		return nil, badProperty(props, saslJAASConfig, "%v", err)
	}
	user, pass := opts["username"], opts["password"]
	if user == "" {
		return nil, badProperty(props, saslJAASConfig, `SASL needs username="..." and password="..."`)
	}
	token := false
	if v, ok := opts["tokenauth"]; ok {
		if token, err = strconv.ParseBool(v); err != nil {
			return nil, badProperty(props, saslJAASConfig, "tokenauth: expected true or false")
		}
	}
	switch mech {
	case "SCRAM-SHA-256":
		return scram.Auth{User: user, Pass: pass, IsToken: token}.AsSha256Mechanism(), nil
	case "SCRAM-SHA-512":
		return scram.Auth{User: user, Pass: pass, IsToken: token}.AsSha512Mechanism(), nil
	}
	return plain.Auth{User: user, Pass: pass}.AsMechanism(), nil
}

// orDefault returns v, or def when v is empty.
func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// onlyOptions refuses JAAS options other than the allowed ones: a login
// module ignores the options it does not know.
func onlyOptions(opts map[string]string, allowed ...string) error {
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if !slices.Contains(allowed, k) {
			return fmt.Errorf("unsupported login module option '%s'; supported: %s", k, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// oauthMechanism is OAUTHBEARER with OAuthBearerLoginModule and either of
// Kafka's two ways to get a token without an identity provider: the
// unsecured token its default login callback handler makes from the
// unsecuredLogin* module options, or a token read from the file that
// sasl.oauthbearer.token.endpoint.url names (a file: URL) with
// OAuthBearerLoginCallbackHandler. Tokens are made or read anew at each
// authentication, so a token file may be replaced while tables read.
// Fetching tokens from an OIDC token endpoint (an http or https URL) is
// not supported.
func oauthMechanism(props map[string]string) (sasl.Mechanism, error) {
	if props[saslJAASConfig] == "" {
		return nil, badProperty(props, securityProtocolKey, "SASL OAUTHBEARER needs '%s%s' with %s", propertiesPrefix, saslJAASConfig, oauthModule)
	}
	module, opts, err := parseJAAS(props[saslJAASConfig])
	if err != nil {
		return nil, badProperty(props, saslJAASConfig, "%v", err)
	}
	if !isClass(module, oauthModule) {
		return nil, badProperty(props, saslJAASConfig, "SASL mechanism OAUTHBEARER needs %s, not %s", oauthModule, module)
	}
	handler, hasHandler := props[saslLoginHandler]
	if !hasHandler {
		for _, k := range []string{saslTokenEndpointURL, saslSubClaimName, saslScopeClaimName} {
			if _, ok := props[k]; ok {
				return nil, badProperty(props, k, "applies only with '%s%s' = %s", propertiesPrefix, saslLoginHandler, oauthLoginHandlers[0])
			}
		}
		login, err := newUnsecuredLogin(opts)
		if err != nil {
			return nil, badProperty(props, saslJAASConfig, "%v", err)
		}
		return oauth.Oauth(func(context.Context) (oauth.Auth, error) {
			tok, err := login.token(time.Now())
			return oauth.Auth{Token: tok, Extensions: login.extensions}, err
		}), nil
	}
	if !slices.ContainsFunc(oauthLoginHandlers, func(c string) bool { return isClass(handler, c) }) {
		return nil, badProperty(props, saslLoginHandler, "not supported; supported: %s (with a file: token URL), or none for Kafka's unsecured tokens", oauthLoginHandlers[0])
	}
	path, err := tokenFile(props)
	if err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		switch {
		case strings.HasPrefix(k, "extension_"):
		case k == "clientId" || k == "clientSecret" || k == "scope":
			return nil, badProperty(props, saslJAASConfig, "login module option '%s' is for fetching tokens from an OIDC token endpoint, which is not supported", k)
		default:
			return nil, badProperty(props, saslJAASConfig, "unsupported login module option '%s'; with a token file, supported: extension_<name>", k)
		}
	}
	extensions, err := loginExtensions(opts, "extension_")
	if err != nil {
		return nil, badProperty(props, saslJAASConfig, "%v", err)
	}
	claims := tokenClaims{sub: orDefault(props[saslSubClaimName], "sub"), scope: orDefault(props[saslScopeClaimName], "scope")}
	if _, err := claims.read(path); err != nil {
		return nil, badProperty(props, saslTokenEndpointURL, "%v", err)
	}
	return oauth.Oauth(func(context.Context) (oauth.Auth, error) {
		tok, err := claims.read(path)
		return oauth.Auth{Token: tok, Extensions: extensions}, err
	}), nil
}

// tokenFile returns the path of sasl.oauthbearer.token.endpoint.url, which
// must be a file: URL.
func tokenFile(props map[string]string) (string, error) {
	v, ok := props[saslTokenEndpointURL]
	if !ok {
		return "", badProperty(props, saslLoginHandler, "needs '%s%s', a file: URL naming a file that holds the token", propertiesPrefix, saslTokenEndpointURL)
	}
	u, err := url.Parse(v)
	switch {
	case err != nil:
		return "", badProperty(props, saslTokenEndpointURL, "%v", err)
	case u.Scheme == "http" || u.Scheme == "https":
		return "", badProperty(props, saslTokenEndpointURL, "OIDC token endpoints are not supported; a file: URL naming a file that holds the token is")
	case u.Scheme != "file":
		return "", badProperty(props, saslTokenEndpointURL, "expected a file: URL naming a file that holds the token")
	case u.Host != "" && u.Host != "localhost":
		return "", badProperty(props, saslTokenEndpointURL, "a file: URL names a local file, not one on host %s", u.Host)
	}
	if u.Opaque != "" { // file:relative/path
		return url.PathUnescape(u.Opaque)
	}
	return u.Path, nil
}

// tokenClaims reads token files with the checks of Kafka's client-side
// JWT validator (ClientJwtValidator): three sections, a payload with a
// non-negative exp, a non-empty subject claim, a non-negative iat if any,
// and non-empty scopes. The signature is the broker's to check.
type tokenClaims struct{ sub, scope string }

func (tc tokenClaims) read(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	tok := strings.TrimSpace(string(data))
	parts := strings.Split(tok, ".")
	if len(parts) != 3 || slices.Contains(parts, "") {
		return "", fmt.Errorf("the token in %s is not a JWT: expected three non-empty sections", path)
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	var claims map[string]any
	if err == nil {
		err = json.Unmarshal(payload, &claims)
	}
	if err != nil {
		return "", fmt.Errorf("the token in %s has no readable JSON payload: %v", path, err)
	}
	if exp, ok := claims["exp"].(float64); !ok || exp < 0 {
		return "", fmt.Errorf("the token in %s has no valid 'exp' claim", path)
	}
	if iat, ok := claims["iat"]; ok {
		if v, ok := iat.(float64); !ok || v < 0 {
			return "", fmt.Errorf("the token in %s has an invalid 'iat' claim", path)
		}
	}
	if sub, ok := claims[tc.sub].(string); !ok || strings.TrimSpace(sub) == "" {
		return "", fmt.Errorf("the token in %s has no '%s' claim", path, tc.sub)
	}
	if err := checkScope(claims[tc.scope]); err != nil {
		return "", fmt.Errorf("the token in %s: '%s' claim: %v", path, tc.scope, err)
	}
	return tok, nil
}

// checkScope checks a scope claim: absent, a string or a list of strings,
// without empty scopes.
func checkScope(v any) error {
	var scopes []string
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		scopes = []string{v}
	case []any:
		for _, s := range v {
			str, ok := s.(string)
			if !ok {
				return errors.New("expected strings")
			}
			scopes = append(scopes, str)
		}
	default:
		return errors.New("expected a string or a list of strings")
	}
	for _, s := range scopes {
		if strings.TrimSpace(s) == "" {
			return errors.New("empty scope")
		}
	}
	return nil
}

// unsecuredLogin makes Kafka's unsecured OAUTHBEARER tokens (alg "none")
// from OAuthBearerLoginModule's options, as Kafka's
// OAuthBearerUnsecuredLoginCallbackHandler does: unsecuredLoginStringClaim_<name>,
// unsecuredLoginNumberClaim_<name>, unsecuredLoginListClaim_<name> (the
// first character separates the items), unsecuredLoginExtension_<name>,
// unsecuredLoginPrincipalClaimName (default sub),
// unsecuredLoginLifetimeSeconds (default 3600) and
// unsecuredLoginScopeClaimName (default scope). The iat and exp claims are
// set from the time of each login. Brokers accept such tokens only when
// configured for them, which is meant for development.
type unsecuredLogin struct {
	claims     map[string]any
	principal  string
	scope      string
	lifetime   int64
	extensions map[string]string
}

const unsecuredPrefix = "unsecuredLogin"

// newUnsecuredLogin reads the module options of unsecured tokens.
func newUnsecuredLogin(opts map[string]string) (*unsecuredLogin, error) {
	l := &unsecuredLogin{claims: map[string]any{}, principal: "sub", scope: "scope", lifetime: 3600}
	var err error
	if l.extensions, err = loginExtensions(opts, unsecuredPrefix+"Extension_"); err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		v := opts[k]
		name, kind, ok := unsecuredClaim(k)
		switch {
		case strings.HasPrefix(k, unsecuredPrefix+"Extension_"):
		case ok && (name == "iat" || name == "exp"):
			return nil, fmt.Errorf("%s: the '%s' claim is set automatically", k, name)
		case ok && kind == "String":
			l.claims[name] = v
		case ok && kind == "Number":
			n, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
				return nil, fmt.Errorf("%s: expected a number", k)
			}
			l.claims[name] = n
		case ok && kind == "List":
			items := []any{}
			if len(v) > 1 {
				for _, item := range strings.Split(v[1:], v[:1]) {
					items = append(items, item)
				}
			}
			l.claims[name] = items
		case k == unsecuredPrefix+"PrincipalClaimName":
			l.principal = orDefault(strings.TrimSpace(v), "sub")
		case k == unsecuredPrefix+"ScopeClaimName":
			l.scope = orDefault(strings.TrimSpace(v), "scope")
		case k == unsecuredPrefix+"LifetimeSeconds":
			if l.lifetime, err = strconv.ParseInt(v, 10, 64); err != nil {
				return nil, fmt.Errorf("%s: expected a whole number of seconds", k)
			}
		default:
			return nil, fmt.Errorf("unsupported login module option '%s'; OAuthBearerLoginModule's unsecured tokens take %s* options, "+
				"and a token file needs '%s%s' = %s", k, unsecuredPrefix, propertiesPrefix, saslLoginHandler, oauthLoginHandlers[0])
		}
	}
	if sub, ok := l.claims[l.principal].(string); !ok || strings.TrimSpace(sub) == "" {
		return nil, fmt.Errorf("the unsecured token needs its principal: set %sStringClaim_%s", unsecuredPrefix, l.principal)
	}
	if err := checkScope(l.claims[l.scope]); err != nil {
		return nil, fmt.Errorf("the scope claim '%s': %v", l.scope, err)
	}
	return l, nil
}

// unsecuredClaim splits an option unsecuredLogin<kind>Claim_<name>.
func unsecuredClaim(k string) (name, kind string, ok bool) {
	for _, kd := range []string{"String", "Number", "List"} {
		if n, found := strings.CutPrefix(k, unsecuredPrefix+kd+"Claim_"); found && n != "" {
			return n, kd, true
		}
	}
	return "", "", false
}

// token returns an unsecured JWT issued at now: header {"alg":"none"},
// the claims, and an empty signature.
func (l *unsecuredLogin) token(now time.Time) (string, error) {
	claims := make(map[string]any, len(l.claims)+2)
	for k, v := range l.claims {
		claims[k] = v
	}
	iat := float64(now.UnixMilli()) / 1000
	claims["iat"] = iat
	claims["exp"] = iat + float64(l.lifetime)
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(`{"alg":"none"}`)) + "." + enc.EncodeToString(payload) + ".", nil
}

// SASL extension names and values allowed by Kafka
// (OAuthBearerClientInitialResponse); "auth" is reserved.
var (
	extensionName  = regexp.MustCompile(`^[A-Za-z]+$`)
	extensionValue = regexp.MustCompile(`^[\x21-\x7E \t\r\n]+$`)
)

// loginExtensions gathers the SASL extensions of the module options named
// prefix<name>.
func loginExtensions(opts map[string]string, prefix string) (map[string]string, error) {
	ext := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		name, ok := strings.CutPrefix(k, prefix)
		switch {
		case !ok:
		case !extensionName.MatchString(name) || name == "auth":
			return nil, fmt.Errorf("%s: invalid SASL extension name '%s'", k, name)
		case !extensionValue.MatchString(opts[k]):
			return nil, fmt.Errorf("%s: invalid SASL extension value", k)
		default:
			ext[name] = opts[k]
		}
	}
	return ext, nil
}

// parseJAAS parses a sasl.jaas.config value, "<LoginModule class>
// <flag> (<name>=<value>)*;", with the tokens of Kafka's JaasConfig: values
// are words or quoted strings (with Java escapes), comments are // and
// /* */, and a client has exactly one login module.
func parseJAAS(s string) (module string, opts map[string]string, err error) {
	lx := &jaasLexer{s: s}
	word := func(what string) (string, error) {
		kind, text, err := lx.next()
		if err != nil {
			return "", err
		}
		if kind != 'w' && kind != '"' {
			return "", fmt.Errorf("expected %s", what)
		}
		return text, nil
	}
	if module, err = word("a login module class"); err != nil {
		return "", nil, err
	}
	flag, err := word("the login module's control flag")
	if err != nil {
		return "", nil, err
	}
	if !slices.Contains([]string{"REQUIRED", "REQUISITE", "SUFFICIENT", "OPTIONAL"}, strings.ToUpper(flag)) {
		return "", nil, fmt.Errorf("invalid login module control flag '%s'", flag)
	}
	opts = map[string]string{}
	for {
		kind, key, err := lx.next()
		switch {
		case err != nil:
			return "", nil, err
		case kind == ';':
			if kind, _, err := lx.next(); err != nil || kind != 0 {
				return "", nil, errors.New("a client takes exactly one login module")
			}
			return module, opts, nil
		case kind == 0:
			return "", nil, errors.New("the login module is not terminated by a semicolon")
		case kind != 'w' && kind != '"':
			return "", nil, fmt.Errorf("unexpected '%c'", kind)
		}
		if kind, _, err := lx.next(); err != nil || kind != '=' {
			return "", nil, fmt.Errorf("no value for option '%s'", key)
		}
		if opts[key], err = word(fmt.Sprintf("a value for option '%s'", key)); err != nil {
			return "", nil, err
		}
	}
}

// jaasLexer splits a JAAS configuration into tokens.
type jaasLexer struct {
	s string
	i int
}

// next returns the next token: kind 'w' (a word), '"' (a quoted string),
// ';' or '=' (themselves), or 0 at the end.
func (l *jaasLexer) next() (kind byte, text string, err error) {
	for l.i < len(l.s) {
		c := l.s[l.i]
		switch {
		case c <= ' ':
			l.i++
		case strings.HasPrefix(l.s[l.i:], "/*"):
			end := strings.Index(l.s[l.i+2:], "*/")
			if end < 0 {
				return 0, "", errors.New("unterminated comment")
			}
			l.i += end + 4
		case c == '/': // '/' starts a comment to the end of the line
			end := strings.IndexAny(l.s[l.i:], "\r\n")
			if end < 0 {
				end = len(l.s) - l.i
			}
			l.i += end
		case c == ';' || c == '=':
			l.i++
			return c, "", nil
		case c == '"' || c == '\'':
			return l.quoted(c)
		default:
			start := l.i
			for l.i < len(l.s) && l.s[l.i] > ' ' && !strings.ContainsRune(";=\"'/", rune(l.s[l.i])) {
				l.i++
			}
			return 'w', l.s[start:l.i], nil
		}
	}
	return 0, "", nil
}

// quoted reads a string quoted by q, with the escapes of Java's
// StreamTokenizer.
func (l *jaasLexer) quoted(q byte) (byte, string, error) {
	var b strings.Builder
	escapes := map[byte]byte{'a': 7, 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}
	for l.i++; l.i < len(l.s); l.i++ {
		c := l.s[l.i]
		switch {
		case c == q:
			l.i++
			return '"', b.String(), nil
		case c == '\n' || c == '\r':
			return 0, "", errors.New("unterminated quoted value")
		case c == '\\' && l.i+1 < len(l.s):
			l.i++
			c = l.s[l.i]
			if e, ok := escapes[c]; ok {
				b.WriteByte(e)
			} else if c >= '0' && c <= '7' {
				n := 0
				for j := 0; j < 3 && l.i < len(l.s) && l.s[l.i] >= '0' && l.s[l.i] <= '7' && n*8+int(l.s[l.i]-'0') <= 0xff; j++ {
					n = n*8 + int(l.s[l.i]-'0')
					l.i++
				}
				l.i--
				b.WriteByte(byte(n))
			} else {
				b.WriteByte(c)
			}
		default:
			b.WriteByte(c)
		}
	}
	return 0, "", errors.New("unterminated quoted value")
}
