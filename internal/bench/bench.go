// Package bench measures Sluice's throughput end to end: it loads a table of
// movie ticket sales into an embedded Kafka cluster, reads it once with a
// plain franz-go consumer as the baseline, then runs SQL pipelines over it
// through the Engine and reports each one's throughput as a ratio to the
// baseline measured in the same run, with its memory use.
//
// The source table is bounded ('scan.bounded.mode' = 'latest-offset'), so
// every pipeline ends by itself once it has read the loaded records; each
// one's result is checked against what the data set must give.
//
// The INSERT pipelines are also measured taking checkpoints at each of
// Config.CheckpointIntervals into a temporary directory, and compared with
// the same pipeline without checkpoints in the same run: the cost of
// checkpointing.
//
// RunNexmark (nexmark.go) runs Flink's Nexmark queries on the nexmark
// generator, some also as hand-written Go programs (nexmark_hand.go) whose
// CPU time they are compared with; RunLatency (latency.go) measures the
// end-to-end latency of a filter job from Kafka to Kafka.
package bench

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/checkpoint"
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
	// Pipelines names the pipelines to measure; nil measures all but the
	// optional ones (group-agg-wide).
	Pipelines []string
	// CheckpointIntervals are the execution.checkpointing.interval values
	// each INSERT pipeline is measured with besides its run without
	// checkpoints.
	CheckpointIntervals []time.Duration
	// CheckpointDir is where the temporary directory that holds the
	// checkpoints is made; "" is the system's temporary directory.
	CheckpointDir string
	// StateBackend is state.backend.type for every pipeline ("" leaves
	// the default, hashmap); Incremental sets
	// execution.checkpointing.incremental for the runs with checkpoints.
	StateBackend string
	Incremental  bool
	// CPUProfile, when set, is where CPU profiles go: one per measurement,
	// named by inserting the measurement's name before the extension.
	CPUProfile string
	// Log receives progress messages; nil discards them.
	Log io.Writer
}

// Result is one measurement.
type Result struct {
	// Name is the measurement's: the pipeline's, followed by "+chk" and
	// the interval for a run with checkpoints (group-agg+chk1s).
	Name string
	// Pipeline names the measured pipeline, and Interval is the interval it
	// took checkpoints at, 0 for none.
	Pipeline string
	Interval time.Duration
	// Checkpoints is the number of checkpoints that completed, and
	// CheckpointBytes the most any of them wrote: its parts, and the
	// shared files it added to those of the checkpoint before.
	Checkpoints, CheckpointBytes int64
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

// String summarises the measurement for progress messages: its time, CPU
// time and checkpoints.
func (r Result) String() string {
	s := fmt.Sprintf("%s: %.2f s, CPU %.2f s", r.Name, r.Elapsed.Seconds(), r.CPU.Seconds())
	if r.Interval > 0 {
		s += fmt.Sprintf(", checkpoints: %d", r.Checkpoints)
	}
	return s
}

// Throughput returns input records per second.
func (r Result) Throughput() float64 { return float64(r.Records) / r.Elapsed.Seconds() }

// Report is the outcome of a run.
type Report struct {
	Config Config
	// Baseline is the plain consumer reading every record without decoding.
	Baseline Result
	// Pipelines are the SQL pipelines, in the order they ran: each INSERT
	// pipeline's runs with checkpoints follow its run without.
	Pipelines []Result
}

// measurement is a pipeline run without checkpoints (interval 0) or with
// them.
type measurement struct {
	pipeline
	interval time.Duration
}

// name names the measurement's Result.
func (m measurement) name() string {
	if m.interval == 0 {
		return m.pipeline.name
	}
	return m.pipeline.name + "+chk" + m.interval.String()
}

// measurements returns every pipeline run without checkpoints, each INSERT
// followed by its runs at every interval (queries take no checkpoints).
func measurements(pipelines []pipeline, intervals []time.Duration) []measurement {
	var out []measurement
	for _, p := range pipelines {
		out = append(out, measurement{pipeline: p})
		if p.topic == "" {
			continue
		}
		for _, iv := range intervals {
			out = append(out, measurement{pipeline: p, interval: iv})
		}
	}
	return out
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
	var known []string
	for _, p := range new(env).pipelines() {
		known = append(known, p.name)
	}
	for _, n := range cfg.Pipelines {
		if !slices.Contains(known, n) {
			return nil, fmt.Errorf("bench: unknown pipeline %q (want %s)", n, strings.Join(known, ", "))
		}
	}
	for i, iv := range cfg.CheckpointIntervals {
		// The engine refuses intervals below Flink's 10 ms, naming the setting.
		if iv <= 0 || slices.Contains(cfg.CheckpointIntervals[:i], iv) {
			return nil, fmt.Errorf("bench: checkpoint intervals must be positive and distinct: %v", cfg.CheckpointIntervals)
		}
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
	e := &env{brokers: cluster.BootstrapServers(), registry: cluster.RegistryURL(), format: cfg.Format, parallelism: cfg.Parallelism,
		stateBackend: cfg.StateBackend, incremental: cfg.Incremental}
	if len(cfg.CheckpointIntervals) > 0 {
		if e.checkpoints, err = os.MkdirTemp(cfg.CheckpointDir, "sluice-bench-"); err != nil {
			return nil, fmt.Errorf("bench: checkpoint directory: %w", err)
		}
		// Removed at the end rather than after each run: a job's last
		// checkpoint may still be being written after the job finished.
		defer os.RemoveAll(e.checkpoints)
	}

	logf("loading %d records into %s (%d partitions, %s values)", cfg.Records, sourceTopic, cfg.Parallelism, cfg.Format)
	if err := e.load(ctx, cfg.Records); err != nil {
		return nil, err
	}
	e.want = expect(cfg.Records)

	rep := &Report{Config: cfg}
	pipelines := measurements(e.selected(cfg.Pipelines), cfg.CheckpointIntervals)
	rep.Pipelines = make([]Result, len(pipelines))
	for round := range cfg.Rounds {
		// Only the first round is profiled: a profile file per measurement.
		profile := cfg.CPUProfile
		if round > 0 {
			profile = ""
		}
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
		logf("round %d of %d: %s", round+1, cfg.Rounds, res)
		rep.Baseline = faster(rep.Baseline, res)
		for i, m := range pipelines {
			res, err := e.run(ctx, m, profile)
			if err != nil {
				return nil, fmt.Errorf("bench: %s: %w", m.name(), err)
			}
			logf("round %d of %d: %s", round+1, cfg.Rounds, res)
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

// selected returns the pipelines named (checked by Run), or for none those
// that are not optional.
func (e *env) selected(names []string) []pipeline {
	return slices.DeleteFunc(e.pipelines(), func(p pipeline) bool {
		if len(names) == 0 {
			return p.optional
		}
		return !slices.Contains(names, p.name)
	})
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

// run measures one pipeline on a fresh engine and checks its result; with
// an interval, the job checkpoints into a directory of its own.
func (e *env) run(ctx context.Context, m measurement, profile string) (Result, error) {
	eng := sluice.NewEngine()
	defer eng.Close()
	settings := [][2]string{{sluice.ConfParallelism, strconv.Itoa(e.parallelism)}}
	if e.stateBackend != "" {
		settings = append(settings, [2]string{sluice.ConfStateBackend, e.stateBackend})
	}
	var dir string
	if m.interval > 0 {
		var err error
		if dir, err = os.MkdirTemp(e.checkpoints, m.pipeline.name+"-"); err != nil {
			return Result{}, err
		}
		// Every checkpoint is kept, to be counted and measured afterwards
		// (the default keeps the last one and deletes the one before it).
		settings = append(settings, [2]string{sluice.ConfCheckpointInterval, strconv.FormatInt(int64(m.interval), 10) + " ns"},
			[2]string{sluice.ConfCheckpointsDir, dir}, [2]string{sluice.ConfCheckpointsRetained, strconv.Itoa(math.MaxInt32)},
			[2]string{sluice.ConfIncremental, strconv.FormatBool(e.incremental)})
	}
	for _, kv := range settings {
		if err := eng.Config().Set(kv[0], kv[1]); err != nil {
			return Result{}, err
		}
	}
	p := m.pipeline
	if _, err := eng.Execute(ctx, e.sourceDDL(p.watermark)+p.ddl); err != nil {
		return Result{}, err
	}
	var last types.Row
	var job string
	res, err := measure(m.name(), int(e.want.n), profile, func() (int64, error) {
		var err error
		last, job, err = execute(ctx, eng, p.stmt)
		return 0, err
	})
	res.Pipeline, res.Interval = p.name, m.interval
	if err != nil {
		return res, err
	}
	if res.Output, err = p.check(ctx, last); err != nil {
		return res, err
	}
	if dir != "" {
		if res.Checkpoints, res.CheckpointBytes, err = checkpointStats(ctx, dir, job); err != nil {
			return res, err
		}
	}
	if p.topic == "" {
		return res, nil
	}
	// The next round writes to a fresh topic, and the broker lets go of
	// this one's records.
	return res, e.deleteTopic(ctx, p.topic)
}

// checkpointStats returns how many checkpoints job completed in the
// checkpoint directory dir, which keeps them all, and the most bytes one
// of them wrote (its parts and the shared files the one before did not
// refer to); the newest must read back intact. A checkpoint
// taken as the job finished may still be being written when the job is
// reported finished; it runs after the output has been read back, when
// that one is most likely complete too.
func checkpointStats(ctx context.Context, dir, job string) (n, largest int64, err error) {
	store, err := checkpoint.NewDir(dir)
	if err != nil {
		return 0, 0, err
	}
	ids, err := store.Checkpoints(ctx, job)
	if err != nil || len(ids) == 0 {
		return 0, 0, err
	}
	// Latest skips checkpoints that do not read back: the newest must not be
	// one of them.
	meta, _, err := checkpoint.Latest(ctx, store, job)
	if err == nil && meta.ID < ids[len(ids)-1] {
		err = fmt.Errorf("checkpoint %d of job %s does not read back", ids[len(ids)-1], job)
	}
	if err != nil {
		return 0, 0, err
	}
	var before map[string]checkpoint.Part
	for _, id := range ids {
		meta, err := store.Metadata(ctx, job, id)
		if err != nil {
			return 0, 0, err
		}
		var size int64
		for _, p := range meta.Parts {
			size += p.Size
		}
		for name, p := range meta.Shared {
			if _, old := before[name]; !old {
				size += p.Size
			}
		}
		before = meta.Shared
		largest = max(largest, size)
	}
	return int64(len(ids)), largest, nil
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
// awaited and its ID returned.
func execute(ctx context.Context, eng *sluice.Engine, stmt string) (last types.Row, job string, err error) {
	rs, err := eng.Execute(ctx, stmt)
	if err != nil {
		return nil, "", err
	}
	switch r := rs[0]; r.Kind {
	case sluice.ResultStream:
		defer r.Stream.Close()
		for {
			changes, ok, err := r.Stream.Next(ctx)
			if err != nil || !ok {
				return last, "", err
			}
			last = changes[len(changes)-1].Row
		}
	case sluice.ResultJob:
		return nil, r.JobID, awaitJob(ctx, eng, r.JobID)
	}
	return nil, "", fmt.Errorf("statement %q is neither a query nor an INSERT", stmt)
}

// awaitJob waits until the job with the given id has finished, without
// a restart: a restarted job reads part of its input twice.
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
			if n := job.Restarts(); n > 0 {
				return fmt.Errorf("job %s restarted %d times", id, n)
			}
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

// Print writes the report as a table, followed, when checkpoints were
// taken, by a table that compares each run with checkpoints with the same
// pipeline's run without.
func (r *Report) Print(w io.Writer) error {
	c := r.Config
	backend := cmp.Or(c.StateBackend, "hashmap")
	if c.Incremental {
		backend += ", incremental checkpoints"
	}
	if _, err := fmt.Fprintf(w, "%d records, parallelism %d, %s values, state backend %s, fastest of %d rounds, %s, %d CPUs\n\n",
		c.Records, c.Parallelism, c.Format, backend, c.Rounds, runtime.Version(), runtime.NumCPU()); err != nil {
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
	if err := tw.Flush(); err != nil {
		return err
	}
	plain := map[string]Result{}
	var checkpointed []Result
	for _, res := range r.Pipelines {
		if res.Interval == 0 {
			plain[res.Pipeline] = res
		} else {
			checkpointed = append(checkpointed, res)
		}
	}
	if len(checkpointed) == 0 {
		return nil
	}
	if _, err := fmt.Fprintf(w, "\ncheckpointing, against the same pipeline without checkpoints:\n\n"); err != nil {
		return err
	}
	fmt.Fprintln(tw, "pipeline\tinterval\tcheckpoints\tlargest written B\tseconds\tvs plain\tCPU s\tCPU vs plain\t")
	for _, res := range checkpointed {
		p := plain[res.Pipeline]
		size, cpu, cpuRatio := "-", "-", "-"
		if res.Checkpoints > 0 {
			size = strconv.FormatInt(res.CheckpointBytes, 10)
		}
		if res.CPU > 0 && p.CPU > 0 {
			cpu = strconv.FormatFloat(res.CPU.Seconds(), 'f', 2, 64)
			cpuRatio = strconv.FormatFloat(res.CPU.Seconds()/p.CPU.Seconds(), 'f', 2, 64)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%.2f\t%.2f\t%s\t%s\t\n", res.Name, res.Interval, res.Checkpoints, size,
			res.Elapsed.Seconds(), p.Elapsed.Seconds()/res.Elapsed.Seconds(), cpu, cpuRatio)
	}
	return tw.Flush()
}
