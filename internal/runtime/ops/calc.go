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
	// Filter drops rows for which it is not true; nil keeps every row.
	Filter func(ctx *expr.Context, row types.Row) (bool, error)
	// OutputTypes are the output column types.
	OutputTypes []types.Type
	// Context is the evaluation context (time zone); the operator keeps its
	// watermark up to date for CURRENT_WATERMARK.
	Context expr.Context
}

// Calc filters and projects rows, keeping each row's kind (Flink's Calc).
type Calc struct {
	cfg CalcConfig
	out *output
	in  types.Row
	row types.Row
}

// NewCalc returns a Calc for cfg.
func NewCalc(cfg CalcConfig) *Calc {
	cfg.Context.Watermark = runtime.MinWatermark
	return &Calc{cfg: cfg, out: newOutput(cfg.OutputTypes), row: make(types.Row, len(cfg.Projects))}
}

// Open implements runtime.Operator.
func (c *Calc) Open(*runtime.Context) error { return nil }

// ProcessChunk implements runtime.Operator.
func (c *Calc) ProcessChunk(_ int, ch *types.Chunk, out runtime.Emitter) error {
	w := c.out.to(out)
	defer w.flush()
	for i := 0; i < ch.Len(); i++ {
		c.in = readRow(c.in, ch, i)
		if c.cfg.Filter != nil {
			ok, err := c.cfg.Filter(&c.cfg.Context, c.in)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
		}
		for j, p := range c.cfg.Projects {
			v, err := p(&c.cfg.Context, c.in)
			if err != nil {
				return err
			}
			c.row[j] = v
		}
		w.add(ch.Ops[i], c.row)
	}
	return nil
}

// ProcessWatermark implements runtime.Operator.
func (c *Calc) ProcessWatermark(wm int64, out runtime.Emitter) error {
	c.cfg.Context.Watermark, c.cfg.Context.HasWatermark = wm, true
	out.EmitWatermark(wm)
	return nil
}

// Finish implements runtime.Operator.
func (c *Calc) Finish(runtime.Emitter) error { return nil }

// readRow copies row i of ch into dst, reusing its storage.
func readRow(dst types.Row, ch *types.Chunk, i int) types.Row {
	dst = dst[:0]
	for _, col := range ch.Cols {
		dst = append(dst, col.Get(i))
	}
	return dst
}
