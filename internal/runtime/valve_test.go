package runtime

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestValveMatchesAScan: the heap-backed watermark merge gives, after
// every message, the minimum a scan of all senders gives (idle senders
// left out), over random watermarks, idle marks, data and ends.
func TestValveMatchesAScan(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		senders := []int{1 + rnd.IntN(5), 1 + rnd.IntN(5)}
		v := newValve(senders)
		type slot struct {
			wm   int64
			idle bool
		}
		var all []slot
		for _, n := range senders {
			for range n {
				all = append(all, slot{wm: MinWatermark})
			}
		}
		for step := range 300 {
			in := rnd.IntN(len(senders))
			k := rnd.IntN(senders[in])
			s := v.sender(in, k)
			switch op := rnd.IntN(10); {
			case op < 5:
				wm := int64(rnd.IntN(100))
				v.observe(s, wm)
				all[s].idle = false
				all[s].wm = max(all[s].wm, wm)
			case op < 7:
				v.markIdle(s)
				all[s].idle = true
			case op < 9:
				v.activate(s)
				all[s].idle = false
			default:
				v.observe(s, MaxWatermark)
				all[s] = slot{wm: MaxWatermark}
			}
			want, any := int64(math.MaxInt64), false
			for _, sl := range all {
				if !sl.idle {
					want, any = min(want, sl.wm), true
				}
			}
			got, active := v.merged()
			if active != any || any && got != want {
				t.Fatalf("round %d step %d: merged %d (active %v), a scan gives %d (active %v)", round, step, got, active, want, any)
			}
		}
	}
}

// TestStartRefusesParallelismAboveTheLimit: a graph asking for more
// instances of a stage than MaxInstances is refused before any starts.
func TestStartRefusesParallelismAboveTheLimit(t *testing.T) {
	g := &Graph{Stages: []*Stage{{Name: "Source", Parallelism: MaxInstances + 1,
		NewSource: func(int) (Source, error) { t.Fatal("an instance was created"); return nil, nil }}}}
	if _, err := Start(t.Context(), g); err == nil || !strings.Contains(err.Error(), "parallelism 1025 is not between 1 and 1024") {
		t.Errorf("error %v", err)
	}
}
