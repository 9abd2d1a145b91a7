package print

import (
	"strconv"
	"time"

	"github.com/sluicesql/sluice/internal/types"
)

// appendRow appends a row as Flink's Row.toString shows it: the short row
// kind and the fields, each as its Java external class's toString, e.g.
// "+I[1, foo, null]".
func appendRow(b []byte, kind types.RowKind, c *types.Chunk, row int, ts []types.Type) []byte {
	b = append(b, kind.String()...)
	b = append(b, '[')
	for i, t := range ts {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendJava(b, t, c.Cols[i].Get(row))
	}
	return append(b, ']')
}

// appendJava appends v as the toString of the Java class Flink converts a
// value of type t to: Boolean, Byte ... Long, Float, Double, BigDecimal,
// String, byte[] (Arrays.toString), LocalDate, LocalTime, LocalDateTime,
// Instant (TIMESTAMP_LTZ), Period and Duration; "null" for NULL.
func appendJava(b []byte, t types.Type, v types.Value) []byte {
	if v.Null {
		return append(b, "null"...)
	}
	switch t.Kind {
	case types.Boolean:
		return strconv.AppendBool(b, v.I != 0)
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		return strconv.AppendInt(b, v.I, 10)
	case types.Float:
		return types.AppendJavaFloat(b, v.F, 32)
	case types.Double:
		return types.AppendJavaFloat(b, v.F, 64)
	case types.Decimal:
		return types.AppendJavaDecimal(b, types.DecimalUnscaled(t, v), t.Scale)
	case types.Char, types.Varchar:
		return append(b, v.S...)
	case types.Binary, types.Varbinary:
		b = append(b, '[')
		for i := 0; i < len(v.S); i++ {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendInt(b, int64(int8(v.S[i])), 10)
		}
		return append(b, ']')
	case types.Date:
		return append(b, types.FormatValue(t, v, nil)...)
	case types.Time:
		return appendLocalTime(b, v.I)
	case types.Timestamp:
		// LocalDateTime.toString: the date, 'T', LocalTime.toString.
		d := types.TimestampTime(t.Precision, v)
		b = d.AppendFormat(b, "2006-01-02T")
		return appendLocalTime(b, int64(d.Hour()*3600+d.Minute()*60+d.Second())*int64(time.Second)+int64(d.Nanosecond()))
	case types.TimestampLTZ:
		// Instant.toString: ISO-8601 in UTC, seconds always shown.
		d := types.TimestampTime(t.Precision, v)
		b = d.AppendFormat(b, "2006-01-02T15:04:05")
		b = appendNanos(b, int64(d.Nanosecond()))
		return append(b, 'Z')
	case types.IntervalYearMonth:
		return appendPeriod(b, v.I)
	case types.IntervalDayTime:
		return appendDuration(b, v.I)
	case types.Array, types.Map, types.Multiset, types.RowType, types.Structured:
		return appendJavaComposite(b, t, v)
	}
	return append(b, types.FormatValue(t, v, nil)...)
}

// appendJavaComposite appends a composite value as its Java external
// class shows it: an array as [a, b] (Flink's arrayAwareToString), a MAP
// or MULTISET as a java.util.Map {k=v} (in insertion order here; Java's
// HashMap has its own order), a ROW as a nested Row, +I[a, b].
func appendJavaComposite(b []byte, t types.Type, v types.Value) []byte {
	items := func(b []byte, ts []types.Type, vs []types.Value) []byte {
		for i, x := range vs {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendJava(b, ts[i], x)
		}
		return b
	}
	switch t.Kind {
	case types.Array:
		vs, err := types.DecodeArray(t.Elem(), v.S)
		if err != nil {
			return append(b, "<corrupt value>"...)
		}
		ts := make([]types.Type, len(vs))
		for i := range ts {
			ts[i] = t.Elem()
		}
		return append(items(append(b, '['), ts, vs), ']')
	case types.Map, types.Multiset:
		ks, vs, err := types.DecodeMap(t, v.S)
		if err != nil {
			return append(b, "<corrupt value>"...)
		}
		b = append(b, '{')
		for i := range ks {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendJava(b, t.KeyType(), ks[i])
			b = append(b, '=')
			b = appendJava(b, t.ValueType(), vs[i])
		}
		return append(b, '}')
	}
	vs, err := types.DecodeRow(t, v.S)
	if err != nil {
		return append(b, "<corrupt value>"...)
	}
	ts := make([]types.Type, len(vs))
	for i, f := range t.Fields() {
		ts[i] = f.Type
	}
	return append(items(append(b, "+I["...), ts, vs), ']')
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// appendLocalTime appends nanoseconds of the day as LocalTime.toString
// does: HH:mm, then :ss unless seconds and fraction are zero, then the
// fraction in groups of three digits.
func appendLocalTime(b []byte, nanos int64) []byte {
	h, m := nanos/int64(time.Hour), nanos/int64(time.Minute)%60
	s, frac := nanos/int64(time.Second)%60, nanos%int64(time.Second)
	b = append(b, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10))
	if s == 0 && frac == 0 {
		return b
	}
	b = append(b, ':', byte('0'+s/10), byte('0'+s%10))
	return appendNanos(b, frac)
}

// appendNanos appends a fraction of a second as java.time prints it:
// nothing for zero, else 3, 6 or 9 digits.
func appendNanos(b []byte, frac int64) []byte {
	if frac == 0 {
		return b
	}
	digits := strconv.FormatInt(frac+int64(time.Second), 10)[1:] // nine digits
	switch {
	case frac%int64(time.Millisecond) == 0:
		digits = digits[:3]
	case frac%int64(time.Microsecond) == 0:
		digits = digits[:6]
	}
	b = append(b, '.')
	return append(b, digits...)
}

// appendPeriod appends months as Period.toString does ("P1Y2M", "P0D").
func appendPeriod(b []byte, months int64) []byte {
	if months == 0 {
		return append(b, "P0D"...)
	}
	b = append(b, 'P')
	if y := months / 12; y != 0 {
		b = strconv.AppendInt(b, y, 10)
		b = append(b, 'Y')
	}
	if m := months % 12; m != 0 {
		b = strconv.AppendInt(b, m, 10)
		b = append(b, 'M')
	}
	return b
}

// appendDuration appends milliseconds as Duration.toString does
// ("PT1H30M", "PT0.5S", "PT-0.5S", "PT0S").
func appendDuration(b []byte, ms int64) []byte {
	if ms == 0 {
		return append(b, "PT0S"...)
	}
	seconds, nanos := floorDiv(ms, 1000), (ms-floorDiv(ms, 1000)*1000)*int64(time.Millisecond)
	total := seconds
	if seconds < 0 && nanos > 0 {
		total++
	}
	hours, minutes, secs := total/3600, total%3600/60, total%60
	b = append(b, "PT"...)
	start := len(b)
	if hours != 0 {
		b = strconv.AppendInt(b, hours, 10)
		b = append(b, 'H')
	}
	if minutes != 0 {
		b = strconv.AppendInt(b, minutes, 10)
		b = append(b, 'M')
	}
	if secs == 0 && nanos == 0 && len(b) > start {
		return b
	}
	if seconds < 0 && nanos > 0 && secs == 0 {
		b = append(b, "-0"...)
	} else {
		b = strconv.AppendInt(b, secs, 10)
	}
	if nanos > 0 {
		frac := nanos + int64(time.Second)
		if seconds < 0 {
			frac = 2*int64(time.Second) - nanos
		}
		digits := strconv.FormatInt(frac, 10)
		for digits[len(digits)-1] == '0' {
			digits = digits[:len(digits)-1]
		}
		b = append(b, '.')
		b = append(b, digits[1:]...)
	}
	return append(b, 'S')
}
