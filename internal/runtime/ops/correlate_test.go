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
