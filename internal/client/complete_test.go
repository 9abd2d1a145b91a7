package client

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sluicesql/sluice"
)

// TestTabCompletion: Tab completes keywords, tables, the columns of the
// tables the statement names (also on its earlier lines) and, in the
// quotes after SET and RESET, setting keys; embedded and through a SQL
// gateway alike.
func TestTabCompletion(t *testing.T) {
	srv := startGateway(t, "")
	g := srv.open(t, "")
	defer g.Close()
	e := sluice.NewEngine()
	defer e.Close()
	for name, b := range map[string]Backend{"embedded": &Embedded{Engine: e}, "gateway": g} {
		t.Run(name, func(t *testing.T) {
			execute(t, b, "CREATE TABLE items (item_price INT, item_name STRING) WITH ('connector' = 'datagen');")
			execute(t, b, "CREATE TABLE sessionization_table (a INT) WITH ('connector' = 'datagen');")
			c := &Client{Backend: b}
			for _, tc := range []struct {
				typed, line string
				pos         int
				head, tail  string
				want        []string
			}{
				{"", "sele", 4, "", "", []string{"select"}},
				{"", "SEL", 3, "", "", []string{"SELECT"}},
				{"", "SELECT * FROM Ite", 17, "SELECT * FROM ", "", []string{"Items"}},
				{"", "SELECT * FROM ite WHERE", 17, "SELECT * FROM ", " WHERE", []string{"items"}},
				{"", "SELECT item_ FROM items", 12, "SELECT ", " FROM items", []string{"item_price", "item_name"}},
				{"SELECT item_price\nFROM items\n", "WHERE item_n", 12, "WHERE ", "", []string{"item_name"}},
				{"", "SET 'sql-client.execution.re", 29, "SET '", "", []string{"sql-client.execution.result-mode"}},
				{"RESET\n", "  'table.display.", 17, "  '", "", []string{"table.display.max-column-width"}},
			} {
				head, got, tail := c.complete(context.Background(), tc.typed, tc.line, tc.pos)
				if head != tc.head || tail != tc.tail || !slices.Equal(got, tc.want) {
					t.Errorf("completing %q|%q at %d: %q %q %q, want %q %q %q", tc.typed, tc.line, tc.pos, head, got, tail, tc.head, tc.want, tc.tail)
				}
			}
			// Several completions keep the word as typed: keywords in its
			// case, names as they are.
			_, got, _ := c.complete(context.Background(), "", "SELECT * FROM se", 16)
			for _, want := range []string{"select", "set", "sessionization_table"} {
				if !slices.Contains(got, want) {
					t.Errorf("se is not completed by %q: %q", want, got)
				}
			}
			for _, cand := range got {
				if !strings.HasPrefix(cand, "se") {
					t.Errorf("se is completed by %q", cand)
				}
			}
		})
	}
}
