package planner

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/types"
)

// EXPLAIN's optimized plans show a table's scan in the shape Flink's
// optimizer gives it, although Sluice's scan reads the table's columns,
// computes its computed columns and assigns its watermark in one operator:
//
//   - the TableSourceScan reads the physical columns, then the metadata
//     columns, named by their keys as Flink's source produces them
//     (PushWatermarkIntoTableSourceScanRuleTest.xml, testWatermarkOnMetadata):
//     those the query reads when the connector takes a projection into its
//     source in Flink (connector.FlinkPushDowns: Kafka's
//     KafkaDynamicSource), all of them else (nexmark's, whose projection
//     is Sluice's own);
//   - a table whose connector takes the watermark into its source in Flink
//     (Kafka's) lists it
//     in the scan, watermark=[-(ts, 1000:INTERVAL SECOND)],
//     watermarkEmitStrategy=[on-periodic], with idletimeout=[1000] between
//     them when table.exec.source.idle-timeout is set
//     (WatermarkPushDownSpec.getDigests; SourceWatermarkTest.xml;
//     PushWatermarkIntoTableSourceScanRuleTest.xml,
//     testWatermarkWithIdleSource), and the Calc over the scan computes the
//     computed columns, merged with the projection that reads the scan, a
//     time attribute computed by an expression under Reinterpret
//     (SourceWatermarkTest.xml, testWatermarkOnCurrentRowTimestampFunction);
//   - any other table with a watermark has a WatermarkAssigner over a Calc
//     of the columns the query and the watermark read, computed ones
//     computed, under the projection that reads the scan (Flink's
//     ProjectWatermarkAssignerTransposeRule; flink-sql-client's table.q,
//     "test explain plan for select" over a datagen table);
//   - a Calc that only passes its input's columns on is not printed, as
//     Flink's optimizer removes it.
//
// explainShapes gives, for the scans under roots and the Calcs that alone
// read them, the nodes EXPLAIN prints instead: a scan's chain top first
// (each node reads the next), and a reading Calc's projection over the
// top of its scan's chain, or no node when it is not printed.
func explainShapes(roots ...Node) map[Node][]Node {
	parents := map[Node]int{}
	var walk func(n Node)
	walk = func(n Node) {
		for _, in := range n.Inputs() {
			parents[in]++
			if parents[in] == 1 {
				walk(in)
			}
		}
	}
	for _, r := range roots {
		walk(r)
	}
	shapes := map[Node][]Node{}
	var readers []*Calc
	for n := range parents {
		if c, ok := n.(*Calc); ok {
			if s, ok := c.Input.(*Scan); ok && parents[s] == 1 {
				readers = append(readers, c)
			}
		}
	}
	var shape func(n Node, seen map[Node]bool)
	shape = func(n Node, seen map[Node]bool) {
		if seen[n] {
			return
		}
		seen[n] = true
		if s, ok := n.(*Scan); ok {
			var reader *Calc
			for _, c := range readers {
				if c.Input == s {
					reader = c
				}
			}
			chain, upper := scanShape(s, reader)
			shapes[s] = chain
			if reader != nil {
				shapes[reader] = upper
			}
		}
		for _, in := range n.Inputs() {
			shape(in, seen)
		}
	}
	seen := map[Node]bool{}
	for _, r := range roots {
		shape(r, seen)
	}
	return shapes
}

// scanShape is the chain of nodes EXPLAIN prints for s, top first, and
// what it prints for reader, the Calc that alone reads s (nil for none):
// its projection over the chain, or nothing.
func scanShape(s *Scan, reader *Calc) (chain, upper []Node) {
	t := s.Table
	projection, pushdown := false, false
	if f, err := connector.For(t); err == nil {
		if fp, ok := f.(connector.FlinkPushDowns); ok {
			projection, pushdown = fp.FlinkPushDowns(t)
		}
	}
	read := s
	if !projection {
		read = &Scan{Table: t, Computed: s.Computed, Upsert: s.Upsert, Changelog: s.Changelog}
	}
	physical, meta := read.readColumns()
	var fields types.Schema
	pos := map[int]int{} // a table column's field of the source
	for _, i := range physical {
		pos[i] = len(fields)
		fields = append(fields, types.Field{Name: t.Columns[i].Name, Type: t.Columns[i].Type.Plain()})
	}
	keys := map[string]int{}
	for _, i := range meta {
		key := cmp.Or(t.Columns[i].MetadataKey, t.Columns[i].Name)
		if k, ok := keys[key]; ok {
			pos[i] = k
			continue
		}
		keys[key], pos[i] = len(fields), len(fields)
		fields = append(fields, types.Field{Name: key, Type: t.Columns[i].Type.Plain()})
	}
	// tableColumn is the table column of the scan's column k.
	tableColumn := func(k int) int {
		if s.Project != nil {
			return s.Project[k]
		}
		return k
	}
	rowtime := -1
	for k, f := range s.schema {
		if f.Type.Attr == types.RowTime {
			rowtime = k
		}
	}
	// source is table column i over the source's fields; a computed time
	// attribute read above a watermark pushed into the source is
	// reinterpreted as one.
	var source func(i int, reinterpret bool) expr.Expr
	source = func(i int, reinterpret bool) expr.Expr {
		if t.Columns[i].Computed == nil {
			f := fields[pos[i]]
			return &expr.Column{Index: pos[i], Name: f.Name, T: f.Type}
		}
		e := expr.Remap(s.Computed[i], func(c *expr.Column) expr.Expr { return source(c.Index, false) })
		if _, bare := e.(*expr.Column); !bare && reinterpret && rowtime >= 0 && i == tableColumn(rowtime) {
			// (a column is not: SourceWatermarkTest.xml,
			// testProjectTransposeWatermarkAssigner)
			e = &expr.Call{Name: "Reinterpret", Args: []expr.Expr{e}, T: e.Type()}
		}
		return e
	}
	scan := &sourceScan{base: base{schema: fields}, scan: read}
	// A watermark is shown with the time attribute it is for: a scan
	// whose columns hold none shows none, nor one of a batch job, as
	// Flink's batch optimizer has no watermarks.
	watermark := s.Watermark != nil && rowtime >= 0 && !s.batch
	if !watermark || pushdown {
		if watermark {
			w := calciteLiterals(expr.Remap(s.Watermark, func(c *expr.Column) expr.Expr { return source(c.Index, false) }))
			scan.watermark = ", watermark=[" + exprText(w, fields, prefix) + "]"
			if ms := s.idleTimeout.Milliseconds(); ms > 0 {
				scan.watermark += fmt.Sprintf(", idletimeout=[%d]", ms)
			}
			scan.watermark += ", watermarkEmitStrategy=[on-periodic]"
		}
		over := func(k int) expr.Expr { return source(tableColumn(k), true) }
		if reader != nil {
			return []Node{scan}, shownCalc(remappedCalc(reader, scan, over))
		}
		project := make([]expr.Expr, len(s.schema))
		for k := range project {
			project[k] = over(k)
		}
		return append(shownCalc(&Calc{base: base{schema: s.schema}, Input: scan, Projects: project}), scan), nil
	}
	// The columns read above the watermark assigner: those the reader
	// reads (all without one), in the order it first reads them, as
	// Flink's ProjectWatermarkAssignerTransposeRule pushes a projection
	// (AggregateTest.xml, testAggWithMiniBatch), or in the scan's order
	// under a filter (ProjectFilterTransposeRule first pushes the columns
	// read below it; testColumnIntervalValidation); then the time
	// attribute and the columns the watermark reads.
	needed := seq(len(s.schema))
	if reader != nil {
		needed = calcColumns(reader)
		if reader.Filter != nil {
			slices.Sort(needed)
		}
		more := []int{rowtime}
		for _, i := range expr.Columns(s.Watermark) {
			if k := slices.IndexFunc(seq(len(s.schema)), func(k int) bool { return tableColumn(k) == i }); k >= 0 {
				more = append(more, k)
			}
		}
		for _, k := range more {
			if !slices.Contains(needed, k) {
				needed = append(needed, k)
			}
		}
	}
	project := make([]expr.Expr, len(needed))
	schema := make(types.Schema, len(needed))
	at := map[int]int{} // a table column's position among needed
	for j, k := range needed {
		project[j] = source(tableColumn(k), false)
		schema[j] = s.schema[k]
		at[tableColumn(k)] = j
	}
	lower := append(shownCalc(&Calc{base: base{schema: schema}, Input: scan, Projects: project}), scan)
	w := &watermarkAssigner{base: base{schema: schema}, Input: lower[0], Rowtime: s.schema[rowtime].Name,
		Watermark: calciteLiterals(expr.Remap(s.Watermark, func(c *expr.Column) expr.Expr {
			return &expr.Column{Index: at[c.Index], Name: schema[at[c.Index]].Name, T: c.T}
		}))}
	chain = append([]Node{w}, lower...)
	if reader != nil {
		upper = shownCalc(remappedCalc(reader, w, func(k int) expr.Expr {
			j := at[tableColumn(k)]
			return &expr.Column{Index: j, Name: schema[j].Name, T: schema[j].Type}
		}))
	}
	return chain, upper
}

// calciteLiterals is e with its literals written as Calcite writes them
// (5000:INTERVAL SECOND), as Flink prints a watermark expression, which it
// keeps as a RexNode (FlinkRexUtil.getExpressionString).
func calciteLiterals(e expr.Expr) expr.Expr {
	return expr.MapLeaves(e, func(x expr.Expr) expr.Expr {
		if l, ok := x.(*expr.Literal); ok && l.Folded == nil {
			c := *l
			c.Text = literalText(l)
			return &c
		}
		return x
	})
}

// remappedCalc is c over in instead of its input, its column k being
// column(k).
func remappedCalc(c *Calc, in Node, column func(k int) expr.Expr) *Calc {
	remap := func(e expr.Expr) expr.Expr {
		if e == nil {
			return nil
		}
		return expr.Remap(e, func(col *expr.Column) expr.Expr { return column(col.Index) })
	}
	projects := make([]expr.Expr, len(c.Projects))
	for i, p := range c.Projects {
		projects[i] = remap(p)
	}
	return &Calc{base: base{schema: c.schema}, Input: in, Projects: projects, Filter: remap(c.Filter)}
}

// shownCalc is c, or nothing when c only passes its input's columns on
// under their names, which Flink's plan has no Calc for.
func shownCalc(c *Calc) []Node {
	if c.Filter == nil && passesOn(c.Projects, len(c.Input.Schema())) && slices.Equal(c.schema.Names(), c.Input.Schema().Names()) {
		return nil
	}
	return []Node{c}
}

// sourceScan is the TableSourceScan of a scan's shape in EXPLAIN.
type sourceScan struct {
	base
	scan *Scan
	// watermark is the watermark pushed into the source, as Flink's
	// WatermarkPushDownSpec writes it, or "".
	watermark string
}

// Inputs implements Node.
func (n *sourceScan) Inputs() []Node { return nil }

// Mode implements Node.
func (n *sourceScan) Mode() Mode { return n.scan.Mode() }

// Describe implements Node.
func (n *sourceScan) Describe() string {
	id := n.scan.Table.ID()
	return fmt.Sprintf("TableSourceScan(table=[[%s, %s, %s%s%s]], fields=[%s])", id.Catalog, id.Database, id.Object, n.scan.projectText(), n.watermark, strings.Join(n.schema.Names(), ", "))
}

// watermarkAssigner is Flink's WatermarkAssigner in a scan's shape in
// EXPLAIN.
type watermarkAssigner struct {
	base
	Input     Node
	Rowtime   string
	Watermark expr.Expr
}

// Inputs implements Node.
func (n *watermarkAssigner) Inputs() []Node { return []Node{n.Input} }

// Mode implements Node.
func (n *watermarkAssigner) Mode() Mode { return n.Input.Mode() }

// Describe implements Node.
func (n *watermarkAssigner) Describe() string { return n.describe(prefix) }

func (n *watermarkAssigner) describe(f exprFormat) string {
	return "WatermarkAssigner(rowtime=[" + n.Rowtime + "], watermark=[" + exprText(n.Watermark, n.Input.Schema(), f) + "])"
}
