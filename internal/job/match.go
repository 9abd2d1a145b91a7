package job

import (
	"fmt"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/runtime/ops"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

func init() { builders[plan.KindMatch] = buildMatch }

var matchSkips = map[string]ops.MatchSkip{"PAST LAST ROW": ops.SkipPastLastRow, "TO NEXT ROW": ops.SkipToNextRow,
	"TO FIRST": ops.SkipToFirst, "TO LAST": ops.SkipToLast}

// buildMatch compiles a MATCH_RECOGNIZE's conditions and measures for each
// instance.
func buildMatch(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.MatchConfig)
	in := n.In[0]
	if err := checkCols("config.partitionKeys", cfg.PartitionKeys, len(in)); err != nil {
		return Instances{}, err
	}
	if err := checkCols("config.timeColumn", []int{cfg.TimeColumn}, len(in)); err != nil {
		return Instances{}, err
	}
	skip, ok := matchSkips[cfg.After]
	if !ok {
		return Instances{}, fmt.Errorf("config.after: unknown strategy '%s'; expected PAST LAST ROW, TO NEXT ROW, TO FIRST or TO LAST", cfg.After)
	}
	vars := map[string]int{}
	for i, v := range cfg.Variables {
		if _, dup := vars[v.Name]; dup {
			return Instances{}, fmt.Errorf("config.variables[%d]: variable '%s' appears twice", i, v.Name)
		}
		vars[v.Name] = i
	}
	afterVar := -1
	if skip == ops.SkipToFirst || skip == ops.SkipToLast {
		v, ok := vars[cfg.AfterVariable]
		if !ok {
			return Instances{}, fmt.Errorf("config.afterVariable: '%s' is not a variable of the pattern", cfg.AfterVariable)
		}
		afterVar = v
	}
	out := n.Out()
	if len(out) != len(cfg.PartitionKeys)+len(cfg.Measures.Exprs) {
		return Instances{}, fmt.Errorf("schema: %d columns for %d partition keys and %d measures", len(out), len(cfg.PartitionKeys), len(cfg.Measures.Exprs))
	}
	for i, k := range cfg.PartitionKeys {
		if !types.Equal(out[i].Nullable(), in[k].Nullable()) {
			return Instances{}, fmt.Errorf("schema[%d]: %s, but the partition key is %s", i, out[i], in[k])
		}
	}
	for i, e := range cfg.Measures.Exprs {
		if e.E != nil && !types.Equal(out[len(cfg.PartitionKeys)+i].Nullable(), e.E.Type().Nullable()) {
			return Instances{}, fmt.Errorf("config.measures.exprs[%d]: %s, but the column is %s", i, e.E.Type(), out[len(cfg.PartitionKeys)+i])
		}
	}
	return stateful(n, func(st state.Backend) (*ops.Match, error) {
		c := ops.MatchConfig{InputTypes: in, PartitionKeys: cfg.PartitionKeys, TimeCol: cfg.TimeColumn, RowTime: cfg.RowTime,
			Order: sortKeys(cfg.Order), After: skip, AfterVar: afterVar, Within: eventTime(cfg.Within), OutputTypes: out,
			Context: expr.Context{Fn: n.Fn}}
		for i, v := range cfg.Variables {
			mv := ops.MatchVar{Name: v.Name, Min: v.Min, Max: v.Max, Greedy: v.Greedy}
			if v.Condition != nil {
				field := fmt.Sprintf("config.variables[%d].condition", i)
				cond, err := n.matchExprs(field, *v.Condition, in, vars)
				if err != nil {
					return nil, err
				}
				if len(cond.Exprs) != 1 {
					return nil, fmt.Errorf("%s.exprs: a condition has one expression, not %d", field, len(cond.Exprs))
				}
				mv.Cond = &cond
			}
			c.Vars = append(c.Vars, mv)
		}
		var err error
		if c.Measures, err = n.matchExprs("config.measures", cfg.Measures, in, vars); err != nil {
			return nil, err
		}
		return ops.NewMatch(c, st)
	})
}

// matchExprs compiles expressions over match slots and the slots' own
// expressions over the input row.
func (n *Node) matchExprs(field string, m plan.MatchExprs, in []types.Type, vars map[string]int) (ops.MatchExprs, error) {
	var out ops.MatchExprs
	var slotTypes []types.Type
	for j, s := range m.Slots {
		f := fmt.Sprintf("%s.slots[%d]", field, j)
		os := ops.MatchSlot{Var: -1, First: s.First, Offset: s.Offset}
		if s.Variable != "" {
			v, ok := vars[s.Variable]
			if !ok {
				return out, fmt.Errorf("%s.variable: '%s' is not a variable of the pattern", f, s.Variable)
			}
			os.Var = v
		}
		if s.Offset < 0 {
			return out, fmt.Errorf("%s.offset: %d is negative", f, s.Offset)
		}
		t := s.Type.Logical()
		switch s.Kind {
		case "value":
			if s.Value.E == nil {
				return out, fmt.Errorf("%s.value: missing", f)
			}
			ev, err := n.compile(f+".value", s.Value.E, in)
			if err != nil {
				return out, err
			}
			if !types.Equal(s.Value.E.Type().Nullable(), t.Nullable()) {
				return out, fmt.Errorf("%s.value: %s, but the slot is %s", f, s.Value.E.Type(), t)
			}
			os.Kind, os.Value = ops.SlotValue, ev
		case "aggregate":
			argTypes := make([]types.Type, len(s.Args))
			consts := make([]*types.Value, len(s.Args))
			for k, a := range s.Args {
				ev, err := n.compile(fmt.Sprintf("%s.args[%d]", f, k), a.E, in)
				if err != nil {
					return out, err
				}
				os.Args = append(os.Args, ev)
				argTypes[k] = a.E.Type()
				if lit, ok := a.E.(*expr.Literal); ok {
					v := lit.V
					consts[k] = &v
				}
			}
			newAcc, err := expr.BindAggregate(s.Function, argTypes, consts, false, true, t)
			if err != nil {
				return out, fmt.Errorf("%s: %w", f, err)
			}
			os.Kind, os.NewAcc = ops.SlotAggregate, newAcc
		case "rowtime":
			os.Kind = ops.SlotRowtime
		case "proctime":
			os.Kind = ops.SlotProctime
		default:
			return out, fmt.Errorf("%s.kind: unknown kind '%s'; expected value, aggregate, rowtime or proctime", f, s.Kind)
		}
		out.Slots = append(out.Slots, os)
		slotTypes = append(slotTypes, t)
	}
	for j, e := range m.Exprs {
		ev, err := n.compile(fmt.Sprintf("%s.exprs[%d]", field, j), e.E, slotTypes)
		if err != nil {
			return out, err
		}
		out.Exprs = append(out.Exprs, ev)
	}
	return out, nil
}
