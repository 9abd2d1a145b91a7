package ops

import (
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// Values is a bounded source that emits constant rows as +I and ends.
type Values struct {
	Rows  []types.Row
	Types []types.Type
}

// Run implements runtime.Source.
func (v *Values) Run(_ *runtime.SourceContext, out runtime.Emitter) error {
	w := newOutput(v.Types).to(out)
	for _, r := range v.Rows {
		w.add(types.Insert, r)
	}
	w.flush()
	return nil
}
