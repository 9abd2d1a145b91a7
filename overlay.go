package sluice

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// IsSupportedSetting reports whether Sluice knows a setting by any of
// Flink's names for it: one of the session settings, checkpointing,
// restart strategy, checkpoint storage (s3.*), a Flink setting Sluice
// supports some values of and refuses the others, or one it accepts
// although it changes nothing in Sluice. Other keys are kept by SET, as
// Flink keeps them, but do nothing (SettingWarning).
func IsSupportedSetting(key string) bool {
	key = settingID(key)
	if _, ok := noEffectSetting(key); ok {
		return true
	}
	if _, ok := defaults[key]; ok {
		return true
	}
	if _, ok := honoured[key]; ok {
		return true
	}
	if _, ok := refused[key]; ok {
		return true
	}
	if _, ok := unsupported[key]; ok {
		return true
	}
	if ok, _ := checkCheckpointSetting(key, ""); ok {
		return true
	}
	if ok, _ := checkRestartSetting(key, ""); ok {
		return true
	}
	if ok, _ := checkStateSetting(key, ""); ok {
		return true
	}
	return strings.HasPrefix(key, "s3.")
}

// WithSettings returns a session that runs statements as this one does,
// over the same catalog, job manager, temporary objects, current catalog
// and database, and in the same statement set, with settings on top of
// this one's: Flink's executionConfig of one statement. Every key must be
// one Sluice acts on (IsSupportedSetting), so that none is silently
// ignored; SET and RESET in the returned session do not change this one.
func (e *Session) WithSettings(settings map[string]string) (*Session, error) {
	c := &Config{values: maps.Clone(e.config.values), base: e.config.base}
	for _, k := range sortForSet(slices.Collect(maps.Keys(settings))) {
		if !IsSupportedSetting(k) {
			return nil, fmt.Errorf("'%s' is not a setting Sluice supports for one statement", k)
		}
		if err := c.Set(k, settings[k]); err != nil {
			return nil, err
		}
	}
	one := *e
	one.config = c
	return &one, nil
}
