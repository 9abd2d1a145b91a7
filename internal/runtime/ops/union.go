package ops

import (
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// Union forwards the rows of all its inputs (UNION ALL).
type Union struct{ passThrough }

// NewUnion returns a Union.
func NewUnion() *Union { return &Union{} }

// ProcessChunk implements runtime.Operator.
func (*Union) ProcessChunk(_ int, c *types.Chunk, out runtime.Emitter) error {
	out.Emit(c)
	return nil
}
