package fn

import (
	"fmt"

	"github.com/sluicesql/sluice/internal/types"
)

func init() {
	for _, n := range []string{"ROW_NUMBER", "RANK", "DENSE_RANK"} {
		registerAgg(bindRowCount(n), n)
		aggregates[n].OverOnly = true
	}
}

// bindRowCount binds ROW_NUMBER(), RANK() or DENSE_RANK() in an OVER
// aggregation that is not a Top-N or deduplication (no filter on it): the
// number of rows accumulated so far in the partition, BIGINT NOT NULL.
//
// ROW_NUMBER is Flink's RowNumberAggFunction over ROWS BETWEEN UNBOUNDED
// PRECEDING AND CURRENT ROW: "a unique, sequential number to each row".
// RANK and DENSE_RANK are Flink's RankAggFunction and DenseRankAggFunction
// as its streaming OVER aggregation builds them: with no order key to
// compare (AggregateUtil.transformToStreamAggregateInfoList passes none;
// RankLikeAggFunctionBase then finds no two rows equal), each row counts,
// over the frame Calcite gives a function that takes none, RANGE BETWEEN
// UNBOUNDED PRECEDING AND CURRENT ROW, so rows of equal time share the
// count of the rows up to that time (OverAggregateITCase's testRankOnOver
// and testDenseRankOnOver, FLINK-27741).
func bindRowCount(name string) func([]Arg, bool) (types.Type, func() Accumulator, error) {
	return func(args []Arg, distinct bool) (types.Type, func() Accumulator, error) {
		if distinct || len(args) != 0 {
			return types.Type{}, nil, sigError(name, "()", args)
		}
		return types.BigIntType.WithNotNull(true), func() Accumulator { return &rowCountAcc{name: name} }, nil
	}
}

// rowCountAcc counts the rows of its partition.
type rowCountAcc struct {
	name string
	n    int64
}

func (r *rowCountAcc) Add([]types.Value) { r.n++ }

func (r *rowCountAcc) Result() (types.Value, error) { return types.IntValue(r.n), nil }

func (r *rowCountAcc) MarshalState() []byte { e := encoder{}; e.int(r.n); return e.b }

func (r *rowCountAcc) UnmarshalState(b []byte) error {
	d := decoder{b: b}
	n := d.int()
	if err := d.done(); err != nil {
		return err
	}
	r.n = n
	return nil
}

func (r *rowCountAcc) Retract([]types.Value) error {
	return fmt.Errorf("%s cannot retract: it runs over an unbounded frame only", r.name)
}
