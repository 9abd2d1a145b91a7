package sqltest

import "testing"

// TestScriptsOnPebble runs every script test and seed case at parallelism
// 1 and 4 with every stateful operator keeping its state in the on-disk
// backend ('state.backend.type' = 'rocksdb'), which writes back every
// value it handed out after each message (a cache of one entry), so that
// a value an operator changed in place and did not put back would be
// lost: the results must be those of the memory backend's runs.
func TestScriptsOnPebble(t *testing.T) {
	forEveryCase(t, func(p int) Options { return Options{Parallelism: p, StateBackend: "rocksdb", StateCacheEntries: 1} })
}

// TestScriptsWithRestartsOnPebble is TestScriptsWithRestarts with the
// on-disk backend: its savepoints restore at another parallelism, by key
// group, with the same results.
func TestScriptsWithRestartsOnPebble(t *testing.T) {
	forEveryCase(t, func(p int) Options { return Options{Parallelism: p, RestartJobs: true, StateBackend: "rocksdb"} })
}

// TestScriptsWithIncrementalRestartsOnPebble is TestScriptsWithRestarts
// from incremental checkpoints: each restart reads the shared files back,
// adopting them at the same key groups or copying the key groups each
// instance now owns out of the old instances' databases.
func TestScriptsWithIncrementalRestartsOnPebble(t *testing.T) {
	forEveryCase(t, func(p int) Options {
		return Options{Parallelism: p, RestartJobs: true, StateBackend: "rocksdb", FromCheckpoints: true}
	})
}
