package planner

import (
	"strings"

	"github.com/sluicesql/sluice/internal/sql/ast"
)

// Named windows (a query's WINDOW clause, Flink's "Over Aggregation" page)
// are resolved as Calcite's validator resolves them: the names of one
// clause are unique, ignoring case (SelectScope.existingWindowName), and
// no two windows of it are alike (SqlValidatorImpl.validateWindowClause);
// `OVER w` is the window w, and a window that names another, `(w ...)`,
// takes its PARTITION BY and ORDER BY (SqlWindow.overlay), may add an
// ORDER BY when w has none and a frame, and may not repeat PARTITION BY
// nor name a window with a frame. A name is looked up as written
// (SelectScope.lookupWindow). The resolved window of each call is kept
// in the binder and read through Binder.over.

// resolveWindows checks the WINDOW clause of s and resolves the windows
// of the calls in overs, binding the windows' expressions in sc.
func (b *Binder) resolveWindows(s *ast.Select, sc *scope, overs []*ast.FuncCall) error {
	for i, w := range s.Windows {
		for _, v := range s.Windows[:i] {
			if strings.EqualFold(v.Name, w.Name) {
				return errorf(w, "Duplicate window names not allowed")
			}
		}
	}
	for i, w := range s.Windows {
		for _, v := range s.Windows[i+1:] {
			if sameSpec(w.Spec, v.Spec) {
				return errorf(v.Spec, "Duplicate window specification not allowed in the same window clause")
			}
		}
	}
	r := &windowResolver{windows: s.Windows, resolving: map[string]bool{}}
	in := &exprBinder{b: b, sc: sc, where: "OVER"}
	for _, w := range s.Windows {
		spec, err := r.resolve(w.Spec)
		if err != nil {
			return err
		}
		for _, e := range spec.PartitionBy {
			if _, err := in.bind(e); err != nil {
				return err
			}
		}
		for _, o := range spec.OrderBy {
			if _, err := in.bind(o.Expr); err != nil {
				return err
			}
		}
	}
	for _, o := range overs {
		if o.Over.Ref == "" {
			continue
		}
		spec, err := r.resolve(o.Over)
		if err != nil {
			return err
		}
		if b.windows == nil {
			b.windows = map[*ast.FuncCall]*ast.WindowSpec{}
		}
		b.windows[o] = spec
	}
	return nil
}

// over is the window call computes over: its OVER clause, resolved
// against the query's WINDOW clause.
func (b *Binder) over(call *ast.FuncCall) *ast.WindowSpec {
	if w, ok := b.windows[call]; ok {
		return w
	}
	return call.Over
}

// sameSpec reports two windows alike but for positions.
func sameSpec(a, b *ast.WindowSpec) bool {
	return a.Ref == b.Ref && sameWindow(a, b)
}

// windowResolver resolves windows against the named windows of a clause.
type windowResolver struct {
	windows   []*ast.NamedWindow
	resolving map[string]bool
}

// resolve returns w without a reference to another window.
func (r *windowResolver) resolve(w *ast.WindowSpec) (*ast.WindowSpec, error) {
	if w.Ref == "" {
		return w, nil
	}
	var named *ast.NamedWindow
	for _, n := range r.windows {
		if n.Name == w.Ref {
			named = n
			break
		}
	}
	if named == nil {
		return nil, errorf(w.RefPos, "Window '%s' not found", w.Ref)
	}
	if r.resolving[named.Name] {
		return nil, errorf(w.RefPos, "Window '%s' is defined in terms of itself", w.Ref)
	}
	r.resolving[named.Name] = true
	base, err := r.resolve(named.Spec)
	delete(r.resolving, named.Name)
	if err != nil {
		return nil, err
	}
	if w.Named {
		return base, nil
	}
	// SqlWindow.overlay's checks (SQL:2011 7.11 rule 10), in its order.
	switch {
	case len(w.PartitionBy) > 0:
		return nil, errorf(w.PartitionBy[0], "PARTITION BY not allowed with existing window reference")
	case len(w.OrderBy) > 0 && len(base.OrderBy) > 0:
		return nil, errorf(w.OrderBy[0], "ORDER BY not allowed in both base and referenced windows")
	case base.Frame != nil:
		return nil, errorf(base.Frame, "Referenced window cannot have framing declarations")
	}
	out := &ast.WindowSpec{Pos: w.Pos, PartitionBy: base.PartitionBy, OrderBy: base.OrderBy, Frame: w.Frame}
	if len(w.OrderBy) > 0 {
		out.OrderBy = w.OrderBy
	}
	return out, nil
}
