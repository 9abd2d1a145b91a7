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
//     shape does not match. It builds new nodes and never changes the one
//     it is given, so the plan is rewritten only where a rule matched;
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
	// Joins (join.go).
	{
		{name: "IntervalJoin", apply: intervalJoin},
	},
	// Top-N and deduplication (rank.go), after Flink's FlinkLogicalRankRule,
	// StreamPhysicalWindowRankRule and StreamPhysicalDeduplicateRule.
	{
		{name: "RankRange", apply: rankRange},
		{name: "WindowRank", apply: windowRank},
		{name: "Deduplicate", apply: deduplicate},
	},
}

// rewrite applies the phases to the plan under root (a Collect or Sink,
// which no rule replaces), changing root's inputs in place.
func rewrite(root Node) {
	for _, rules := range phases {
		done := map[Node]Node{}
		ins := slices.Clone(root.Inputs())
		for i, in := range ins {
			ins[i] = applyRules(in, rules, done)
		}
		setInputs(root, ins)
	}
}

// rewriteTree applies the phases to the plan under n and returns its new
// root: for a subtree the binder must see rewritten before it goes on (a
// versioned view's deduplication, which a temporal join needs).
func rewriteTree(n Node) Node {
	for _, rules := range phases {
		n = applyRules(n, rules, map[Node]Node{})
	}
	return n
}

// applyRules rewrites the plan under n with one phase's rules. done maps
// each node already visited to its replacement, so a node two parents
// share is rewritten once and stays shared.
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
	if changed {
		setInputs(n, ins)
	}
	out := n
	for _, r := range rules {
		if next := r.apply(n); next != n {
			out = applyRules(next, rules, done)
			break
		}
	}
	done[n] = out
	return out
}

var nodeType = reflect.TypeFor[Node]()

// setInputs replaces n's inputs with ins, in the order Inputs lists them:
// the fields of n (and of the structs it embeds) of type Node and []Node.
func setInputs(n Node, ins []Node) {
	var fields []reflect.Value
	var collect func(v reflect.Value)
	collect = func(v reflect.Value) {
		for i := range v.NumField() {
			f, sf := v.Field(i), v.Type().Field(i)
			switch {
			case sf.Anonymous && f.Kind() == reflect.Struct:
				collect(f)
			case f.Type() == nodeType:
				fields = append(fields, f)
			case f.Kind() == reflect.Slice && f.Type().Elem() == nodeType:
				for j := range f.Len() {
					fields = append(fields, f.Index(j))
				}
			}
		}
	}
	collect(reflect.ValueOf(n).Elem())
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
