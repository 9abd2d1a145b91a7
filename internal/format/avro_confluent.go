package format

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/hamba/avro/v2"
	"github.com/twmb/franz-go/pkg/sr"

	"github.com/sluicesql/sluice/internal/types"
)

// The 'avro-confluent' format: Confluent's wire format (magic byte 0x00, the
// schema id as a 4-byte big-endian integer, then the Avro binary body), with
// schemas kept in a Confluent Schema Registry. After Flink's
// RegistryAvroFormatFactory, AvroConfluentFormatOptions,
// ConfluentRegistryAvroSerializationSchema (the first encode registers the
// writer schema under the subject and every record carries the returned id)
// and ConfluentSchemaRegistryCoder (each record's writer schema is fetched by
// id, cached, and resolved against the table's schema).
//
// Registry options Sluice understands: url (several separated by commas),
// basic-auth.credentials-source USER_INFO (with basic-auth.user-info
// "user:password") or URL (credentials in the url), bearer-auth
// credentials-source STATIC_TOKEN (with bearer-auth.token), PEM files as
// ssl.truststore.location and ssl.keystore.location (certificate and key;
// JKS and PKCS#12 stores are not supported), and under properties.* the
// Confluent client keys basic.auth.credentials.source, basic.auth.user.info,
// bearer.auth.credentials.source and bearer.auth.token (the named options
// above take precedence). Other properties.* keys are accepted and ignored.

func init() { Register(confluentFactory{}) }

const (
	confluentMagic      = 0x00
	confluentHeaderSize = 5
	registryTimeout     = 30 * time.Second
)

type confluentFactory struct{}

func (confluentFactory) Name() string { return "avro-confluent" }

func (confluentFactory) Options() []OptionSpec {
	return []OptionSpec{
		{Name: "url", Required: true, Fallback: []string{"schema-registry.url"}, Description: "The URL of the Confluent Schema Registry."},
		{Name: "subject", Fallback: []string{"schema-registry.subject"}, Description: "The subject to register the writer schema under; '<topic>-key' or '<topic>-value' by default."},
		{Name: "schema", Fallback: []string{"schema-registry.schema"}, Description: "The writer schema; derived from the table when not set."},
		{Name: "properties", IsMap: true, Description: "Properties forwarded to the registry client."},
		{Name: "ssl.keystore.location", Description: "PEM file with the client certificate and key."},
		{Name: "ssl.keystore.password", Description: "Password of the keystore (unused for PEM files)."},
		{Name: "ssl.truststore.location", Description: "PEM file with the trusted CA certificates."},
		{Name: "ssl.truststore.password", Description: "Password of the truststore (unused for PEM files)."},
		{Name: "basic-auth.credentials-source", Description: "Source of basic auth credentials: USER_INFO or URL."},
		{Name: "basic-auth.user-info", Description: "Basic auth user info, 'user:password'."},
		{Name: "bearer-auth.credentials-source", Description: "Source of the bearer token: STATIC_TOKEN."},
		{Name: "bearer-auth.token", Description: "The bearer token."},
	}
}

func (f confluentFactory) New(cfg Config) (Codec, error) {
	o, err := checkOptions(f.Name(), f.Options(), cfg)
	if err != nil {
		return nil, err
	}
	text, cols, err := deriveAvroSchema(cfg.Fields, true)
	if err != nil {
		return nil, err
	}
	enc := newDerivedEncoder(cfg.Fields, cols)
	if given, ok := o.lookup("schema"); ok {
		if enc, err = providedSchemaEncoder(given, cfg.Fields, cols); err != nil {
			return nil, fmt.Errorf("option '%sschema': %w", o.prefix, err)
		}
		text = given
	}
	client, err := registryClient(o)
	if err != nil {
		return nil, err
	}
	subject := o.str("subject")
	if subject == "" && cfg.Topic != "" {
		subject = cfg.Topic + "-value"
		if cfg.IsKey {
			subject = cfg.Topic + "-key"
		}
	}
	return &confluentCodec{
		fields:        cfg.Fields,
		cols:          cols,
		schemaText:    text,
		enc:           enc,
		client:        client,
		subject:       subject,
		subjectOption: o.prefix + "subject",
		readers:       map[uint32]*avroTopLevel{},
		unreadable:    map[uint32]error{},
	}, nil
}

// registryClient builds the Schema Registry client from the options.
func registryClient(o *options) (*sr.Client, error) {
	props := o.mapOption("properties")
	pick := func(option, property string) string {
		if v, ok := o.lookup(option); ok {
			return v
		}
		return props[property]
	}
	var urls []string
	for u := range strings.SplitSeq(o.str("url"), ",") {
		if u = strings.TrimSpace(u); u != "" {
			urls = append(urls, u)
		}
	}
	opts := []sr.ClientOpt{sr.URLs(urls...), sr.HTTPClient(&http.Client{Timeout: registryTimeout})}
	switch src := strings.ToUpper(pick("basic-auth.credentials-source", "basic.auth.credentials.source")); src {
	case "", "URL":
	case "USER_INFO":
		user, pass, _ := strings.Cut(pick("basic-auth.user-info", "basic.auth.user.info"), ":")
		opts = append(opts, sr.BasicAuth(user, pass))
	default:
		return nil, fmt.Errorf("unsupported value '%s' for option '%sbasic-auth.credentials-source'; supported values: USER_INFO, URL", src, o.prefix)
	}
	switch src := strings.ToUpper(pick("bearer-auth.credentials-source", "bearer.auth.credentials.source")); src {
	case "":
	case "STATIC_TOKEN":
		opts = append(opts, sr.BearerToken(pick("bearer-auth.token", "bearer.auth.token")))
	default:
		return nil, fmt.Errorf("unsupported value '%s' for option '%sbearer-auth.credentials-source'; supported values: STATIC_TOKEN", src, o.prefix)
	}
	tlsCfg, err := registryTLS(o)
	if err != nil {
		return nil, err
	}
	if tlsCfg != nil {
		opts = append(opts, sr.DialTLSConfig(tlsCfg))
	}
	return sr.NewClient(opts...)
}

// registryTLS loads the PEM trust and key stores, if set.
func registryTLS(o *options) (*tls.Config, error) {
	trust, hasTrust := o.lookup("ssl.truststore.location")
	keys, hasKeys := o.lookup("ssl.keystore.location")
	if !hasTrust && !hasKeys {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if hasTrust {
		pemData, err := os.ReadFile(trust)
		if err != nil {
			return nil, fmt.Errorf("option '%sssl.truststore.location': %w", o.prefix, err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pemData) {
			return nil, fmt.Errorf("option '%sssl.truststore.location': %s holds no PEM certificates (only PEM stores are supported)", o.prefix, trust)
		}
	}
	if hasKeys {
		pemData, err := os.ReadFile(keys)
		if err != nil {
			return nil, fmt.Errorf("option '%sssl.keystore.location': %w", o.prefix, err)
		}
		if block, _ := pem.Decode(pemData); block == nil {
			return nil, fmt.Errorf("option '%sssl.keystore.location': %s is not a PEM file (only PEM stores are supported)", o.prefix, keys)
		}
		cert, err := tls.X509KeyPair(pemData, pemData)
		if err != nil {
			return nil, fmt.Errorf("option '%sssl.keystore.location': %w", o.prefix, err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

// providedSchemaEncoder checks a user-given writer schema against the table
// (each field a column of the same Avro type, nullable through a union with
// null) and returns an encoder following its field and branch order.
func providedSchemaEncoder(text string, fields types.Schema, cols []avroColumn) (*avroRowEncoder, error) {
	s, err := parseAvroSchema(text)
	if err != nil {
		return nil, err
	}
	rec, ok := s.(*avro.RecordSchema)
	if !ok {
		return nil, fmt.Errorf("the schema must be a record, not %s", s.Type())
	}
	if len(rec.Fields()) != len(fields) {
		return nil, fmt.Errorf("the schema has %d fields but the table has %d columns", len(rec.Fields()), len(fields))
	}
	e := &avroRowEncoder{fields: fields}
	for _, sf := range rec.Fields() {
		col := fields.Index(sf.Name())
		if col < 0 {
			return nil, fmt.Errorf("schema field '%s' is not a table column", sf.Name())
		}
		if fields[col].Type.IsComposite() {
			return nil, fmt.Errorf("column '%s' of type %s: a given schema with composite columns is not supported yet", sf.Name(), fields[col].Type.Plain())
		}
		ef := avroEncodeField{col: col, store: cols[col]}
		branches := []avro.Schema{sf.Type()}
		if u, ok := sf.Type().(*avro.UnionSchema); ok {
			ef.union, branches = true, u.Types()
		}
		matched := false
		for i, b := range branches {
			switch {
			case ef.union && b.Type() == avro.Null:
				ef.nullIdx = int64(i)
			case !matched && sameAvroType(b, cols[col]):
				ef.valIdx, matched = int64(i), true
			default:
				return nil, fmt.Errorf("schema field '%s' has type %s, which does not match column type %s", sf.Name(), sf.Type(), fields[col].Type)
			}
		}
		if !matched {
			return nil, fmt.Errorf("schema field '%s' has type %s, which does not match column type %s", sf.Name(), sf.Type(), fields[col].Type)
		}
		e.plan = append(e.plan, ef)
	}
	return e, nil
}

// sameAvroType reports whether schema s stores values as c does.
func sameAvroType(s avro.Schema, c avroColumn) bool {
	base, ok := avroPrimitives[s.Type()]
	if !ok || base != c.base {
		return false
	}
	logical := ""
	if ls, ok := s.(avro.LogicalTypeSchema); ok && ls.Logical() != nil {
		logical = string(ls.Logical().Type())
	}
	return logical == c.logical
}

type confluentCodec struct {
	fields        types.Schema
	cols          []avroColumn
	schemaText    string
	enc           *avroRowEncoder
	client        *sr.Client
	subject       string
	subjectOption string

	id         uint32 // the registered writer schema id, once registered
	registered bool
	readers    map[uint32]*avroTopLevel // compiled readers by writer schema id
	unreadable map[uint32]error         // writer schemas that cannot be read
	arena      stringArena
}

func (c *confluentCodec) Encode(dst []byte, row types.Row) ([]byte, error) {
	if !c.registered {
		if err := c.register(); err != nil {
			return nil, err
		}
	}
	dst = append(dst, confluentMagic)
	dst = binary.BigEndian.AppendUint32(dst, c.id)
	return c.enc.appendRecord(dst, row)
}

// register registers the writer schema under the subject.
func (c *confluentCodec) register() error {
	if c.subject == "" {
		return fmt.Errorf("option '%s' is required for serialization", c.subjectOption)
	}
	ctx, cancel := context.WithTimeout(context.Background(), registryTimeout)
	defer cancel()
	id, err := c.client.RegisterSchema(ctx, c.subject, sr.Schema{Schema: c.schemaText, Type: sr.TypeAvro}, -1, -1)
	if err != nil {
		return fmt.Errorf("registering the Avro schema under subject '%s': %w", c.subject, err)
	}
	c.id, c.registered = uint32(id), true
	return nil
}

func (c *confluentCodec) Decode(data []byte, cols []*types.Vector) error {
	if data == nil {
		return ErrNoRow
	}
	if len(data) < confluentHeaderSize {
		if len(data) > 0 && data[0] != confluentMagic {
			return fmt.Errorf("invalid Avro record: unknown magic byte 0x%02x (expected 0x00)", data[0])
		}
		return fmt.Errorf("invalid Avro record: %d bytes are too few for the Confluent header (5 bytes)", len(data))
	}
	if data[0] != confluentMagic {
		return fmt.Errorf("invalid Avro record: unknown magic byte 0x%02x (expected 0x00)", data[0])
	}
	id := binary.BigEndian.Uint32(data[1:confluentHeaderSize])
	top, err := c.reader(id)
	if err != nil {
		return err
	}
	return decodeAvroBody(top, data[confluentHeaderSize:], cols, &c.arena)
}

// reader returns the compiled reader for writer schema id, fetching the
// schema on first use.
func (c *confluentCodec) reader(id uint32) (*avroTopLevel, error) {
	if top, ok := c.readers[id]; ok {
		return top, nil
	}
	if err, ok := c.unreadable[id]; ok {
		return nil, err
	}
	writer, err := c.fetch(id)
	if err != nil {
		var notFound *schemaNotFoundError
		if errors.As(err, &notFound) {
			c.unreadable[id] = err
		}
		return nil, err
	}
	top, err := resolveTop(writer, c.fields, c.cols)
	if err != nil {
		err = fmt.Errorf("schema id %d cannot be read into the table: %w", id, err)
		c.unreadable[id] = err
		return nil, err
	}
	c.readers[id] = top
	return top, nil
}

type schemaNotFoundError struct{ id uint32 }

func (e *schemaNotFoundError) Error() string {
	return fmt.Sprintf("schema id %d not found in the registry", e.id)
}

// fetch gets and parses the writer schema with the given id, with the
// schemas it references.
func (c *confluentCodec) fetch(id uint32) (avro.Schema, error) {
	ctx, cancel := context.WithTimeout(context.Background(), registryTimeout)
	defer cancel()
	s, err := c.client.SchemaByID(ctx, int(id))
	if err != nil {
		var re *sr.ResponseError
		if errors.As(err, &re) && re.StatusCode == http.StatusNotFound {
			return nil, &schemaNotFoundError{id}
		}
		return nil, fmt.Errorf("fetching schema id %d from the registry: %w", id, err)
	}
	if s.Type != sr.TypeAvro {
		return nil, fmt.Errorf("schema id %d is a %s schema, not Avro", id, s.Type)
	}
	cache := &avro.SchemaCache{}
	if err := c.fetchReferences(ctx, s.References, cache, 0); err != nil {
		return nil, fmt.Errorf("schema id %d: %w", id, err)
	}
	writer, err := parseAvroSchemaWith(s.Schema, cache)
	if err != nil {
		return nil, fmt.Errorf("schema id %d: %w", id, err)
	}
	return writer, nil
}

// fetchReferences parses referenced schemas into cache, depth first.
func (c *confluentCodec) fetchReferences(ctx context.Context, refs []sr.SchemaReference, cache *avro.SchemaCache, depth int) error {
	if depth > 32 {
		return errors.New("schema references nest too deeply")
	}
	for _, ref := range refs {
		s, err := c.client.SchemaByVersion(ctx, ref.Subject, ref.Version)
		if err != nil {
			return fmt.Errorf("fetching referenced schema %s (subject '%s' version %d): %w", ref.Name, ref.Subject, ref.Version, err)
		}
		if err := c.fetchReferences(ctx, s.References, cache, depth+1); err != nil {
			return err
		}
		if _, err := parseAvroSchemaWith(s.Schema.Schema, cache); err != nil {
			return fmt.Errorf("referenced schema %s: %w", ref.Name, err)
		}
	}
	return nil
}
