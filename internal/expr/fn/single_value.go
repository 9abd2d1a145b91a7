package fn

import (
	"errors"

	"github.com/sluicesql/sluice/internal/types"
)

// SINGLE_VALUE(x), Calcite's aggregate for a scalar subquery that may
// return several rows: the value of the group's only row, NULL for none, and
// an error at a second row. As Flink's SingleValueAggFunction, every row
// counts, NULL values included, and a retraction resets the value to NULL
// (a retraction while more than one row is counted fails too). Flink does
// not list it among its built-in functions, so SHOW FUNCTIONS leaves it out.
func init() {
	registerAgg(bindSingleValue, "SINGLE_VALUE")
	aggregates["SINGLE_VALUE"].Unlisted = true
}

// errSingleValue is Flink's message for a second row.
var errSingleValue = errors.New("SingleValueAggFunction received more than one element.")

func bindSingleValue(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
	if len(args) != 1 || args[0].Unit != "" {
		return types.Type{}, nil, sigError("SINGLE_VALUE", "(any type)", args)
	}
	t := args[0].Type.Plain().Nullable()
	phys := t.Physical()
	return t, withDistinct(args, distinct, func() Accumulator {
		return &singleValueAcc{phys: phys, value: types.NullValue}
	}), nil
}

type singleValueAcc struct {
	phys   types.Physical
	value  types.Value
	count  int64
	failed bool // a second row arrived; Result reports it
}

func (s *singleValueAcc) Add(args []types.Value) {
	if s.count > 0 {
		s.failed = true
	}
	s.value = args[0]
	s.count++
}

func (s *singleValueAcc) Retract([]types.Value) error {
	if s.count > 1 {
		return errSingleValue
	}
	s.value = types.NullValue
	s.count--
	return nil
}

func (s *singleValueAcc) Result() (types.Value, error) {
	if s.failed {
		return types.Value{}, errSingleValue
	}
	return s.value, nil
}

func (s *singleValueAcc) MarshalState() []byte {
	var e encoder
	e.value(s.phys, s.value)
	e.int(s.count)
	e.bool(s.failed)
	return e.b
}

func (s *singleValueAcc) UnmarshalState(b []byte) error {
	d := decoder{b: b}
	v := d.value(s.phys)
	n := d.int()
	failed := d.bool()
	if err := d.done(); err != nil {
		return err
	}
	s.value, s.count, s.failed = v, n, failed
	return nil
}
