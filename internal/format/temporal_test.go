package format

import (
	"testing"
	"time"
)

func TestCivilDays(t *testing.T) {
	for days := int64(-800_000); days <= 3_000_000; days += 97 {
		want := time.Unix(days*86400, 0).UTC()
		y, m, d := civilFromDays(days)
		if y != int64(want.Year()) || m != int64(want.Month()) || d != int64(want.Day()) {
			t.Fatalf("civilFromDays(%d) = %d-%d-%d, want %s", days, y, m, d, want)
		}
		if back := daysFromCivil(y, m, d); back != days {
			t.Fatalf("daysFromCivil(%d-%d-%d) = %d, want %d", y, m, d, back, days)
		}
		if last := daysIn(y, m); time.Date(int(y), time.Month(m), int(last)+1, 0, 0, 0, 0, time.UTC).Day() != 1 {
			t.Fatalf("daysIn(%d, %d) = %d", y, m, last)
		}
	}
}
