package planner

import (
	"slices"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/types"
)

// Projection pushdown, after Flink's PushProjectIntoTableSourceScanRule:
// a scan whose connector takes a projection (connector.ProjectionPushDown)
// reads only the columns the plan above it uses, so that its source
// decodes and carries no others. Two shapes are rewritten, where the scan
// feeds nothing else:
//
//   - a Calc over a scan: the scan emits the columns the Calc reads, in the
//     order it first reads them (Flink's project=[c, a] for SELECT c, a);
//   - a Calc over the normalization of an upsert scan: the same, with the
//     primary key;
//   - a Calc over a regular or interval join of two scans: each scan emits
//     the columns the Calc, the join's keys, condition and time attributes
//     read, in table order, and the join carries only those.
//
// A table's watermark column and the columns its watermark expression
// reads stay (Flink keeps them for the watermark assigner pushed into the
// source); metadata columns come after the others, in declaration order,
// as Flink's source produces them.

// pushProjections rewrites the plan under root in place.
func pushProjections(root Node) {
	parents := map[Node]int{}
	var count func(n Node)
	count = func(n Node) {
		for _, in := range n.Inputs() {
			parents[in]++
			if parents[in] == 1 {
				count(in)
			}
		}
	}
	count(root)
	done := map[Node]bool{}
	var walk func(n Node)
	walk = func(n Node) {
		if done[n] {
			return
		}
		done[n] = true
		if c, ok := n.(*Calc); ok && parents[c.Input] == 1 {
			switch in := c.Input.(type) {
			case *Scan:
				pushIntoScan(c, in)
			case *Normalize:
				if sc, ok := in.Input.(*Scan); ok && parents[sc] == 1 {
					pushThroughNormalize(c, in, sc)
				}
			case *Join:
				pushThroughJoin(c, in, nil, parents)
			case *IntervalJoin:
				pushThroughJoin(c, &in.Join, in, parents)
			}
		}
		for _, in := range n.Inputs() {
			walk(in)
		}
	}
	walk(root)
}

// calcColumns returns the input columns c reads, in the order it first
// reads them.
func calcColumns(c *Calc) []int {
	var out []int
	es := append(slices.Clone(c.Projects), c.Filter)
	for _, e := range es {
		if e == nil {
			continue
		}
		expr.Walk(e, func(x expr.Expr) {
			if col, ok := x.(*expr.Column); ok && !slices.Contains(out, col.Index) {
				out = append(out, col.Index)
			}
		})
	}
	return out
}

// remapColumns rewrites the column references of e through at.
func remapColumns(e expr.Expr, at []int) expr.Expr {
	if e == nil {
		return nil
	}
	return expr.Remap(e, func(c *expr.Column) expr.Expr {
		return &expr.Column{Index: at[c.Index], Name: c.Name, T: c.T}
	})
}

// remapCalc rewrites c's expressions through at.
func remapCalc(c *Calc, at []int) {
	for i, p := range c.Projects {
		c.Projects[i] = remapColumns(p, at)
	}
	c.Filter = remapColumns(c.Filter, at)
}

// pushIntoScan narrows s to the columns c reads.
func pushIntoScan(c *Calc, s *Scan) {
	if at := s.project(calcColumns(c)); at != nil {
		remapCalc(c, at)
	}
}

// pushThroughNormalize narrows the upsert scan s under n to the columns c
// reads and the primary key, which n keeps each key's last row by (Flink
// retains it for an upsert source).
func pushThroughNormalize(c *Calc, n *Normalize, s *Scan) {
	used := calcColumns(c)
	for _, k := range n.Keys {
		if !slices.Contains(used, k) {
			used = append(used, k)
		}
	}
	at := s.project(used)
	if at == nil {
		return
	}
	for i, k := range n.Keys {
		n.Keys[i] = at[k]
	}
	n.schema = s.schema
	remapCalc(c, at)
}

// pushThroughJoin narrows both scans under j (iv when j is an interval
// join's) to the columns c and j read, and j to what they emit.
func pushThroughJoin(c *Calc, j *Join, iv *IntervalJoin, parents map[Node]int) {
	l, lok := j.Left.(*Scan)
	r, rok := j.Right.(*Scan)
	if !lok || !rok || l == r || parents[l] != 1 || parents[r] != 1 {
		return
	}
	nl := len(l.Schema())
	used := calcColumns(c)
	used = append(used, j.LeftKeys...)
	for _, k := range j.RightKeys {
		used = append(used, nl+k)
	}
	if j.Cond != nil {
		used = append(used, expr.Columns(j.Cond)...)
	}
	if iv != nil {
		used = append(used, iv.LeftTime, nl+iv.RightTime)
	}
	var left, right []int
	for _, u := range used {
		if u < nl {
			left = append(left, u)
		} else {
			right = append(right, u-nl)
		}
	}
	slices.Sort(left)
	left = slices.Compact(left)
	slices.Sort(right)
	right = slices.Compact(right)
	oldSchema := j.Schema()
	lat, rat := l.project(left), r.project(right)
	if lat == nil && rat == nil {
		return
	}
	if lat == nil {
		lat = seq(nl)
	}
	if rat == nil {
		rat = seq(len(oldSchema) - nl)
	}
	// at maps the join's columns to its new ones.
	newL := len(l.Schema())
	at := make([]int, len(oldSchema))
	var schema types.Schema
	for i := range at {
		at[i] = -1
	}
	for i, k := range lat {
		if k >= 0 {
			at[i] = k
		}
	}
	for i, k := range rat {
		if k >= 0 {
			at[nl+i] = newL + k
		}
	}
	schema = make(types.Schema, newL+len(r.Schema()))
	for i, k := range at {
		if k >= 0 {
			schema[k] = oldSchema[i]
		}
	}
	j.schema = schema
	for i, k := range j.LeftKeys {
		j.LeftKeys[i] = lat[k]
	}
	for i, k := range j.RightKeys {
		j.RightKeys[i] = rat[k]
	}
	j.Cond = remapColumns(j.Cond, at)
	if iv != nil {
		iv.LeftTime, iv.RightTime = lat[iv.LeftTime], rat[iv.RightTime]
	}
	remapCalc(c, at)
}

// project narrows s to the columns used (indexes into its schema, in the
// order wanted), with the watermark's columns, physical and computed ones
// before metadata ones. It returns where each former column went (-1: it
// is gone), or nil when the connector takes no projection or every column
// is used.
func (s *Scan) project(used []int) []int {
	f, err := connector.For(s.Table)
	if err != nil || s.Project != nil {
		return nil
	}
	pd, ok := f.(connector.ProjectionPushDown)
	if !ok {
		return nil
	}
	if ok, _ := pd.ProjectionPushDown(s.Table); !ok {
		return nil
	}
	// Unprojected, the scan's columns are the table's.
	cols := seq(len(s.Table.Columns))
	keep := slices.Clone(used)
	if s.Watermark != nil {
		for _, i := range append([]int{s.schema.Index(s.Table.Watermark.Column)}, expr.Columns(s.Watermark)...) {
			if !slices.Contains(keep, i) {
				keep = append(keep, i)
			}
		}
	}
	if len(keep) == len(cols) {
		return nil
	}
	var plain, meta []int
	for _, i := range keep {
		if s.Table.Columns[cols[i]].Metadata {
			meta = append(meta, i)
		} else {
			plain = append(plain, i)
		}
	}
	slices.Sort(meta)
	at := make([]int, len(cols))
	for i := range at {
		at[i] = -1
	}
	project := []int{} // not nil: a projection of no column is one
	var schema types.Schema
	for _, i := range append(plain, meta...) {
		at[i] = len(project)
		project = append(project, cols[i])
		schema = append(schema, s.schema[i])
	}
	s.Project, s.schema = project, schema
	return at
}

// projectText is what EXPLAIN shows of a projected scan, after Flink's
// ProjectPushDownSpec and ReadingMetadataSpec: ", project=[a, c]" with the
// physical columns read (those the emitted computed columns read too), and
// ", metadata=[k]" with the keys of the metadata read, for a connector
// that reads metadata.
func (s *Scan) projectText() string {
	if s.Project == nil {
		return ""
	}
	t := s.Table
	physical, meta := s.readColumns()
	text := ", project=[" + columnNames(t, physical, false) + "]"
	f, _ := connector.For(t)
	if pd, ok := f.(connector.ProjectionPushDown); ok {
		if _, reads := pd.ProjectionPushDown(t); reads {
			text += ", metadata=[" + columnNames(t, meta, true) + "]"
		}
	}
	return text
}

// readColumns lists the table columns s reads from its source: the
// physical ones, those it emits first and then those its emitted computed
// columns read, and the metadata ones in table order. An unprojected scan
// reads every physical and metadata column, in table order.
func (s *Scan) readColumns() (physical, meta []int) {
	t := s.Table
	add := func(i int) {
		switch c := t.Columns[i]; {
		case c.Metadata:
			if !slices.Contains(meta, i) {
				meta = append(meta, i)
			}
		case c.Computed == nil:
			if !slices.Contains(physical, i) {
				physical = append(physical, i)
			}
		}
	}
	cols := s.Project
	if cols == nil {
		cols = seq(len(t.Columns))
	}
	for _, i := range cols {
		add(i)
	}
	for _, i := range cols {
		if i >= len(s.Computed) {
			continue
		}
		if e := s.Computed[i]; e != nil {
			for _, k := range expr.Columns(e) {
				add(k)
			}
		}
	}
	slices.Sort(meta)
	return physical, meta
}

// columnNames lists the names of t's columns cols, or their metadata
// keys.
func columnNames(t *catalog.Table, cols []int, keys bool) string {
	out := ""
	for i, c := range cols {
		if i > 0 {
			out += ", "
		}
		name := t.Columns[c].Name
		if keys && t.Columns[c].MetadataKey != "" {
			name = t.Columns[c].MetadataKey
		}
		out += name
	}
	return out
}
