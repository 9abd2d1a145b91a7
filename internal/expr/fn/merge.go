package fn

import (
	"fmt"

	"github.com/sluicesql/sluice/internal/types"
)

// Merger is implemented by accumulators that can take in another
// accumulator of the same call, as Flink's aggregate functions with a
// merge method: the global phase of a two-phase aggregation merges the
// accumulators its local phase sent (Flink's
// AggregateUtil.doAllSupportPartialMerge decides from it whether an
// aggregation may run in two phases). Merge adds other's rows, counted
// with their signs, to the receiver; other is left as it was.
type Merger interface {
	Merge(other Accumulator) error
}

// Merge implements Merger.
func (c *countAcc) Merge(other Accumulator) error {
	o, ok := other.(*countAcc)
	if !ok {
		return mergeMismatch(c, other)
	}
	c.n += o.n
	return nil
}

// Merge implements Merger: sums and counts add, as Flink's
// SumWithRetractAggFunction, Sum0AggFunction and AvgAggFunction merge (a
// NULL, overflowed decimal sum as addDecimal says).
func (s *sumAcc) Merge(other Accumulator) error {
	o, ok := other.(*sumAcc)
	if !ok || o.float != s.float || o.wide != s.wide || o.wideIn != s.wideIn || o.sticky != s.sticky {
		return mergeMismatch(s, other)
	}
	s.merge(o)
	return nil
}

// merge adds o's rows to s, which are of the same call.
func (s *sumAcc) merge(o *sumAcc) {
	sEmpty, oEmpty := s.emptyDecimal(), o.emptyDecimal()
	s.n += o.n
	switch {
	case s.float:
		s.f += o.f
	case s.wide && !s.sticky && (sEmpty || oEmpty):
		// SUM's sum starts NULL (SumWithRetractAggFunction's initial
		// value), and a merge with a NULL sum keeps the other, even an
		// overflowed one.
		if sEmpty {
			s.i, s.hi, s.top = o.i, o.hi, o.top
		}
	case s.wide:
		s.addDecimal(types.Int128{Hi: o.hi, Lo: uint64(o.i)}, o.overflowed())
	default:
		s.i += o.i
	}
}

// emptyDecimal reports whether s is a decimal sum of no rows, whose sum
// Flink's SUM holds as NULL. (A sum retracted back to no rows and zero
// is 0 in Flink's; the two are not told apart.)
func (s *sumAcc) emptyDecimal() bool {
	return s.wide && s.n == 0 && s.i == 0 && s.hi == 0 && s.top == 0
}

// Merge implements Merger: the extreme of both, as Flink's MinAggFunction
// and MaxAggFunction merge.
func (x *extremeValue) Merge(other Accumulator) error {
	var o *extremeValue
	switch other := other.(type) {
	case *extremeValue:
		o = other
	case *flatExtreme: // the same accumulator, with a flat form
		o = &other.extremeValue
	case *heldExtreme:
		o = &other.extremeValue
	}
	if o == nil || o.end != x.end {
		return mergeMismatch(x, other)
	}
	if !o.v.Null && (x.v.Null || x.end*x.order(o.v, x.v) > 0) {
		x.v = o.v
	}
	return nil
}

func mergeMismatch(a, b Accumulator) error {
	return fmt.Errorf("cannot merge a %T accumulator into a %T", b, a)
}
