package server

import (
	"slices"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/runtime"
)

// TestOperatorScopes: operators' names in their metrics' IDs, as Flink's
// metric query service writes them (MetricQueryService.replaceInvalidChars,
// TaskMetricGroup.METRICS_OPERATOR_NAME_MAX_LENGTH), and apart where two
// operators of a chain share a name.
func TestOperatorScopes(t *testing.T) {
	ops := func(names ...string) []runtime.OperatorMetrics {
		var out []runtime.OperatorMetrics
		for _, n := range names {
			out = append(out, runtime.OperatorMetrics{Name: n})
		}
		return out
	}
	long := strings.Repeat("x", 100)
	for _, c := range []struct {
		ops  []runtime.OperatorMetrics
		want []string
	}{
		{ops("Source: src", "Calc", "Sink: db.t,u"), []string{"Source__src", "Calc", "Sink__db_t_u"}},
		{ops("Source: src", "Calc", "Correlate", "Calc"), []string{"Source__src", "Calc[2]", "Correlate", "Calc[4]"}},
		{ops(long), []string{long[:80]}},
	} {
		if got := operatorScopes(c.ops); !slices.Equal(got, c.want) {
			t.Errorf("operatorScopes(%v) = %q, want %q", c.ops, got, c.want)
		}
	}
}
