// Package bench measures Sluice's throughput end to end: it loads a table of
// movie ticket sales into an embedded Kafka cluster, reads it once with a
// plain franz-go consumer as the baseline, then runs SQL pipelines over it
// through the Engine and reports each one's throughput as a ratio to the
// baseline measured in the same run, with its memory use.
//
// The source table is bounded ('scan.bounded.mode' = 'latest-offset'), so
// every pipeline ends by itself once it has read the loaded records; each
// one's result is checked against what the data set must give.
package bench

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/internal/types"
)

// Value formats of the source table.
const (
	formatAvro = "avro-confluent"
	formatJSON = "json"
)

// Config says what to measure.
type Config struct {
	// Records is the number of records loaded and read by each measurement.
	Records int
	// Parallelism is parallelism.default and the source topic's partition
	// count.
	Parallelism int
	// Format is the value format: "avro-confluent" or "json".
	Format string
	// Rounds is how often every measurement runs, in turn; the fastest
	// round of each is reported.
	Rounds int
	// CPUProfile, when set, is where CPU profiles go: one per measurement,
	// named by inserting the measurement's name before the extension.
	CPUProfile string
	// Log receives progress messages; nil discards them.
	Log io.Writer
}

// Result is one measurement.
type Result struct {
	Name string
	// Records is the number of input records.
	Records int
	// Output is the number of rows the measurement produced.
	Output  int64
	Elapsed time.Duration
	// CPU is the CPU time the whole process used (the embedded broker's
	// included), user and system; 0 when unknown.
	CPU time.Duration
	// PeakRSS is the process's peak resident set in bytes (the embedded
	// broker holding the topics included); 0 when unknown.
	PeakRSS uint64
	// AllocBytes and Allocs are the heap bytes and objects allocated.
	AllocBytes, Allocs uint64
}

// Throughput returns input records per second.
func (r Result) Throughput() float64 { return float64(r.Records) / r.Elapsed.Seconds() }

// Report is the outcome of a run.
type Report struct {
	Config Config
	// Baseline is the plain consumer reading every record without decoding.
	Baseline Result
	// Pipelines are the SQL pipelines, in the order they ran.
	Pipelines []Result
}

// Run loads cfg.Records records into a fresh embedded cluster and measures
// the baseline consumer, then each pipeline.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Records < 1 || cfg.Parallelism < 1 || cfg.Rounds < 1 {
		return nil, fmt.Errorf("bench: records, parallelism and rounds must be positive")
	}
	if cfg.Format != formatAvro && cfg.Format != formatJSON {
		return nil, fmt.Errorf("bench: unknown format %q (want %s or %s)", cfg.Format, formatAvro, formatJSON)
	}
	logf := func(f string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, f+"\n", args...)
		}
	}
	cluster, err := devcluster.Start(devcluster.Options{Partitions: cfg.Parallelism})
	if err != nil {
		return nil, err
	}
	defer cluster.Close()
	e := &env{brokers: cluster.BootstrapServers(), registry: cluster.RegistryURL(), format: cfg.Format, parallelism: cfg.Parallelism}

	logf("loading %d records into %s (%d partitions, %s values)", cfg.Records, sourceTopic, cfg.Parallelism, cfg.Format)
	if err := e.load(ctx, cfg.Records); err != nil {
		return nil, err
	}
	e.want = expect(cfg.Records)

	rep := &Report{Config: cfg}
	pipelines := e.pipelines()
	rep.Pipelines = make([]Result, len(pipelines))
	for round := range cfg.Rounds {
		// Only the first round is profiled: a profile file per measurement.
		profile := cfg.CPUProfile
		if round > 0 {
			profile = ""
		}
		logf("round %d of %d: baseline consumer", round+1, cfg.Rounds)
		res, err := measure("consumer", cfg.Records, profile, func() (int64, error) {
			var n int64
			err := readTopic(ctx, e.brokers, sourceTopic, func(*kgo.Record) error { n++; return nil })
			return n, err
		})
		if err == nil && res.Output != int64(cfg.Records) {
			err = fmt.Errorf("read %d records, want %d", res.Output, cfg.Records)
		}
		if err != nil {
			return nil, fmt.Errorf("bench: baseline consumer: %w", err)
		}
		rep.Baseline = faster(rep.Baseline, res)
		for i, p := range pipelines {
			logf("round %d of %d: %s", round+1, cfg.Rounds, p.name)
			res, err := e.run(ctx, p, profile)
			if err != nil {
				return nil, fmt.Errorf("bench: %s: %w", p.name, err)
			}
			rep.Pipelines[i] = faster(rep.Pipelines[i], res)
		}
	}
	return rep, nil
}

// faster returns the faster of two measurements; a zero one does not count.
func faster(a, b Result) Result {
	if a.Elapsed == 0 || b.Elapsed < a.Elapsed {
		return b
	}
	return a
}

// load produces the data set.
func (e *env) load(ctx context.Context, n int) error {
	codec, err := e.codec(sourceTopic, valueSchema)
	if err != nil {
		return err
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(e.brokers), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		return err
	}
	defer cl.Close()
	return load(ctx, cl, codec, n, e.parallelism)
}

// run measures one pipeline on a fresh engine and checks its result.
func (e *env) run(ctx context.Context, p pipeline, profile string) (Result, error) {
	eng := sluice.NewEngine()
	defer eng.Close()
	if err := eng.Config().Set(sluice.ConfParallelism, strconv.Itoa(e.parallelism)); err != nil {
		return Result{}, err
	}
	if _, err := eng.Execute(ctx, e.sourceDDL(p.watermark)+p.ddl); err != nil {
		return Result{}, err
	}
	var last types.Row
	res, err := measure(p.name, int(e.want.n), profile, func() (int64, error) {
		var err error
		last, err = execute(ctx, eng, p.stmt)
		return 0, err
	})
	if err != nil {
		return res, err
	}
	if res.Output, err = p.check(ctx, last); err != nil || p.topic == "" {
		return res, err
	}
	// The next round writes to a fresh topic, and the broker lets go of
	// this one's records.
	return res, e.deleteTopic(ctx, p.topic)
}

func (e *env) deleteTopic(ctx context.Context, topic string) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(e.brokers))
	if err != nil {
		return err
	}
	defer cl.Close()
	resp, err := kadm.NewClient(cl).DeleteTopic(ctx, topic)
	if err == nil {
		err = resp.Err
	}
	return err
}

// execute runs a bounded statement to its end: a query's changes are read
// until it ends and the last changed row is returned; an INSERT's job is
// awaited.
func execute(ctx context.Context, eng *sluice.Engine, stmt string) (types.Row, error) {
	rs, err := eng.Execute(ctx, stmt)
	if err != nil {
		return nil, err
	}
	switch r := rs[0]; r.Kind {
	case sluice.ResultStream:
		defer r.Stream.Close()
		var last types.Row
		for {
			changes, ok, err := r.Stream.Next(ctx)
			if err != nil || !ok {
				return last, err
			}
			last = changes[len(changes)-1].Row
		}
	case sluice.ResultJob:
		return nil, awaitJob(ctx, eng, r.JobID)
	}
	return nil, fmt.Errorf("statement %q is neither a query nor an INSERT", stmt)
}

// awaitJob waits until the job with the given id has finished.
func awaitJob(ctx context.Context, eng *sluice.Engine, id string) error {
	var job *sluice.Job
	for _, j := range eng.Jobs() {
		if j.ID == id {
			job = j
		}
	}
	if job == nil {
		return fmt.Errorf("job %s not found", id)
	}
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		switch st := job.Status(); st {
		case "RUNNING":
		case "FINISHED":
			return nil
		default:
			return fmt.Errorf("job %s", st)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// Print writes the report as a table.
func (r *Report) Print(w io.Writer) error {
	c := r.Config
	if _, err := fmt.Fprintf(w, "%d records, parallelism %d, %s values, fastest of %d rounds, %s, %d CPUs\n\n",
		c.Records, c.Parallelism, c.Format, c.Rounds, runtime.Version(), runtime.NumCPU()); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "pipeline\trecords\trows out\tseconds\tCPU s\trecords/s\tratio\tpeak RSS MiB\tB/record\tallocs/record\t")
	base := r.Baseline.Throughput()
	for _, res := range append([]Result{r.Baseline}, r.Pipelines...) {
		cpu, rss := "-", "-"
		if res.CPU > 0 {
			cpu = strconv.FormatFloat(res.CPU.Seconds(), 'f', 2, 64)
		}
		if res.PeakRSS > 0 {
			rss = strconv.FormatUint(res.PeakRSS>>20, 10)
		}
		n := float64(res.Records)
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%s\t%.0f\t%.2f\t%s\t%.0f\t%.1f\t\n", res.Name, res.Records, res.Output,
			res.Elapsed.Seconds(), cpu, res.Throughput(), res.Throughput()/base, rss, float64(res.AllocBytes)/n, float64(res.Allocs)/n)
	}
	return tw.Flush()
}
