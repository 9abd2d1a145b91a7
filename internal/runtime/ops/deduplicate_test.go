package ops

import (
	"testing"

	"github.com/sluicesql/sluice/internal/state"
	"github.com/sluicesql/sluice/internal/types"
)

// evTypes are (key, value, rowtime).
var evTypes = []types.Type{types.StringType, types.BigIntType, types.TimestampType(3)}

func newDedup(t *testing.T, cfg DeduplicateConfig) *Deduplicate {
	t.Helper()
	cfg.InputTypes, cfg.Keys, cfg.TimeCol = evTypes, []int{0}, 2
	d, err := NewDeduplicate(cfg, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var dedupInput = chunk(evTypes,
	ins("a", 1, ms(100)),
	ins("b", 2, ms(100)),
	ins("a", 3, ms(50)),  // earlier
	ins("a", 3, ms(50)),  // same row again
	ins("a", 4, ms(200)), // later
	ins("a", 5, ms(200)), // same time
)

func TestDeduplicateProcTimeKeepFirst(t *testing.T) {
	d, r := newDedup(t, DeduplicateConfig{OutputRankNumber: true}), &recorder{}
	expect(t, feed(t, d, r, dedupInput),
		"+I[a, 1, 1970-01-01 00:00:00.100, 1]", "+I[b, 2, 1970-01-01 00:00:00.100, 1]")
	d2 := newDedup(t, DeduplicateConfig{OutputRankNumber: true})
	moveState(t, d, d2)
	expect(t, feed(t, d2, r, chunk(evTypes, ins("a", 9, ms(0)), ins("c", 9, ms(0)))), "+I[c, 9, 1970-01-01 00:00:00.000, 1]")
}

func TestDeduplicateProcTimeKeepLast(t *testing.T) {
	d, r := newDedup(t, DeduplicateConfig{KeepLast: true, GenerateUpdateBefore: true}), &recorder{}
	expect(t, feed(t, d, r, dedupInput),
		"+I[a, 1, 1970-01-01 00:00:00.100]",
		"+I[b, 2, 1970-01-01 00:00:00.100]",
		"-U[a, 1, 1970-01-01 00:00:00.100]", "+U[a, 3, 1970-01-01 00:00:00.050]",
		// the equal row emits nothing
		"-U[a, 3, 1970-01-01 00:00:00.050]", "+U[a, 4, 1970-01-01 00:00:00.200]",
		"-U[a, 4, 1970-01-01 00:00:00.200]", "+U[a, 5, 1970-01-01 00:00:00.200]",
	)
	if err := d.ProcessChunk(0, chunk(evTypes, del("a", 5, ms(200))), r); err == nil {
		t.Fatal("retraction accepted")
	}
}

func TestDeduplicateRowTimeKeepFirst(t *testing.T) {
	d, r := newDedup(t, DeduplicateConfig{RowTime: true, GenerateUpdateBefore: true}), &recorder{}
	expect(t, feed(t, d, r, dedupInput),
		"+I[a, 1, 1970-01-01 00:00:00.100]",
		"+I[b, 2, 1970-01-01 00:00:00.100]",
		"-U[a, 1, 1970-01-01 00:00:00.100]", "+U[a, 3, 1970-01-01 00:00:00.050]",
	)
}

func TestDeduplicateRowTimeKeepLast(t *testing.T) {
	d, r := newDedup(t, DeduplicateConfig{RowTime: true, KeepLast: true, OutputRankNumber: true}), &recorder{}
	expect(t, feed(t, d, r, dedupInput),
		"+I[a, 1, 1970-01-01 00:00:00.100, 1]",
		"+I[b, 2, 1970-01-01 00:00:00.100, 1]",
		// 50 < 100: kept row stays
		"+U[a, 4, 1970-01-01 00:00:00.200, 1]",
		"+U[a, 5, 1970-01-01 00:00:00.200, 1]",
	)
}
