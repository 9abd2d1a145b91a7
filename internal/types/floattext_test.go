package types

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestParseFloatLongText: decimal text of more than 10,000 characters,
// which strconv.ParseFloat reads wrongly (0 for 1111...1.5e-899990, since
// it stops reading an exponent past 10,000), is read as Java's
// Double.parseDouble reads it, correctly rounded.
func TestParseFloatLongText(t *testing.T) {
	ones := func(n int) string { return strings.Repeat("1", n) }
	for _, tc := range []struct {
		text string
		want float64
	}{
		{ones(900000) + ".5e-899990", 1111111111.1111112},
		{"-" + ones(900000) + ".5E-899990", -1111111111.1111112},
		{"0." + strings.Repeat("0", 900000) + "25e900001", 2.5},
		{ones(20000), math.Inf(1)},
		{"0." + strings.Repeat("0", 20000) + "1", 0},
		{"1e-" + strings.Repeat("9", 20000), 0},
		{"1e" + strings.Repeat("9", 20000), math.Inf(1)},
		// A half-way case decided by a digit past the 800th: 2^53 + 1
		// rounds to even, 2^53 + 1 + a tiny bit rounds up.
		{"9007199254740993" + "." + strings.Repeat("0", 20000), 9007199254740992},
		{"9007199254740993" + "." + strings.Repeat("0", 20000) + "1", 9007199254740994},
		{"1.5", 1.5},
	} {
		got, err := ParseFloat(tc.text, 64)
		if err != nil && !strings.Contains(err.Error(), "out of range") {
			t.Errorf("%.30s...: %v", tc.text, err)
		}
		if got != tc.want {
			t.Errorf("%.30s... (%d characters) = %v, want %v", tc.text, len(tc.text), got, tc.want)
		}
	}
	// An error quotes the text given, as strconv's do, not its shortened form.
	if _, err := ParseFloat(ones(20000), 64); err == nil || !strings.Contains(err.Error(), strconv.Quote(ones(20000))) {
		t.Errorf("the error of a number out of range does not quote its text: %.80v", err)
	}
	if _, err := ParseFloat(ones(20000)+"x", 64); err == nil {
		t.Error("text that is no number parsed")
	}
	if got, _ := ParseFloat(ones(900000)+".5e-899990", 32); got != float64(float32(1111111111.1111112)) {
		t.Errorf("FLOAT: got %v", got)
	}
	if _, err := ParseFloat(ones(20000), 64); !strings.Contains(err.Error(), strconv.ErrRange.Error()) {
		t.Errorf("overflow: %v, want a range error as strconv.ParseFloat gives", err)
	}
}
