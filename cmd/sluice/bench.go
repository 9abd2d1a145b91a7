package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/bench"
)

// runBench measures the throughput of SQL pipelines on an embedded cluster
// against a plain Kafka consumer (see package bench).
func runBench(args []string) error {
	if len(args) > 0 && args[0] == "nexmark" {
		return runBenchNexmark(args[1:])
	}
	if len(args) > 0 && args[0] == "latency" {
		return runBenchLatency(args[1:])
	}
	fs := flag.NewFlagSet("bench", flag.ExitOnError)
	records := fs.Int("records", 10_000_000, "number of records to load and read")
	parallelism := fs.Int("parallelism", 1, "parallelism.default, and the partition count of the source topic")
	format := fs.String("format", "avro-confluent", "value format of the source table: avro-confluent or json")
	rounds := fs.Int("rounds", 3, "run every measurement this many times, in turn, and report the fastest")
	pipelines := fs.String("pipelines", "", "measure these pipelines (comma-separated: scan-count, filter-project, group-agg, group-agg-wide, tumble-window; default: all but group-agg-wide)")
	intervals := fs.String("checkpoint-intervals", "10s,1s,100ms",
		"also measure the INSERT pipelines taking checkpoints at each of these intervals (comma-separated; none: no checkpoints)")
	checkpointDir := fs.String("checkpoint-dir", "", "make the temporary checkpoint directory here (default: the system's temporary directory)")
	backend := fs.String("state-backend", "hashmap", "state.backend.type of every pipeline: hashmap (memory) or rocksdb (on disk, in Pebble)")
	incremental := fs.Bool("incremental", false, "take incremental checkpoints (execution.checkpointing.incremental; needs -state-backend rocksdb)")
	profile := fs.String("cpuprofile", "", "write each measurement's CPU profile to this path, the measurement's name inserted before the extension")
	_ = fs.Parse(args)
	if fs.NArg() > 0 {
		return fmt.Errorf("bench: unexpected arguments %v", fs.Args())
	}
	var names []string
	if *pipelines != "" {
		for n := range strings.SplitSeq(*pipelines, ",") {
			names = append(names, strings.TrimSpace(n))
		}
	}
	ivs, err := parseIntervals(*intervals)
	if err != nil {
		return err
	}
	rep, err := bench.Run(context.Background(), bench.Config{
		Records: *records, Parallelism: *parallelism, Format: *format, Rounds: *rounds, Pipelines: names,
		CheckpointIntervals: ivs, CheckpointDir: *checkpointDir, CPUProfile: *profile, Log: os.Stderr,
		StateBackend: *backend, Incremental: *incremental,
	})
	if err != nil {
		return err
	}
	return rep.Print(os.Stdout)
}

// parseIntervals reads -checkpoint-intervals: durations as Flink writes
// them ("10s", "100 ms"), separated by commas, or "none".
func parseIntervals(s string) ([]time.Duration, error) {
	if strings.TrimSpace(s) == "none" {
		return nil, nil
	}
	var out []time.Duration
	for f := range strings.SplitSeq(s, ",") {
		d, err := sluice.ParseDuration(f)
		if err != nil {
			return nil, fmt.Errorf("bench: -checkpoint-intervals: %q: %v", f, err)
		}
		out = append(out, d)
	}
	return out, nil
}
