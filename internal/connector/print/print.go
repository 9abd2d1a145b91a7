// Package print implements the 'print' table connector after Flink's Print
// SQL connector: a sink that writes every row it receives, updates
// included, to standard output (standard error with 'standard-error') as
// Flink's PrintSinkFunction does, one line per row. The output is the one
// the job's session gives its connectors (connector.Env: the interactive
// client's terminal, above its prompt), else the process's:
//
//	identifier:3> +U[5, foo]
//
// The line starts with the 'print-identifier' option and, when the sink
// runs in more than one instance, the 1-based instance number, then "> "
// (no prefix at all without either); the row is Flink's Row.toString: the
// row kind and the fields as their Java values print.
package print

import (
	"io"
	"os"
	"strconv"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

const (
	name = "print"

	optIdentifier    = "print-identifier"
	optStandardError = "standard-error"
)

var options = []connector.OptionSpec{
	{Key: optIdentifier, Description: "Message that identifies print and is prefixed to the output of the value."},
	{Key: optStandardError, Default: "false", Description: "True, if the format should print to standard error instead of standard out."},
	{Key: connector.SinkParallelismKey, Description: "Parallelism of the sink."},
}

func init() { connector.Register(factory{}) }

// factory is the connector.Factory of 'print'.
type factory struct{}

// Name implements connector.Factory.
func (factory) Name() string { return name }

// Options implements connector.Factory.
func (factory) Options() []connector.OptionSpec { return options }

// Validate implements connector.Factory.
func (factory) Validate(t *catalog.Table) error {
	_, err := parse(t)
	return err
}

// Accepts implements connector.Factory: every row is printed with its kind.
func (factory) Accepts(*catalog.Table) connector.ChangelogMode { return connector.Retract }

// Produces implements connector.Factory: rows are appends.
func (factory) Produces(*catalog.Table) connector.ChangelogMode { return connector.InsertOnly }

// NewSource implements connector.Factory: print tables cannot be read.
func (factory) NewSource(*catalog.Table, connector.SourceSpec) (connector.ScanSource, error) {
	return nil, connector.SinkOnly(name)
}

// NewSink implements connector.Factory.
func (factory) NewSink(t *catalog.Table, env connector.Env) (connector.SinkTarget, error) {
	s, err := parse(t)
	if err != nil {
		return nil, err
	}
	switch {
	case s.stderr && env.Stderr != nil:
		s.w = env.Stderr
	case s.stderr:
		s.w = os.Stderr
	case env.Stdout != nil:
		s.w = env.Stdout
	default:
		s.w = os.Stdout
	}
	if err := connector.CheckNoMetadata(t, true); err != nil {
		return nil, err
	}
	s.input = connector.SinkInput(t)
	return s, nil
}

// target is a print table being written.
type target struct {
	identifier  string
	stderr      bool
	parallelism int
	input       []types.Type
	// w is where its instances write, each chunk's lines in one Write.
	w io.Writer
}

func parse(t *catalog.Table) (*target, error) {
	o := connector.Options(t.Options)
	keys := make([]string, len(options))
	for i, s := range options {
		keys[i] = s.Key
	}
	if err := connector.CheckSupported(name, o, keys); err != nil {
		return nil, err
	}
	s := &target{identifier: o[optIdentifier]}
	var err error
	if s.stderr, err = o.Bool(optStandardError, false); err != nil {
		return nil, err
	}
	if s.parallelism, err = connector.SinkParallelism(o); err != nil {
		return nil, err
	}
	return s, nil
}

// Parallelism is the 'sink.parallelism' option, 0 when unset.
func (s *target) Parallelism() int { return s.parallelism }

// NewInstance implements connector.SinkTarget.
func (s *target) NewInstance(i, n int) (runtime.Operator, error) {
	// PrintSinkOutputWriter's prefix.
	prefix := s.identifier
	if n > 1 {
		if prefix != "" {
			prefix += ":"
		}
		prefix += strconv.Itoa(i + 1)
	}
	if prefix != "" {
		prefix += "> "
	}
	return &instance{target: s, prefix: prefix}, nil
}

// instance prints the rows of one sink instance.
type instance struct {
	*target
	prefix string
	buf    []byte
}

// Open implements runtime.Operator.
func (p *instance) Open(*runtime.Context) error { return nil }

// ProcessChunk implements runtime.Operator: it writes the chunk's lines in
// one write.
func (p *instance) ProcessChunk(_ int, c *types.Chunk, _ runtime.Emitter) error {
	b := p.buf[:0]
	for i, k := range c.Ops {
		b = append(b, p.prefix...)
		b = appendRow(b, k, c, i, p.input)
		b = append(b, '\n')
	}
	p.buf = b
	_, err := p.w.Write(b)
	return err
}

// ProcessWatermark implements runtime.Operator.
func (p *instance) ProcessWatermark(int64, runtime.Emitter) error { return nil }

// Finish implements runtime.Operator.
func (p *instance) Finish(runtime.Emitter) error { return nil }
