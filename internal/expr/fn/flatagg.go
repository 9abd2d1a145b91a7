package fn

import (
	"cmp"
	"encoding/binary"
	"math"

	"github.com/sluicesql/sluice/internal/types"
)

// The flat forms (FlatAccumulator) of COUNT, SUM, SUM0, AVG, and of MIN
// and MAX over an input without retractions (FlatHolder for a type held
// as a string). Each lays out its fields in little-endian words and
// reuses its boxed form's arithmetic, results and state encoding, so the
// two forms give the same values and restore each other's state.

func flatWord(s []byte, off int) int64 { return int64(binary.LittleEndian.Uint64(s[off:])) }

func putFlatWord(s []byte, off int, x int64) { binary.LittleEndian.PutUint64(s[off:], uint64(x)) }

// anyNullAt reports whether row i of any argument column is NULL.
func anyNullAt(args []*types.Vector, i int) bool {
	for _, a := range args {
		if a.Nulls[i] {
			return true
		}
	}
	return false
}

// COUNT: the count, one word.

func (c *countAcc) FlatSize() int { return 8 }

func (c *countAcc) FlatAdd(s []byte, args []*types.Vector, i int) {
	if !anyNullAt(args, i) {
		putFlatWord(s, 0, flatWord(s, 0)+1)
	}
}

func (c *countAcc) FlatRetract(s []byte, args []*types.Vector, i int) error {
	if !anyNullAt(args, i) {
		putFlatWord(s, 0, flatWord(s, 0)-1)
	}
	return nil
}

func (c *countAcc) AppendFlatResults(dst *types.Vector, states []byte, stride, n int) error {
	_, vals := extend(dst, n)
	for r := range vals {
		vals[r] = flatWord(states, r*stride)
	}
	return nil
}

func (c *countAcc) AppendFlatState(b, s []byte) []byte {
	return (&countAcc{n: flatWord(s, 0)}).appendState(b)
}

func (c *countAcc) ReadFlatState(s, b []byte) error {
	var x countAcc
	if err := x.UnmarshalState(b); err != nil {
		return err
	}
	putFlatWord(s, 0, x.n)
	return nil
}

// SUM, SUM0 and AVG: the count of non-NULL inputs, then the sum (int64
// or float64 bits), then for a decimal sum its middle word, and for a sum
// of 16-byte decimals its top word.

func (a *sumAcc) FlatSize() int {
	switch {
	case a.wideIn:
		return 32
	case a.wide:
		return 24
	}
	return 16
}

// load sets a's state from s.
func (a *sumAcc) load(s []byte) {
	a.n = flatWord(s, 0)
	if a.float {
		a.f = math.Float64frombits(uint64(flatWord(s, 8)))
	} else {
		a.i = flatWord(s, 8)
	}
	if a.wide {
		a.hi = flatWord(s, 16)
		a.top = a.hi >> 63
	}
	if a.wideIn {
		a.top = flatWord(s, 24)
	}
}

// store writes a's state to s.
func (a *sumAcc) store(s []byte) {
	putFlatWord(s, 0, a.n)
	if a.float {
		putFlatWord(s, 8, int64(math.Float64bits(a.f)))
	} else {
		putFlatWord(s, 8, a.i)
	}
	if a.wide {
		putFlatWord(s, 16, a.hi)
	}
	if a.wideIn {
		putFlatWord(s, 24, a.top)
	}
}

// blank returns an empty accumulator of a's call.
func (a *sumAcc) blank() sumAcc {
	return sumAcc{float: a.float, wide: a.wide, wideIn: a.wideIn, sticky: a.sticky}
}

// loaded returns a copy of a holding the state s.
func (a *sumAcc) loaded(s []byte) sumAcc {
	x := a.blank()
	x.load(s)
	return x
}

func (a *sumAcc) FlatAdd(s []byte, args []*types.Vector, i int) { a.flatStep(s, args[0], i, 1) }

func (a *sumAcc) FlatRetract(s []byte, args []*types.Vector, i int) error {
	a.flatStep(s, args[0], i, -1)
	return nil
}

func (a *sumAcc) flatStep(s []byte, v *types.Vector, i int, sign int64) {
	if v.Nulls[i] {
		return
	}
	if !a.float && !a.wide { // an integer sum, wrapping as step's
		putFlatWord(s, 0, flatWord(s, 0)+sign)
		putFlatWord(s, 8, flatWord(s, 8)+sign*v.I64[i])
		return
	}
	x := a.loaded(s)
	x.step(v.Get(i), sign)
	x.store(s)
}

func (a *sumAcc) AppendFlatResults(dst *types.Vector, states []byte, stride, n int) error {
	if a.ints != viaResult {
		// result's integer cases, without a call per row.
		nulls, vals := extend(dst, n)
		for r := range vals {
			s := states[r*stride:]
			cnt, sum := flatWord(s, 0), flatWord(s, 8)
			switch {
			case cnt == 0 && !a.zero:
				nulls[r] = true
			case a.ints == intAvg:
				vals[r] = wrapInt(a.kind, sum/cnt)
			default:
				vals[r] = wrapInt(a.kind, sum)
			}
		}
		return nil
	}
	for r := range n {
		s := states[r*stride:]
		var sum [3]int64
		// The sum word is an int64, or a float64's bits, as result reads it.
		sum[0] = flatWord(s, 8)
		if a.wide {
			x := a.loaded(s)
			sum[1], sum[2] = x.hi, x.top
		}
		v, err := a.result(flatWord(s, 0), sum, math.Float64frombits(uint64(sum[0])))
		if err != nil {
			return err
		}
		dst.Append(v)
	}
	return nil
}

func (a *sumAcc) AppendFlatState(b, s []byte) []byte {
	x := a.loaded(s)
	return x.appendState(b)
}

func (a *sumAcc) ReadFlatState(s, b []byte) error {
	x := a.blank()
	if err := x.UnmarshalState(b); err != nil {
		return err
	}
	x.store(s)
	return nil
}

// flatExtreme is MIN or MAX over an input without retractions, of a type
// held as an int64 or a float64: a byte, 1 once a value is held, then the
// value's word.
type flatExtreme struct{ extremeValue }

func (x *flatExtreme) FlatSize() int { return 9 }

// at returns the value held by s.
func (x *flatExtreme) at(s []byte) types.Value {
	switch {
	case s[0] == 0:
		return types.NullValue
	case x.phys == types.PhysFloat:
		return types.FloatValue(math.Float64frombits(uint64(flatWord(s, 1))))
	}
	return types.IntValue(flatWord(s, 1))
}

// put makes s hold v.
func (x *flatExtreme) put(s []byte, v types.Value) {
	if v.Null {
		clear(s[:9])
		return
	}
	s[0] = 1
	if x.phys == types.PhysFloat {
		putFlatWord(s, 1, int64(math.Float64bits(v.F)))
	} else {
		putFlatWord(s, 1, v.I)
	}
}

func (x *flatExtreme) FlatAdd(s []byte, args []*types.Vector, i int) {
	if args[0].Nulls[i] {
		return
	}
	if x.phys == types.PhysInt {
		// valueOrder's order of int64s, on the slot.
		if v := args[0].I64[i]; s[0] == 0 || x.end*cmp.Compare(v, flatWord(s, 1)) > 0 {
			s[0] = 1
			putFlatWord(s, 1, v)
		}
		return
	}
	if v := args[0].Get(i); s[0] == 0 || x.end*x.order(v, x.at(s)) > 0 {
		x.put(s, v)
	}
}

func (x *flatExtreme) FlatRetract([]byte, []*types.Vector, int) error { return x.Retract(nil) }

func (x *flatExtreme) AppendFlatResults(dst *types.Vector, states []byte, stride, n int) error {
	if x.phys == types.PhysInt {
		nulls, vals := extend(dst, n)
		for r := range vals {
			if s := states[r*stride:]; s[0] == 0 {
				nulls[r] = true
			} else {
				vals[r] = flatWord(s, 1)
			}
		}
		return nil
	}
	for r := range n {
		s := states[r*stride:]
		switch {
		case s[0] == 0:
			dst.AppendNull()
		case x.phys == types.PhysFloat:
			dst.AppendFloat(math.Float64frombits(uint64(flatWord(s, 1))))
		default:
			dst.AppendInt(flatWord(s, 1))
		}
	}
	return nil
}

func (x *flatExtreme) AppendFlatState(b, s []byte) []byte {
	y := x.extremeValue
	y.v = x.at(s)
	return y.appendState(b)
}

func (x *flatExtreme) ReadFlatState(s, b []byte) error {
	y := x.extremeValue
	if err := y.UnmarshalState(b); err != nil {
		return err
	}
	x.put(s, y.v)
	return nil
}

// FlatHolder is a FlatAccumulator whose states refer to values it keeps
// itself, one accumulator for all the states of its call: an operator
// may keep its states flat only where they stay where they are between
// snapshots (the memory backend), gives back what a state refers to when
// its group is gone (FlatDrop), and lets the accumulator reuse what
// states no longer refer to once no copy of them is read any more
// (FlatSettle). Changing a state's value changes its bytes, so that
// states whose bytes are equal give equal results.
type FlatHolder interface {
	FlatAccumulator
	// FlatDrop gives back what the state s refers to and clears it.
	FlatDrop(s []byte)
	// FlatSettle frees what states dropped or changed referred to: no
	// copy of them made before is read afterwards.
	FlatSettle()
}

// heldExtreme is MIN or MAX over an input without retractions of a type
// held as a string: its state is the handle of the extreme (4 bytes, 0
// for none), a string the accumulator keeps; a new extreme takes a new
// handle, so that the state's bytes change with its value.
type heldExtreme struct {
	extremeValue
	// vals are the values by handle less one; free the handles to reuse,
	// freed those given back since the last FlatSettle.
	vals        []string
	free, freed []uint32
}

func (x *heldExtreme) FlatSize() int { return 4 }

func (x *heldExtreme) handle(s []byte) uint32 { return binary.LittleEndian.Uint32(s) }

// at returns the value the state s holds.
func (x *heldExtreme) at(s []byte) types.Value {
	if h := x.handle(s); h != 0 {
		return types.StringValue(x.vals[h-1])
	}
	return types.NullValue
}

// put makes s hold v, under a new handle, and frees the handle it held.
func (x *heldExtreme) put(s []byte, v string) {
	x.FlatDrop(s)
	var h uint32
	if n := len(x.free); n > 0 {
		h, x.free = x.free[n-1], x.free[:n-1]
		x.vals[h-1] = v
	} else {
		if len(x.vals) == math.MaxUint32 {
			panic("fn: more than 2^32-1 groups holding a MIN or MAX")
		}
		x.vals = append(x.vals, v)
		h = uint32(len(x.vals))
	}
	binary.LittleEndian.PutUint32(s, h)
}

func (x *heldExtreme) FlatAdd(s []byte, args []*types.Vector, i int) {
	if args[0].Nulls[i] {
		return
	}
	if v := args[0].Str[i]; x.handle(s) == 0 || x.end*x.order(types.StringValue(v), x.at(s)) > 0 {
		x.put(s, v)
	}
}

func (x *heldExtreme) FlatRetract([]byte, []*types.Vector, int) error { return x.Retract(nil) }

func (x *heldExtreme) AppendFlatResults(dst *types.Vector, states []byte, stride, n int) error {
	for r := range n {
		if h := x.handle(states[r*stride:]); h != 0 {
			dst.AppendString(x.vals[h-1])
		} else {
			dst.AppendNull()
		}
	}
	return nil
}

func (x *heldExtreme) AppendFlatState(b, s []byte) []byte {
	y := x.extremeValue
	y.v = x.at(s)
	return y.appendState(b)
}

func (x *heldExtreme) ReadFlatState(s, b []byte) error {
	y := x.extremeValue
	if err := y.UnmarshalState(b); err != nil {
		return err
	}
	if x.FlatDrop(s); !y.v.Null {
		x.put(s, y.v.S)
	}
	return nil
}

func (x *heldExtreme) FlatDrop(s []byte) {
	if h := x.handle(s); h != 0 {
		x.freed = append(x.freed, h)
		binary.LittleEndian.PutUint32(s, 0)
	}
}

func (x *heldExtreme) FlatSettle() {
	for _, h := range x.freed {
		x.vals[h-1] = ""
	}
	x.free = append(x.free, x.freed...)
	x.freed = x.freed[:0]
}

// FlatMerger is a FlatAccumulator whose states merge, as Merger's
// accumulators do: the global phase of a two-phase aggregation keeps its
// accumulators flat when every call's merges.
type FlatMerger interface {
	FlatAccumulator
	// FlatMerge adds the rows of the state o to the state s, as Merge
	// does; o is left as it was.
	FlatMerge(s, o []byte) error
}

// CountsRows reports whether acc is COUNT's accumulator: called with no
// arguments and no FILTER (COUNT(*)) it counts every row accumulated
// less every row retracted, the count a group aggregation keeps anyway,
// so that it may keep one count for both (as Flink's RecordCounter reads
// the count of a COUNT(*) call, indexOfCountStar, rather than keep its
// own).
func CountsRows(acc Accumulator) bool {
	_, ok := acc.(*countAcc)
	return ok
}

func (c *countAcc) FlatMerge(s, o []byte) error {
	putFlatWord(s, 0, flatWord(s, 0)+flatWord(o, 0))
	return nil
}

func (a *sumAcc) FlatMerge(s, o []byte) error {
	x, y := a.loaded(s), a.loaded(o)
	x.merge(&y)
	x.store(s)
	return nil
}

func (x *flatExtreme) FlatMerge(s, o []byte) error {
	if o[0] != 0 && (s[0] == 0 || x.end*x.order(x.at(o), x.at(s)) > 0) {
		copy(s[:9], o[:9])
	}
	return nil
}
