package sqltest

import "testing"

// TestScriptsOnPebble runs every script test and seed case at parallelism
// 1 and 4 with every stateful operator keeping its state in the on-disk
// backend ('state.backend.type' = 'rocksdb'): the results must be those
// of the memory backend's runs.
func TestScriptsOnPebble(t *testing.T) {
	forEveryCase(t, func(p int) Options { return Options{Parallelism: p, StateBackend: "rocksdb"} })
}

// TestScriptsWithRestartsOnPebble is TestScriptsWithRestarts with the
// on-disk backend: its savepoints restore at another parallelism, by key
// group, with the same results.
func TestScriptsWithRestartsOnPebble(t *testing.T) {
	forEveryCase(t, func(p int) Options { return Options{Parallelism: p, RestartJobs: true, StateBackend: "rocksdb"} })
}
