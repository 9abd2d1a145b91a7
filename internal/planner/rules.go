package planner

import (
	"fmt"
	"reflect"
	"slices"
)

// The binder builds the plan as the statement reads: a scan per table, a
// Calc per projection and filter (merged as they stack), a Rank per
// ranking function, a join per join. The streaming shapes Flink's
// optimizer recognizes in such a plan are then rewritten by named rules,
// applied in phases (docs/architecture.md lists them):
//
//   - a rule looks at one node, whose inputs have been rewritten already,
//     and returns the node that replaces it, or the node itself when its
//     shape does not match. Rules build new nodes and change none: the
//     nodes above a rewritten one are copied, so a subtree the binder
//     still holds stays as it was built;
//   - a phase is an ordered list of rules, applied to the plan bottom-up:
//     at each node the first rule that matches rewrites it, and the
//     result is rewritten again (its new inputs first) until no rule of
//     the phase matches, so a phase runs to its fixpoint;
//   - phases run one after the other, each over the plan the previous one
//     left.
//
// A new streaming shape is a new rule in a phase, not another branch of
// the binder.

// rule is one named rewrite of the plan.
type rule struct {
	// name is the rule's name, as docs/architecture.md lists it.
	name string
	// apply returns n rewritten, or n itself when the rule does not match.
	apply func(n Node) Node
}

// phases are the rule sets applied in order.
var phases = [][]rule{
	// Window aggregation (window.go), after Flink's
	// StreamPhysicalWindowAggregateRule: first, since the joins and
	// rankings over a window aggregation read its window.
	{
		{name: "WindowAggregate", apply: windowAggregate},
		{name: "CalcMerge", apply: calcMerge},
	},
	// Joins (join.go, temporal.go).
	{
		{name: "WindowJoin", apply: windowJoin},
		{name: "IntervalJoin", apply: intervalJoin},
	},
	// Top-N and deduplication (rank.go), after Flink's FlinkLogicalRankRule,
	// StreamPhysicalWindowRankRule and StreamPhysicalDeduplicateRule.
	{
		{name: "RankRange", apply: rankRange},
		{name: "WindowRank", apply: windowRank},
		{name: "Deduplicate", apply: deduplicate},
	},
	// A ranking that no filter made a Top-N (rankover.go); after the
	// Top-N phase, which must see every filter over the ranking first.
	{
		{name: "RankingOver", apply: rankingOverRule},
	},
	// What each node emits (rank.go).
	{
		{name: "RankNumber", apply: rankNumber},
	},
}

// rewrite applies the phases to the plan under root and returns its new
// root. Where the binder must see a subtree as the rules leave it, it
// rewrites that subtree before going on; the rules leave a rewritten plan
// as it is.
func rewrite(root Node) Node {
	for _, rules := range phases {
		root = applyRules(root, rules, map[Node]Node{})
	}
	return root
}

// applyRules rewrites the plan under n with one phase's rules, copying
// the nodes above a rewritten one (no node is changed in place). done
// maps each node already visited to its replacement, so a node two
// parents share is rewritten once and stays shared.
func applyRules(n Node, rules []rule, done map[Node]Node) Node {
	if out, ok := done[n]; ok {
		return out
	}
	ins := slices.Clone(n.Inputs())
	changed := false
	for i, in := range ins {
		out := applyRules(in, rules, done)
		changed = changed || out != in
		ins[i] = out
	}
	out := n
	if changed {
		out = withInputs(n, ins)
	}
	for _, r := range rules {
		if next := r.apply(out); next != out {
			out = applyRules(next, rules, done)
			break
		}
	}
	done[n] = out
	return out
}

var nodeType = reflect.TypeFor[Node]()

// withInputs returns a copy of n with the inputs ins.
func withInputs(n Node, ins []Node) Node {
	c := reflect.New(reflect.TypeOf(n).Elem())
	c.Elem().Set(reflect.ValueOf(n).Elem())
	// The copy's lists of inputs are its own.
	eachNodeField(c.Elem(), func(f reflect.Value) {
		if f.Kind() == reflect.Slice {
			f.Set(reflect.AppendSlice(reflect.MakeSlice(f.Type(), 0, f.Len()), f))
		}
	})
	out := c.Interface().(Node)
	setInputs(out, ins)
	return out
}

// setInputs replaces n's inputs with ins, in the order Inputs lists them:
// the fields of n (and of the structs it embeds) of type Node and []Node.
func setInputs(n Node, ins []Node) {
	var fields []reflect.Value
	eachNodeField(reflect.ValueOf(n).Elem(), func(f reflect.Value) {
		if f.Kind() == reflect.Slice {
			for j := range f.Len() {
				fields = append(fields, f.Index(j))
			}
			return
		}
		fields = append(fields, f)
	})
	old := n.Inputs()
	if len(fields) != len(old) {
		panic(fmt.Sprintf("planner: %T has %d fields of type Node for its %d inputs", n, len(fields), len(old)))
	}
	for i, f := range fields {
		if f.Interface() != old[i] {
			panic(fmt.Sprintf("planner: %T's input %d is not its field of type Node %d", n, i, i))
		}
		f.Set(reflect.ValueOf(ins[i]))
	}
}

// eachNodeField calls f with each field of the struct v, and of the
// structs it embeds, of type Node or []Node.
func eachNodeField(v reflect.Value, f func(reflect.Value)) {
	for i := range v.NumField() {
		field, sf := v.Field(i), v.Type().Field(i)
		switch {
		case sf.Anonymous && field.Kind() == reflect.Struct:
			eachNodeField(field, f)
		case field.Type() == nodeType, field.Kind() == reflect.Slice && field.Type().Elem() == nodeType:
			f(field)
		}
	}
}
