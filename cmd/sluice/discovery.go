package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/sluicesql/sluice/internal/devcluster"
)

// A running sluice process with an embedded cluster announces it in a
// file of the user's (discoveryDir), so that 'sluice topic' finds the
// broker and registry by itself, whatever ports they got.

// announcement is the content of a discovery file.
type announcement struct {
	PID              int    `json:"pid"`
	BootstrapServers string `json:"bootstrap_servers"`
	RegistryURL      string `json:"registry_url"`
}

// discoveryDir is where running processes announce their clusters:
// $XDG_RUNTIME_DIR/sluice, else the user's cache directory's sluice/run.
func discoveryDir() (string, error) {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "sluice"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "sluice", "run"), nil
}

// announceCluster announces c as this process's embedded cluster and
// returns the function that withdraws it. An announcement that cannot be
// written only costs 'sluice topic' its discovery: it is reported, not
// fatal.
func announceCluster(c *devcluster.Cluster) func() {
	dir, err := discoveryDir()
	if err == nil {
		err = os.MkdirAll(dir, 0o700)
	}
	path := filepath.Join(dir, fmt.Sprintf("embedded-%d.json", os.Getpid()))
	if err == nil {
		var b []byte
		b, err = json.Marshal(announcement{PID: os.Getpid(), BootstrapServers: c.BootstrapServers(), RegistryURL: c.RegistryURL()})
		if err == nil {
			err = os.WriteFile(path, b, 0o600)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "sluice: cannot announce the embedded cluster for 'sluice topic': %v\n", err)
		return func() {}
	}
	return func() { _ = os.Remove(path) }
}

// findCluster returns the embedded cluster announced most recently by a
// sluice process that is still running; ok is false when there is none.
// Announcements of processes that have ended (killed before withdrawing
// them) are removed.
func findCluster() (a announcement, ok bool) {
	dir, err := discoveryDir()
	if err != nil {
		return a, false
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return a, false
	}
	var newest time.Time
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "embedded-") || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(path)
		info, serr := e.Info()
		var cur announcement
		if err != nil || serr != nil || json.Unmarshal(b, &cur) != nil || cur.PID <= 0 {
			continue
		}
		if err := syscall.Kill(cur.PID, 0); errors.Is(err, syscall.ESRCH) {
			_ = os.Remove(path)
			continue
		}
		if info.ModTime().After(newest) {
			newest, a, ok = info.ModTime(), cur, true
		}
	}
	return a, ok
}
