package sluice

import (
	"context"
	"strings"
	"testing"
)

// TestFlinkSettingNames: Flink's current names of the checkpoint
// directories, the retained checkpoints and the savepoint to restore, and
// the older names restart-strategy, state.backend, ... are the settings
// Sluice honours (CheckpointingOptions.CHECKPOINTS_DIRECTORY with
// withDeprecatedKeys("state.checkpoints.dir", ...), SAVEPOINT_DIRECTORY,
// MAX_RETAINED_CHECKPOINTS; StateRecoveryOptions.SAVEPOINT_PATH;
// RestartStrategyOptions.RESTART_STRATEGY with "restart-strategy"). The
// session's SET of any name wins over the engine's defaults by another;
// SET; lists a setting once, by the name it was set by.
func TestFlinkSettingNames(t *testing.T) {
	dir := t.TempDir()
	c := &Config{values: map[string]string{}, base: map[string]string{ConfCheckpointsDir: "/data/checkpoints", ConfSavepointsDir: "/data/savepoints"}}
	for _, kv := range [][2]string{
		{"execution.checkpointing.dir", dir},
		{"execution.checkpointing.savepoint-dir", "/elsewhere"},
		{"execution.checkpointing.num-retained", "3"},
		{"execution.checkpointing.interval", "1 min"},
		{"restart-strategy", "fixed-delay"},
		{"execution.state-recovery.ignore-unclaimed-state", "true"},
	} {
		if err := c.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("SET '%s' = '%s': %v", kv[0], kv[1], err)
		}
	}
	for key, want := range map[string]string{ConfCheckpointsDir: dir, ConfSavepointsDir: "/elsewhere", ConfCheckpointsRetained: "3",
		ConfRestartStrategy: "fixed-delay", ConfIgnoreUnclaimed: "true"} {
		if got := c.Get(key); got != want {
			t.Errorf("%s is %q, want %q", key, got, want)
		}
	}
	cfg, err := c.checkpointConfig(context.Background(), "job")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Storage == nil || cfg.Retained != 3 || !cfg.IgnoreUnclaimed {
		t.Errorf("checkpoints: storage %v, %d retained, ignore unclaimed %v; want storage, 3, true", cfg.Storage, cfg.Retained, cfg.IgnoreUnclaimed)
	}
	if s := c.restartStrategy(true); s.kind != "fixed-delay" || s.attempts != 1 {
		t.Errorf("restart strategy %s with %d attempts, want fixed-delay with Flink's 1", s.kind, s.attempts)
	}
	listed := map[string]string{}
	for _, kv := range c.All() {
		listed[kv[0]] = kv[1]
	}
	for key, want := range map[string]string{"execution.checkpointing.dir": dir, "execution.checkpointing.num-retained": "3", "restart-strategy": "fixed-delay"} {
		if listed[key] != want {
			t.Errorf("SET lists %s = %q, want %q", key, listed[key], want)
		}
	}
	for _, key := range []string{"state.checkpoints.dir", "state.savepoints.dir", "state.checkpoints.num-retained", "restart-strategy.type"} {
		if v, ok := listed[key]; ok {
			t.Errorf("SET lists %s = %q beside its other name", key, v)
		}
	}

	// SET of another name replaces the setting; RESET of any name resets it.
	if err := c.Set("state.checkpoints.num-retained", "5"); err != nil {
		t.Fatal(err)
	}
	if got := c.Get("execution.checkpointing.num-retained"); got != "5" {
		t.Errorf("after SET by the older name: %q, want 5", got)
	}
	c.Reset("execution.checkpointing.num-retained")
	if got := c.Get("state.checkpoints.num-retained"); got != "1" {
		t.Errorf("after RESET: %q, want Flink's default 1", got)
	}
	c.Reset("execution.checkpointing.dir")
	if got := c.Get("execution.checkpointing.dir"); got != "/data/checkpoints" {
		t.Errorf("after RESET: %q, want the engine's /data/checkpoints", got)
	}

	// An invalid value names the key as given.
	for _, tc := range [][3]string{
		{"execution.checkpointing.num-retained", "0", "invalid value '0' for 'execution.checkpointing.num-retained': expected a positive integer"},
		{"restart-strategy", "sometimes", "invalid value 'sometimes' for 'restart-strategy': expected none, fixed-delay, exponential-delay or failure-rate"},
		{"execution.checkpointing.unaligned", "true", "'execution.checkpointing.unaligned' = 'true' is not supported yet (barriers are aligned); only 'false' is"},
		{"execution.state-recovery.claim-mode", "CLAIM", "'execution.state-recovery.claim-mode' = 'CLAIM' is not supported (a restored savepoint or checkpoint is never deleted); only 'NO_CLAIM' is"},
		{"execution.checkpointing.dir", " ", "invalid value ' ' for 'execution.checkpointing.dir': expected a path or URL"},
	} {
		if err := NewConfig().Set(tc[0], tc[1]); err == nil || err.Error() != tc[2] {
			t.Errorf("SET '%s' = '%s': %v, want %q", tc[0], tc[1], err, tc[2])
		}
	}
}

// TestWithSettingsReadsFlinksNames: a statement's settings naming one
// setting twice take Flink's current name, as one Flink configuration
// holding both does.
func TestWithSettingsReadsFlinksNames(t *testing.T) {
	e := NewEngine()
	defer e.Close()
	s, err := e.Session.WithSettings(map[string]string{"state.checkpoints.num-retained": "2", "execution.checkpointing.num-retained": "4"})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.config.Get(ConfCheckpointsRetained); got != "4" {
		t.Errorf("retained %q, want the current name's 4", got)
	}
}

// TestCheckpointKeysHonouredOrRefused: every key of Flink's
// CheckpointingOptions and StateRecoveryOptions is honoured, refused by
// name, or accepted with a warning saying why it changes nothing.
func TestCheckpointKeysHonouredOrRefused(t *testing.T) {
	for _, tc := range []struct{ key, value, err, warning string }{
		{"execution.checkpointing.aligned-checkpoint-timeout", "30 s", "", "it tunes unaligned checkpoints, which Sluice refuses"},
		{"execution.checkpointing.alignment-timeout", "30 s", "", "it tunes unaligned checkpoints"},
		{"execution.checkpointing.aligned-checkpoint-timeout", "soon", "invalid value 'soon' for 'execution.checkpointing.aligned-checkpoint-timeout'", ""},
		{"execution.checkpointing.max-concurrent-checkpoints", "1", "", ""},
		{"execution.checkpointing.max-concurrent-checkpoints", "2", "is not supported yet (checkpoints are taken one at a time); only '1' is", ""},
		{"execution.checkpointing.externalized-checkpoint-retention", "DELETE_ON_CANCELLATION", "is not supported yet (checkpoints are kept when a job stops); only 'RETAIN_ON_CANCELLATION' is", ""},
		{"execution.checkpointing.unaligned.forced", "true", "'execution.checkpointing.unaligned.forced' = 'true' is not supported (barriers are aligned); only 'false' is", ""},
		{"execution.checkpointing.storage", "jobmanager", "is not supported (checkpoints are written to files under 'execution.checkpointing.dir'; 'jobmanager' would keep them in memory); only 'filesystem' is", ""},
		{"state.checkpoint-storage", "filesystem", "", ""},
		{"execution.checkpointing.checkpoints-after-tasks-finish.enabled", "false", "only 'true' is", ""},
		{"execution.checkpointing.create-subdir", "false", "checkpoints are written to a directory per job", ""},
		{"execution.checkpointing.file-merging.enabled", "true", "checkpoint files are not merged", ""},
		{"execution.checkpointing.file-merging.max-file-size", "64mb", "", "it tunes the merging of checkpoint files, which is off"},
		{"execution.checkpointing.file-merging.max-file-size", "big", "expected a memory size", ""},
		{"state.backend.local-recovery", "true", "no local copy of a checkpoint is kept", ""},
		{"execution.state-recovery.from-local", "false", "", ""},
		{"execution.checkpointing.interval-during-backlog", "10 min", "", "no Sluice source reports a backlog"},
		{"state.backend.async", "false", "", "every snapshot is asynchronous"},
		{"state.backend.rocksdb.block.cache-size", "64 mb", "", "Sluice's on-disk backend is Pebble"},
		{"state.backend.changelog.enabled", "true", "the changelog state backend is not implemented", ""},
		{"state.backend.changelog.periodic-materialize.interval", "10 min", "", "the changelog state backend, which is off"},
		{"execution.buffer-timeout", "10 ms", "is not supported: operators hand over chunks", ""},
	} {
		err := NewConfig().Set(tc.key, tc.value)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("SET '%s' = '%s': %v", tc.key, tc.value, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("SET '%s' = '%s': error %v, want one containing %q", tc.key, tc.value, err, tc.err)
		}
		if tc.err != "" {
			continue
		}
		w := SettingWarning(tc.key)
		if tc.warning == "" && w != "" || !strings.Contains(w, tc.warning) {
			t.Errorf("SET '%s': warning %q, want %q", tc.key, w, tc.warning)
		}
	}
}
