package blackhole

import (
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/types"
)

func TestBlackhole(t *testing.T) {
	tbl := &catalog.Table{Name: "sink", Options: map[string]string{"connector": "blackhole"},
		Columns: []catalog.Column{{Name: "id", Type: types.IntType}}}
	f := factory{}
	if f.Accepts(tbl) != connector.Retract {
		t.Error("blackhole must accept any changelog")
	}
	target, err := f.NewSink(tbl, connector.Env{})
	if err != nil {
		t.Fatal(err)
	}
	op, err := target.NewInstance(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	c := types.NewChunk([]types.Type{types.IntType}, 1)
	c.AppendRow(types.Delete, types.Row{types.IntValue(1)})
	if err := op.Open(nil); err != nil || op.ProcessChunk(0, c, nil) != nil || op.Finish(nil) != nil {
		t.Fatal("a black hole must swallow everything")
	}
	if _, err := f.NewSource(tbl, connector.SourceSpec{}); err == nil || err.Error() != "Connector 'blackhole' can only be used as a sink. It cannot be used as a source." {
		t.Errorf("got %v", err)
	}
	tbl.Options["sink.parallelism"] = "2"
	if err := f.Validate(tbl); err == nil || !strings.HasSuffix(err.Error(), "Unsupported options:\n\nsink.parallelism\n\nSupported options:\n\nconnector") {
		t.Errorf("got %v", err)
	}
}
