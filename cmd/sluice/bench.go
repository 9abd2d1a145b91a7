package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/sluicesql/sluice/internal/bench"
)

// runBench measures the throughput of SQL pipelines on an embedded cluster
// against a plain Kafka consumer (see package bench).
func runBench(args []string) error {
	fs := flag.NewFlagSet("bench", flag.ExitOnError)
	records := fs.Int("records", 1_000_000, "number of records to load and read")
	parallelism := fs.Int("parallelism", 1, "parallelism.default, and the partition count of the source topic")
	format := fs.String("format", "avro-confluent", "value format of the source table: avro-confluent or json")
	rounds := fs.Int("rounds", 3, "run every measurement this many times, in turn, and report the fastest")
	profile := fs.String("cpuprofile", "", "write each measurement's CPU profile to this path, the measurement's name inserted before the extension")
	_ = fs.Parse(args)
	if fs.NArg() > 0 {
		return fmt.Errorf("bench: unexpected arguments %v", fs.Args())
	}
	rep, err := bench.Run(context.Background(), bench.Config{
		Records: *records, Parallelism: *parallelism, Format: *format, Rounds: *rounds, CPUProfile: *profile, Log: os.Stderr,
	})
	if err != nil {
		return err
	}
	return rep.Print(os.Stdout)
}
