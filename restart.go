package sluice

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Restart strategy settings, with Flink's names and defaults
// (https://nightlies.apache.org/flink/flink-docs-stable/docs/ops/state/task_failure_recovery/).
const (
	ConfRestartStrategy     = "restart-strategy.type"
	ConfFixedDelayAttempts  = "restart-strategy.fixed-delay.attempts"
	ConfFixedDelayDelay     = "restart-strategy.fixed-delay.delay"
	ConfExpInitialBackoff   = "restart-strategy.exponential-delay.initial-backoff"
	ConfExpMaxBackoff       = "restart-strategy.exponential-delay.max-backoff"
	ConfExpMultiplier       = "restart-strategy.exponential-delay.backoff-multiplier"
	ConfExpResetThreshold   = "restart-strategy.exponential-delay.reset-backoff-threshold"
	ConfExpJitter           = "restart-strategy.exponential-delay.jitter-factor"
	ConfExpAttemptsPerReset = "restart-strategy.exponential-delay.attempts-before-reset-backoff"
	ConfRateMaxFailures     = "restart-strategy.failure-rate.max-failures-per-interval"
	ConfRateInterval        = "restart-strategy.failure-rate.failure-rate-interval"
	ConfRateDelay           = "restart-strategy.failure-rate.delay"
)

// restartDefaults are Flink's defaults of the restart settings.
var restartDefaults = map[string]string{
	ConfFixedDelayAttempts:  "1",
	ConfFixedDelayDelay:     "1 s",
	ConfExpInitialBackoff:   "1 s",
	ConfExpMaxBackoff:       "1 min",
	ConfExpMultiplier:       "1.5",
	ConfExpResetThreshold:   "1 h",
	ConfExpJitter:           "0.1",
	ConfExpAttemptsPerReset: strconv.Itoa(math.MaxInt32),
	ConfRateMaxFailures:     "1",
	ConfRateInterval:        "1 min",
	ConfRateDelay:           "1 s",
}

// strategyName normalises restart-strategy.type as Flink reads it.
func strategyName(v string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "none", "off", "disable":
		return "none", nil
	case "fixed-delay", "fixeddelay":
		return "fixed-delay", nil
	case "exponential-delay", "exponentialdelay":
		return "exponential-delay", nil
	case "failure-rate", "failurerate":
		return "failure-rate", nil
	}
	return "", fmt.Errorf("invalid value '%s' for '%s': expected none, fixed-delay, exponential-delay or failure-rate", v, ConfRestartStrategy)
}

// checkRestartSetting validates one restart setting; ok is false for keys
// that are none of them.
func checkRestartSetting(key, value string) (ok bool, err error) {
	invalid := func(expected string) error {
		return fmt.Errorf("invalid value '%s' for '%s': expected %s", value, key, expected)
	}
	switch settingID(key) {
	case ConfRestartStrategy:
		if _, err := strategyName(value); err != nil {
			return true, invalid("none, fixed-delay, exponential-delay or failure-rate")
		}
	case ConfFixedDelayAttempts, ConfExpAttemptsPerReset:
		if n, err := strconv.Atoi(value); err != nil || n < 0 || n > math.MaxInt32 {
			return true, invalid("a non-negative integer")
		}
	case ConfRateMaxFailures:
		if n, err := strconv.Atoi(value); err != nil || n < 1 || n > math.MaxInt32 {
			return true, invalid("a positive integer")
		}
	case ConfRateInterval:
		if d, err := ParseDuration(value); err != nil || d <= 0 {
			return true, invalid("a positive duration")
		}
	case ConfFixedDelayDelay, ConfExpInitialBackoff, ConfExpMaxBackoff, ConfExpResetThreshold, ConfRateDelay:
		if _, err := ParseDuration(value); err != nil {
			return true, fmt.Errorf("invalid value '%s' for '%s': %v", value, key, err)
		}
	case ConfExpMultiplier:
		if f, err := strconv.ParseFloat(value, 64); err != nil || f < 1 || math.IsInf(f, 0) {
			return true, invalid("a number of at least 1")
		}
	case ConfExpJitter:
		if f, err := strconv.ParseFloat(value, 64); err != nil || f < 0 || f > 1 {
			return true, invalid("a number from 0 to 1")
		}
	default:
		return false, nil
	}
	return true, nil
}

// restartStrategy decides whether and when a failed job starts again.
type restartStrategy struct {
	kind     string
	attempts int // fixed-delay: restarts allowed; exponential: per reset
	delay    time.Duration
	// Exponential delay: the backoff grows by multiplier from initial to
	// max, with jitter; it starts over after resetAfter without failure.
	initial, max, resetAfter time.Duration
	multiplier, jitter       float64

	// Failure rate: more than attempts failures within interval fail the
	// job.
	interval time.Duration

	// Progress.
	used        int
	backoff     time.Duration
	lastFailure time.Time
	// failures are the times of the latest failures, at most attempts+1
	// (failure rate).
	failures []time.Time
}

// restartStrategy returns the session's restart strategy. Without
// restart-strategy.type it is Flink's default: exponential delay for a
// job that takes checkpoints, none otherwise.
func (c *Config) restartStrategy(checkpointing bool) restartStrategy {
	kind := "none"
	if checkpointing {
		kind = "exponential-delay"
	}
	if v := c.Get(ConfRestartStrategy); v != "" {
		kind, _ = strategyName(v)
	}
	dur := func(key string) time.Duration {
		d, _ := ParseDuration(c.Get(key))
		return d
	}
	num := func(key string) float64 {
		f, _ := strconv.ParseFloat(c.Get(key), 64)
		return f
	}
	s := restartStrategy{kind: kind}
	switch kind {
	case "fixed-delay":
		s.attempts, _ = strconv.Atoi(c.Get(ConfFixedDelayAttempts))
		s.delay = dur(ConfFixedDelayDelay)
	case "exponential-delay":
		s.attempts, _ = strconv.Atoi(c.Get(ConfExpAttemptsPerReset))
		s.initial, s.max, s.resetAfter = dur(ConfExpInitialBackoff), dur(ConfExpMaxBackoff), dur(ConfExpResetThreshold)
		s.multiplier, s.jitter = num(ConfExpMultiplier), num(ConfExpJitter)
	case "failure-rate":
		s.attempts, _ = strconv.Atoi(c.Get(ConfRateMaxFailures))
		s.interval, s.delay = dur(ConfRateInterval), dur(ConfRateDelay)
	}
	return s
}

// next records a failure at now and returns how long to wait before the
// restart, or false when the job must fail for good.
func (s *restartStrategy) next(now time.Time) (time.Duration, bool) {
	switch s.kind {
	case "fixed-delay":
		if s.used >= s.attempts {
			return 0, false
		}
		s.used++
		return s.delay, true
	case "exponential-delay":
		if !s.lastFailure.IsZero() && now.Sub(s.lastFailure) >= s.resetAfter {
			s.used, s.backoff = 0, 0
		}
		s.lastFailure = now
		if s.used >= s.attempts {
			return 0, false
		}
		s.used++
		if s.backoff == 0 {
			s.backoff = s.initial
		} else {
			s.backoff = min(s.max, time.Duration(float64(s.backoff)*s.multiplier))
		}
		d := s.backoff
		if s.jitter > 0 {
			d += time.Duration((rand.Float64()*2 - 1) * s.jitter * float64(d))
		}
		return max(d, 0), true
	case "failure-rate":
		// As Flink's FailureRateRestartBackoffTimeStrategy: the job
		// fails once more than attempts failures fall within interval,
		// measured from the oldest of the latest attempts+1.
		if len(s.failures) > s.attempts {
			s.failures = s.failures[1:]
		}
		s.failures = append(s.failures, now)
		if len(s.failures) > s.attempts && now.Sub(s.failures[0]) <= s.interval {
			return 0, false
		}
		return s.delay, true
	}
	return 0, false
}
