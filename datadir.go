package sluice

import (
	"fmt"
	"os"
)

// PrepareDataDir makes dir, a data directory, readable by its owner only:
// created with mode 0700, or narrowed to it if it exists wider. The
// catalog, the job store, checkpoints and savepoints kept there hold
// table options (passwords among them) and the jobs' data; files Sluice
// writes there are 0600 and its directories 0700.
func PrepareDataDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	if !info.IsDir() {
		return fmt.Errorf("data directory %s is not a directory", dir)
	}
	if info.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("data directory %s: making it readable by its owner only: %w", dir, err)
		}
	}
	return nil
}
