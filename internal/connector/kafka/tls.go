package kafka

// TLS for security.protocol SSL and SASL_SSL, set up from Kafka's ssl.*
// client properties. The reference is Kafka's DefaultSslEngineFactory:
// which combinations of stores, types and passwords are valid and what they
// mean. Options that Go's crypto/tls cannot honour exactly are refused.

import (
	"bytes"
	"context"
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"

	"github.com/pavlo-v-chernykh/keystore-go/v4"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/youmark/pkcs8"
	"software.sslmate.com/src/go-pkcs12"
)

// The ssl.* client properties Sluice supports.
const (
	sslProtocol              = "ssl.protocol"
	sslEnabledProtocols      = "ssl.enabled.protocols"
	sslCipherSuites          = "ssl.cipher.suites"
	sslEndpointAlgorithm     = "ssl.endpoint.identification.algorithm"
	sslTruststoreType        = "ssl.truststore.type"
	sslTruststoreLocation    = "ssl.truststore.location"
	sslTruststorePassword    = "ssl.truststore.password"
	sslTruststoreCerts       = "ssl.truststore.certificates"
	sslKeystoreType          = "ssl.keystore.type"
	sslKeystoreLocation      = "ssl.keystore.location"
	sslKeystorePassword      = "ssl.keystore.password"
	sslKeystoreKey           = "ssl.keystore.key"
	sslKeystoreChain         = "ssl.keystore.certificate.chain"
	sslKeyPassword           = "ssl.key.password"
	sslKeymanagerAlgorithm   = "ssl.keymanager.algorithm"
	sslTrustmanagerAlgorithm = "ssl.trustmanager.algorithm"
	sslEngineFactory         = "ssl.engine.factory.class"

	securityProtocolKey = "security.protocol"
)

var sslProperties = []string{
	sslProtocol, sslEnabledProtocols, sslCipherSuites, sslEndpointAlgorithm,
	sslTruststoreType, sslTruststoreLocation, sslTruststorePassword, sslTruststoreCerts,
	sslKeystoreType, sslKeystoreLocation, sslKeystorePassword, sslKeystoreKey, sslKeystoreChain, sslKeyPassword,
	sslKeymanagerAlgorithm, sslTrustmanagerAlgorithm, sslEngineFactory,
}

// Store types of ssl.truststore.type and ssl.keystore.type.
const (
	storeJKS    = "JKS"
	storePKCS12 = "PKCS12"
	storePEM    = "PEM"
)

// tlsOptions builds the TLS dialer of a table's client.
func tlsOptions(props map[string]string) ([]kgo.Opt, error) {
	if err := checkAlgorithms(props); err != nil {
		return nil, err
	}
	cfg := &tls.Config{}
	var err error
	if cfg.MinVersion, cfg.MaxVersion, err = tlsVersions(props); err != nil {
		return nil, err
	}
	if cfg.CipherSuites, err = cipherSuites(props, &cfg.MinVersion, &cfg.MaxVersion); err != nil {
		return nil, err
	}
	checkHost := true
	if alg, ok := props[sslEndpointAlgorithm]; ok {
		switch {
		case alg == "":
			checkHost = false
		case !strings.EqualFold(alg, "https"):
			return nil, badProperty(props, sslEndpointAlgorithm, "expected https, or an empty value to turn host name verification off")
		}
	}
	roots, trust, err := truststore(props)
	if err != nil {
		return nil, err
	}
	if cfg.Certificates, err = clientCertificates(props); err != nil {
		return nil, err
	}
	return []kgo.Opt{kgo.Dialer(tlsDialer(cfg, roots, trust, checkHost, newDialer(props)))}, nil
}

// tlsDialer dials brokers with TLS. The broker's certificate chain is
// verified against roots (the system's when nil) and, with checkHost, its
// names against the host dialed, as Java's "HTTPS" endpoint
// identification does (RFC 2818). Verification is done in
// VerifyConnection so that the chain can be checked without the host name,
// and so that its errors say which setting they come from. Connections are
// opened by d, the handshake within the attempt's timeout.
func tlsDialer(cfg *tls.Config, roots *x509.CertPool, trust string, checkHost bool, d *dialer) func(context.Context, string, string) (net.Conn, error) {
	return d.dialFunc(func(ctx context.Context, addr string, raw net.Conn) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		c := cfg.Clone()
		c.ServerName = host
		c.InsecureSkipVerify = true // verified by VerifyConnection
		c.VerifyConnection = func(cs tls.ConnectionState) error {
			return verifyBroker(cs, addr, host, roots, trust, checkHost)
		}
		conn := tls.Client(raw, c)
		if err := conn.HandshakeContext(ctx); err != nil {
			return nil, err
		}
		return conn, nil
	})
}

func verifyBroker(cs tls.ConnectionState, addr, host string, roots *x509.CertPool, trust string, checkHost bool) error {
	if len(cs.PeerCertificates) == 0 {
		return fmt.Errorf("TLS: broker %s sent no certificate", addr)
	}
	leaf := cs.PeerCertificates[0]
	opts := x509.VerifyOptions{Roots: roots, Intermediates: x509.NewCertPool()}
	for _, c := range cs.PeerCertificates[1:] {
		opts.Intermediates.AddCert(c)
	}
	if _, err := leaf.Verify(opts); err != nil {
		return fmt.Errorf("TLS: the certificate of broker %s is not trusted by %s: %w", addr, trust, err)
	}
	if checkHost {
		if err := leaf.VerifyHostname(host); err != nil {
			return fmt.Errorf("TLS: the certificate of broker %s does not match its host name (verification set by '%s%s', which is https by default; an empty value turns it off): %w",
				addr, propertiesPrefix, sslEndpointAlgorithm, err)
		}
	}
	return nil
}

// checkAlgorithms accepts the Java key and trust manager algorithms whose
// behaviour Go's crypto/tls has: the client certificate is chosen among the
// keystore's by what the broker accepts, and the broker's chain is
// validated by PKIX rules.
func checkAlgorithms(props map[string]string) error {
	for _, a := range []struct {
		key     string
		allowed []string
	}{
		{sslKeymanagerAlgorithm, []string{"SunX509", "NewSunX509", "PKIX"}},
		{sslTrustmanagerAlgorithm, []string{"PKIX", "SunPKIX", "X509", "X.509", "SunX509"}},
		{sslEngineFactory, []string{"org.apache.kafka.common.security.ssl.DefaultSslEngineFactory"}},
	} {
		v, ok := props[a.key]
		if ok && !slices.ContainsFunc(a.allowed, func(s string) bool { return strings.EqualFold(s, v) }) {
			return badProperty(props, a.key, "not supported; Sluice's TLS behaves as %s", strings.Join(a.allowed, ", "))
		}
	}
	return nil
}

// tlsVersions returns the TLS versions that ssl.protocol and
// ssl.enabled.protocols allow. ssl.protocol (default TLSv1.3) caps the
// version: with TLSv1.2 the client does not use TLS 1.3 even when enabled.
func tlsVersions(props map[string]string) (lo, hi uint16, err error) {
	versions := map[string]uint16{"TLSv1.2": tls.VersionTLS12, "TLSv1.3": tls.VersionTLS13}
	insecure := []string{"SSL", "SSLv2", "SSLv3", "SSLv2Hello", "TLSv1", "TLSv1.1"}
	proto, ok := props[sslProtocol]
	if !ok {
		proto = "TLSv1.3"
	}
	var ceiling uint16
	switch {
	case proto == "TLS":
		ceiling = tls.VersionTLS13
	case versions[proto] != 0:
		ceiling = versions[proto]
	case slices.Contains(insecure, proto):
		return 0, 0, badProperty(props, sslProtocol, "%s is insecure and not supported; use TLSv1.2 or TLSv1.3", proto)
	default:
		return 0, 0, badProperty(props, sslProtocol, "expected TLSv1.3, TLSv1.2 or TLS")
	}
	lo, hi = tls.VersionTLS12, tls.VersionTLS13
	if enabled := listProperty(props[sslEnabledProtocols]); len(enabled) > 0 {
		lo, hi = tls.VersionTLS13, tls.VersionTLS12
		for _, p := range enabled {
			v, ok := versions[p]
			switch {
			case !ok && slices.Contains(insecure, p):
				return 0, 0, badProperty(props, sslEnabledProtocols, "%s is insecure and not supported; use TLSv1.2 and TLSv1.3", p)
			case !ok:
				return 0, 0, badProperty(props, sslEnabledProtocols, "unknown protocol '%s'; expected TLSv1.2 and TLSv1.3", p)
			}
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi = min(hi, ceiling); lo > hi {
		return 0, 0, badProperty(props, sslProtocol, "allows none of the protocols of '%s%s'", propertiesPrefix, sslEnabledProtocols)
	}
	return lo, hi, nil
}

// listProperty splits a Kafka list property: comma-separated, blanks
// trimmed.
func listProperty(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// cipherSuites maps ssl.cipher.suites (IANA names, as Java and Go both use)
// to Go's TLS 1.2 suites and narrows the versions: Java negotiates TLS 1.3
// only with a TLS 1.3 suite listed, and TLS 1.2 only with a TLS 1.2 one.
// Go always offers all three TLS 1.3 suites, so a list naming some of them
// but not all is refused. Go ignores the order of the list.
func cipherSuites(props map[string]string, lo, hi *uint16) ([]uint16, error) {
	names := listProperty(props[sslCipherSuites])
	if len(names) == 0 {
		return nil, nil
	}
	known := map[string]*tls.CipherSuite{}
	var all13 []string
	for _, s := range tls.CipherSuites() {
		known[s.Name] = s
		if slices.Equal(s.SupportedVersions, []uint16{tls.VersionTLS13}) {
			all13 = append(all13, s.Name)
		}
	}
	insecure := map[string]bool{}
	for _, s := range tls.InsecureCipherSuites() {
		insecure[s.Name] = true
	}
	var ids []uint16
	var named13 []string
	for _, n := range names {
		s, ok := known[n]
		switch {
		case n == "TLS_EMPTY_RENEGOTIATION_INFO_SCSV":
			continue // a signal, not a suite: Go always signals secure renegotiation
		case insecure[n]:
			return nil, badProperty(props, sslCipherSuites, "%s is insecure and not supported", n)
		case !ok:
			return nil, badProperty(props, sslCipherSuites, "unknown cipher suite '%s'", n)
		case slices.Contains(all13, n):
			named13 = append(named13, n)
		default:
			ids = append(ids, s.ID)
		}
	}
	if len(named13) == 0 {
		*hi = min(*hi, tls.VersionTLS12)
	} else if *hi == tls.VersionTLS13 && len(slices.Compact(slices.Sorted(slices.Values(named13)))) != len(all13) {
		return nil, badProperty(props, sslCipherSuites, "TLS 1.3 always offers all of %s: list all of them or none", strings.Join(all13, ", "))
	}
	if len(ids) == 0 {
		*lo = max(*lo, tls.VersionTLS13)
	}
	if *lo > *hi {
		return nil, badProperty(props, sslCipherSuites, "has no cipher suite for the enabled TLS versions")
	}
	return ids, nil
}

// storeType reads ssl.truststore.type or ssl.keystore.type (default JKS).
// Java's store type names are case-insensitive; PEM is Kafka's own.
func storeType(props map[string]string, key string) (string, error) {
	t, ok := props[key]
	switch {
	case !ok:
		return storeJKS, nil
	case strings.EqualFold(t, storeJKS):
		return storeJKS, nil
	case strings.EqualFold(t, storePKCS12):
		return storePKCS12, nil
	case t == storePEM:
		return storePEM, nil
	}
	return "", badProperty(props, key, "expected JKS, PKCS12 or PEM")
}

// readStore reads the file that property key names.
func readStore(props map[string]string, key string) ([]byte, error) {
	data, err := os.ReadFile(props[key])
	if err != nil {
		return nil, badProperty(props, key, "%v", err)
	}
	return data, nil
}

// truststore returns the certificates that ssl.truststore.* trust (nil:
// the system's) and how to name them in errors.
func truststore(props map[string]string) (*x509.CertPool, string, error) {
	typ, err := storeType(props, sslTruststoreType)
	if err != nil {
		return nil, "", err
	}
	_, hasCerts := props[sslTruststoreCerts]
	_, hasLocation := props[sslTruststoreLocation]
	password, hasPassword := props[sslTruststorePassword]
	var certs []*x509.Certificate
	var trust string
	switch {
	case hasCerts:
		switch {
		case typ != storePEM:
			return nil, "", badProperty(props, sslTruststoreCerts, "needs '%s%s' = 'PEM', not %s", propertiesPrefix, sslTruststoreType, typ)
		case hasLocation:
			return nil, "", badProperty(props, sslTruststoreLocation, "cannot be set together with '%s%s'", propertiesPrefix, sslTruststoreCerts)
		case hasPassword:
			return nil, "", badProperty(props, sslTruststorePassword, "a PEM truststore has no password")
		}
		if certs, err = pemCertificates([]byte(props[sslTruststoreCerts])); err != nil {
			return nil, "", badProperty(props, sslTruststoreCerts, "%v", err)
		}
		trust = "'" + propertiesPrefix + sslTruststoreCerts + "'"
	case hasLocation:
		data, err := readStore(props, sslTruststoreLocation)
		if err != nil {
			return nil, "", err
		}
		if typ == storePEM {
			if hasPassword {
				return nil, "", badProperty(props, sslTruststorePassword, "a PEM truststore has no password")
			}
			if certs, err = pemCertificates(data); err != nil {
				return nil, "", badProperty(props, sslTruststoreLocation, "%v", err)
			}
		} else if certs, err = javaTrustStore(props, data, password, hasPassword); err != nil {
			return nil, "", err
		}
		trust = fmt.Sprintf("'%s%s' (%s)", propertiesPrefix, sslTruststoreLocation, props[sslTruststoreLocation])
	case hasPassword:
		return nil, "", badProperty(props, sslTruststorePassword, "there is no truststore: '%s%s' is not set", propertiesPrefix, sslTruststoreLocation)
	default:
		if _, ok := props[sslTruststoreType]; ok {
			return nil, "", badProperty(props, sslTruststoreType, "there is no truststore: neither '%s%s' nor '%s%s' is set",
				propertiesPrefix, sslTruststoreLocation, propertiesPrefix, sslTruststoreCerts)
		}
		return nil, "the system's trusted certificates", nil
	}
	pool := x509.NewCertPool()
	for _, c := range certs {
		pool.AddCert(c)
	}
	return pool, trust, nil
}

// File formats of Java keystores, told apart by their first bytes: with
// JDK 9's keystore.type.compat (on by default) a JKS store type reads
// PKCS12 files and a PKCS12 one reads JKS files.
const (
	jksMagic   = 0xfeedfeed
	jceksMagic = 0xcececece
)

func storeMagic(data []byte) uint32 {
	if len(data) < 4 {
		return 0
	}
	return binary.BigEndian.Uint32(data)
}

// javaTrustStore reads the trusted certificates of a JKS or PKCS12
// truststore: its trusted certificate entries and, as Java does, the first
// certificate of each key entry.
func javaTrustStore(props map[string]string, data []byte, password string, hasPassword bool) ([]*x509.Certificate, error) {
	var certs []*x509.Certificate
	switch storeMagic(data) {
	case jceksMagic:
		return nil, badProperty(props, sslTruststoreLocation, "JCEKS stores are not supported; use JKS, PKCS12 or PEM")
	case jksMagic:
		if !hasPassword {
			return nil, badProperty(props, sslTruststoreLocation, "reading a JKS truststore needs '%s%s'", propertiesPrefix, sslTruststorePassword)
		}
		ks, err := loadJKS(props, sslTruststoreLocation, sslTruststorePassword, data)
		if err != nil {
			return nil, err
		}
		for _, alias := range ks.Aliases() {
			var der []byte
			if e, err := ks.GetTrustedCertificateEntry(alias); err == nil {
				der = e.Certificate.Content
			} else if chain, err := ks.GetPrivateKeyEntryCertificateChain(alias); err == nil && len(chain) > 0 {
				der = chain[0].Content
			} else {
				continue
			}
			c, err := x509.ParseCertificate(der)
			if err != nil {
				return nil, badProperty(props, sslTruststoreLocation, "entry '%s': %v", alias, err)
			}
			certs = append(certs, c)
		}
	default:
		var err error
		if certs, err = pkcs12.DecodeTrustStore(data, password); err != nil {
			return nil, pkcs12Error(props, sslTruststoreLocation, sslTruststorePassword, err)
		}
	}
	if len(certs) == 0 {
		return nil, badProperty(props, sslTruststoreLocation, "the truststore holds no certificate")
	}
	return certs, nil
}

// loadJKS reads a JKS file, checking its integrity with the password.
func loadJKS(props map[string]string, locationKey, passwordKey string, data []byte) (keystore.KeyStore, error) {
	ks := keystore.New(keystore.WithOrderedAliases())
	if err := ks.Load(bytes.NewReader(data), []byte(props[passwordKey])); err != nil {
		if strings.Contains(err.Error(), "invalid digest") {
			return ks, badProperty(props, passwordKey, "the JKS store %s fails its integrity check with this password: wrong password, or a damaged file", props[locationKey])
		}
		return ks, badProperty(props, locationKey, "not a readable JKS store: %v", err)
	}
	return ks, nil
}

// pkcs12Error names the option a PKCS12 decoding error comes from.
func pkcs12Error(props map[string]string, locationKey, passwordKey string, err error) error {
	if errors.Is(err, pkcs12.ErrIncorrectPassword) {
		return badProperty(props, passwordKey, "the PKCS12 store %s cannot be opened with this password", props[locationKey])
	}
	return badProperty(props, locationKey, "not a readable PKCS12 store: %v", err)
}

// pemCertificates parses the CERTIFICATE blocks of PEM text; other blocks
// are skipped, as Kafka skips them.
func pemCertificates(data []byte) ([]*x509.Certificate, error) {
	var certs []*x509.Certificate
	for {
		var b *pem.Block
		if b, data = pem.Decode(data); b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, fmt.Errorf("certificate %d: %v", len(certs)+1, err)
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, errors.New("no PEM certificate found")
	}
	return certs, nil
}

// clientCertificates returns the client certificates of ssl.keystore.* (none when no
// keystore is set: the client then presents none).
func clientCertificates(props map[string]string) ([]tls.Certificate, error) {
	typ, err := storeType(props, sslKeystoreType)
	if err != nil {
		return nil, err
	}
	_, hasKey := props[sslKeystoreKey]
	_, hasChain := props[sslKeystoreChain]
	_, hasLocation := props[sslKeystoreLocation]
	_, hasPassword := props[sslKeystorePassword]
	_, hasKeyPassword := props[sslKeyPassword]
	pemNoPassword := func() error {
		return badProperty(props, sslKeystorePassword, "a PEM keystore has no store password; an encrypted key's password is '%s%s'", propertiesPrefix, sslKeyPassword)
	}
	switch {
	case hasKey:
		switch {
		case typ != storePEM:
			return nil, badProperty(props, sslKeystoreKey, "needs '%s%s' = 'PEM', not %s", propertiesPrefix, sslKeystoreType, typ)
		case !hasChain:
			return nil, badProperty(props, sslKeystoreKey, "needs '%s%s'", propertiesPrefix, sslKeystoreChain)
		case hasLocation:
			return nil, badProperty(props, sslKeystoreLocation, "cannot be set together with '%s%s'", propertiesPrefix, sslKeystoreKey)
		case hasPassword:
			return nil, pemNoPassword()
		}
		c, err := pemKeyPair(props, sslKeystoreChain, sslKeystoreKey, []byte(props[sslKeystoreChain]), []byte(props[sslKeystoreKey]))
		if err != nil {
			return nil, err
		}
		return []tls.Certificate{c}, nil
	case hasChain:
		return nil, badProperty(props, sslKeystoreChain, "needs '%s%s'", propertiesPrefix, sslKeystoreKey)
	case hasLocation:
		data, err := readStore(props, sslKeystoreLocation)
		if err != nil {
			return nil, err
		}
		if typ == storePEM {
			if hasPassword {
				return nil, pemNoPassword()
			}
			c, err := pemKeyPair(props, sslKeystoreLocation, sslKeystoreLocation, data, data)
			if err != nil {
				return nil, err
			}
			return []tls.Certificate{c}, nil
		}
		if !hasPassword {
			return nil, badProperty(props, sslKeystoreLocation, "reading a %s keystore needs '%s%s'", typ, propertiesPrefix, sslKeystorePassword)
		}
		return javaKeyStore(props, data)
	case hasPassword:
		return nil, badProperty(props, sslKeystorePassword, "there is no keystore: '%s%s' is not set", propertiesPrefix, sslKeystoreLocation)
	case hasKeyPassword:
		return nil, badProperty(props, sslKeyPassword, "there is no keystore: neither '%s%s' nor '%s%s' is set", propertiesPrefix, sslKeystoreLocation, propertiesPrefix, sslKeystoreKey)
	}
	if _, ok := props[sslKeystoreType]; ok {
		return nil, badProperty(props, sslKeystoreType, "there is no keystore: neither '%s%s' nor '%s%s' is set", propertiesPrefix, sslKeystoreLocation, propertiesPrefix, sslKeystoreKey)
	}
	return nil, nil
}

// pemKeyPair reads a PEM certificate chain (leaf first) and its PKCS#8
// private key, encrypted when ssl.key.password is set, as Kafka's PEM
// stores take them.
func pemKeyPair(props map[string]string, chainKey, keyKey string, chainPEM, keyPEM []byte) (tls.Certificate, error) {
	chain, err := pemCertificates(chainPEM)
	if err != nil {
		return tls.Certificate{}, badProperty(props, chainKey, "%v", err)
	}
	var keys []*pem.Block
	for rest := keyPEM; ; {
		var b *pem.Block
		if b, rest = pem.Decode(rest); b == nil {
			break
		}
		if strings.HasSuffix(b.Type, "PRIVATE KEY") {
			keys = append(keys, b)
		}
	}
	if len(keys) != 1 {
		return tls.Certificate{}, badProperty(props, keyKey, "expected one PEM private key, found %d", len(keys))
	}
	password, encrypt := props[sslKeyPassword]
	var key any
	switch keys[0].Type {
	case "PRIVATE KEY":
		if encrypt {
			return tls.Certificate{}, badProperty(props, sslKeyPassword, "the private key is not encrypted")
		}
		key, err = x509.ParsePKCS8PrivateKey(keys[0].Bytes)
	case "ENCRYPTED PRIVATE KEY":
		if !encrypt {
			return tls.Certificate{}, badProperty(props, keyKey, "the private key is encrypted: set '%s%s'", propertiesPrefix, sslKeyPassword)
		}
		if key, err = pkcs8.ParsePKCS8PrivateKey(keys[0].Bytes, []byte(password)); err != nil {
			return tls.Certificate{}, badProperty(props, sslKeyPassword, "cannot decrypt the private key (wrong password?): %v", err)
		}
	default:
		return tls.Certificate{}, badProperty(props, keyKey, "the key is a PEM '%s', not the PKCS#8 'PRIVATE KEY' Kafka reads ('openssl pkcs8 -topk8' converts it)", keys[0].Type)
	}
	if err != nil {
		return tls.Certificate{}, badProperty(props, keyKey, "%v", err)
	}
	c, err := keyPair(chain, key)
	if err != nil {
		return tls.Certificate{}, badProperty(props, keyKey, "%v", err)
	}
	return c, nil
}

// keyPair makes a client certificate of a chain whose first certificate
// must hold the public key of key.
func keyPair(chain []*x509.Certificate, key any) (tls.Certificate, error) {
	if _, ok := key.(crypto.Signer); !ok {
		return tls.Certificate{}, fmt.Errorf("unsupported private key type %T", key)
	}
	if !keyMatches(key, chain[0]) {
		return tls.Certificate{}, fmt.Errorf("the private key does not match the certificate (%s)", chain[0].Subject)
	}
	c := tls.Certificate{PrivateKey: key, Leaf: chain[0]}
	for _, x := range chain {
		c.Certificate = append(c.Certificate, x.Raw)
	}
	return c, nil
}

// keyMatches tells whether certificate c holds the public key of key.
func keyMatches(key any, c *x509.Certificate) bool {
	signer, ok := key.(crypto.Signer)
	if !ok {
		return false
	}
	pub, ok := signer.Public().(interface{ Equal(crypto.PublicKey) bool })
	return ok && pub.Equal(c.PublicKey)
}

// javaKeyStore reads the key entries of a JKS or PKCS12 keystore. Their
// keys are read with ssl.key.password, or the store password when it is
// not set. With several entries, Go's TLS presents the first one the
// broker accepts, as Java's key manager picks one by the broker's
// accepted issuers.
func javaKeyStore(props map[string]string, data []byte) ([]tls.Certificate, error) {
	keyPasswordKey := sslKeystorePassword
	if _, ok := props[sslKeyPassword]; ok {
		keyPasswordKey = sslKeyPassword
	}
	switch storeMagic(data) {
	case jceksMagic:
		return nil, badProperty(props, sslKeystoreLocation, "JCEKS stores are not supported; use JKS, PKCS12 or PEM")
	case jksMagic:
		ks, err := loadJKS(props, sslKeystoreLocation, sslKeystorePassword, data)
		if err != nil {
			return nil, err
		}
		var out []tls.Certificate
		for _, alias := range ks.Aliases() {
			if !ks.IsPrivateKeyEntry(alias) {
				continue
			}
			e, err := ks.GetPrivateKeyEntry(alias, []byte(props[keyPasswordKey]))
			if err != nil {
				return nil, badProperty(props, keyPasswordKey, "cannot decrypt the key of entry '%s' (wrong password?): %v", alias, err)
			}
			c, err := jksKeyPair(e)
			if err != nil {
				return nil, badProperty(props, sslKeystoreLocation, "entry '%s': %v", alias, err)
			}
			out = append(out, c)
		}
		if len(out) == 0 {
			return nil, badProperty(props, sslKeystoreLocation, "the keystore holds no private key entry")
		}
		return out, nil
	}
	if keyPasswordKey == sslKeyPassword && props[sslKeyPassword] != props[sslKeystorePassword] {
		return nil, badProperty(props, sslKeyPassword, "a PKCS12 keystore's key has the store's password; a different key password is not supported")
	}
	key, leaf, rest, err := pkcs12.DecodeChain(data, props[sslKeystorePassword])
	if err != nil {
		return nil, pkcs12Error(props, sslKeystoreLocation, sslKeystorePassword, err)
	}
	// The certificate of the key comes first in the chain; a PKCS12 file
	// may hold it anywhere.
	all := append([]*x509.Certificate{leaf}, rest...)
	if i := slices.IndexFunc(all, func(c *x509.Certificate) bool { return keyMatches(key, c) }); i > 0 {
		all[0], all[i] = all[i], all[0]
	}
	c, err := keyPair(all, key)
	if err != nil {
		return nil, badProperty(props, sslKeystoreLocation, "%v", err)
	}
	return []tls.Certificate{c}, nil
}

// jksKeyPair parses a decrypted JKS key entry.
func jksKeyPair(e keystore.PrivateKeyEntry) (tls.Certificate, error) {
	key, err := x509.ParsePKCS8PrivateKey(e.PrivateKey)
	if err != nil {
		return tls.Certificate{}, err
	}
	if len(e.CertificateChain) == 0 {
		return tls.Certificate{}, errors.New("no certificate")
	}
	var chain []*x509.Certificate
	for _, c := range e.CertificateChain {
		x, err := x509.ParseCertificate(c.Content)
		if err != nil {
			return tls.Certificate{}, err
		}
		chain = append(chain, x)
	}
	return keyPair(chain, key)
}
