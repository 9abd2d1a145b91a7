package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testCA is a certificate authority for tests.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	dir  string
}

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	ca := &testCA{cert: cert, key: key, dir: t.TempDir()}
	writePEM(t, filepath.Join(ca.dir, "ca.pem"), "CERTIFICATE", der)
	return ca
}

// issue writes a certificate for name signed by the CA, and its key, and
// returns their paths.
func (ca *testCA) issue(t *testing.T, name string, usage x509.ExtKeyUsage) (cert, key string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &k.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(ca.dir, name+".pem"), filepath.Join(ca.dir, name+"-key.pem")
	writePEM(t, cert, "CERTIFICATE", der)
	writePEM(t, key, "EC PRIVATE KEY", kder)
	return cert, key
}

func writePEM(t *testing.T, path, kind string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestServerTLS: sluice server serves HTTPS with -tls-cert/-tls-key and,
// with -tls-client-ca, requires a client certificate of that CA; sluice
// sql -endpoint https://... trusts the server through -tls-ca and presents
// its certificate with -tls-cert/-tls-key. A client without a certificate
// is refused; TLS settings without what they go with are errors.
func TestServerTLS(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ca := newTestCA(t)
	serverCert, serverKey := ca.issue(t, "server", x509.ExtKeyUsageServerAuth)
	clientCert, clientKey := ca.issue(t, "client", x509.ExtKeyUsageClientAuth)
	caFile := filepath.Join(ca.dir, "ca.pem")

	srv := startServer(t, ctx, "-external", "-tls-cert", serverCert, "-tls-key", serverKey, "-tls-client-ca", caFile)
	defer srv.kill()
	if !strings.HasPrefix(srv.url, "https://127.0.0.1:") {
		t.Fatalf("the server serves at %s, want https", srv.url)
	}
	script := filepath.Join(t.TempDir(), "s.sql")
	writeFile(t, script, "SET 'sql-client.execution.result-mode' = 'tableau';\nSELECT 1 AS one;\n")

	r := runSluice(t, nil, "sql", "-endpoint", srv.url, "-tls-ca", caFile, "-tls-cert", clientCert, "-tls-key", clientKey, "-f", script)
	if r.code != 0 || !strings.Contains(r.stdout, "|           1 |") {
		t.Fatalf("sluice sql over TLS with a client certificate: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = runSluice(t, nil, "sql", "-endpoint", srv.url, "-tls-ca", caFile, "-f", script)
	if r.code == 0 || !strings.Contains(r.stderr, srv.url) {
		t.Errorf("sluice sql without a client certificate: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = runSluice(t, nil, "sql", "-endpoint", srv.url, "-tls-cert", clientCert, "-tls-key", clientKey, "-f", script)
	if r.code == 0 || !strings.Contains(r.stderr, "certificate") {
		t.Errorf("sluice sql not trusting the server's CA: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sql", "-tls-ca", caFile, "-f", script}, "-tls-ca: settings of a connection to a SQL gateway, which need -endpoint"},
		{[]string{"server", "-external", "-tls-client-ca", caFile}, "-tls-client-ca needs -tls-cert and -tls-key"},
		{[]string{"server", "-external", "-tls-cert", serverCert}, "-tls-cert and -tls-key go together"},
	} {
		if r := runSluice(t, nil, c.args...); r.code == 0 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("sluice %s: exit %d, stderr %q; want %q", strings.Join(c.args, " "), r.code, r.stderr, c.want)
		}
	}
}
