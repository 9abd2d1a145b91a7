package planner_test

import (
	"testing"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

const expandTables = `
CREATE TABLE orders (
  ` + "`user`" + ` BIGINT NOT NULL, product VARCHAR(32), amount INT, ts TIMESTAMP(3), r ROW<a INT, b STRING>,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'kafka', 'topic' = 'o', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json');
CREATE TABLE users (id BIGINT, name STRING, amount INT)
WITH ('connector' = 'kafka', 'topic' = 'u', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json');
`

// TestExpandQuery checks the expanded query of a view, as Flink's CREATE
// VIEW stores it (Calcite's unparse of the validated query: view.q of
// Flink's SQL client for the shape of SELECT * FROM t; Calcite's
// SqlParserTest and RelToSqlConverterTest for its layout of joins,
// subqueries and BETWEEN), and that a query Sluice does not expand
// exactly is refused ("" here), to be shown as written.
func TestExpandQuery(t *testing.T) {
	cases := []struct{ query, want string }{
		{"SELECT * FROM orders",
			"SELECT `orders`.`user`, `orders`.`product`, `orders`.`amount`, `orders`.`ts`, `orders`.`r`\n" +
				"FROM `default_catalog`.`default_database`.`orders` AS `orders`"},
		{"select o.product, amount * 2 as twice from default_database.orders o where `user` > 10 and product like 'a%'",
			"SELECT `o`.`product`, `o`.`amount` * 2 AS `twice`\n" +
				"FROM `default_catalog`.`default_database`.`orders` AS `o`\n" +
				"WHERE `o`.`user` > 10 AND `o`.`product` LIKE 'a%'"},
		{"SELECT product, COUNT(*), SUM(amount) AS total FROM orders GROUP BY product HAVING SUM(amount) > 5",
			"SELECT `orders`.`product`, COUNT(*), SUM(`orders`.`amount`) AS `total`\n" +
				"FROM `default_catalog`.`default_database`.`orders` AS `orders`\n" +
				"GROUP BY `orders`.`product`\n" +
				"HAVING SUM(`orders`.`amount`) > 5"},
		{"SELECT o.product, u.name FROM orders o LEFT JOIN users u ON o.`user` = u.id",
			"SELECT `o`.`product`, `u`.`name`\n" +
				"FROM `default_catalog`.`default_database`.`orders` AS `o`\n" +
				"LEFT JOIN `default_catalog`.`default_database`.`users` AS `u` ON `o`.`user` = `u`.`id`"},
		{"SELECT o.*, name FROM orders AS o JOIN users ON `user` = id",
			"SELECT `o`.`user`, `o`.`product`, `o`.`amount`, `o`.`ts`, `o`.`r`, `users`.`name`\n" +
				"FROM `default_catalog`.`default_database`.`orders` AS `o`\n" +
				"INNER JOIN `default_catalog`.`default_database`.`users` AS `users` ON `o`.`user` = `users`.`id`"},
		{"SELECT t.p FROM (SELECT product AS p FROM orders WHERE amount BETWEEN 1 AND 10) AS t",
			"SELECT `t`.`p`\n" +
				"FROM (SELECT `orders`.`product` AS `p`\n" +
				"FROM `default_catalog`.`default_database`.`orders` AS `orders`\n" +
				"WHERE `orders`.`amount` BETWEEN ASYMMETRIC 1 AND 10) AS `t`"},
		{"SELECT CASE amount WHEN 1 THEN 'one' WHEN 2, 3 THEN 'some' END, CASE WHEN amount > 1 THEN 'many' ELSE 'few' END FROM orders",
			"SELECT CASE WHEN `orders`.`amount` = 1 THEN 'one' WHEN `orders`.`amount` IN (2, 3) THEN 'some' ELSE NULL END, " +
				"CASE WHEN `orders`.`amount` > 1 THEN 'many' ELSE 'few' END\n" +
				"FROM `default_catalog`.`default_database`.`orders` AS `orders`"},
		{"SELECT CAST(amount AS BIGINT), CAST(amount AS INT), CAST(product AS STRING), UPPER(product), r.a, ts + INTERVAL '1' MINUTE FROM orders",
			"SELECT CAST(`orders`.`amount` AS BIGINT), CAST(`orders`.`amount` AS INTEGER), CAST(`orders`.`product` AS STRING), " +
				"UPPER(`orders`.`product`), `orders`.`r`.`a`, `orders`.`ts` + INTERVAL '1' MINUTE\n" +
				"FROM `default_catalog`.`default_database`.`orders` AS `orders`"},
		// A correlated column whose name has "ambiguous" in it resolves
		// in the enclosing query like any other.
		{"SELECT t.ambiguous FROM (SELECT product AS ambiguous FROM orders) AS t WHERE EXISTS (SELECT id FROM users WHERE users.name = ambiguous)",
			"SELECT `t`.`ambiguous`\n" +
				"FROM (SELECT `orders`.`product` AS `ambiguous`\n" +
				"FROM `default_catalog`.`default_database`.`orders` AS `orders`) AS `t`\n" +
				"WHERE EXISTS (SELECT `users`.`id`\n" +
				"FROM `default_catalog`.`default_database`.`users` AS `users`\n" +
				"WHERE `users`.`name` = `t`.`ambiguous`)"},
		{"SELECT product FROM orders WHERE `user` IN (SELECT id FROM users WHERE users.amount = orders.amount) AND NOT EXISTS (SELECT * FROM users)",
			"SELECT `orders`.`product`\n" +
				"FROM `default_catalog`.`default_database`.`orders` AS `orders`\n" +
				"WHERE `orders`.`user` IN (SELECT `users`.`id`\n" +
				"FROM `default_catalog`.`default_database`.`users` AS `users`\n" +
				"WHERE `users`.`amount` = `orders`.`amount`) AND NOT EXISTS (SELECT `users`.`id`, `users`.`name`, `users`.`amount`\n" +
				"FROM `default_catalog`.`default_database`.`users` AS `users`)"},
		{"SELECT -1, NOT amount > 1 FROM orders",
			"SELECT -1, NOT `orders`.`amount` > 1\n" +
				"FROM `default_catalog`.`default_database`.`orders` AS `orders`"},
		{"SELECT product FROM orders UNION ALL SELECT name FROM users",
			"SELECT `orders`.`product`\n" +
				"FROM `default_catalog`.`default_database`.`orders` AS `orders`\n" +
				"UNION ALL\n" +
				"SELECT `users`.`name`\n" +
				"FROM `default_catalog`.`default_database`.`users` AS `users`"},
		// Shapes whose expansion Sluice does not derive.
		{"SELECT COALESCE(product, 'x') FROM orders", ""},
		{"SELECT product FROM orders ORDER BY ts", ""},
		{"WITH w AS (SELECT * FROM orders) SELECT * FROM w", ""},
		{"SELECT CAST(ts AS TIMESTAMP(3)) FROM orders", ""},
		{"SELECT amount, amount FROM orders", ""},
		{"SELECT * FROM orders, users", ""},
		{"SELECT * FROM orders JOIN users USING (amount)", ""},
		{"SELECT SUM(amount) OVER (ORDER BY ts) FROM orders", ""},
		{"SELECT window_start FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE))", ""},
		{"SELECT 1.5e3 FROM orders", ""},
		{"VALUES (1)", ""},
		{"SELECT product FROM orders WHERE amount > ANY (1, 2)", ""},
		{"SELECT product FROM orders WHERE amount < ALL (SELECT amount FROM users)", ""},
		{"SELECT -amount FROM orders", ""},
	}
	stmts, err := parser.ParseScript(expandTables)
	if err != nil {
		t.Fatal(err)
	}
	b := &planner.Binder{Catalog: catalog.New()}
	for _, st := range stmts {
		tbl, err := b.CreateTable(st.(*ast.CreateTable))
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Catalog.AddTable(tbl, false); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		q, err := parser.ParseScript(c.query)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		query := q[0].(*ast.QueryStatement).Query
		if _, err := b.Query(query); err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		got, ok := b.ExpandQuery(query)
		if !ok {
			got = ""
		}
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.query, got, c.want)
		}
	}
}
