package ops

import (
	"github.com/sluicesql/sluice/internal/state"
	"testing"
)

func TestLimitInsertOnly(t *testing.T) {
	l, err := NewLimit(LimitConfig{InputTypes: numTypes, N: 2, InputInsertOnly: true}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feed(t, l, r, chunk(numTypes, ins("a", 1), ins("b", 2), ins("c", 0), ins("d", 4))),
		"+I[a, 1]", "+I[b, 2]")
	one, _ := NewLimit(LimitConfig{InputTypes: numTypes, N: 1, InputInsertOnly: true, GenerateUpdateBefore: true}, state.NewMemory())
	expect(t, feed(t, one, r, chunk(numTypes, ins("a", 1), ins("b", 0))), "+I[a, 1]")
	off, _ := NewLimit(LimitConfig{InputTypes: numTypes, Offset: 1, N: 2, InputInsertOnly: true}, state.NewMemory())
	expect(t, feed(t, off, r, chunk(numTypes, ins("a", 1), ins("b", 2), ins("c", 3), ins("d", 4))),
		"+I[b, 2]", "+I[c, 3]")
}

func TestLimitUpdatingInput(t *testing.T) {
	l, err := NewLimit(LimitConfig{InputTypes: numTypes, N: 2, GenerateUpdateBefore: true}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feed(t, l, r, chunk(numTypes, ins("a", 1), ins("b", 2), ins("c", 3), del("a", 1), del("x", 9))),
		"+I[a, 1]", "+I[b, 2]", "-D[a, 1]", "+I[c, 3]")
}

func TestSortLimit(t *testing.T) {
	l, err := NewLimit(LimitConfig{InputTypes: numTypes, Order: []SortKey{{Col: 1}}, N: 2, InputInsertOnly: true, GenerateUpdateBefore: true}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feed(t, l, r, chunk(numTypes, ins("a", 5), ins("b", 7), ins("c", 1), ins("d", 9))),
		"+I[a, 5]", "+I[b, 7]", "-D[b, 7]", "+I[c, 1]")
}

func TestTemporalSort(t *testing.T) {
	s, err := NewTemporalSort(TemporalSortConfig{InputTypes: evTypes, TimeCol: 2, Order: []SortKey{{Col: 1, Desc: true}}}, state.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	expect(t, feed(t, s, r, chunk(evTypes,
		ins("a", 1, ms(30)), ins("b", 2, ms(10)), ins("c", 3, ms(20)), ins("d", 4, ms(10)),
	)))
	expect(t, watermark(t, s, r, ms(20)),
		"+I[d, 4, 1970-01-01 00:00:00.010]",
		"+I[b, 2, 1970-01-01 00:00:00.010]",
		"+I[c, 3, 1970-01-01 00:00:00.020]",
		"WM 20000")
	// 20ms was emitted: a row at 20ms is late; 25ms is behind the watermark
	// but after the last emitted time, so it waits for the next watermark.
	expect(t, feed(t, s, r, chunk(evTypes, ins("late", 0, ms(20)), ins("e", 5, ms(25)))))
	if s.Dropped() != 1 {
		t.Fatalf("dropped %d", s.Dropped())
	}
	u, _ := NewTemporalSort(TemporalSortConfig{InputTypes: evTypes, TimeCol: 2}, state.NewMemory())
	moveState(t, s, u)
	expect(t, finish(t, u, r),
		"+I[e, 5, 1970-01-01 00:00:00.025]",
		"+I[a, 1, 1970-01-01 00:00:00.030]",
		"WM 9223372036854775807")
	if u.State().Len() != 1 {
		t.Fatalf("state has %d entries", u.State().Len())
	}
}
