package sluice

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sluicesql/sluice/internal/job"
)

// State backend settings, with Flink's names: state.backend.type (and its
// older name state.backend) and execution.checkpointing.incremental (and
// its older name state.backend.incremental).
const (
	ConfStateBackend       = "state.backend.type"
	ConfStateBackendOld    = "state.backend"
	ConfIncremental        = "execution.checkpointing.incremental"
	ConfIncrementalOld     = "state.backend.incremental"
	stateBackendPebbleName = "pebble"
	// ConfPebbleCacheEntries is Sluice's own: how many values the on-disk
	// backend keeps decoded, per operator instance, before writing them
	// back (state.DefaultCacheEntries by default).
	ConfPebbleCacheEntries = "state.backend.pebble.cache-entries"
)

// checkStateSetting validates one state backend setting; ok is false for
// keys that are none of them.
func checkStateSetting(key, value string) (ok bool, err error) {
	switch settingID(key) {
	case ConfStateBackend, ConfStateBackendOld:
		if _, err := stateBackend(value); err != nil {
			return true, fmt.Errorf("invalid value '%s' for '%s': %v", value, key, err)
		}
	case ConfIncremental, ConfIncrementalOld:
		if _, err := parseBool(value); err != nil {
			return true, fmt.Errorf("invalid value '%s' for '%s': expected true or false", value, key)
		}
	case ConfPebbleCacheEntries:
		if n, err := strconv.Atoi(value); err != nil || n < 1 {
			return true, fmt.Errorf("invalid value '%s' for '%s': expected a positive integer", value, key)
		}
	default:
		return false, nil
	}
	return true, nil
}

// stateBackend reads a state backend's name, ignoring case as Flink does:
// 'hashmap', or 'rocksdb' (Flink's name for its on-disk backend, which
// Sluice builds on Pebble, an LSM store of RocksDB's design; 'pebble' is
// the same).
func stateBackend(v string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case job.StateHashmap:
		return job.StateHashmap, nil
	case job.StateRocksDB, stateBackendPebbleName:
		return job.StateRocksDB, nil
	case "forst":
		return "", fmt.Errorf("the ForSt state backend (disaggregated state) is not supported; expected 'hashmap' or 'rocksdb'")
	}
	return "", fmt.Errorf("expected 'hashmap' or 'rocksdb' (on disk, in Pebble)")
}

// parseBool reads true or false, ignoring case.
func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, strconv.ErrSyntax
}

// stateBackend returns the state backend jobs use: state.backend.type
// (or its older name state.backend), hashmap by default as in Flink.
func (c *Config) stateBackend() string {
	b, _ := stateBackend(c.Get(ConfStateBackend))
	return b
}

// pebbleCacheEntries returns state.backend.pebble.cache-entries, 0 when
// unset.
func (c *Config) pebbleCacheEntries() int {
	n, _ := strconv.Atoi(c.Get(ConfPebbleCacheEntries))
	return n
}

// incremental reports whether checkpoints are incremental:
// execution.checkpointing.incremental (or its older name
// state.backend.incremental), false by default as in Flink. Flink ignores
// the setting for a backend that cannot take incremental checkpoints;
// Sluice refuses it there.
func (c *Config) incremental() (bool, error) {
	key, v, ok := c.lookup(ConfIncremental)
	if !ok {
		return false, nil
	}
	on, _ := parseBool(v)
	if on && c.stateBackend() != job.StateRocksDB {
		return false, fmt.Errorf("'%s' = '%s' needs the on-disk state backend ('%s' = '%s'): the '%s' backend takes whole checkpoints",
			key, v, ConfStateBackend, job.StateRocksDB, c.stateBackend())
	}
	return on, nil
}
