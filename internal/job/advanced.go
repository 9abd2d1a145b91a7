package job

import (
	"fmt"

	"github.com/sluicesql/sluice/internal/planner"
)

// advanced builds the operators of windows, ranks, joins, limits and sorts.
func (b *builder) advanced(n planner.Node) (built, error) {
	return built{}, fmt.Errorf("%s is not supported yet", n.Describe())
}
