package kafka

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pavlo-v-chernykh/keystore-go/v4"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/youmark/pkcs8"
	"software.sslmate.com/src/go-pkcs12"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/runtime"
)

// testPKI is a certificate authority with certificates for a broker and a
// client, and the stores Kafka clients read them from, written into a
// temporary directory.
type testPKI struct {
	dir         string
	ca, otherCA *x509.Certificate
	caKey       *ecdsa.PrivateKey
	server      tls.Certificate // for 127.0.0.1 and localhost
	wrongHost   tls.Certificate // for broker.invalid only
	client      *x509.Certificate
	clientKey   *ecdsa.PrivateKey
}

const (
	storePass = "store-secret"
	keyPass   = "key-secret"
)

func newPKI(t *testing.T) *testPKI {
	t.Helper()
	p := &testPKI{dir: t.TempDir()}
	p.ca, p.caKey = issue(t, &x509.Certificate{Subject: pkix.Name{CommonName: "test CA"}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}, nil, nil)
	p.otherCA, _ = issue(t, &x509.Certificate{Subject: pkix.Name{CommonName: "other CA"}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}, nil, nil)
	serverTemplate := func(cn string) *x509.Certificate {
		return &x509.Certificate{Subject: pkix.Name{CommonName: cn}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
			KeyUsage: x509.KeyUsageDigitalSignature}
	}
	st := serverTemplate("broker")
	st.IPAddresses, st.DNSNames = []net.IP{net.ParseIP("127.0.0.1")}, []string{"localhost"}
	p.server = p.tlsCert(t, st)
	wt := serverTemplate("broker.invalid")
	wt.DNSNames = []string{"broker.invalid"}
	p.wrongHost = p.tlsCert(t, wt)
	p.client, p.clientKey = issue(t, &x509.Certificate{Subject: pkix.Name{CommonName: "sluice-client"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, KeyUsage: x509.KeyUsageDigitalSignature}, p.ca, p.caKey)

	// Truststores.
	p.write(t, "ca.pem", pemCert(p.ca))
	p.write(t, "other-ca.pem", pemCert(p.otherCA))
	jks := keystore.New()
	if err := jks.SetTrustedCertificateEntry("ca", keystore.TrustedCertificateEntry{CreationTime: time.Now(),
		Certificate: keystore.Certificate{Type: "X509", Content: p.ca.Raw}}); err != nil {
		t.Fatal(err)
	}
	p.writeJKS(t, "truststore.jks", jks)
	p12, err := pkcs12.Modern.EncodeTrustStore([]*x509.Certificate{p.ca}, storePass)
	if err != nil {
		t.Fatal(err)
	}
	p.write(t, "truststore.p12", p12)

	// Keystores of the client certificate.
	der, err := x509.MarshalPKCS8PrivateKey(p.clientKey)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	p.write(t, "client-key.pem", keyPEM)
	p.write(t, "client-chain.pem", append(pemCert(p.client), pemCert(p.ca)...))
	p.write(t, "client.pem", slices.Concat(keyPEM, pemCert(p.client), pemCert(p.ca)))
	enc, err := pkcs8.MarshalPrivateKey(p.clientKey, []byte(keyPass), nil)
	if err != nil {
		t.Fatal(err)
	}
	p.write(t, "client-key-enc.pem", pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: enc}))
	ks := keystore.New()
	if err := ks.SetPrivateKeyEntry("client", keystore.PrivateKeyEntry{CreationTime: time.Now(), PrivateKey: der,
		CertificateChain: []keystore.Certificate{{Type: "X509", Content: p.client.Raw}, {Type: "X509", Content: p.ca.Raw}}}, []byte(keyPass)); err != nil {
		t.Fatal(err)
	}
	p.writeJKS(t, "keystore.jks", ks)
	p12, err = pkcs12.Modern.Encode(p.clientKey, p.client, []*x509.Certificate{p.ca}, storePass)
	if err != nil {
		t.Fatal(err)
	}
	p.write(t, "keystore.p12", p12)
	return p
}

// issue makes a certificate from template, signed by parent (self-signed
// when nil), with a new key.
func issue(t *testing.T, template, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		t.Fatal(err)
	}
	template.SerialNumber = serial
	template.NotBefore, template.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	if parent == nil {
		parent, parentKey = template, key
	}
	der, err := x509.CreateCertificate(rand.Reader, template, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c, key
}

func (p *testPKI) tlsCert(t *testing.T, template *x509.Certificate) tls.Certificate {
	c, key := issue(t, template, p.ca, p.caKey)
	return tls.Certificate{Certificate: [][]byte{c.Raw, p.ca.Raw}, PrivateKey: key, Leaf: c}
}

func pemCert(c *x509.Certificate) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})
}

func (p *testPKI) path(name string) string { return filepath.Join(p.dir, name) }

func (p *testPKI) write(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(p.path(name), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func (p *testPKI) writeJKS(t *testing.T, name string, ks keystore.KeyStore) {
	t.Helper()
	var buf bytes.Buffer
	if err := ks.Store(&buf, []byte(storePass)); err != nil {
		t.Fatal(err)
	}
	p.write(t, name, buf.Bytes())
}

func (p *testPKI) read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(p.path(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// tlsBroker is a kfake broker serving TLS with the given certificate; it
// records what each handshake negotiated.
type tlsBroker struct {
	addr string
	mu   sync.Mutex
	seen []tls.ConnectionState
}

func startTLSBroker(t *testing.T, p *testPKI, cert tls.Certificate, clientAuth tls.ClientAuthType, opts ...kfake.Opt) *tlsBroker {
	t.Helper()
	b := &tlsBroker{}
	roots := x509.NewCertPool()
	roots.AddCert(p.ca)
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, ClientAuth: clientAuth, ClientCAs: roots,
		VerifyConnection: func(cs tls.ConnectionState) error {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.seen = append(b.seen, cs)
			return nil
		}}
	kc, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1), kfake.TLS(cfg)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kc.Close)
	b.addr = kc.ListenAddrs()[0]
	return b
}

// handshakes returns the connection states of the handshakes so far.
func (b *tlsBroker) handshakes() []tls.ConnectionState {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.seen)
}

// tlsTable returns a kafka table on the broker with SSL and the given
// properties (pairs of names without 'properties.' and values).
func (b *tlsBroker) tlsTable(topic string, props ...string) map[string]string {
	o := map[string]string{
		"connector": "kafka", "topic": topic, "format": "json",
		"properties.bootstrap.servers": b.addr,
		"properties.security.protocol": "SSL",
		"scan.startup.mode":            "earliest-offset",
		"scan.bounded.mode":            "latest-offset",
	}
	for i := 0; i < len(props); i += 2 {
		o[propertiesPrefix+props[i]] = props[i+1]
	}
	return o
}

// roundTrip writes a row through a sink of the table and reads it back
// through a source of the same table.
func roundTrip(t *testing.T, opts map[string]string) {
	t.Helper()
	tbl := table(userCols, opts)
	writeRows(t, tbl, 0, 1, chunk(tbl.Schema().Types(), []any{1, "ann"}))
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	if got, want := coll.sorted(), []string{"+I[1, ann]"}; !slices.Equal(got, want) {
		t.Fatalf("read %v, want %v", got, want)
	}
}

// openSink opens a sink instance of the table and returns its error.
func openSink(t *testing.T, opts map[string]string) error {
	t.Helper()
	tbl := table(userCols, opts)
	sink, err := factoryFor(t, tbl).NewSink(tbl, connector.Env{TimeZone: time.UTC})
	if err != nil {
		return err
	}
	op, err := sink.NewInstance(0, 1)
	if err != nil {
		return err
	}
	return op.Open(&runtime.Context{Parallelism: 1})
}

func TestTLSTruststores(t *testing.T) {
	p := newPKI(t)
	b := startTLSBroker(t, p, p.server, tls.NoClientCert)
	for name, props := range map[string][]string{
		"JKS":                 {"ssl.truststore.location", p.path("truststore.jks"), "ssl.truststore.password", storePass},
		"PKCS12":              {"ssl.truststore.type", "PKCS12", "ssl.truststore.location", p.path("truststore.p12"), "ssl.truststore.password", storePass},
		"PKCS12 as JKS type":  {"ssl.truststore.location", p.path("truststore.p12"), "ssl.truststore.password", storePass},
		"PEM file":            {"ssl.truststore.type", "PEM", "ssl.truststore.location", p.path("ca.pem")},
		"PEM certificates":    {"ssl.truststore.type", "PEM", "ssl.truststore.certificates", p.read(t, "ca.pem")},
		"host check explicit": {"ssl.truststore.type", "PEM", "ssl.truststore.location", p.path("ca.pem"), "ssl.endpoint.identification.algorithm", "https"},
	} {
		t.Run(name, func(t *testing.T) {
			roundTrip(t, b.tlsTable(strings.ReplaceAll(name, " ", "-"), props...))
		})
	}
}

func TestTLSUntrustedBroker(t *testing.T) {
	p := newPKI(t)
	b := startTLSBroker(t, p, p.server, tls.NoClientCert)
	opts := b.tlsTable("t", "ssl.truststore.type", "PEM", "ssl.truststore.location", p.path("other-ca.pem"), "default.api.timeout.ms", "1000")
	err := openSink(t, opts)
	want := fmt.Sprintf("is not trusted by 'properties.ssl.truststore.location' (%s): x509: certificate signed by unknown authority", p.path("other-ca.pem"))
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an error containing %q", err, want)
	}
	// Without a truststore, the system's roots do not know the test CA.
	err = openSink(t, b.tlsTable("t", "default.api.timeout.ms", "1000"))
	if want := "is not trusted by the system's trusted certificates"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an error containing %q", err, want)
	}
}

func TestTLSHostNameVerification(t *testing.T) {
	p := newPKI(t)
	b := startTLSBroker(t, p, p.wrongHost, tls.NoClientCert)
	trust := []string{"ssl.truststore.type", "PEM", "ssl.truststore.location", p.path("ca.pem")}
	err := openSink(t, b.tlsTable("t", append(trust, "default.api.timeout.ms", "1000")...))
	want := "does not match its host name (verification set by 'properties.ssl.endpoint.identification.algorithm', which is https by default; " +
		"an empty value turns it off): x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want an error containing %q", err, want)
	}
	// Turned off, the chain is still verified but not the name.
	roundTrip(t, b.tlsTable("t", append(trust, "ssl.endpoint.identification.algorithm", "")...))
	err = openSink(t, b.tlsTable("t", "ssl.truststore.type", "PEM", "ssl.truststore.location", p.path("other-ca.pem"),
		"ssl.endpoint.identification.algorithm", "", "default.api.timeout.ms", "1000"))
	if want := "x509: certificate signed by unknown authority"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("without host name verification, an untrusted chain: got %v, want %q", err, want)
	}
}

func TestTLSClientCertificate(t *testing.T) {
	p := newPKI(t)
	b := startTLSBroker(t, p, p.server, tls.RequireAndVerifyClientCert)
	trust := []string{"ssl.truststore.type", "PEM", "ssl.truststore.location", p.path("ca.pem")}

	// A broker that requires a client certificate refuses a client without.
	if err := openSink(t, b.tlsTable("t", append(trust, "default.api.timeout.ms", "1000")...)); err == nil {
		t.Fatal("a client without a certificate should be refused")
	}
	for name, props := range map[string][]string{
		"JKS with key password": {"ssl.keystore.location", p.path("keystore.jks"), "ssl.keystore.password", storePass, "ssl.key.password", keyPass},
		"PKCS12":                {"ssl.keystore.type", "PKCS12", "ssl.keystore.location", p.path("keystore.p12"), "ssl.keystore.password", storePass},
		"PEM file":              {"ssl.keystore.type", "PEM", "ssl.keystore.location", p.path("client.pem")},
		"PEM key and chain":     {"ssl.keystore.type", "PEM", "ssl.keystore.key", p.read(t, "client-key.pem"), "ssl.keystore.certificate.chain", p.read(t, "client-chain.pem")},
		"PEM encrypted key": {"ssl.keystore.type", "PEM", "ssl.keystore.key", p.read(t, "client-key-enc.pem"), "ssl.key.password", keyPass,
			"ssl.keystore.certificate.chain", p.read(t, "client-chain.pem")},
	} {
		t.Run(name, func(t *testing.T) {
			before := len(b.handshakes())
			roundTrip(t, b.tlsTable(strings.ReplaceAll(name, " ", "-"), append(slices.Clone(trust), props...)...))
			hs := b.handshakes()[before:]
			if len(hs) == 0 {
				t.Fatal("no handshake seen")
			}
			for _, cs := range hs {
				if len(cs.PeerCertificates) == 0 || !cs.PeerCertificates[0].Equal(p.client) {
					t.Fatalf("the broker did not see the client certificate: %v", cs.PeerCertificates)
				}
			}
		})
	}
}

func TestTLSProtocolsAndCipherSuites(t *testing.T) {
	p := newPKI(t)
	b := startTLSBroker(t, p, p.server, tls.NoClientCert)
	trust := []string{"ssl.truststore.type", "PEM", "ssl.truststore.location", p.path("ca.pem")}
	for name, c := range map[string]struct {
		props   []string
		version uint16
		suite   uint16
	}{
		// Kafka's defaults: ssl.protocol TLSv1.3, both versions enabled.
		"defaults": {nil, tls.VersionTLS13, 0},
		// ssl.protocol caps the version even when TLSv1.3 is enabled.
		"protocol TLSv1.2": {[]string{"ssl.protocol", "TLSv1.2"}, tls.VersionTLS12, 0},
		"enabled TLSv1.2":  {[]string{"ssl.enabled.protocols", "TLSv1.2"}, tls.VersionTLS12, 0},
		// Without a TLS 1.3 suite listed, TLS 1.3 cannot be negotiated.
		"one TLS 1.2 suite": {[]string{"ssl.cipher.suites", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"}, tls.VersionTLS12, tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384},
	} {
		t.Run(name, func(t *testing.T) {
			before := len(b.handshakes())
			roundTrip(t, b.tlsTable(strings.ReplaceAll(name, " ", "-"), append(slices.Clone(trust), c.props...)...))
			hs := b.handshakes()[before:]
			if len(hs) == 0 {
				t.Fatal("no handshake seen")
			}
			for _, cs := range hs {
				if cs.Version != c.version || (c.suite != 0 && cs.CipherSuite != c.suite) {
					t.Fatalf("negotiated %s with %s, want %s", tls.VersionName(cs.Version), tls.CipherSuiteName(cs.CipherSuite), tls.VersionName(c.version))
				}
			}
		})
	}
}

// TestSASLSSL authenticates with SCRAM over TLS.
func TestSASLSSL(t *testing.T) {
	p := newPKI(t)
	b := startTLSBroker(t, p, p.server, tls.NoClientCert, kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-512", "alice", "secret"))
	opts := func(password string) map[string]string {
		o := b.tlsTable("secure", "ssl.truststore.location", p.path("truststore.jks"), "ssl.truststore.password", storePass,
			"sasl.mechanism", "SCRAM-SHA-512",
			"sasl.jaas.config", `org.apache.flink.kafka.shaded.org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="`+password+`";`)
		o["properties.security.protocol"] = "SASL_SSL"
		return o
	}
	roundTrip(t, opts("secret"))
	wrong := opts("wrong")
	wrong["properties.default.api.timeout.ms"] = "1000"
	if err := openSink(t, wrong); err == nil {
		t.Fatal("a wrong password should fail")
	}
}

// TestTLSPropertyErrors checks the errors of CREATE TABLE.
func TestTLSPropertyErrors(t *testing.T) {
	p := newPKI(t)
	// A key of another certificate.
	_, otherKey := issue(t, &x509.Certificate{Subject: pkix.Name{CommonName: "x"}}, p.ca, p.caKey)
	der, err := x509.MarshalPKCS8PrivateKey(otherKey)
	if err != nil {
		t.Fatal(err)
	}
	p.write(t, "other-key.pem", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	sec1, err := x509.MarshalECPrivateKey(p.clientKey)
	if err != nil {
		t.Fatal(err)
	}
	p.write(t, "client-key-sec1.pem", pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: sec1}))
	p.write(t, "garbage.pem", []byte("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n"))
	p.write(t, "empty.pem", []byte("no PEM here\n"))
	missing := p.path("missing.jks")
	chain := p.read(t, "client-chain.pem")

	for _, c := range []struct {
		props []string
		want  string
	}{
		{[]string{"ssl.truststore.location", missing, "ssl.truststore.password", storePass},
			fmt.Sprintf("Invalid value '%s' for option 'properties.ssl.truststore.location': open %s: no such file or directory", missing, missing)},
		{[]string{"ssl.keystore.location", missing, "ssl.keystore.password", storePass},
			fmt.Sprintf("Invalid value '%s' for option 'properties.ssl.keystore.location': open %s: no such file or directory", missing, missing)},
		{[]string{"ssl.truststore.location", p.path("truststore.jks"), "ssl.truststore.password", "wrong"},
			fmt.Sprintf("Invalid value '[hidden]' for option 'properties.ssl.truststore.password': the JKS store %s fails its integrity check with this password: wrong password, or a damaged file", p.path("truststore.jks"))},
		{[]string{"ssl.truststore.location", p.path("truststore.p12"), "ssl.truststore.password", "wrong"},
			fmt.Sprintf("Invalid value '[hidden]' for option 'properties.ssl.truststore.password': the PKCS12 store %s cannot be opened with this password", p.path("truststore.p12"))},
		{[]string{"ssl.truststore.location", p.path("truststore.jks")},
			fmt.Sprintf("Invalid value '%s' for option 'properties.ssl.truststore.location': reading a JKS truststore needs 'properties.ssl.truststore.password'", p.path("truststore.jks"))},
		{[]string{"ssl.keystore.location", p.path("keystore.jks"), "ssl.keystore.password", "wrong"},
			fmt.Sprintf("Invalid value '[hidden]' for option 'properties.ssl.keystore.password': the JKS store %s fails its integrity check with this password: wrong password, or a damaged file", p.path("keystore.jks"))},
		{[]string{"ssl.keystore.location", p.path("keystore.jks"), "ssl.keystore.password", storePass},
			"Invalid value '[hidden]' for option 'properties.ssl.keystore.password': cannot decrypt the key of entry 'client' (wrong password?): decrypt private key: got invalid digest"},
		{[]string{"ssl.keystore.location", p.path("keystore.jks"), "ssl.keystore.password", storePass, "ssl.key.password", "wrong"},
			"Invalid value '[hidden]' for option 'properties.ssl.key.password': cannot decrypt the key of entry 'client' (wrong password?): decrypt private key: got invalid digest"},
		{[]string{"ssl.keystore.type", "PKCS12", "ssl.keystore.location", p.path("keystore.p12"), "ssl.keystore.password", "wrong"},
			fmt.Sprintf("Invalid value '[hidden]' for option 'properties.ssl.keystore.password': the PKCS12 store %s cannot be opened with this password", p.path("keystore.p12"))},
		{[]string{"ssl.keystore.location", p.path("keystore.p12")},
			fmt.Sprintf("Invalid value '%s' for option 'properties.ssl.keystore.location': reading a JKS keystore needs 'properties.ssl.keystore.password'", p.path("keystore.p12"))},
		{[]string{"ssl.truststore.type", "PEM", "ssl.truststore.location", p.path("garbage.pem")},
			fmt.Sprintf("Invalid value '%s' for option 'properties.ssl.truststore.location': certificate 1: x509: malformed certificate", p.path("garbage.pem"))},
		{[]string{"ssl.truststore.type", "PEM", "ssl.truststore.location", p.path("empty.pem")},
			fmt.Sprintf("Invalid value '%s' for option 'properties.ssl.truststore.location': no PEM certificate found", p.path("empty.pem"))},
		{[]string{"ssl.truststore.type", "PEM", "ssl.truststore.certificates", "-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----"},
			"Invalid value '[hidden]' for option 'properties.ssl.truststore.certificates': no PEM certificate found"},
		{[]string{"ssl.truststore.certificates", p.read(t, "ca.pem")},
			"Invalid value '[hidden]' for option 'properties.ssl.truststore.certificates': needs 'properties.ssl.truststore.type' = 'PEM', not JKS"},
		{[]string{"ssl.truststore.type", "PEM", "ssl.truststore.location", p.path("ca.pem"), "ssl.truststore.password", "x"},
			"Invalid value '[hidden]' for option 'properties.ssl.truststore.password': a PEM truststore has no password"},
		{[]string{"ssl.keystore.type", "PEM", "ssl.keystore.key", p.read(t, "other-key.pem"), "ssl.keystore.certificate.chain", chain},
			"Invalid value '[hidden]' for option 'properties.ssl.keystore.key': the private key does not match the certificate (CN=sluice-client)"},
		{[]string{"ssl.keystore.type", "PEM", "ssl.keystore.key", p.read(t, "client-key-enc.pem"), "ssl.keystore.certificate.chain", chain},
			"Invalid value '[hidden]' for option 'properties.ssl.keystore.key': the private key is encrypted: set 'properties.ssl.key.password'"},
		{[]string{"ssl.keystore.type", "PEM", "ssl.keystore.key", p.read(t, "client-key-enc.pem"), "ssl.keystore.certificate.chain", chain, "ssl.key.password", "wrong"},
			"Invalid value '[hidden]' for option 'properties.ssl.key.password': cannot decrypt the private key (wrong password?)"},
		{[]string{"ssl.keystore.type", "PEM", "ssl.keystore.key", p.read(t, "client-key.pem"), "ssl.keystore.certificate.chain", chain, "ssl.key.password", "x"},
			"Invalid value '[hidden]' for option 'properties.ssl.key.password': the private key is not encrypted"},
		{[]string{"ssl.keystore.type", "PEM", "ssl.keystore.key", p.read(t, "client-key-sec1.pem"), "ssl.keystore.certificate.chain", chain},
			"Invalid value '[hidden]' for option 'properties.ssl.keystore.key': the key is a PEM 'EC PRIVATE KEY', not the PKCS#8 'PRIVATE KEY' Kafka reads ('openssl pkcs8 -topk8' converts it)"},
		{[]string{"ssl.keystore.type", "PEM", "ssl.keystore.key", p.read(t, "client-key.pem")},
			"Invalid value '[hidden]' for option 'properties.ssl.keystore.key': needs 'properties.ssl.keystore.certificate.chain'"},
		{[]string{"ssl.keystore.type", "PEM", "ssl.keystore.location", p.path("client.pem"), "ssl.keystore.password", "x"},
			"Invalid value '[hidden]' for option 'properties.ssl.keystore.password': a PEM keystore has no store password; an encrypted key's password is 'properties.ssl.key.password'"},
		{[]string{"ssl.keystore.type", "PEM", "ssl.keystore.location", p.path("ca.pem")},
			fmt.Sprintf("Invalid value '%s' for option 'properties.ssl.keystore.location': expected one PEM private key, found 0", p.path("ca.pem"))},
		{[]string{"ssl.key.password", "x"},
			"Invalid value '[hidden]' for option 'properties.ssl.key.password': there is no keystore: neither 'properties.ssl.keystore.location' nor 'properties.ssl.keystore.key' is set"},
		{[]string{"ssl.truststore.type", "JCEKS"}, "Invalid value 'JCEKS' for option 'properties.ssl.truststore.type': expected JKS, PKCS12 or PEM"},
		{[]string{"ssl.endpoint.identification.algorithm", "LDAPS"},
			"Invalid value 'LDAPS' for option 'properties.ssl.endpoint.identification.algorithm': expected https, or an empty value to turn host name verification off"},
		{[]string{"ssl.protocol", "TLSv1.1"}, "Invalid value 'TLSv1.1' for option 'properties.ssl.protocol': TLSv1.1 is insecure and not supported; use TLSv1.2 or TLSv1.3"},
		{[]string{"ssl.enabled.protocols", "TLSv1.1,TLSv1.2"},
			"Invalid value 'TLSv1.1,TLSv1.2' for option 'properties.ssl.enabled.protocols': TLSv1.1 is insecure and not supported; use TLSv1.2 and TLSv1.3"},
		{[]string{"ssl.protocol", "TLSv1.2", "ssl.enabled.protocols", "TLSv1.3"},
			"Invalid value 'TLSv1.2' for option 'properties.ssl.protocol': allows none of the protocols of 'properties.ssl.enabled.protocols'"},
		{[]string{"ssl.cipher.suites", "TLS_AES_128_GCM_SHA256"},
			"Invalid value 'TLS_AES_128_GCM_SHA256' for option 'properties.ssl.cipher.suites': TLS 1.3 always offers all of TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384, TLS_CHACHA20_POLY1305_SHA256: list all of them or none"},
		{[]string{"ssl.cipher.suites", "TLS_RSA_WITH_RC4_128_SHA"},
			"Invalid value 'TLS_RSA_WITH_RC4_128_SHA' for option 'properties.ssl.cipher.suites': TLS_RSA_WITH_RC4_128_SHA is insecure and not supported"},
		{[]string{"ssl.cipher.suites", "TLS_NOPE"}, "Invalid value 'TLS_NOPE' for option 'properties.ssl.cipher.suites': unknown cipher suite 'TLS_NOPE'"},
		{[]string{"ssl.protocol", "TLSv1.2", "ssl.cipher.suites", "TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384,TLS_CHACHA20_POLY1305_SHA256"},
			"Invalid value 'TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384,TLS_CHACHA20_POLY1305_SHA256' for option 'properties.ssl.cipher.suites': has no cipher suite for the enabled TLS versions"},
		{[]string{"ssl.provider", "SunJSSE"}, "Invalid value 'SunJSSE' for option 'properties.ssl.provider': Java security providers are not available: TLS is Go's crypto/tls"},
		{[]string{"ssl.keymanager.algorithm", "IbmX509"},
			"Invalid value 'IbmX509' for option 'properties.ssl.keymanager.algorithm': not supported; Sluice's TLS behaves as SunX509, NewSunX509, PKIX"},
		{[]string{"ssl.keystore.alias", "me"}, "Invalid value 'me' for option 'properties.ssl.keystore.alias': not supported; the supported ssl.* properties are " + strings.Join(sslProperties, ", ")},
	} {
		opts := map[string]string{"connector": "kafka", "topic": "t", "format": "json",
			"properties.bootstrap.servers": "127.0.0.1:9092", "properties.security.protocol": "SSL"}
		for i := 0; i < len(c.props); i += 2 {
			opts[propertiesPrefix+c.props[i]] = c.props[i+1]
		}
		tbl := table(userCols, opts)
		err := factoryFor(t, tbl).Validate(tbl)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v:\ngot  %v\nwant %s", c.props, err, c.want)
		}
	}

	// SSL properties without TLS would be ignored: refused.
	_, err = clientOptions(map[string]string{"ssl.truststore.location": "/x"})
	if want := "Invalid value '/x' for option 'properties.ssl.truststore.location': SSL properties take effect only with 'properties.security.protocol' SSL or SASL_SSL, not PLAINTEXT"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	_, err = clientOptions(map[string]string{"security.protocol": "SASL_PLAINTEXT", "ssl.truststore.location": "/x",
		"sasl.jaas.config": `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";`})
	if want := "Invalid value '/x' for option 'properties.ssl.truststore.location': SSL properties take effect only with 'properties.security.protocol' SSL or SASL_SSL, not SASL_PLAINTEXT"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}
