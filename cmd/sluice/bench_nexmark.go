package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/sluicesql/sluice/internal/bench"
)

// runBenchNexmark runs the Nexmark queries on the nexmark generator into
// blackhole (see bench.RunNexmark).
func runBenchNexmark(args []string) error {
	fs := flag.NewFlagSet("bench nexmark", flag.ExitOnError)
	events := fs.Int64("events", 2_000_000, "events.num: the number of events of the stream")
	rate := fs.Int64("rate", 10_000_000, "first-event.rate: events per second of event time (Flink's Nexmark suite: 10,000,000)")
	parallelism := fs.Int("parallelism", 1, "parallelism.default (the hand-written programs run at 1 only)")
	rounds := fs.Int("rounds", 1, "run every measurement this many times, in turn, and report the medians")
	queries := fs.String("queries", "", "run these queries (comma-separated: q0,...,q22, q1-decimal18, x-group-agg, x-tumble, x-interval-join; default: all)")
	kafka := fs.Bool("kafka", true, "also run queries over the bids read from the embedded Kafka broker as JSON and Avro: q0 to q2, or those of -queries that read only bids")
	partitions := fs.Int("partitions", 0, "the Kafka topics' partitions (default: the parallelism, at least 2)")
	profile := fs.String("cpuprofile", "", "write each measurement's CPU profile to this path, the measurement's name inserted before the extension")
	var settings settingFlags
	fs.Var(&settings, "set", "SET key=value on every query's engine before it runs, such as table.exec.mini-batch.enabled=true (repeatable)")
	_ = fs.Parse(args)
	if fs.NArg() > 0 {
		return fmt.Errorf("bench nexmark: unexpected arguments %v", fs.Args())
	}
	var names []string
	if *queries != "" {
		for n := range strings.SplitSeq(*queries, ",") {
			names = append(names, strings.TrimSpace(n))
		}
	}
	rep, err := bench.RunNexmark(context.Background(), bench.NexmarkConfig{
		Events: *events, Rate: *rate, Parallelism: *parallelism, Rounds: *rounds, Queries: names,
		Kafka: *kafka, Partitions: *partitions, CPUProfile: *profile, Settings: settings, Log: os.Stderr,
	})
	if err != nil {
		return err
	}
	return rep.Print(os.Stdout)
}

// settingFlags collects repeated -set key=value flags, in order.
type settingFlags [][2]string

func (s *settingFlags) String() string {
	parts := make([]string, len(*s))
	for i, kv := range *s {
		parts[i] = kv[0] + "=" + kv[1]
	}
	return strings.Join(parts, ",")
}

func (s *settingFlags) Set(v string) error {
	key, value, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(key) == "" {
		return fmt.Errorf("expected key=value, got %q", v)
	}
	*s = append(*s, [2]string{strings.TrimSpace(key), strings.TrimSpace(value)})
	return nil
}
