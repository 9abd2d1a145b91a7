package job

import (
	"math"
	"sync"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/expr/fn"
	"github.com/sluicesql/sluice/internal/types"
)

// chunkEvaluator evaluates expressions row by row over whole chunks. The
// instances of a source call it concurrently, so each call borrows a set of
// evaluators compiled for one goroutine, with a row buffer, from a pool.
type chunkEvaluator struct {
	// reads are the columns the expressions read, loaded into the row.
	reads []int
	pool  sync.Pool // of *rowEvaluators
	// shift, for a single expression that is a TIMESTAMP column plus or
	// minus a constant day-time interval (the usual watermark), makes
	// column compute it column-wise.
	shift *timeShift
}

// timeShift is a TIMESTAMP(p ≤ 6) column plus d microseconds.
type timeShift struct {
	col int
	d   int64
}

// timeShiftOf recognizes col + INTERVAL and col - INTERVAL on a TIMESTAMP
// or TIMESTAMP_LTZ column with a day-time interval literal.
func timeShiftOf(e expr.Expr) *timeShift {
	c, ok := e.(*expr.Call)
	if !ok || (c.Name != "+" && c.Name != "-") || len(c.Args) != 2 {
		return nil
	}
	col, ok1 := c.Args[0].(*expr.Column)
	lit, ok2 := c.Args[1].(*expr.Literal)
	if !ok1 || !ok2 || !col.T.IsTimestamp() || col.T.IsNanoTimestamp() || lit.T.Kind != types.IntervalDayTime || lit.V.Null {
		return nil
	}
	ms := lit.V.I
	if c.Name == "-" {
		ms = -ms
	}
	d, ok := types.MultiplyExact(ms, 1000) // microseconds
	if !ok || ms == math.MinInt64 {
		return nil
	}
	return &timeShift{col: col.Index, d: d}
}

// rowEvaluators are one goroutine's evaluators of a chunkEvaluator.
type rowEvaluators struct {
	ctx   expr.Context
	evals []expr.Evaluator // nil where the expression is nil
	row   types.Row
}

func newChunkEvaluator(fnCtx *fn.Context, es []expr.Expr) (*chunkEvaluator, error) {
	compile := func() (*rowEvaluators, error) {
		r := &rowEvaluators{ctx: expr.Context{Fn: fnCtx}, evals: make([]expr.Evaluator, len(es))}
		for i, e := range es {
			if e == nil {
				continue
			}
			ev, err := expr.CompileLocal(e)
			if err != nil {
				return nil, err
			}
			r.evals[i] = ev
		}
		return r, nil
	}
	first, err := compile()
	if err != nil {
		return nil, err
	}
	ce := &chunkEvaluator{reads: expr.Columns(es...)}
	if len(es) == 1 {
		ce.shift = timeShiftOf(es[0])
	}
	ce.pool.New = func() any {
		r, err := compile()
		if err != nil {
			// The same expressions compiled once already.
			panic(err)
		}
		return r
	}
	ce.pool.Put(first)
	return ce, nil
}

// get borrows evaluators with a row as wide as c.
func (ce *chunkEvaluator) get(c *types.Chunk) *rowEvaluators {
	r := ce.pool.Get().(*rowEvaluators)
	if len(r.row) != len(c.Cols) {
		r.row = make(types.Row, len(c.Cols))
	}
	return r
}

// load puts the columns of row i the expressions read into r.row; a column
// not filled yet (a computed one) reads as NULL.
func (ce *chunkEvaluator) load(r *rowEvaluators, c *types.Chunk, i int) {
	for _, k := range ce.reads {
		if col := c.Cols[k]; col.Len() > i {
			r.row[k] = col.Get(i)
		} else {
			r.row[k] = types.NullValue
		}
	}
}

// fill evaluates the computed columns cols row by row, in column order, and
// appends their values; a computed column can read those before it. An
// error names its row (connector.RowError).
func (ce *chunkEvaluator) fill(c *types.Chunk, cols []int) error {
	r := ce.get(c)
	defer ce.pool.Put(r)
	for i := range c.Len() {
		ce.load(r, c, i)
		for _, k := range cols {
			v, err := r.evals[k](&r.ctx, r.row)
			if err != nil {
				return &connector.RowError{Row: i, Err: err}
			}
			r.row[k] = v
			c.Cols[k].Append(v)
		}
	}
	return nil
}

// column evaluates the one expression on every row of c into out, which
// it empties and gives type t first. An error names its row
// (connector.RowError).
func (ce *chunkEvaluator) column(c *types.Chunk, t types.Type, out *types.Vector) error {
	out.Type = t
	out.Reset()
	if ce.shift != nil && ce.shifted(c, out) {
		return nil
	}
	out.Reset()
	r := ce.get(c)
	defer ce.pool.Put(r)
	for i := range c.Len() {
		ce.load(r, c, i)
		v, err := r.evals[0](&r.ctx, r.row)
		if err != nil {
			return &connector.RowError{Row: i, Err: err}
		}
		out.Append(v)
	}
	return nil
}

// shifted computes ce.shift over c into the empty out, or returns false
// when a time leaves the range of timestamps (the row by row evaluation
// then reports it).
func (ce *chunkEvaluator) shifted(c *types.Chunk, out *types.Vector) bool {
	in := c.Cols[ce.shift.col]
	n := c.Len()
	if in.Len() < n {
		return false
	}
	out.Nulls = append(out.Nulls, in.Nulls[:n]...)
	out.I64 = append(out.I64, make([]int64, n)...)
	for i, x := range in.I64[:n] {
		if in.Nulls[i] {
			continue
		}
		y, ok := types.AddMicros(x, ce.shift.d)
		if !ok {
			return false
		}
		out.I64[i] = y
	}
	return true
}
