package job

import (
	"fmt"
	"time"

	"github.com/sluicesql/sluice/internal/plan"
	"github.com/sluicesql/sluice/internal/runtime/ops"
	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

func init() {
	builders[plan.KindMiniBatchAssigner] = buildMiniBatchAssigner
	builders[plan.KindLocalGroupAggregate] = buildLocalGroupAggregate
	builders[plan.KindGlobalGroupAggregate] = buildGlobalGroupAggregate
}

func buildMiniBatchAssigner(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.MiniBatchAssignerConfig)
	c := ops.MiniBatchAssignerConfig{Interval: time.Duration(cfg.Interval), RowTime: cfg.RowTime}
	if _, err := ops.NewMiniBatchAssigner(c); err != nil {
		return Instances{}, fmt.Errorf("config.interval: %w", err)
	}
	return operator(n, func() (*ops.MiniBatchAssigner, error) { return ops.NewMiniBatchAssigner(c) })
}

func miniBatch(m plan.MiniBatch) ops.MiniBatchConfig {
	return ops.MiniBatchConfig{Size: m.Size, ProcTime: m.ProcTime}
}

func buildLocalGroupAggregate(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.LocalGroupAggregateConfig)
	aggs, err := aggSpecs(cfg.Aggs, n.In[0], n.InputChangelogs[0])
	if err != nil {
		return Instances{}, fmt.Errorf("config.%w", err)
	}
	c := ops.GroupAggregateConfig{InputTypes: n.In[0], Keys: cfg.Keys, Aggs: aggs}
	return operator(n, func() (*ops.LocalGroupAggregate, error) {
		return ops.NewLocalGroupAggregate(c, miniBatch(cfg.MiniBatch))
	})
}

func buildGlobalGroupAggregate(n *Node) (Instances, error) {
	cfg := n.Config.(*plan.GlobalGroupAggregateConfig)
	local := make([]types.Type, len(cfg.LocalInput))
	for i, t := range cfg.LocalInput {
		local[i] = t.Logical()
	}
	if err := checkCols("config.localKeys", cfg.LocalKeys, len(local)); err != nil {
		return Instances{}, err
	}
	aggs, err := aggSpecs(cfg.Aggs, local, cfg.LocalChangelog)
	if err != nil {
		return Instances{}, fmt.Errorf("config.%w", err)
	}
	var kt []types.Type
	for _, k := range cfg.LocalKeys {
		kt = append(kt, local[k])
	}
	want := ops.LocalAggregateTypes(kt, len(aggs))
	if len(n.In[0]) != len(want) {
		return Instances{}, fmt.Errorf("inputs[0]: %d columns, a local aggregation of %d calls gives %d", len(n.In[0]), len(aggs), len(want))
	}
	c := ops.GroupAggregateConfig{InputTypes: local, Keys: cfg.LocalKeys, Aggs: aggs, GenerateUpdateBefore: true, StateTTL: n.stateTTL("groups")}
	return stateful(n, func(st state.Backend) (*ops.GlobalGroupAggregate, error) {
		return ops.NewGlobalGroupAggregate(c, miniBatch(cfg.MiniBatch), st)
	})
}
