package sluice_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sluicesql/sluice"
)

// TestWithSettings: one statement's settings apply to it alone; a key
// Sluice does not act on, or a bad value, is refused by name.
func TestWithSettings(t *testing.T) {
	s := sluice.NewSession(sluice.NewCatalog(), sluice.NewJobManager())
	one, err := s.WithSettings(map[string]string{"parallelism.default": "3", "table.local-time-zone": "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	if got := one.Config().Get("parallelism.default"); got != "3" {
		t.Errorf("the statement's parallelism is %s", got)
	}
	if got := s.Config().Get("parallelism.default"); got != "1" {
		t.Errorf("the session's parallelism became %s", got)
	}
	if _, err := one.Execute(context.Background(), "SET 'pipeline.max-parallelism' = '64'"); err != nil {
		t.Fatal(err)
	}
	if got := s.Config().Get("pipeline.max-parallelism"); got != "128" {
		t.Errorf("a SET of the statement changed the session: %s", got)
	}
	for settings, msg := range map[string]map[string]string{
		"invalid value 'SOMETIMES' for 'table.exec.sink.not-null-enforcer': expected ERROR or DROP": {"table.exec.sink.not-null-enforcer": "SOMETIMES"},
		"'table.exec.not-a-key' is not a setting Sluice supports":                                   {"table.exec.not-a-key": "1"},
		"invalid value 'x' for 'parallelism.default'":                                               {"parallelism.default": "x"},
		"invalid value 'maybe' for 'table.exec.mini-batch.enabled'":                                 {"table.exec.mini-batch.enabled": "maybe"},
	} {
		if _, err := s.WithSettings(msg); err == nil || !strings.Contains(err.Error(), settings) {
			t.Errorf("%v: %v, want an error containing %q", msg, err, settings)
		}
	}
	for _, key := range []string{"execution.checkpointing.interval", "restart-strategy.type", "s3.endpoint", "parallelism.default"} {
		if !sluice.IsSupportedSetting(key) {
			t.Errorf("%s is not supported", key)
		}
	}
}

// TestComplete: the word before the position is completed by keywords,
// tables and views, the columns of the tables the statement names, and
// functions.
func TestComplete(t *testing.T) {
	ctx := context.Background()
	s := sluice.NewSession(sluice.NewCatalog(), sluice.NewJobManager())
	if _, err := s.Execute(ctx, "CREATE TABLE orders (a INT) WITH ('connector' = 'datagen'); CREATE VIEW order_view AS SELECT a FROM orders; "+
		"CREATE TABLE items (item_price INT, item_name STRING) WITH ('connector' = 'datagen')"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		stmt string
		pos  int
		want []string
	}{
		{"SEL", 3, []string{"SELECT"}},
		{"sh", 2, []string{"SHOW", "SHA1", "SHA2", "SHA224", "SHA256", "SHA384", "SHA512"}},
		{"SELECT * FROM ord", 17, []string{"ORDER", "order_view", "orders"}},
		{"SELECT UPP FROM t", 10, []string{"UPPER"}},
		{"SELECT * FROM ordxx", 17, []string{"ORDER", "order_view", "orders"}},
		{"SELECT * FROM zzz", 17, nil},
		{"SELECT item_p FROM items", 13, []string{"item_price"}},
		{"SELECT item_ FROM Items", 12, []string{"item_price", "item_name"}},
		{"SELECT item_p FROM orders", 13, nil},
	} {
		got, err := s.Complete(tc.stmt, tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Complete(%q, %d) = %q, want %q", tc.stmt, tc.pos, got, tc.want)
		}
	}
	if all, _ := s.Complete("", 0); !slices.Contains(all, "SELECT") || !slices.Contains(all, "INSERT") {
		t.Errorf("an empty statement is completed by %q", all)
	}
	if _, err := s.Complete("SEL", 4); err == nil || !strings.Contains(err.Error(), "position 4 is outside the statement (3 characters)") {
		t.Errorf("a position past the end: %v", err)
	}
}
