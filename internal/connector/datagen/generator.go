package datagen

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/types"
)

// generator appends the value of one row to v. pos is the row's position
// in the whole source (over all instances), which a sequence field adds to
// its start.
type generator func(v *types.Vector, g *genState, pos int64)

// genState is what an instance's generators share while they fill a chunk.
type genState struct {
	rnd *rand.Rand
	now time.Time
	loc *time.Location
}

// fieldOptions reads the 'fields.<name>.*' options of one column and
// records the keys its generator consumes.
type fieldOptions struct {
	o        connector.Options
	name     string
	typ      types.Type
	consumed []string
	// length is the length of a random string or binary string field, set
	// by random.
	length int64
}

func (f *fieldOptions) key(suffix string) string { return "fields." + f.name + "." + suffix }

// use marks the option as consumed and returns its key.
func (f *fieldOptions) use(suffix string) string {
	k := f.key(suffix)
	f.consumed = append(f.consumed, k)
	return k
}

func (f *fieldOptions) unsupportedType() error {
	return fmt.Errorf("Unsupported type: %s", f.typ)
}

// intRange is the range of values of an integer type.
func intRange(k types.Kind) (lo, hi int64) {
	switch k {
	case types.TinyInt:
		return math.MinInt8, math.MaxInt8
	case types.SmallInt:
		return math.MinInt16, math.MaxInt16
	case types.Int:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// int64Option reads an integer option within [lo, hi], def when unset.
func (f *fieldOptions) int64Option(suffix string, def, lo, hi int64) (int64, error) {
	k := f.use(suffix)
	n, ok, err := f.o.Int64(k)
	if err != nil || !ok {
		return def, err
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("Value '%s' of option '%s' is out of the range of %s.", f.o[k], k, f.typ.Plain().Nullable())
	}
	return n, nil
}

func (f *fieldOptions) float64Option(suffix string, def float64) (float64, error) {
	n, ok, err := f.o.Float64(f.use(suffix))
	if err != nil || !ok {
		return def, err
	}
	return n, nil
}

// nullRate reads 'fields.#.null-rate', a fraction in [0, 1].
func (f *fieldOptions) nullRate() (float32, error) {
	k := f.use(optNullRate)
	r, ok, err := f.o.Float64(k)
	if err != nil || !ok {
		return 0, err
	}
	if r < 0 || r > 1 {
		return 0, fmt.Errorf("Invalid value for option '%s': %s. It must be between 0 and 1.", k, f.o[k])
	}
	return float32(r), nil
}

// rangeError reports a range whose lower end, the option suffix from, is
// above its upper end, to.
func (f *fieldOptions) rangeError(from, to string) error {
	return fmt.Errorf("The value of '%s' is greater than the value of '%s' for field '%s'.", f.key(from), f.key(to), f.name)
}

// checkLength applies Flink's checks of 'fields.#.length' for a random
// field.
func (f *fieldOptions) checkLength() error {
	k := f.key(optLength)
	n, ok, err := f.o.Int64(k)
	if err != nil || !ok {
		return err
	}
	switch f.typ.Kind {
	case types.Char, types.Binary:
		return fmt.Errorf("Custom length for fixed-length type (CHAR/BINARY) field '%s' is not supported.", f.name)
	case types.Varchar, types.Varbinary:
		if n > int64(f.typ.Length) {
			return fmt.Errorf("Custom length '%d' for variable-length type (VARCHAR/STRING/VARBINARY/BYTES) field '%s' should be shorter than '%d' defined in the schema.", n, f.name, f.typ.Length)
		}
		if n < 0 {
			return fmt.Errorf("Invalid value for option '%s': %d. It must not be negative.", k, n)
		}
	}
	return nil
}

// randomLength returns the length of a random CHAR, VARCHAR, BINARY or
// VARBINARY field, its declared length or 'fields.#.length' (100 for
// STRING and BYTES), and records it in f.length.
func (f *fieldOptions) randomLength() (int, error) {
	length := f.typ.Length
	if f.typ.Kind == types.Varchar || f.typ.Kind == types.Varbinary {
		n, err := f.int64Option(optLength, int64(f.typ.Length), 0, math.MaxInt32)
		if err != nil {
			return 0, err
		}
		if length = int(n); length == types.MaxVarcharLength {
			length = defaultLength
		}
	}
	f.length = int64(length)
	return length, nil
}

// withNulls makes gen produce NULL at the given rate, as Flink's
// RandomGenerator.withNullRate does.
func withNulls(rate float32, gen generator) generator {
	if rate == 0 {
		return gen
	}
	return func(v *types.Vector, g *genState, pos int64) {
		if g.rnd.Float32() > rate {
			gen(v, g, pos)
		} else {
			v.AppendNull()
		}
	}
}

// random returns the random generator of the column, after Flink's
// RandomGeneratorVisitor.
func (f *fieldOptions) random() (generator, error) {
	if err := f.checkLength(); err != nil {
		return nil, err
	}
	t := f.typ
	switch t.Kind {
	case types.Boolean:
		rate, err := f.nullRate()
		return withNulls(rate, func(v *types.Vector, g *genState, _ int64) {
			v.AppendInt(int64(g.rnd.IntN(2)))
		}), err
	case types.Char, types.Varchar:
		length, err := f.randomLength()
		if err != nil {
			return nil, err
		}
		rate, err := f.nullRate()
		return withNulls(rate, func(v *types.Vector, g *genState, _ int64) {
			v.AppendString(randomHex(g.rnd, length))
		}), err
	case types.Binary, types.Varbinary:
		length, err := f.randomLength()
		if err != nil {
			return nil, err
		}
		return func(v *types.Vector, g *genState, _ int64) {
			b := make([]byte, length)
			for i := range b {
				b[i] = byte(g.rnd.Uint32())
			}
			v.AppendString(string(b))
		}, nil
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.IntervalYearMonth, types.IntervalDayTime:
		lo, hi := intRange(t.Kind)
		defLo, defHi := lo, hi
		switch t.Kind {
		case types.IntervalYearMonth: // months, up to Period's 10000 years
			lo, hi, defLo, defHi = math.MinInt32, math.MaxInt32, 0, 120000
		case types.IntervalDayTime: // milliseconds
			lo, hi, defLo, defHi = math.MinInt64, math.MaxInt64, math.MinInt64, math.MaxInt64
		}
		mn, err := f.int64Option(optMin, defLo, lo, hi)
		if err != nil {
			return nil, err
		}
		mx, err := f.int64Option(optMax, defHi, lo, hi)
		if err != nil {
			return nil, err
		}
		if mn > mx {
			return nil, f.rangeError(optMin, optMax)
		}
		rate, err := f.nullRate()
		return withNulls(rate, func(v *types.Vector, g *genState, _ int64) {
			v.AppendInt(randomInt(g.rnd, mn, mx))
		}), err
	case types.Float, types.Double, types.Decimal:
		defLo, defHi := math.SmallestNonzeroFloat64, math.MaxFloat64
		if t.Kind == types.Float {
			defLo, defHi = math.SmallestNonzeroFloat32, math.MaxFloat32
		}
		mn, err := f.float64Option(optMin, defLo)
		if err != nil {
			return nil, err
		}
		mx, err := f.float64Option(optMax, defHi)
		if err != nil {
			return nil, err
		}
		if mn > mx {
			return nil, f.rangeError(optMin, optMax)
		}
		rate, err := f.nullRate()
		if t.Kind == types.Decimal {
			return withNulls(rate, randomDecimal(mn, mx, t.Precision, t.Scale)), err
		}
		return withNulls(rate, func(v *types.Vector, g *genState, _ int64) {
			x := randomFloat(g.rnd, mn, mx)
			if t.Kind == types.Float {
				x = float64(float32(x))
			}
			v.AppendFloat(x)
		}), err
	case types.Timestamp, types.TimestampLTZ:
		k := f.use(optMaxPast)
		maxPast, err := f.o.Duration(k, "0")
		if err != nil {
			return nil, err
		}
		rate, err := f.nullRate()
		p := f.typ.Precision
		return withNulls(rate, func(v *types.Vector, g *genState, _ int64) {
			past := int64(0)
			if ms := maxPast.Milliseconds(); ms > 0 {
				past = g.rnd.Int64N(ms)
			}
			ts, _ := types.TimestampFromParts(p, (g.now.UnixMilli()-past)*1000, 0)
			v.Append(ts)
		}), err
	}
	return f.now()
}

// now returns the generator of DATE and TIME fields, whatever their kind:
// the current date or time of day, in milliseconds, in the session time
// zone (Flink's DataGenVisitorBase, in the JVM's zone).
func (f *fieldOptions) now() (generator, error) {
	switch f.typ.Kind {
	case types.Date:
		return func(v *types.Vector, g *genState, _ int64) {
			y, m, d := g.now.In(g.loc).Date()
			v.AppendInt(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
		}, nil
	case types.Time:
		return func(v *types.Vector, g *genState, _ int64) {
			n := g.now.In(g.loc)
			day := time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, g.loc)
			v.AppendInt(n.Sub(day).Truncate(time.Millisecond).Nanoseconds())
		}, nil
	case types.Timestamp, types.TimestampLTZ:
		p := f.typ.Precision
		return func(v *types.Vector, g *genState, _ int64) {
			ts, _ := types.TimestampFromParts(p, g.now.UnixMilli()*1000, 0)
			v.Append(ts)
		}, nil
	}
	return nil, f.unsupportedType()
}

// sequence returns the sequence generator of the column and the length of
// its range, after Flink's SequenceGeneratorVisitor: 'start' and 'end' are
// required, and are integers for every type (TINYINT to INT, FLOAT, DOUBLE
// and DECIMAL read them as INT; BIGINT, strings and binary strings as
// BIGINT). A string holds the number's digits, a binary string its eight
// big-endian bytes. BOOLEAN stays random; DATE, TIME and timestamps are
// the current time, and use neither option.
func (f *fieldOptions) sequence() (generator, uint64, error) {
	for _, s := range []string{optStart, optEnd} {
		if _, ok := f.o[f.key(s)]; !ok {
			return nil, 0, fmt.Errorf("Could not find required property '%s' for sequence generator.", f.key(s))
		}
	}
	t := f.typ
	lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
	switch t.Kind {
	case types.Boolean:
		return func(v *types.Vector, g *genState, _ int64) { v.AppendInt(int64(g.rnd.IntN(2))) }, 0, nil
	case types.Date, types.Time, types.Timestamp, types.TimestampLTZ:
		gen, err := f.now()
		return gen, 0, err
	case types.IntervalYearMonth, types.IntervalDayTime:
		return nil, 0, f.unsupportedType()
	case types.TinyInt, types.SmallInt:
		lo, hi = intRange(t.Kind)
	case types.BigInt, types.Char, types.Varchar, types.Binary, types.Varbinary:
		lo, hi = math.MinInt64, math.MaxInt64
	}
	start, err := f.int64Option(optStart, 0, lo, hi)
	if err != nil {
		return nil, 0, err
	}
	end, err := f.int64Option(optEnd, 0, lo, hi)
	if err != nil {
		return nil, 0, err
	}
	if start > end {
		return nil, 0, f.rangeError(optStart, optEnd)
	}
	n := uint64(end-start) + 1 // 0 for the whole int64 range: as good as unbounded
	if n == 0 {
		n = math.MaxUint64
	}
	var gen generator
	switch t.Kind {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		gen = func(v *types.Vector, _ *genState, pos int64) { v.AppendInt(start + pos) }
	case types.Float, types.Double:
		gen = func(v *types.Vector, _ *genState, pos int64) { v.AppendFloat(float64(start + pos)) }
	case types.Decimal:
		if types.RescaleDecimal(types.IntValue(start), types.BigIntType, t).Null ||
			types.RescaleDecimal(types.IntValue(end), types.BigIntType, t).Null {
			return nil, 0, fmt.Errorf("The sequence of field '%s' from %d to %d does not fit its type %s.", f.name, start, end, t.Plain().Nullable())
		}
		gen = func(v *types.Vector, _ *genState, pos int64) {
			v.Append(types.RescaleDecimal(types.IntValue(start+pos), types.BigIntType, t))
		}
	case types.Char, types.Varchar:
		gen = func(v *types.Vector, _ *genState, pos int64) { v.AppendString(strconv.FormatInt(start+pos, 10)) }
	case types.Binary, types.Varbinary:
		gen = func(v *types.Vector, _ *genState, pos int64) {
			v.AppendString(string(binary.BigEndian.AppendUint64(nil, uint64(start+pos))))
		}
	default:
		return nil, 0, f.unsupportedType()
	}
	return gen, n, nil
}

// randomInt returns a uniform integer in [lo, hi].
func randomInt(r *rand.Rand, lo, hi int64) int64 {
	span := uint64(hi-lo) + 1
	if span == 0 { // the whole int64 range
		return int64(r.Uint64())
	}
	return lo + int64(r.Uint64N(span))
}

// randomFloat returns a uniform number in [lo, hi], without overflowing
// for ranges wider than the largest float64.
func randomFloat(r *rand.Rand, lo, hi float64) float64 {
	u := r.Float64()
	return min(hi, max(lo, lo*(1-u)+hi*u))
}

// randomDecimal returns a generator of DECIMAL(precision, scale) values
// uniform in [lo, hi], clamped to what the type holds and truncated to its
// scale, as Flink's DecimalDataRandomGenerator does.
func randomDecimal(lo, hi float64, precision, scale int) generator {
	largest := math.Pow(10, float64(precision-scale)) - math.Pow(10, -float64(scale))
	lo, hi = max(lo, -largest), min(hi, largest)
	unit := math.Pow(10, float64(scale))
	limit := math.Pow(10, float64(precision)) - 1
	t := types.DecimalType(precision, scale)
	if t.IsWideDecimal() {
		return func(v *types.Vector, g *genState, _ int64) {
			x := math.Trunc(randomFloat(g.rnd, lo, hi) * unit)
			u, _ := big.NewFloat(min(limit, max(-limit, x))).Int(nil)
			if r := types.DecimalOfBig(t, u); !r.Null {
				v.Append(r)
			} else { // a double rounded up to 10^precision
				v.Append(types.DecimalOfBig(t, u.Quo(u, big.NewInt(10))))
			}
		}
	}
	return func(v *types.Vector, g *genState, _ int64) {
		x := math.Trunc(randomFloat(g.rnd, lo, hi) * unit)
		v.AppendInt(int64(min(limit, max(-limit, x))))
	}
}

const hexDigits = "0123456789abcdef"

// randomHex returns n random lowercase hexadecimal digits (commons-math's
// RandomDataGenerator.nextHexString).
func randomHex(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = hexDigits[r.IntN(16)]
	}
	return string(b)
}
