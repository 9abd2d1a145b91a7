package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"
)

// measure runs fn as the measurement called name over records input
// records: it starts from a collected heap, times fn, and records the CPU
// time the process used, its peak RSS and the bytes and objects allocated
// meanwhile. With a
// profile path, fn's CPU profile is written beside it (see profilePath).
func measure(name string, records int, profile string, fn func() (int64, error)) (Result, error) {
	res := Result{Name: name, Records: records}
	runtime.GC()
	debug.FreeOSMemory()
	resetPeakRSS()
	if profile != "" {
		f, err := os.Create(profilePath(profile, name))
		if err != nil {
			return res, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return res, err
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start, cpu := time.Now(), cpuTime()
	out, err := fn()
	res.Elapsed, res.CPU = time.Since(start), cpuTime()-cpu
	runtime.ReadMemStats(&after)
	if profile != "" {
		pprof.StopCPUProfile()
	}
	res.Output = out
	res.AllocBytes = after.TotalAlloc - before.TotalAlloc
	res.Allocs = after.Mallocs - before.Mallocs
	res.PeakRSS = peakRSS()
	return res, err
}

// profilePath inserts the measurement's name before the extension of the
// profile path: cpu.prof becomes cpu.group-agg.prof.
func profilePath(path, name string) string {
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "." + name + ext
}

// resetPeakRSS restarts the kernel's peak RSS count of the process (Linux;
// elsewhere the peak stays unknown).
func resetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// peakRSS returns the process's peak resident set size since the last
// reset in bytes, or 0 when the system does not tell.
func peakRSS() uint64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(status) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(string(rest)), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
