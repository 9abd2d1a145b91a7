package sluice_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluicesql/sluice"
)

// TestIsSensitive follows Flink's GlobalConfiguration.isSensitive: a key
// holding one of SENSITIVE_KEYS, ignoring case.
func TestIsSensitive(t *testing.T) {
	for key, want := range map[string]bool{
		"properties.sasl.jaas.config":                    true,
		"value.avro-confluent.basic-auth.user-info":      true,
		"properties.ssl.truststore.password":             true,
		"s3.secret-key":                                  true,
		"S3.SECRET-KEY":                                  true,
		"fs.azure.account.key.acc.blob.core.windows.net": true,
		"http-headers":                                   true,
		"value.avro-confluent.bearer-auth.token":         true,
		"apikey":                                         true,
		"auth-params":                                    true,
		"service-key":                                    true,
		"properties.bootstrap.servers":                   false,
		"s3.access-key":                                  false,
		"topic":                                          false,
	} {
		if got := sluice.IsSensitive(key); got != want {
			t.Errorf("IsSensitive(%q) = %v, want %v", key, got, want)
		}
	}
}

// TestSecretsMasked: SHOW CREATE TABLE and SET hide the values of
// sensitive options as Flink shows them (******), while the catalog in the
// data directory keeps them, so the table works after a restart.
func TestSecretsMasked(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := catalogSession(ctx, t, dir)
	const jaas = `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="hunter2";`
	if _, err := s.Execute(ctx, `CREATE TABLE t (a INT) WITH ('connector' = 'kafka', 'topic' = 't',
  'properties.bootstrap.servers' = 'localhost:9092', 'properties.security.protocol' = 'SASL_PLAINTEXT',
  'properties.sasl.mechanism' = 'PLAIN', 'properties.sasl.jaas.config' = '`+strings.ReplaceAll(jaas, "'", "''")+`',
  'format' = 'json');
SET 's3.secret-key' = 'hunter3';
SET 's3.access-key' = 'AKIA';`); err != nil {
		t.Fatal(err)
	}
	show, err := s.Execute(ctx, "SHOW CREATE TABLE t")
	if err != nil {
		t.Fatal(err)
	}
	text := show[0].Text
	if strings.Contains(text, "hunter2") || !strings.Contains(text, "'properties.sasl.jaas.config' = '******'") ||
		!strings.Contains(text, "'properties.bootstrap.servers' = 'localhost:9092'") {
		t.Errorf("SHOW CREATE TABLE:\n%s", text)
	}
	set, err := s.Execute(ctx, "SET")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range set[0].Rows {
		got[r[0]] = r[1]
	}
	if got["s3.secret-key"] != "******" || got["s3.access-key"] != "AKIA" {
		t.Errorf("SET lists s3.secret-key = %q, s3.access-key = %q", got["s3.secret-key"], got["s3.access-key"])
	}
	if s.Config().Get("s3.secret-key") != "hunter3" {
		t.Errorf("the setting itself is %q", s.Config().Get("s3.secret-key"))
	}
	kept, err := os.ReadFile(filepath.Join(dir, "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(kept), "hunter2") {
		t.Errorf("the catalog file lost the secret: %s", kept)
	}
}
