package ops

import (
	"slices"
	"testing"

	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/types"
)

// correlate runs a Correlate over one chunk of (id INT, c collType) rows.
func correlate(t *testing.T, collType types.Type, ordinality, left bool, kinds []types.RowKind, colls []types.Value, extra ...types.Type) recorder {
	t.Helper()
	in := []types.Type{types.IntType, collType}
	ch := types.NewChunk(in, len(colls))
	for i, v := range colls {
		ch.AppendRow(kinds[i], types.Row{types.IntValue(int64(i)), v})
	}
	out := append(append([]types.Type{}, in...), extra...)
	if ordinality {
		out = append(out, types.IntType)
	}
	c := NewCorrelate(CorrelateConfig{Collection: compileLocal(t, &expr.Column{Index: 1, T: collType}), CollectionType: collType,
		Ordinality: ordinality, Left: left, OutputTypes: out})
	var rec recorder
	if err := c.ProcessChunk(0, ch, &rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestCorrelate(t *testing.T) {
	row := types.RowOf([]types.Field{{Name: "a", Type: types.IntType}, {Name: "b", Type: types.StringType}})
	rows := types.ArrayOf(row)
	v := types.EncodeArray(row, []types.Value{types.EncodeRow(row, []types.Value{types.IntValue(1), types.StringValue("x")}), types.NullValue})
	got := correlate(t, rows, true, true, []types.RowKind{types.UpdateBefore, types.Insert, types.Delete},
		[]types.Value{v, types.NullValue, types.EncodeArray(row, nil)}, types.IntType, types.StringType)
	want := []string{
		"-U[0, [(1, x), NULL], 1, x, 1]", "-U[0, [(1, x), NULL], NULL, NULL, 2]",
		"+I[1, NULL, NULL, NULL, NULL]", "-D[2, [], NULL, NULL, NULL]",
	}
	if !slices.Equal(got.lines, want) {
		t.Errorf("got %q\nwant %q", got.lines, want)
	}
	// A MULTISET repeats each element by its count; a MAP gives key and value.
	ms := types.MultisetOf(types.StringType)
	got = correlate(t, ms, false, false, []types.RowKind{types.Insert},
		[]types.Value{types.EncodeMap(ms, []types.Value{types.StringValue("k")}, []types.Value{types.IntValue(2)})}, types.StringType)
	if want := []string{"+I[0, {k=2}, k]", "+I[0, {k=2}, k]"}; !slices.Equal(got.lines, want) {
		t.Errorf("multiset: got %q", got.lines)
	}
	m := types.MapOf(types.StringType, types.IntType)
	got = correlate(t, m, false, false, []types.RowKind{types.Insert},
		[]types.Value{types.EncodeMap(m, []types.Value{types.StringValue("k")}, []types.Value{types.NullValue})}, types.StringType, types.IntType)
	if want := []string{"+I[0, {k=NULL}, k, NULL]"}; !slices.Equal(got.lines, want) {
		t.Errorf("map: got %q", got.lines)
	}
	// An array longer than a chunk is emitted in full chunks.
	big := make([]types.Value, 3*types.ChunkSize+5)
	for i := range big {
		big[i] = types.IntValue(int64(i))
	}
	got = correlate(t, types.ArrayOf(types.IntType), true, false, []types.RowKind{types.Insert},
		[]types.Value{types.EncodeArray(types.IntType, big)}, types.IntType)
	if len(got.lines) != len(big) || got.chunks != 4 {
		t.Errorf("%d rows in %d chunks", len(got.lines), got.chunks)
	}
}

// TestCorrelateZip: several collections are unnested side by side, padded
// with NULLs to the longest (a NULL one has no elements, a MULTISET
// repeats an element by its count), each row keeping its input row's kind.
func TestCorrelateZip(t *testing.T) {
	ints, ms := types.ArrayOf(types.IntType), types.MultisetOf(types.StringType)
	in := []types.Type{types.IntType, ints, ms}
	ch := types.NewChunk(in, 3)
	ch.AppendRow(types.UpdateBefore, types.Row{types.IntValue(0), types.EncodeArray(types.IntType, []types.Value{types.IntValue(1)}),
		types.EncodeMap(ms, []types.Value{types.StringValue("s")}, []types.Value{types.IntValue(2)})})
	ch.AppendRow(types.Delete, types.Row{types.IntValue(1), types.NullValue, types.NullValue})
	ch.AppendRow(types.Insert, types.Row{types.IntValue(2), types.EncodeArray(types.IntType, []types.Value{types.IntValue(3), types.IntValue(4)}), types.NullValue})
	c := NewCorrelate(CorrelateConfig{Collection: compileLocal(t, &expr.Column{Index: 1, T: ints}), CollectionType: ints,
		More: []expr.Evaluator{compileLocal(t, &expr.Column{Index: 2, T: ms})}, MoreTypes: []types.Type{ms},
		Ordinality: true, Left: true, OutputTypes: append(in, types.IntType, types.StringType, types.IntType)})
	var rec recorder
	if err := c.ProcessChunk(0, ch, &rec); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"-U[0, [1], {s=2}, 1, s, 1]", "-U[0, [1], {s=2}, NULL, s, 2]",
		"-D[1, NULL, NULL, NULL, NULL, NULL]",
		"+I[2, [3, 4], NULL, 3, NULL, 1]", "+I[2, [3, 4], NULL, 4, NULL, 2]",
	}
	if !slices.Equal(rec.lines, want) {
		t.Errorf("got %q\nwant %q", rec.lines, want)
	}
}
