package kafka

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func TestParseJAAS(t *testing.T) {
	for in, want := range map[string]map[string]string{
		`org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="s3cr=t;";`: {
			"username": "alice", "password": "s3cr=t;"},
		"x.Module Required\n  // a comment\n  a=word /* another */ b='single' c=\"tab\\there \\\"q\\\" \\101\";  ": {
			"a": "word", "b": "single", "c": "tab\there \"q\" A"},
		`x.Module optional;`: {},
	} {
		module, opts, err := parseJAAS(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if !strings.HasSuffix(module, "Module") || !maps.Equal(opts, want) {
			t.Errorf("%q: got %s %v, want %v", in, module, opts, want)
		}
	}
	for in, want := range map[string]string{
		``:                          "expected a login module class",
		`x.Module`:                  "expected the login module's control flag",
		`x.Module maybe;`:           "invalid login module control flag 'maybe'",
		`x.Module required a="b"`:   "the login module is not terminated by a semicolon",
		`x.Module required a;`:      "no value for option 'a'",
		`x.Module required a=;`:     "expected a value for option 'a'",
		`x.Module required a="b`:    "unterminated quoted value",
		`x.Module required; y.M r;`: "a client takes exactly one login module",
	} {
		if _, _, err := parseJAAS(in); err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %q", in, err, want)
		}
	}
}

// oauthBroker is a kfake broker that authenticates OAUTHBEARER clients,
// which kfake does not implement: control functions answer the SASL
// handshake and check each client's initial response (RFC 7628 section
// 3.1) with check, failing the authentication when it returns an error.
type oauthBroker struct {
	addr   string
	mu     sync.Mutex
	tokens []string
}

func startOAuthBroker(t *testing.T, check func(token string, ext map[string]string) error) *oauthBroker {
	t.Helper()
	kc, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kc.Close)
	b := &oauthBroker{addr: kc.ListenAddrs()[0]}
	kc.ControlKey(int16(kmsg.SASLHandshake), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kc.KeepControl()
		r := req.(*kmsg.SASLHandshakeRequest)
		resp := r.ResponseKind().(*kmsg.SASLHandshakeResponse)
		resp.SupportedMechanisms = []string{"OAUTHBEARER"}
		if r.Mechanism != "OAUTHBEARER" {
			resp.ErrorCode = kerr.UnsupportedSaslMechanism.Code
		}
		return resp, nil, true
	})
	kc.ControlKey(int16(kmsg.SASLAuthenticate), func(req kmsg.Request) (kmsg.Response, error, bool) {
		kc.KeepControl()
		r := req.(*kmsg.SASLAuthenticateRequest)
		resp := r.ResponseKind().(*kmsg.SASLAuthenticateResponse)
		token, ext, err := parseInitialResponse(r.SASLAuthBytes)
		if err == nil {
			err = check(token, ext)
		}
		if err != nil {
			resp.ErrorCode = kerr.SaslAuthenticationFailed.Code
			resp.ErrorMessage = kmsg.StringPtr(err.Error())
			return resp, nil, true
		}
		b.mu.Lock()
		b.tokens = append(b.tokens, token)
		b.mu.Unlock()
		return resp, nil, true
	})
	return b
}

// accepted returns the tokens accepted so far.
func (b *oauthBroker) accepted() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.tokens)
}

// parseInitialResponse reads "n,,\x01auth=Bearer <token>\x01(<k>=<v>\x01)*\x01".
func parseInitialResponse(b []byte) (string, map[string]string, error) {
	gs2, rest, ok := strings.Cut(string(b), "\x01")
	if !ok || gs2 != "n,," || !strings.HasSuffix(rest, "\x01\x01") {
		return "", nil, fmt.Errorf("malformed initial response %q", b)
	}
	var token string
	ext := map[string]string{}
	for _, kv := range strings.Split(strings.TrimSuffix(rest, "\x01\x01"), "\x01") {
		k, v, _ := strings.Cut(kv, "=")
		if k == "auth" {
			token, ok = strings.CutPrefix(v, "Bearer ")
			if !ok {
				return "", nil, fmt.Errorf("malformed auth %q", v)
			}
			continue
		}
		ext[k] = v
	}
	if token == "" {
		return "", nil, errors.New("no token")
	}
	return token, ext, nil
}

// jwtPart decodes one section of a JWT.
func jwtPart(t *testing.T, token string, i int) map[string]any {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(strings.Split(token, ".")[i])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// oauthTable returns the options of a kafka table on addr authenticating
// with OAUTHBEARER, plus extra properties (pairs, without 'properties.').
func oauthTable(addr, topic, jaas string, extra ...string) map[string]string {
	o := map[string]string{
		"connector": "kafka", "topic": topic, "format": "json",
		"properties.bootstrap.servers": addr,
		"properties.security.protocol": "SASL_PLAINTEXT",
		"properties.sasl.mechanism":    "OAUTHBEARER",
		"properties.sasl.jaas.config":  jaas,
		"scan.startup.mode":            "earliest-offset",
		"scan.bounded.mode":            "latest-offset",
	}
	for i := 0; i < len(extra); i += 2 {
		o[propertiesPrefix+extra[i]] = extra[i+1]
	}
	return o
}

// TestOAuthBearerUnsecured authenticates with Kafka's unsecured token,
// configured as Kafka's OAuthBearerUnsecuredLoginCallbackHandler reads it.
func TestOAuthBearerUnsecured(t *testing.T) {
	b := startOAuthBroker(t, func(token string, ext map[string]string) error {
		if !strings.HasSuffix(token, ".") {
			return errors.New("an unsecured token has an empty signature")
		}
		parts := strings.Split(token, ".")
		raw, err := base64.RawURLEncoding.DecodeString(parts[1])
		if err != nil {
			return err
		}
		var claims struct {
			Sub      string
			Iat, Exp float64
		}
		if err := json.Unmarshal(raw, &claims); err != nil {
			return err
		}
		if claims.Sub != "alice" {
			return fmt.Errorf("unknown principal %q", claims.Sub)
		}
		if ext["traceId"] != "123" {
			return fmt.Errorf("extensions %v", ext)
		}
		return nil
	})
	jaas := func(sub string) string {
		return `org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub="` + sub + `" ` +
			`unsecuredLoginListClaim_scope="|read|write" unsecuredLoginNumberClaim_level="2.5" unsecuredLoginLifetimeSeconds="60" unsecuredLoginExtension_traceId="123";`
	}
	roundTrip(t, oauthTable(b.addr, "t", jaas("alice")))
	tokens := b.accepted()
	if len(tokens) == 0 {
		t.Fatal("no authentication seen")
	}
	if h := jwtPart(t, tokens[0], 0); !maps.Equal(h, map[string]any{"alg": "none"}) {
		t.Fatalf("header %v", h)
	}
	c := jwtPart(t, tokens[0], 1)
	if c["exp"].(float64)-c["iat"].(float64) != 60 || c["level"] != 2.5 || fmt.Sprint(c["scope"]) != "[read write]" {
		t.Fatalf("claims %v", c)
	}

	// The broker's refusal fails the table's client.
	err := openSink(t, oauthTable(b.addr, "t", jaas("mallory")))
	if want := `unknown principal "mallory"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an error containing %q", err, want)
	}
}

// TestOAuthBearerTokenFile authenticates with the token of a file, read
// anew at each authentication.
func TestOAuthBearerTokenFile(t *testing.T) {
	var mu sync.Mutex
	want := ""
	b := startOAuthBroker(t, func(token string, ext map[string]string) error {
		mu.Lock()
		defer mu.Unlock()
		if token != want || ext["tenant"] != "blue" {
			return fmt.Errorf("unexpected token %q, extensions %v", token, ext)
		}
		return nil
	})
	path := filepath.Join(t.TempDir(), "token.jwt")
	writeToken := func(sub string) {
		enc := base64.RawURLEncoding
		tok := enc.EncodeToString([]byte(`{"alg":"RS256"}`)) + "." + enc.EncodeToString([]byte(`{"sub":"`+sub+`","exp":4102444800,"iat":1700000000}`)) + ".c2lnbmF0dXJl"
		if err := os.WriteFile(path, []byte(tok+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		want = tok
		mu.Unlock()
	}
	opts := func(topic string) map[string]string {
		return oauthTable(b.addr, topic,
			`org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required extension_tenant="blue";`,
			"sasl.login.callback.handler.class", "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
			"sasl.oauthbearer.token.endpoint.url", "file://"+path)
	}
	writeToken("alice")
	roundTrip(t, opts("a"))
	n := len(b.accepted())
	if n == 0 {
		t.Fatal("no authentication seen")
	}
	writeToken("bob")
	roundTrip(t, opts("b"))
	if got := b.accepted()[n:]; len(got) == 0 || jwtPart(t, got[0], 1)["sub"] != "bob" {
		t.Fatalf("the replaced token was not used: %v", got)
	}
}

func TestSASLPropertyErrors(t *testing.T) {
	dir := t.TempDir()
	enc := base64.RawURLEncoding
	tokenFile := func(name, payload string) string {
		p := filepath.Join(dir, name)
		tok := enc.EncodeToString([]byte(`{"alg":"RS256"}`)) + "." + enc.EncodeToString([]byte(payload)) + ".sig"
		if err := os.WriteFile(p, []byte(tok), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	noExp := tokenFile("no-exp.jwt", `{"sub":"a"}`)
	noSub := tokenFile("no-sub.jwt", `{"exp":1}`)
	unsigned := filepath.Join(dir, "unsigned.jwt")
	if err := os.WriteFile(unsigned, []byte("eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0."), 0o600); err != nil {
		t.Fatal(err)
	}
	const (
		oauthJAAS  = `org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required`
		handler    = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"
		jaasPrefix = "Invalid value '[hidden]' for option 'properties.sasl.jaas.config': "
	)
	withHandler := func(url string, jaasOpts string) map[string]string {
		return map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "OAUTHBEARER", "sasl.jaas.config": oauthJAAS + jaasOpts + ";",
			"sasl.login.callback.handler.class": handler, "sasl.oauthbearer.token.endpoint.url": url}
	}
	unsecured := func(jaasOpts string, extra ...string) map[string]string {
		m := map[string]string{"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "OAUTHBEARER", "sasl.jaas.config": oauthJAAS + jaasOpts + ";"}
		for i := 0; i < len(extra); i += 2 {
			m[extra[i]] = extra[i+1]
		}
		return m
	}
	for _, c := range []struct {
		props map[string]string
		want  string
	}{
		{unsecured(``), jaasPrefix + "the unsecured token needs its principal: set unsecuredLoginStringClaim_sub"},
		{unsecured(` unsecuredLoginStringClaim_sub="a" unsecuredLoginNumberClaim_exp="1"`), jaasPrefix + "unsecuredLoginNumberClaim_exp: the 'exp' claim is set automatically"},
		{unsecured(` unsecuredLoginStringClaim_sub="a" unsecuredLoginNumberClaim_n="many"`), jaasPrefix + "unsecuredLoginNumberClaim_n: expected a number"},
		{unsecured(` unsecuredLoginStringClaim_sub="a" unsecuredLoginLifetimeSeconds="1h"`), jaasPrefix + "unsecuredLoginLifetimeSeconds: expected a whole number of seconds"},
		{unsecured(` unsecuredLoginStringClaim_sub="a" unsecuredLoginExtension_auth="x"`), jaasPrefix + "unsecuredLoginExtension_auth: invalid SASL extension name 'auth'"},
		{unsecured(` unsecuredLoginStringClaim_sub="a" unsecuredLoginListClaim_scope="|a||b"`), jaasPrefix + "the scope claim 'scope': empty scope"},
		{unsecured(` clientId="me" clientSecret="s"`), jaasPrefix + "unsupported login module option 'clientId'; OAuthBearerLoginModule's unsecured tokens take unsecuredLogin* options, " +
			"and a token file needs 'properties.sasl.login.callback.handler.class' = " + handler},
		{unsecured(` unsecuredLoginStringClaim_sub="a"`, "sasl.oauthbearer.token.endpoint.url", "https://idp.example/token"),
			"Invalid value 'https://idp.example/token' for option 'properties.sasl.oauthbearer.token.endpoint.url': applies only with 'properties.sasl.login.callback.handler.class' = " + handler},
		{withHandler("https://idp.example/token", ` clientId="me" clientSecret="s"`),
			"Invalid value 'https://idp.example/token' for option 'properties.sasl.oauthbearer.token.endpoint.url': OIDC token endpoints are not supported; a file: URL naming a file that holds the token is"},
		{withHandler("file://"+noExp, ` clientId="me"`), jaasPrefix + "login module option 'clientId' is for fetching tokens from an OIDC token endpoint, which is not supported"},
		{withHandler("file://"+filepath.Join(dir, "none.jwt"), ``),
			fmt.Sprintf("Invalid value 'file://%s' for option 'properties.sasl.oauthbearer.token.endpoint.url': open %s: no such file or directory", filepath.Join(dir, "none.jwt"), filepath.Join(dir, "none.jwt"))},
		{withHandler("file://"+noExp, ``), fmt.Sprintf("Invalid value 'file://%s' for option 'properties.sasl.oauthbearer.token.endpoint.url': the token in %s has no valid 'exp' claim", noExp, noExp)},
		{withHandler("file://"+noSub, ``), fmt.Sprintf("Invalid value 'file://%s' for option 'properties.sasl.oauthbearer.token.endpoint.url': the token in %s has no 'sub' claim", noSub, noSub)},
		{withHandler("file://"+unsigned, ``), fmt.Sprintf("Invalid value 'file://%s' for option 'properties.sasl.oauthbearer.token.endpoint.url': the token in %s is not a JWT: expected three non-empty sections", unsigned, unsigned)},
		{unsecured(` unsecuredLoginStringClaim_sub="a"`, "sasl.login.callback.handler.class", "com.example.MyHandler"),
			"Invalid value 'com.example.MyHandler' for option 'properties.sasl.login.callback.handler.class': not supported; supported: " + handler + " (with a file: token URL), or none for Kafka's unsecured tokens"},
		{unsecured(` unsecuredLoginStringClaim_sub="a"`, "sasl.login.callback.handler.class", handler),
			"Invalid value '" + handler + "' for option 'properties.sasl.login.callback.handler.class': needs 'properties.sasl.oauthbearer.token.endpoint.url', a file: URL naming a file that holds the token"},
		{map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "OAUTHBEARER",
			"sasl.jaas.config": `org.apache.kafka.common.security.plain.PlainLoginModule required username="a" password="b";`},
			jaasPrefix + "SASL mechanism OAUTHBEARER needs " + oauthModule + ", not org.apache.kafka.common.security.plain.PlainLoginModule"},
		{map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "OAUTHBEARER"},
			"Invalid value 'SASL_SSL' for option 'properties.security.protocol': SASL OAUTHBEARER needs 'properties.sasl.jaas.config' with " + oauthModule},
		{map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "GSSAPI"},
			"Invalid value 'GSSAPI' for option 'properties.sasl.mechanism': Kerberos (GSSAPI) is not supported; supported: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER"},
		{map[string]string{"security.protocol": "SASL_SSL", "sasl.jaas.config": `org.apache.kafka.common.security.plain.PlainLoginModule required username="a" password="b" serviceName="kafka";`},
			jaasPrefix + "unsupported login module option 'serviceName'; supported: username, password"},
		{map[string]string{"security.protocol": "SASL_SSL", "sasl.jaas.config": `org.apache.kafka.common.security.plain.PlainLoginModule required username="a" password="b"`},
			jaasPrefix + "the login module is not terminated by a semicolon"},
		{map[string]string{"security.protocol": "SASL_SSL", "sasl.jaas.config": `com.sun.security.auth.module.Krb5LoginModule required;`},
			jaasPrefix + "SASL mechanism PLAIN needs " + plainModule + " or " + scramModule + ", not com.sun.security.auth.module.Krb5LoginModule"},
		{map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-256", "sasl.login.callback.handler.class": handler},
			"Invalid value '" + handler + "' for option 'properties.sasl.login.callback.handler.class': applies only to 'properties.sasl.mechanism' OAUTHBEARER"},
		{map[string]string{"security.protocol": "SASL_SSL", "sasl.kerberos.service.name": "kafka"},
			"Invalid value 'kafka' for option 'properties.sasl.kerberos.service.name': Kerberos (GSSAPI) is not supported"},
		{map[string]string{"security.protocol": "SASL_SSL", "sasl.login.refresh.window.factor": "0.8"},
			"Invalid value '0.8' for option 'properties.sasl.login.refresh.window.factor': not supported; the supported sasl.* properties are " + strings.Join(saslProperties, ", ")},
		{map[string]string{"sasl.mechanism": "PLAIN"},
			"Invalid value 'PLAIN' for option 'properties.sasl.mechanism': SASL properties take effect only with 'properties.security.protocol' SASL_PLAINTEXT or SASL_SSL, not PLAINTEXT"},
	} {
		if _, err := clientOptions(c.props); err == nil || err.Error() != c.want {
			t.Errorf("%v:\ngot  %v\nwant %s", c.props, err, c.want)
		}
	}
}
