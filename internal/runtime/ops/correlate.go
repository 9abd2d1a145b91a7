package ops

import (
	"github.com/sluicesql/sluice/internal/expr"
	"github.com/sluicesql/sluice/internal/runtime"
	"github.com/sluicesql/sluice/internal/types"
)

// CorrelateConfig configures a Correlate.
type CorrelateConfig struct {
	// Collection computes the ARRAY, MULTISET or MAP to unnest from an
	// input row.
	Collection expr.Evaluator
	// CollectionType is its type.
	CollectionType types.Type
	// More compute further collections, of the types MoreTypes, unnested
	// beside the first: the i-th row holds the i-th element of each, NULLs
	// for a collection with fewer (the SQL standard's UNNEST of several
	// collections, zipped and padded to the longest).
	More      []expr.Evaluator
	MoreTypes []types.Type
	// Ordinality adds each element's 1-based position as the last column.
	Ordinality bool
	// Left keeps a row whose collection is NULL or empty, with NULLs.
	Left bool
	// Replicate makes Collection a BIGINT count: the input row is emitted
	// that many times, with no columns added.
	Replicate bool
	// OutputTypes are the output column types: the input's, the element's
	// and the ordinality.
	OutputTypes []types.Type
	// Context is the evaluation context.
	Context expr.Context
}

// Correlate joins each row with the rows of UNNEST of a collection it
// holds (Flink's Correlate over $UNNEST_ROWS): a row per element of an
// ARRAY, per entry of a MAP (key, value) and per occurrence of a MULTISET
// element; an element that is a ROW gives its fields as columns. Every
// output row keeps its input row's kind. The operator keeps no state.
type Correlate struct {
	cfg  CorrelateConfig
	in   types.Row
	row  types.Row
	nIn  int
	elem types.Type   // the element type, for ARRAY and MULTISET
	o    *types.Chunk // the chunk being filled, emitted when full
}

// NewCorrelate returns a Correlate for cfg.
func NewCorrelate(cfg CorrelateConfig) *Correlate {
	cfg.Context.Watermark = runtime.MinWatermark
	c := &Correlate{cfg: cfg, row: make(types.Row, len(cfg.OutputTypes))}
	if k := cfg.CollectionType.Kind; k == types.Array || k == types.Multiset {
		c.elem = cfg.CollectionType.Elem()
	}
	return c
}

// Open implements runtime.Operator.
func (c *Correlate) Open(*runtime.Context) error { return nil }

// ProcessChunk implements runtime.Operator.
func (c *Correlate) ProcessChunk(_ int, ch *types.Chunk, out runtime.Emitter) error {
	c.nIn = len(ch.Cols)
	if len(c.in) != c.nIn {
		c.in = make(types.Row, c.nIn)
	}
	c.o = types.NewChunk(c.cfg.OutputTypes, ch.Len())
	for i := range ch.Len() {
		for k, col := range ch.Cols {
			c.in[k] = col.Get(i)
		}
		v, err := c.cfg.Collection(&c.cfg.Context, c.in)
		if err != nil {
			return err
		}
		var n int
		if len(c.cfg.More) > 0 {
			n, err = c.zip(v, ch.Ops[i], out)
		} else {
			n, err = c.unnest(v, ch.Ops[i], out)
		}
		if err != nil {
			return err
		}
		if n == 0 && c.cfg.Left {
			copy(c.row, c.in)
			for j := c.nIn; j < len(c.row); j++ {
				c.row[j] = types.NullValue
			}
			c.append(ch.Ops[i], out)
		}
	}
	if c.o.Len() > 0 {
		out.Emit(c.o)
	}
	c.o = nil
	return nil
}

// append adds c.row to the chunk being filled, emitting it when full.
func (c *Correlate) append(kind types.RowKind, out runtime.Emitter) {
	c.o.AppendRow(kind, c.row)
	if c.o.Len() >= types.ChunkSize {
		out.Emit(c.o)
		c.o = types.NewChunk(c.cfg.OutputTypes, types.ChunkSize)
	}
}

// unnest appends the rows of collection v for the input row in c.in and
// returns how many.
func (c *Correlate) unnest(v types.Value, kind types.RowKind, out runtime.Emitter) (int, error) {
	if v.Null {
		return 0, nil
	}
	if c.cfg.Replicate {
		copy(c.row, c.in)
		for range v.I {
			c.append(kind, out)
		}
		return int(max(v.I, 0)), nil
	}
	t := c.cfg.CollectionType
	var elems, vals []types.Value
	var err error
	switch t.Kind {
	case types.Array:
		elems, err = types.DecodeArray(t.Elem(), v.S)
	default:
		elems, vals, err = types.DecodeMap(t, v.S)
	}
	if err != nil {
		return 0, err
	}
	n := 0
	emit := func(cols ...types.Value) error {
		copy(c.row, c.in)
		j := c.nIn
		for _, x := range cols {
			if c.elem.Kind == types.RowType {
				fields, err := c.fields(x)
				if err != nil {
					return err
				}
				j += copy(c.row[j:], fields)
				continue
			}
			c.row[j] = x
			j++
		}
		n++
		if c.cfg.Ordinality {
			c.row[len(c.row)-1] = types.IntValue(int64(n))
		}
		c.append(kind, out)
		return nil
	}
	for i, x := range elems {
		switch t.Kind {
		case types.Map:
			err = emit(x, vals[i])
		case types.Multiset:
			for range vals[i].I {
				if err = emit(x); err != nil {
					break
				}
			}
		default:
			err = emit(x)
		}
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// zip appends the rows of UNNEST of several collections, the first v, for
// the input row in c.in, and returns how many: as many as the longest
// collection has elements (a NULL collection has none).
func (c *Correlate) zip(v types.Value, kind types.RowKind, out runtime.Emitter) (int, error) {
	first, err := elementRows(c.cfg.CollectionType, v)
	if err != nil {
		return 0, err
	}
	all := [][][]types.Value{first}
	widths := []int{elementWidth(c.cfg.CollectionType)}
	n := len(first)
	for k, ev := range c.cfg.More {
		mv, err := ev(&c.cfg.Context, c.in)
		if err != nil {
			return 0, err
		}
		rows, err := elementRows(c.cfg.MoreTypes[k], mv)
		if err != nil {
			return 0, err
		}
		all = append(all, rows)
		widths = append(widths, elementWidth(c.cfg.MoreTypes[k]))
		n = max(n, len(rows))
	}
	for i := range n {
		copy(c.row, c.in)
		j := c.nIn
		for k, rows := range all {
			if i < len(rows) {
				j += copy(c.row[j:], rows[i])
				continue
			}
			for range widths[k] {
				c.row[j] = types.NullValue
				j++
			}
		}
		if c.cfg.Ordinality {
			c.row[len(c.row)-1] = types.IntValue(int64(i + 1))
		}
		c.append(kind, out)
	}
	return n, nil
}

// elementWidth is how many columns an element of a collection of type t
// gives: a ROW element's fields, a map entry's key and value, or one.
func elementWidth(t types.Type) int {
	switch {
	case t.Kind == types.Map:
		return 2
	case t.Elem().Kind == types.RowType:
		return len(t.Elem().Fields())
	}
	return 1
}

// elementRows returns the columns of each element of collection v of type
// t, in UNNEST's order; none for NULL.
func elementRows(t types.Type, v types.Value) ([][]types.Value, error) {
	if v.Null {
		return nil, nil
	}
	var elems, vals []types.Value
	var err error
	if t.Kind == types.Array {
		elems, err = types.DecodeArray(t.Elem(), v.S)
	} else {
		elems, vals, err = types.DecodeMap(t, v.S)
	}
	if err != nil {
		return nil, err
	}
	var rows [][]types.Value
	for i, x := range elems {
		row, count := []types.Value{x}, int64(1)
		switch {
		case t.Kind == types.Map:
			row = append(row, vals[i])
		case t.Elem().Kind == types.RowType:
			if row, err = rowFields(t.Elem(), x); err != nil {
				return nil, err
			}
		}
		if t.Kind == types.Multiset {
			count = vals[i].I // occurrences
		}
		for range count {
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// fields returns the columns of a ROW element, NULL ones for a NULL row.
func (c *Correlate) fields(x types.Value) ([]types.Value, error) {
	return rowFields(c.elem, x)
}

// rowFields returns the columns of a value of ROW type t, NULL ones for
// NULL.
func rowFields(t types.Type, x types.Value) ([]types.Value, error) {
	if x.Null {
		out := make([]types.Value, len(t.Fields()))
		for i := range out {
			out[i] = types.NullValue
		}
		return out, nil
	}
	return types.DecodeRow(t, x.S)
}

// ProcessWatermark implements runtime.Operator.
func (c *Correlate) ProcessWatermark(wm int64, out runtime.Emitter) error {
	c.cfg.Context.Watermark, c.cfg.Context.HasWatermark = wm, true
	out.EmitWatermark(wm)
	return nil
}

// Finish implements runtime.Operator.
func (c *Correlate) Finish(runtime.Emitter) error { return nil }
