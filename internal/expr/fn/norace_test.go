//go:build !race

package fn

// raceEnabled says the race detector runs, under which allocation counts
// grow with its own bookkeeping.
const raceEnabled = false
