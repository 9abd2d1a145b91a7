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
	// Vectors, when set, holds for each projection its evaluator over
	// whole chunks, nil for the projections evaluated row by row.
	Vectors []expr.VectorEvaluator
	// Reads, when set, lists the input columns the filter and the
	// projections evaluated row by row read: the row they see holds only
	// those. Nil loads every column.
	Reads []int
	// VectorReads lists the input columns the projections of Vectors read.
	VectorReads []int
	// Filter drops rows for which it is not true; nil keeps every row.
	Filter func(ctx *expr.Context, row types.Row) (bool, error)
	// VectorFilter is Filter over whole chunks, set instead of Filter.
	VectorFilter expr.VectorEvaluator
	// OutputTypes are the output column types.
	OutputTypes []types.Type
	// Context is the evaluation context (time zone); the operator keeps its
	// watermark up to date for CURRENT_WATERMARK.
	Context expr.Context
}

// Calc filters and projects rows, keeping each row's kind (Flink's Calc).
// Each input chunk gives at most one output chunk, leased from the Calc's
// pool: its columns are the Calc's own vectors, but for the columns copied
// unchanged when every row is kept, which are the input's (the output
// then holds the input's lease).
type Calc struct {
	cfg CalcConfig
	// computed lists the projections evaluated row by row, vectored those
	// evaluated over whole chunks.
	computed, vectored []int
	// Reused for each chunk: the evaluated row, the filter's values over
	// the chunk, the rows kept and the kept rows of the columns the
	// vectored projections read; cols are the own output columns of the
	// chunk being made (a leased chunk's, nil until first needed).
	in   types.Row
	mask *types.Vector
	sel  []int
	view types.Chunk
	cols []*types.Vector
	pool *runtime.ChunkPool
}

// NewCalc returns a Calc for cfg.
func NewCalc(cfg CalcConfig) *Calc {
	cfg.Context.Watermark = runtime.MinWatermark
	c := &Calc{cfg: cfg, mask: types.NewVector(types.BooleanType, types.ChunkSize), pool: runtime.NewChunkPool(runtime.PooledChunks)}
	for j := range cfg.Projects {
		switch {
		case cfg.Copies != nil && cfg.Copies[j] >= 0:
		case cfg.Vectors != nil && cfg.Vectors[j] != nil:
			c.vectored = append(c.vectored, j)
		default:
			c.computed = append(c.computed, j)
		}
	}
	return c
}

// Open implements runtime.Operator.
func (c *Calc) Open(*runtime.Context) error { return nil }

// ProcessChunk implements runtime.Operator.
func (c *Calc) ProcessChunk(input int, ch *types.Chunk, out runtime.Emitter) error {
	return c.ProcessLeased(input, ch, nil, out)
}

// ProcessLeased implements runtime.LeaseTaker: an output that shares the
// input's storage (every row kept) holds the input's lease; otherwise
// nothing of the input is kept, and the lease is released.
func (c *Calc) ProcessLeased(_ int, ch *types.Chunk, l *runtime.Lease, out runtime.Emitter) error {
	own := c.pool.Get()
	if own.Chunk == nil {
		own.Chunk = &types.Chunk{Cols: make([]*types.Vector, len(c.cfg.Projects))}
	}
	c.cols = own.Chunk.Cols
	n := ch.Len()
	c.sel = c.sel[:0]
	filtered := false // c.sel holds the rows kept
	if c.cfg.VectorFilter != nil {
		c.mask.Reset()
		if err := c.cfg.VectorFilter(&c.cfg.Context, ch, c.mask); err != nil {
			return err
		}
		for i := range n {
			if !c.mask.Nulls[i] && c.mask.I64[i] != 0 {
				c.sel = append(c.sel, i)
			}
		}
		filtered = true
	}
	if c.cfg.Filter != nil || len(c.computed) > 0 {
		if !filtered {
			for i := range n {
				c.sel = append(c.sel, i)
			}
			filtered = true
		}
		if err := c.evaluate(ch); err != nil {
			return err
		}
	}
	var sel []int // the rows kept; nil keeps them all
	rows := n
	if filtered && len(c.sel) < n {
		sel, rows = c.sel, len(c.sel)
	}
	if rows == 0 {
		own.Release()
		l.Release()
		return nil
	}
	if err := c.evaluateVectors(ch, sel, rows); err != nil {
		return err
	}
	if sel == nil {
		// Every row kept: the output shares the input's row kinds and
		// copied columns, and holds its lease.
		if own.View == nil {
			own.View = &types.Chunk{Cols: make([]*types.Vector, len(c.cols))}
		}
		o := own.View
		o.Ops = ch.Ops[:rows:rows]
		for j, t := range c.cfg.OutputTypes {
			if k := c.copied(j); k >= 0 {
				o.Cols[j] = shareVector(ch.Cols[k], t)
			} else {
				o.Cols[j] = c.cols[j]
			}
		}
		own.Hold(l)
		runtime.EmitShared(out, o, own)
		return nil
	}
	o := own.Chunk
	o.Ops = o.Ops[:0]
	for _, i := range sel {
		o.Ops = append(o.Ops, ch.Ops[i])
	}
	for j := range c.cfg.OutputTypes {
		if k := c.copied(j); k >= 0 {
			runtime.AppendSelected(c.vector(j, rows), ch.Cols[k], sel)
		}
	}
	l.Release()
	runtime.EmitLeased(out, own)
	return nil
}

// copied returns the input column output column j copies, or -1 when it
// is computed.
func (c *Calc) copied(j int) int {
	if c.cfg.Copies == nil {
		return -1
	}
	return c.cfg.Copies[j]
}

// vector returns output column j of the chunk being made emptied, made
// for rows rows if it is new.
func (c *Calc) vector(j, rows int) *types.Vector {
	v := c.cols[j]
	if v == nil {
		v = types.NewVector(c.cfg.OutputTypes[j], rows)
		c.cols[j] = v
	}
	v.Reset()
	return v
}

// shareVector returns v as a column of type t: v itself when it has that
// type, or else a vector of type t sharing v's storage.
func shareVector(v *types.Vector, t types.Type) *types.Vector {
	if v.Type == t {
		return v
	}
	return runtime.Gather(v, t, nil)
}

// evaluate runs the filter and the projections evaluated row by row over
// the rows of c.sel, keeping there those the filter keeps; the
// projections' values go to the vectors of c.cols.
func (c *Calc) evaluate(ch *types.Chunk) error {
	for _, j := range c.computed {
		c.vector(j, len(c.sel))
	}
	if len(c.in) != len(ch.Cols) {
		c.in = make(types.Row, len(ch.Cols))
	}
	kept := c.sel[:0]
	for _, i := range c.sel {
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
		kept = append(kept, i)
		for _, j := range c.computed {
			v, err := c.cfg.Projects[j](&c.cfg.Context, c.in)
			if err != nil {
				return err
			}
			c.cols[j].Append(v)
		}
	}
	c.sel = kept
	return nil
}

// evaluateVectors computes the vectored projections over the rows kept
// (sel, nil for all), into the vectors of c.cols.
func (c *Calc) evaluateVectors(ch *types.Chunk, sel []int, rows int) error {
	if len(c.vectored) == 0 {
		return nil
	}
	in := ch
	if sel != nil {
		// Only the kept rows are evaluated: a view of them.
		c.view.Ops = c.view.Ops[:0]
		for _, i := range sel {
			c.view.Ops = append(c.view.Ops, ch.Ops[i])
		}
		if len(c.view.Cols) != len(ch.Cols) {
			c.view.Cols = make([]*types.Vector, len(ch.Cols))
		}
		for _, k := range c.cfg.VectorReads {
			v := c.view.Cols[k]
			if v == nil {
				v = types.NewVector(ch.Cols[k].Type, len(sel))
				c.view.Cols[k] = v
			}
			v.Type = ch.Cols[k].Type
			v.Reset()
			runtime.AppendSelected(v, ch.Cols[k], sel)
		}
		in = &c.view
	}
	for _, j := range c.vectored {
		if err := c.cfg.Vectors[j](&c.cfg.Context, in, c.vector(j, rows)); err != nil {
			return err
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
