package ops

import (
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// CalcConfig configures a Calc.
type CalcConfig struct {
	// Projects compute the output columns from an input row.
	Projects []expr.Evaluator
	// Copies, when set, marks the projections that copy an input column
	// unchanged: Copies[j] is that column, or -1 when Projects[j] computes
	// the output column. Copied columns move vector by vector, or are shared
	// when every row is kept.
	Copies []int
	// Reads, when set, lists the input columns the filter and the computed
	// projections read: the row they see holds only those. Nil loads every
	// column.
	Reads []int
	// Filter drops rows for which it is not true; nil keeps every row.
	Filter func(ctx *expr.Context, row types.Row) (bool, error)
	// OutputTypes are the output column types.
	OutputTypes []types.Type
	// Context is the evaluation context (time zone); the operator keeps its
	// watermark up to date for CURRENT_WATERMARK.
	Context expr.Context
}

// Calc filters and projects rows, keeping each row's kind (Flink's Calc).
// Each input chunk gives at most one output chunk.
type Calc struct {
	cfg CalcConfig
	// computed lists the projections evaluated row by row.
	computed []int
	// Reused for each chunk: the evaluated row and the rows kept; cols
	// are the output columns of the chunk being made, the computed ones
	// filled by evaluate.
	in   types.Row
	sel  []int
	cols []*types.Vector
}

// NewCalc returns a Calc for cfg.
func NewCalc(cfg CalcConfig) *Calc {
	cfg.Context.Watermark = runtime.MinWatermark
	c := &Calc{cfg: cfg, cols: make([]*types.Vector, len(cfg.Projects))}
	for j := range cfg.Projects {
		if cfg.Copies == nil || cfg.Copies[j] < 0 {
			c.computed = append(c.computed, j)
		}
	}
	return c
}

// Open implements runtime.Operator.
func (c *Calc) Open(*runtime.Context) error { return nil }

// ProcessChunk implements runtime.Operator.
func (c *Calc) ProcessChunk(_ int, ch *types.Chunk, out runtime.Emitter) error {
	var sel []int // the rows kept; nil keeps them all
	rows := ch.Len()
	if c.cfg.Filter != nil || len(c.computed) > 0 {
		if err := c.evaluate(ch); err != nil {
			return err
		}
		// c.sel is nil, not empty, when no row of the first chunk is kept.
		if len(c.sel) < ch.Len() {
			sel, rows = c.sel, len(c.sel)
		}
	}
	if rows == 0 {
		return nil
	}
	// With every row kept, the output shares the input's row kinds and
	// copied columns (see runtime.Gather).
	o := &types.Chunk{Ops: ch.Ops[:rows:rows], Cols: c.cols}
	c.cols = make([]*types.Vector, len(c.cfg.Projects))
	if sel != nil {
		o.Ops = make([]types.RowKind, rows)
		for j, i := range sel {
			o.Ops[j] = ch.Ops[i]
		}
	}
	for j, t := range c.cfg.OutputTypes {
		if c.cfg.Copies != nil && c.cfg.Copies[j] >= 0 {
			o.Cols[j] = runtime.Gather(ch.Cols[c.cfg.Copies[j]], t, sel)
		}
	}
	out.Emit(o)
	return nil
}

// evaluate runs the filter and the computed projections row by row: the
// rows kept go to c.sel, the projections' values to new vectors in
// c.cols.
func (c *Calc) evaluate(ch *types.Chunk) error {
	c.sel = c.sel[:0]
	for _, j := range c.computed {
		c.cols[j] = types.NewVector(c.cfg.OutputTypes[j], ch.Len())
	}
	if len(c.in) != len(ch.Cols) {
		c.in = make(types.Row, len(ch.Cols))
	}
	for i := range ch.Len() {
		c.load(ch, i)
		if c.cfg.Filter != nil {
			ok, err := c.cfg.Filter(&c.cfg.Context, c.in)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
		}
		c.sel = append(c.sel, i)
		for _, j := range c.computed {
			v, err := c.cfg.Projects[j](&c.cfg.Context, c.in)
			if err != nil {
				return err
			}
			c.cols[j].Append(v)
		}
	}
	return nil
}

// load puts the columns of row i the evaluators read into c.in.
func (c *Calc) load(ch *types.Chunk, i int) {
	if c.cfg.Reads == nil {
		for k, col := range ch.Cols {
			c.in[k] = col.Get(i)
		}
		return
	}
	for _, k := range c.cfg.Reads {
		c.in[k] = ch.Cols[k].Get(i)
	}
}

// ProcessWatermark implements runtime.Operator.
func (c *Calc) ProcessWatermark(wm int64, out runtime.Emitter) error {
	c.cfg.Context.Watermark, c.cfg.Context.HasWatermark = wm, true
	out.EmitWatermark(wm)
	return nil
}

// Finish implements runtime.Operator.
func (c *Calc) Finish(runtime.Emitter) error { return nil }
