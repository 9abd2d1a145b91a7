package planner

import (
	"fmt"
	"strings"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/types"
)

// TemporalJoin joins each left row with the version of the right
// (versioned) table's row valid at the left row's event time.
type TemporalJoin struct {
	Join
	LeftTime, RightTime int
	// retention is the state's idle retention: the session's, as Flink's
	// StreamExecTemporalJoin takes it (a STATE_TTL hint does not reach it:
	// Binder.join).
	retention plan.TTL
}

// Mode implements Node.
func (n *TemporalJoin) Mode() Mode { return n.Left.Mode() }

// Describe implements Node.
func (n *TemporalJoin) Describe() string { return n.describe(prefix) }

func (n *TemporalJoin) describe(f exprFormat) string {
	return fmt.Sprintf("TemporalJoin(%s, leftTimeAttribute=[%s], rightTimeAttribute=[%s])",
		n.joinText(f), n.schema[n.LeftTime].Name, n.schema[len(n.Left.Schema())+n.RightTime].Name)
}

// temporalJoin plans `left JOIN versioned FOR SYSTEM_TIME AS OF left.time`
// as Flink's event-time temporal join: the time must be a rowtime attribute
// of the left side, the versioned table needs a primary key and a rowtime
// attribute, and its key must be among the join's equalities.
func (b *Binder) temporalJoin(jn Join, asOf ast.Expr, ref *ast.TableName, l, r *relation, rest expr.Expr, sc *scope) (*relation, error) {
	if jn.Kind != InnerJoin && jn.Kind != LeftJoin {
		return nil, errorf(ref, "Unsupported join type for a temporal join: only INNER and LEFT joins are supported")
	}
	t, err := (&exprBinder{b: b, sc: l.sc, where: "FOR SYSTEM_TIME AS OF"}).bind(asOf)
	if err != nil {
		return nil, err
	}
	lt, ok := t.(*expr.Column)
	if !ok || lt.T.Attr == types.NoTimeAttr {
		return nil, errorf(asOf, "Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time attribute field")
	}
	id, err := b.Qualify(ref.Name)
	if err != nil {
		return nil, err
	}
	rs := r.node.Schema()
	var keys []int
	var keyNames []string
	if table, _ := b.Lookup(id); table != nil {
		// The scan keeps the table's column order, so key columns are
		// found by their position in the table even when the reference
		// renames them.
		for _, k := range table.PrimaryKey {
			keys = append(keys, table.Schema().Index(k))
		}
		keyNames = table.PrimaryKey
	} else {
		// A versioned view (Flink's "Versioned Views"): a query whose
		// unique key the planner infers, such as a deduplication keeping
		// each key's last row by event time. The rules make the
		// deduplication, so they rewrite the view first.
		jn.Right = rewrite(jn.Right)
		if vk, ok := versionedKeys(jn.Right); ok {
			keys = vk
			for _, k := range vk {
				keyNames = append(keyNames, rs[k].Name)
			}
		}
	}
	if len(keys) == 0 {
		return nil, errorf(ref, "Temporal Table Join requires primary key in versioned table, but no primary key can be found. The physical plan is not a versioned table: '%s'", id.Object)
	}
	// Flink checks the key in its logical rewrite
	// (TemporalJoinRewriteWithUniqueKeyRule), before the time attributes.
	for _, k := range keys {
		if !contains(jn.RightKeys, k) {
			return nil, errorf(ref, "Temporal table's primary key [%s] must be included in the equivalence condition of temporal join", strings.Join(keyNames, ", "))
		}
	}
	if lt.T.Attr == types.ProcTime {
		return nil, procTimeTemporalJoin(ref)
	}
	rt := -1
	for i, f := range rs {
		if f.Type.Attr == types.RowTime {
			rt = i
		}
	}
	if rt < 0 {
		return nil, errorf(ref, "Event-Time Temporal Table Join requires both primary key and row time attribute in versioned table, but no row time attribute can be found.")
	}
	tj := &TemporalJoin{Join: jn, LeftTime: lt.Index, RightTime: rt}
	tj.Cond = rest
	tj.schema = joinSchema(l.node.Schema(), rs, jn.Kind, true, false)
	return &relation{node: tj, sc: joinScope(sc, tj.schema)}, nil
}

// versionedKeys returns the columns of n that are a unique key of a
// versioned relation: the partition keys of a deduplication (event or
// processing time) that keeps each key's last row, carried through projections and
// filters. Flink infers such a key for any query; these are the shapes its
// documentation shows as versioned views.
func versionedKeys(n Node) ([]int, bool) {
	switch x := n.(type) {
	case *Deduplicate:
		return x.Keys, x.KeepLast && x.Window == nil && len(x.Keys) > 0
	case *Calc:
		in, ok := versionedKeys(x.Input)
		if !ok {
			return nil, false
		}
		out := make([]int, len(in))
		for i, k := range in {
			out[i] = -1
			for j, p := range x.Projects {
				if c, isCol := p.(*expr.Column); isCol && c.Index == k {
					out[i] = j
					break
				}
			}
			if out[i] < 0 {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

// WindowJoin joins two windowed inputs window by window: rows of the same
// window (equal window_start and window_end) and keys, joined when the
// watermark passes the window's end (Flink's window join).
type WindowJoin struct {
	Join
	Window            Window
	LeftEnd, RightEnd int
}

// Mode implements Node: each window's result is final.
func (n *WindowJoin) Mode() Mode { return connector.InsertOnly }

// Describe implements Node.
func (n *WindowJoin) Describe() string { return n.describe(prefix) }

func (n *WindowJoin) describe(f exprFormat) string {
	return fmt.Sprintf("WindowJoin(%s, window=[%s])", n.joinText(f), n.Window.String(n.Left.Schema()))
}

// windowJoin is the rule WindowJoin: a regular join of two inputs
// windowed alike whose keys pair their window_start and window_end
// columns joins window by window (Flink's StreamPhysicalWindowJoinRule).
func windowJoin(n Node) Node {
	if j, ok := n.(*Join); ok {
		if wj := windowJoinOf(j); wj != nil {
			return wj
		}
	}
	return n
}

// windowJoinOf returns jn as a window join; nil when it is none.
func windowJoinOf(jn *Join) *WindowJoin {
	lw, lStart, lEnd, ok := windowOf(jn.Left)
	if !ok {
		return nil
	}
	rw, rStart, rEnd, ok := windowOf(jn.Right)
	if !ok || lw.Kind != rw.Kind || lw.Size != rw.Size || lw.Slide != rw.Slide || lw.Offset != rw.Offset || lw.Gap != rw.Gap || lw.Kind == Session {
		return nil
	}
	paired := func(lc, rc int) bool {
		for i := range jn.LeftKeys {
			if jn.LeftKeys[i] == lc && jn.RightKeys[i] == rc {
				return true
			}
		}
		return false
	}
	if !paired(lStart, rStart) || !paired(lEnd, rEnd) {
		return nil
	}
	w := lw
	if w.TimeCol < 0 {
		w.TimeCol = lStart // after a window aggregation: name the window by its start
	}
	return &WindowJoin{Join: *jn, Window: w, LeftEnd: lEnd, RightEnd: rEnd}
}
