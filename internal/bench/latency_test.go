package bench

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestRunLatency runs the latency measurement on a few thousand records:
// every record the filter keeps must arrive once, and the percentiles
// must be in order; options given for the tables reach them.
func TestRunLatency(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const n = 3000
	rep, err := RunLatency(ctx, LatencyConfig{Records: n, Rate: 10000, Parallelism: 2, Rounds: 2,
		SinkOptions: []string{"properties.linger.ms", "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rounds) != 2 {
		t.Fatalf("got %d rounds, want 2", len(rep.Rounds))
	}
	for i, r := range rep.Rounds {
		// The measured ids follow the warm-up's, which vary: the filter
		// keeps about 44 of 50 prices.
		if r.Produced != n || r.Received < n*40/50 || r.Received > n*48/50 {
			t.Errorf("round %d: produced %d, received %d, want %d produced and about %d received", i+1, r.Produced, r.Received, n, n*44/50)
		}
		for _, l := range []Latencies{r.EndToEnd, r.Handed} {
			if !(l.P50 <= l.P90 && l.P90 <= l.P99 && l.P99 <= l.P999 && l.P999 <= l.Max) {
				t.Errorf("round %d: percentiles out of order: %+v", i+1, l)
			}
		}
		if r.EndToEnd.P50 <= 0 {
			t.Errorf("round %d: end-to-end median %v", i+1, r.EndToEnd.P50)
		}
	}
	var out bytes.Buffer
	if err := rep.Print(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "sink properties.linger.ms=1") || !strings.Contains(out.String(), "p99 ms") {
		t.Errorf("report:\n%s", out.String())
	}

	_, err = RunLatency(ctx, LatencyConfig{Records: 10, Rate: 1000, Parallelism: 1, Rounds: 1,
		SinkOptions: []string{"properties.linger.ms", "-1"}})
	if err == nil || !strings.Contains(err.Error(), "linger.ms") {
		t.Fatalf("got %v, want the sink option refused by name", err)
	}
}

// TestLatencies takes nearest-rank percentiles.
func TestLatencies(t *testing.T) {
	var ds []time.Duration
	for i := 1000; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	got := latencies(ds)
	want := Latencies{P50: 500 * time.Millisecond, P90: 900 * time.Millisecond, P99: 990 * time.Millisecond,
		P999: 999 * time.Millisecond, Max: time.Second}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if got := latencies([]time.Duration{7}); got != (Latencies{7, 7, 7, 7, 7}) {
		t.Fatalf("one value: got %+v", got)
	}
}

// TestJSONInt reads members of the sink's JSON values.
func TestJSONInt(t *testing.T) {
	v := []byte(`{"id":12,"sent_ns":-3,"price":7,"item":"item-1"}`)
	for name, want := range map[string]int64{"id": 12, "sent_ns": -3, "price": 7} {
		if got, ok := jsonInt(v, name); !ok || got != want {
			t.Errorf("%s: got %d, %v, want %d", name, got, ok, want)
		}
	}
	for _, name := range []string{"item", "missing"} {
		if _, ok := jsonInt(v, name); ok {
			t.Errorf("%s: read as an integer", name)
		}
	}
}
