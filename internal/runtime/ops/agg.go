package ops

import (
	"encoding/binary"
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

// flatAggs evaluates aggregate calls whose accumulators are all flat
// (fn.FlatAccumulator): a group's state is one byte string, the number
// of rows accumulated less those retracted (a little-endian word, as
// group's count) followed by each call's state, kept in a
// state.FlatTable, which holds no pointers.
type flatAggs struct {
	specs []AggSpec
	accs  []fn.FlatAccumulator
	// offs and ends delimit the calls' states, width is the size of a
	// group's.
	offs, ends []int
	width      int
	// args are, per call, its argument columns of the chunk at hand.
	args    [][]*types.Vector
	scratch []byte
}

// newFlatAggs returns the flat form of a's calls, or nil if one of them
// has no flat accumulator. One accumulator per call serves every group.
func newFlatAggs(a *aggregator) *flatAggs {
	f := &flatAggs{specs: a.specs, width: 8}
	for _, s := range a.specs {
		acc, ok := s.New().(fn.FlatAccumulator)
		if !ok {
			return nil
		}
		f.accs = append(f.accs, acc)
		f.offs = append(f.offs, f.width)
		f.width += acc.FlatSize()
		f.ends = append(f.ends, f.width)
		f.args = append(f.args, make([]*types.Vector, len(s.Args)))
	}
	return f
}

// state returns call j's part of a group's state s.
func (f *flatAggs) state(s []byte, j int) []byte { return s[f.offs[j]:f.ends[j]] }

// count returns the number of rows a group's state s holds.
func (f *flatAggs) count(s []byte) int64 { return int64(binary.LittleEndian.Uint64(s)) }

// bind takes the argument columns of the calls from c.
func (f *flatAggs) bind(c *types.Chunk) {
	for j, s := range f.specs {
		for k, col := range s.Args {
			f.args[j][k] = c.Cols[col]
		}
	}
}

// update applies row i of the bound chunk, whose filter columns are in
// c, to the state s: it accumulates the row, or retracts it.
func (f *flatAggs) update(s []byte, c *types.Chunk, i int, retract bool) error {
	for j, spec := range f.specs {
		if spec.Filter >= 0 {
			if fc := c.Cols[spec.Filter]; fc.Nulls[i] || fc.I64[i] == 0 {
				continue
			}
		}
		if !retract {
			f.accs[j].FlatAdd(f.state(s, j), f.args[j], i)
		} else if err := f.accs[j].FlatRetract(f.state(s, j), f.args[j], i); err != nil {
			return err
		}
	}
	n := f.count(s) + 1
	if retract {
		n -= 2
	}
	binary.LittleEndian.PutUint64(s, uint64(n))
	return nil
}

// codec writes a group's state as groupCodec writes a group of the same
// accumulators, so that either form restores the other's state.
func (f *flatAggs) codec() state.FlatCodec {
	return state.FlatCodec{
		Append: func(b, s []byte) []byte {
			b = state.AppendVarint(b, f.count(s))
			for j, acc := range f.accs {
				f.scratch = acc.AppendFlatState(f.scratch[:0], f.state(s, j))
				b = state.AppendBytes(b, f.scratch)
			}
			return b
		},
		Decode: func(s, b []byte) error {
			r := state.NewReader(b)
			binary.LittleEndian.PutUint64(s, uint64(r.Varint()))
			for j, acc := range f.accs {
				if err := acc.ReadFlatState(f.state(s, j), r.Bytes()); err != nil {
					return err
				}
			}
			return r.Done()
		},
	}
}
