// Package blackhole implements the 'blackhole' table connector after
// Flink's BlackHole SQL connector: a sink that swallows every row, for
// measuring or testing the queries that feed it. It takes no options,
// accepts any changelog and cannot be read.
package blackhole

import (
	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

const name = "blackhole"

func init() { connector.Register(factory{}) }

// factory is the connector.Factory of 'blackhole'.
type factory struct{}

// Name implements connector.Factory.
func (factory) Name() string { return name }

// Options implements connector.Factory: there are none.
func (factory) Options() []connector.OptionSpec { return nil }

// Validate implements connector.Factory.
func (factory) Validate(t *catalog.Table) error {
	return connector.CheckSupported(name, t.Options, nil)
}

// Accepts implements connector.Factory: every change is swallowed alike.
func (factory) Accepts(*catalog.Table) connector.ChangelogMode { return connector.Retract }

// Produces implements connector.Factory: rows are appends.
func (factory) Produces(*catalog.Table) connector.ChangelogMode { return connector.InsertOnly }

// NewSource implements connector.Factory: a black hole cannot be read.
func (factory) NewSource(*catalog.Table, connector.SourceSpec) (connector.ScanSource, error) {
	return nil, connector.SinkOnly(name)
}

// NewSink implements connector.Factory.
func (f factory) NewSink(t *catalog.Table, _ connector.Env) (connector.SinkTarget, error) {
	if err := f.Validate(t); err != nil {
		return nil, err
	}
	if err := connector.CheckNoMetadata(t, true); err != nil {
		return nil, err
	}
	return target{}, nil
}

// target is a black hole being written.
type target struct{}

// NewInstance implements connector.SinkTarget.
func (target) NewInstance(int, int) (runtime.Operator, error) { return discard{}, nil }

// discard is a sink instance that drops its input.
type discard struct{}

func (discard) Open(*runtime.Context) error                           { return nil }
func (discard) ProcessChunk(int, *types.Chunk, runtime.Emitter) error { return nil }
func (discard) ProcessWatermark(int64, runtime.Emitter) error         { return nil }
func (discard) Finish(runtime.Emitter) error                          { return nil }

// ProcessLeased implements runtime.LeaseTaker: the chunk is dropped at
// once.
func (discard) ProcessLeased(_ int, _ *types.Chunk, l *runtime.Lease, _ runtime.Emitter) error {
	l.Release()
	return nil
}
