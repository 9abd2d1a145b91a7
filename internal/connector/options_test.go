package connector

import (
	"strings"
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"300000": 5 * time.Minute, "5 min": 5 * time.Minute, "10s": 10 * time.Second, "0": 0,
		"1 h": time.Hour, "250 ms": 250 * time.Millisecond, "2 DAYS": 48 * time.Hour,
	} {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "soon", "5 fortnights", "-1 s", "1.5 s",
		"106752 days", "9223372036854775808", "99999999999999999999 ms"} {
		if _, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q): no error", in)
		}
	}
}

func TestOptionsParse(t *testing.T) {
	o := Options{"n": "42", "f": "0.25", "b": "TRUE", "bad": "x", "e": "Sequence"}
	if n, ok, err := o.Int64("n"); n != 42 || !ok || err != nil {
		t.Errorf("Int64 = %d, %v, %v", n, ok, err)
	}
	if _, ok, err := o.Int64("missing"); ok || err != nil {
		t.Errorf("Int64 of a missing key: %v, %v", ok, err)
	}
	if f, ok, err := o.Float64("f"); f != 0.25 || !ok || err != nil {
		t.Errorf("Float64 = %v, %v, %v", f, ok, err)
	}
	if b, err := o.Bool("b", false); !b || err != nil {
		t.Errorf("Bool = %v, %v", b, err)
	}
	if b, err := o.Bool("missing", true); !b || err != nil {
		t.Errorf("Bool default = %v, %v", b, err)
	}
	for _, err := range []error{
		func() error { _, _, err := o.Int64("bad"); return err }(),
		func() error { _, _, err := o.Float64("bad"); return err }(),
		func() error { _, err := o.Bool("bad", false); return err }(),
	} {
		if want := "Could not parse value 'x' for key 'bad'."; err == nil || err.Error() != want {
			t.Errorf("got %v, want %q", err, want)
		}
	}
	if e, err := o.Enum("e", "random", []string{"random", "sequence"}); e != "sequence" || err != nil {
		t.Errorf("Enum = %q, %v", e, err)
	}
}

func TestCheckSupported(t *testing.T) {
	o := Options{"connector": "print", "print-identifier": "x", "zeta": "1", "alpha": "2"}
	if err := CheckSupported("print", o, []string{"print-identifier", "standard-error"}); err == nil ||
		err.Error() != "Unsupported options found for 'print'.\n\nUnsupported options:\n\nalpha\nzeta\n\nSupported options:\n\nconnector\nprint-identifier\nstandard-error" {
		t.Errorf("got %v", err)
	}
	if err := CheckSupported("print", Options{"connector": "print"}, nil); err != nil {
		t.Error(err)
	}
	err := CheckRequired(Options{}, []OptionSpec{{Key: "b", Required: true}, {Key: "a", Required: true}, {Key: "c"}})
	if err == nil || !strings.HasSuffix(err.Error(), "Missing required options are:\n\na\nb") {
		t.Errorf("got %v", err)
	}
}
