package ops

import (
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// ExpandConfig configures an Expand.
type ExpandConfig struct {
	// Projects holds, per row emitted for each input row, the output
	// columns computed from the input row.
	Projects [][]expr.Evaluator
	// OutputTypes are the output column types.
	OutputTypes []types.Type
	// Context is the evaluation context.
	Context expr.Context
}

// Expand emits every input row once per projection, in order, each with
// the input row's kind (Flink's StreamExecExpand). It keeps no state.
type Expand struct {
	cfg ExpandConfig
	out *output
	in  types.Row
	row types.Row
}

// NewExpand returns an Expand for cfg.
func NewExpand(cfg ExpandConfig) *Expand {
	return &Expand{cfg: cfg, out: newOutput(cfg.OutputTypes), row: make(types.Row, len(cfg.OutputTypes))}
}

// Open implements runtime.Operator.
func (e *Expand) Open(*runtime.Context) error { return nil }

// ProcessChunk implements runtime.Operator.
func (e *Expand) ProcessChunk(_ int, ch *types.Chunk, out runtime.Emitter) error {
	o := e.out.to(out)
	defer o.flush()
	if len(e.in) != len(ch.Cols) {
		e.in = make(types.Row, len(ch.Cols))
	}
	for i := range ch.Len() {
		for k, col := range ch.Cols {
			e.in[k] = col.Get(i)
		}
		for _, ps := range e.cfg.Projects {
			for j, p := range ps {
				v, err := p(&e.cfg.Context, e.in)
				if err != nil {
					return err
				}
				e.row[j] = v
			}
			o.add(ch.Ops[i], e.row)
		}
	}
	return nil
}

// ProcessWatermark implements runtime.Operator.
func (e *Expand) ProcessWatermark(wm int64, out runtime.Emitter) error {
	out.EmitWatermark(wm)
	return nil
}

// Finish implements runtime.Operator.
func (e *Expand) Finish(runtime.Emitter) error { return nil }
