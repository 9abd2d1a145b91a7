package sluice

import (
	"cmp"
	"slices"
)

// flinkNames lists the settings Flink reads by more than one name
// (ConfigOption.withDeprecatedKeys in CheckpointingOptions,
// StateRecoveryOptions, StateBackendOptions, RestartStrategyOptions,
// ExecutionOptions and TableConfigOptions), keyed by the name Sluice's
// code uses, each with its names in the order Flink reads them: its
// current name first, then its older ones. All names of a setting are one
// setting: SET of any of them replaces the others the session set, RESET
// of any resets it, and SET; lists it under the name it was set by (its
// default under Flink's current name).
var flinkNames = map[string][]string{
	ConfCheckpointsDir:      {"execution.checkpointing.dir", ConfCheckpointsDir, "state.backend.fs.checkpointdir"},
	ConfSavepointsDir:       {"execution.checkpointing.savepoint-dir", ConfSavepointsDir, "savepoints.state.backend.fs.dir"},
	ConfCheckpointsRetained: {"execution.checkpointing.num-retained", ConfCheckpointsRetained},
	ConfSavepointPath:       {"execution.state-recovery.path", ConfSavepointPath},
	ConfIgnoreUnclaimed:     {"execution.state-recovery.ignore-unclaimed-state", ConfIgnoreUnclaimed},
	ConfRestartStrategy:     {ConfRestartStrategy, "restart-strategy"},
	ConfStateBackend:        {ConfStateBackend, ConfStateBackendOld},
	ConfIncremental:         {ConfIncremental, ConfIncrementalOld},
	ConfMaxColumnWidth:      {ConfMaxColumnWidth, ConfClientMaxColumnWidth},
	ConfOperatorChaining:    {ConfOperatorChaining, "pipeline.operator-chaining"},

	"execution.savepoint-restore-mode":                       {"execution.state-recovery.claim-mode", "execution.savepoint-restore-mode"},
	"execution.checkpointing.unaligned.enabled":              {"execution.checkpointing.unaligned.enabled", "execution.checkpointing.unaligned"},
	"execution.checkpointing.aligned-checkpoint-timeout":     {"execution.checkpointing.aligned-checkpoint-timeout", "execution.checkpointing.alignment-timeout"},
	"execution.checkpointing.checkpoints-after-tasks-finish": {"execution.checkpointing.checkpoints-after-tasks-finish", "execution.checkpointing.checkpoints-after-tasks-finish.enabled"},
	"execution.checkpointing.storage":                        {"execution.checkpointing.storage", "state.checkpoint-storage"},
	"execution.checkpointing.create-subdir":                  {"execution.checkpointing.create-subdir", "state.checkpoints.create-subdir"},
	"execution.checkpointing.data-inline-threshold":          {"execution.checkpointing.data-inline-threshold", "state.storage.fs.memory-threshold", "state.backend.fs.memory-threshold"},
	"execution.checkpointing.write-buffer-size":              {"execution.checkpointing.write-buffer-size", "state.storage.fs.write-buffer-size", "state.backend.fs.write-buffer-size"},
	"execution.checkpointing.cleaner.parallel-mode":          {"execution.checkpointing.cleaner.parallel-mode", "state.checkpoint.cleaner.parallel-mode"},
	"execution.checkpointing.local-backup.dirs":              {"execution.checkpointing.local-backup.dirs", "taskmanager.state.local.root-dirs"},
	"execution.state-recovery.from-local":                    {"execution.state-recovery.from-local", "state.backend.local-recovery"},
	"execution.state-recovery.approximate-local-recovery":    {"execution.state-recovery.approximate-local-recovery", "execution.checkpointing.approximate-local-recovery"},
	"execution.state-recovery.without-channel-state.checkpoint-id": {"execution.state-recovery.without-channel-state.checkpoint-id",
		"execution.checkpointing.recover-without-channel-state.checkpoint-id"},
	"execution.buffer-timeout.interval": {"execution.buffer-timeout.interval", "execution.buffer-timeout"},
}

// settingIDs maps every name of flinkNames to the name Sluice's code uses.
var settingIDs = func() map[string]string {
	m := map[string]string{}
	for id, names := range flinkNames {
		for _, n := range names {
			m[n] = id
		}
	}
	return m
}()

// settingID returns the name Sluice's code uses for the setting key names.
func settingID(key string) string {
	if id, ok := settingIDs[key]; ok {
		return id
	}
	return key
}

// settingNames returns the names of the setting key names, in the order
// Flink reads them.
func settingNames(key string) []string {
	if names, ok := flinkNames[settingID(key)]; ok {
		return names
	}
	return []string{key}
}

// nameRank is the place of key among its setting's names (0: Flink's
// current name).
func nameRank(key string) int {
	return max(slices.Index(settingNames(key), key), 0)
}

// sortForSet orders keys so that setting them one after the other leaves
// what Flink reads when they are all in one configuration: a setting's
// older names before its newer ones, which take precedence.
func sortForSet(keys []string) []string {
	keys = slices.Sorted(slices.Values(keys))
	slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(nameRank(b), nameRank(a)) })
	return keys
}
