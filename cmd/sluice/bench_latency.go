package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/sluicesql/sluice/internal/bench"
)

// runBenchLatency measures the end-to-end latency of a filter job from
// Kafka to Kafka (see bench.RunLatency).
func runBenchLatency(args []string) error {
	fs := flag.NewFlagSet("bench latency", flag.ExitOnError)
	records := fs.Int("records", 50_000, "records produced and measured in each round, after the warm-up")
	rate := fs.Int("rate", 10_000, "records produced per second")
	parallelism := fs.Int("parallelism", 1, "parallelism.default, and the partition count of the topics")
	rounds := fs.Int("rounds", 3, "run the measurement this many times, each on a fresh job and topics")
	source := fs.String("source-options", "", "options added to the source table's WITH clause (comma-separated key=value)")
	sink := fs.String("sink-options", "", "options added to the sink table's WITH clause (comma-separated key=value, e.g. properties.linger.ms=10)")
	_ = fs.Parse(args)
	if fs.NArg() > 0 {
		return fmt.Errorf("bench latency: unexpected arguments %v", fs.Args())
	}
	srcOpts, err := optionPairs("-source-options", *source)
	if err != nil {
		return err
	}
	sinkOpts, err := optionPairs("-sink-options", *sink)
	if err != nil {
		return err
	}
	rep, err := bench.RunLatency(context.Background(), bench.LatencyConfig{
		Records: *records, Rate: *rate, Parallelism: *parallelism, Rounds: *rounds,
		SourceOptions: srcOpts, SinkOptions: sinkOpts, Log: os.Stderr,
	})
	if err != nil {
		return err
	}
	return rep.Print(os.Stdout)
}

// optionPairs reads comma-separated key=value pairs into a list of keys and
// values.
func optionPairs(flag, s string) ([]string, error) {
	var out []string
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for kv := range strings.SplitSeq(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("bench latency: %s: %q is not key=value", flag, kv)
		}
		out = append(out, strings.TrimSpace(k), strings.TrimSpace(v))
	}
	return out, nil
}
