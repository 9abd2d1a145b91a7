package ops

import (
	"fmt"

	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// Accumulator is the running state of one aggregate call for one group.
type Accumulator = fn.Accumulator

// AggSpec is one aggregate call.
type AggSpec struct {
	// New returns a fresh accumulator.
	New func() Accumulator
	// Args are the input columns passed to the accumulator, in order
	// (empty for COUNT(*)).
	Args []int
	// Filter is the input column of a FILTER (WHERE ...) clause: the row
	// counts for this call only when that column is TRUE. -1 for none.
	Filter int
	// Type is the result type.
	Type types.Type
}

// aggregator evaluates a list of aggregate calls over chunk rows.
type aggregator struct {
	specs []AggSpec
	args  [][]types.Value // per call, reused argument buffer
}

func newAggregator(specs []AggSpec, width int) (*aggregator, error) {
	a := &aggregator{specs: specs, args: make([][]types.Value, len(specs))}
	for i, s := range specs {
		if s.New == nil {
			return nil, fmt.Errorf("aggregate %d: no accumulator factory", i)
		}
		if err := checkCols("aggregate argument", s.Args, width); err != nil {
			return nil, err
		}
		if s.Filter >= width {
			return nil, fmt.Errorf("aggregate %d: filter column %d out of range", i, s.Filter)
		}
		a.args[i] = make([]types.Value, len(s.Args))
	}
	return a, nil
}

// resultTypes returns the types of the calls' results.
func (a *aggregator) resultTypes() []types.Type {
	ts := make([]types.Type, len(a.specs))
	for i, s := range a.specs {
		ts[i] = s.Type
	}
	return ts
}

// create returns fresh accumulators, one per call.
func (a *aggregator) create() []Accumulator {
	accs := make([]Accumulator, len(a.specs))
	for i, s := range a.specs {
		accs[i] = s.New()
	}
	return accs
}

// apply adds (or, with retract, removes) row i of c to accs.
func (a *aggregator) apply(accs []Accumulator, c *types.Chunk, i int, retract bool) error {
	return a.applyFrom(accs, func(col int) types.Value { return c.Cols[col].Get(i) }, retract)
}

// applyRow adds (or, with retract, removes) row r to accs.
func (a *aggregator) applyRow(accs []Accumulator, r types.Row, retract bool) error {
	return a.applyFrom(accs, func(col int) types.Value { return r[col] }, retract)
}

// applyFrom adds or removes the row whose columns get reads.
func (a *aggregator) applyFrom(accs []Accumulator, get func(col int) types.Value, retract bool) error {
	for j, s := range a.specs {
		if s.Filter >= 0 {
			if f := get(s.Filter); f.Null || f.I == 0 {
				continue
			}
		}
		args := a.args[j]
		for k, col := range s.Args {
			args[k] = get(col)
		}
		if !retract {
			accs[j].Add(args)
		} else if err := accs[j].Retract(args); err != nil {
			return err
		}
	}
	return nil
}

// group is the aggregation state of one key: its accumulators and the
// number of rows accumulated minus rows retracted (Flink's RecordCounter).
type group struct {
	accs  []Accumulator
	count int64
}

// update applies row i of c to g: +I/+U accumulate, -U/-D retract.
func (a *aggregator) update(g *group, c *types.Chunk, i int) error {
	retract := !c.Ops[i].IsAccumulate()
	if err := a.apply(g.accs, c, i, retract); err != nil {
		return err
	}
	if retract {
		g.count--
	} else {
		g.count++
	}
	return nil
}

// appendResults appends the calls' current results to dst; it fails for a
// result Sluice cannot represent.
func (a *aggregator) appendResults(dst types.Row, accs []Accumulator) (types.Row, error) {
	for _, acc := range accs {
		v, err := acc.Result()
		if err != nil {
			return dst, err
		}
		dst = append(dst, v)
	}
	return dst, nil
}

// appendAccs appends the accumulators' state.
func appendAccs(b []byte, accs []Accumulator) []byte {
	for _, acc := range accs {
		b = state.AppendBytes(b, acc.MarshalState())
	}
	return b
}

// readAccs reads accumulators written by appendAccs.
func (a *aggregator) readAccs(r *state.Reader) ([]Accumulator, error) {
	accs := a.create()
	for _, acc := range accs {
		if err := acc.UnmarshalState(r.Bytes()); err != nil {
			return nil, err
		}
	}
	return accs, nil
}

// groupCodec encodes a group's row count and accumulators.
func groupCodec(agg *aggregator) state.Codec[*group] {
	return state.Codec[*group]{
		Append: func(b []byte, v *group) []byte {
			return appendAccs(state.AppendVarint(b, v.count), v.accs)
		},
		Decode: func(b []byte) (*group, error) {
			r := state.NewReader(b)
			v := &group{count: r.Varint()}
			accs, err := agg.readAccs(r)
			if err != nil {
				return nil, err
			}
			v.accs = accs
			return v, r.Done()
		},
	}
}
