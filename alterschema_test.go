package sluice

import (
	"strings"
	"testing"
)

// TestAlterTableSchema changes a table's columns, primary key and
// watermark with ALTER TABLE ... ADD, MODIFY, DROP and RENAME, as Flink's
// table.q does, and checks the result through DESCRIBE.
func TestAlterTableSchema(t *testing.T) {
	e := newEngine(t)
	mustExecute(t, e, `CREATE TABLE o (
  u BIGINT NOT NULL COMMENT 'the user',
  product VARCHAR(32),
  amount INT,
  ts TIMESTAMP(3),
  ptime AS PROCTIME(),
  PRIMARY KEY (u) NOT ENFORCED,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'datagen');
ALTER TABLE o RENAME amount TO amount1;
ALTER TABLE o ADD product_id BIGINT NOT NULL AFTER u;
ALTER TABLE o ADD (email STRING NOT NULL AFTER u, cleaned AS COALESCE(product, 'none') AFTER product, id BIGINT NOT NULL FIRST);
ALTER TABLE o MODIFY PRIMARY KEY (id) NOT ENFORCED;
ALTER TABLE o MODIFY (WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE, ts TIMESTAMP(3) NOT NULL AFTER id, u STRING)`)
	describe := func() string {
		res := mustExecute(t, e, "DESCRIBE o")
		var rows []string
		for _, r := range res[0].Rows {
			rows = append(rows, strings.Join(r, "|"))
		}
		return strings.Join(rows, "\n")
	}
	want := "id|BIGINT|FALSE|PRI(id)|||\n" +
		"ts|TIMESTAMP(3) *ROWTIME*|FALSE|||`ts` - INTERVAL '1' MINUTE|\n" +
		"u|STRING|TRUE||||the user\n" +
		"email|STRING|FALSE||||\n" +
		"product_id|BIGINT|FALSE||||\n" +
		"product|VARCHAR(32)|TRUE||||\n" +
		"cleaned|VARCHAR(32)|FALSE||AS COALESCE(`product`, 'none')||\n" +
		"amount1|INT|TRUE||||\n" +
		"ptime|TIMESTAMP_LTZ(3) *PROCTIME*|FALSE||AS PROCTIME()||"
	if got := describe(); got != want {
		t.Errorf("after ADD, MODIFY and RENAME:\n%s\nwant:\n%s", got, want)
	}

	for _, c := range []struct{ sql, want string }{
		{"ALTER TABLE o ADD product STRING FIRST", "line 1, column 19: Failed to execute ALTER TABLE statement.\nTry to add a column `product` which already exists in the table."},
		{"ALTER TABLE o ADD x STRING AFTER nope", "line 1, column 34: Failed to execute ALTER TABLE statement.\nReferenced column `nope` by 'AFTER' does not exist in the table."},
		{"ALTER TABLE o ADD (x INT, x INT)", "line 1, column 27: Failed to execute ALTER TABLE statement.\nEncounter duplicate column `x`."},
		{"ALTER TABLE o MODIFY nope INT", "line 1, column 22: Failed to execute ALTER TABLE statement.\nTry to modify a column `nope` which does not exist in the table."},
		{"ALTER TABLE o ADD PRIMARY KEY (u) NOT ENFORCED", "Failed to execute ALTER TABLE statement.\nThe base table has already defined the primary key constraint [`id`]. You might want to drop it before adding a new one."},
		// Flink's AlterSchemaConverter: DROP CONSTRAINT names the primary
		// key's constraint, here as Flink names an unnamed one.
		{"ALTER TABLE o DROP CONSTRAINT ct2", "line 1, column 31: Failed to execute ALTER TABLE statement.\nThe base table does not define a primary key constraint named 'ct2'. Available constraint name: ['PK_id']."},
		{"ALTER TABLE o ADD WATERMARK FOR ts AS ts", "Failed to execute ALTER TABLE statement.\nThe base table has already defined the watermark strategy `ts` AS `ts` - INTERVAL '1' MINUTE. You might want to drop it before adding a new one."},
		{"ALTER TABLE o DROP product", "line 1, column 20: Failed to execute ALTER TABLE statement.\nThe column `product` is referenced by computed column `cleaned`."},
		{"ALTER TABLE o DROP ts", "Failed to execute ALTER TABLE statement.\nThe column `ts` is referenced by watermark expression."},
		{"ALTER TABLE o DROP id", "Failed to execute ALTER TABLE statement.\nThe column `id` is used as the primary key."},
		{"ALTER TABLE o DROP nope", "Failed to execute ALTER TABLE statement.\nThe column `nope` does not exist in the base table."},
		{"ALTER TABLE o RENAME product TO p", "Failed to execute ALTER TABLE statement.\nThe column `product` is referenced by computed column `cleaned`."},
		{"ALTER TABLE o RENAME amount1 TO u", "line 1, column 33: Failed to execute ALTER TABLE statement.\nThe column `u` already existed in table schema."},
		// The watermark, declared by CREATE TABLE, fails at the change.
		{"ALTER TABLE o MODIFY ts STRING", "line 1, column 15: Invalid data type of time field for watermark definition."},
		{"ALTER TABLE o MODIFY product INT", "line 1, column 15: "},
	} {
		if _, err := e.Execute(testContext(t), c.sql); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.sql, err, c.want)
		}
	}

	mustExecute(t, e, `ALTER TABLE o DROP (amount1, product, cleaned);
ALTER TABLE o DROP PRIMARY KEY;
ALTER TABLE o DROP WATERMARK;
ALTER TABLE o RENAME id TO trade_id`)
	want = `trade_id|BIGINT|FALSE||||
ts|TIMESTAMP(3)|FALSE||||
u|STRING|TRUE||||the user
email|STRING|FALSE||||
product_id|BIGINT|FALSE||||
ptime|TIMESTAMP_LTZ(3) *PROCTIME*|FALSE||AS PROCTIME()||`
	if got := describe(); got != want {
		t.Errorf("after DROP:\n%s\nwant:\n%s", got, want)
	}
	for _, c := range []struct{ sql, want string }{
		{"ALTER TABLE o DROP PRIMARY KEY", "The base table does not define any primary key."},
		{"ALTER TABLE o DROP WATERMARK", "The base table does not define any watermark strategy."},
		{"ALTER TABLE o MODIFY PRIMARY KEY (u) NOT ENFORCED", "The base table does not define any primary key constraint. You might want to add a new one."},
		{"ALTER TABLE o MODIFY WATERMARK FOR ts AS ts", "The base table does not define any watermark. You might want to add a new one."},
	} {
		if _, err := e.Execute(testContext(t), c.sql); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.sql, err, c.want)
		}
	}
	// A primary key added on a nullable column makes it NOT NULL, as in
	// Flink's SchemaConverter.
	mustExecute(t, e, "ALTER TABLE o ADD PRIMARY KEY (u) NOT ENFORCED")
	if got := describe(); !strings.Contains(got, "u|STRING|FALSE|PRI(u)|") {
		t.Errorf("after ADD PRIMARY KEY:\n%s", got)
	}

	// DROP CONSTRAINT drops the primary key by its constraint's name,
	// compared as written; with none left, Flink's message of DROP
	// PRIMARY KEY.
	mustExecute(t, e, "ALTER TABLE o DROP CONSTRAINT PK_u; ALTER TABLE o ADD CONSTRAINT my_pk PRIMARY KEY (u) NOT ENFORCED")
	if _, err := e.Execute(testContext(t), "ALTER TABLE o DROP CONSTRAINT MY_PK"); err == nil ||
		!strings.Contains(err.Error(), "The base table does not define a primary key constraint named 'MY_PK'. Available constraint name: ['my_pk'].") {
		t.Errorf("DROP CONSTRAINT MY_PK: %v", err)
	}
	mustExecute(t, e, "ALTER TABLE o DROP CONSTRAINT `my_pk`")
	if got := describe(); strings.Contains(got, "PRI(") {
		t.Errorf("after DROP CONSTRAINT:\n%s", got)
	}
	if _, err := e.Execute(testContext(t), "ALTER TABLE o DROP CONSTRAINT my_pk"); err == nil ||
		!strings.Contains(err.Error(), "Failed to execute ALTER TABLE statement.\nThe base table does not define any primary key.") {
		t.Errorf("DROP CONSTRAINT without a primary key: %v", err)
	}
}
