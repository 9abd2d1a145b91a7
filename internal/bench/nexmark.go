package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/connector/nexmark"
	"github.com/sluicesql/sluice/internal/devcluster"
)

// NexmarkConfig says what `sluice bench nexmark` measures.
type NexmarkConfig struct {
	// Events is 'events.num' and Rate 'first-event.rate' of the generator.
	Events, Rate int64
	// Parallelism is parallelism.default; the hand-written programs run
	// only at 1 (they read one generator).
	Parallelism int
	// Rounds is how often every measurement runs, in turn; the median of
	// each is reported.
	Rounds int
	// Queries names the queries to run; nil runs them all.
	Queries []string
	// Kafka also runs queries over the bids read from the embedded broker,
	// as JSON and as Avro: q0 to q2 when Queries is nil, else those of
	// Queries that read only bids.
	Kafka bool
	// Partitions is how many partitions the Kafka topics have; 0 means
	// the parallelism, at least 2, so that parallelism 1 and 2 read the
	// same topics.
	Partitions int
	// CPUProfile, when set, is where CPU profiles go, one per measurement.
	CPUProfile string
	// Settings are SET on every query's engine, in order, as key and
	// value (such as table.exec.mini-batch.enabled).
	Settings [][2]string
	// Log receives progress messages; nil discards them.
	Log io.Writer
}

// NexmarkResult is the measurement of one query over one source.
type NexmarkResult struct {
	Query string
	// Source is "generator", "kafka json" or "kafka avro".
	Source string
	// Events is the number of events read: every event of the stream for
	// the generator (the tables skip those of other kinds), the bids for
	// Kafka.
	Events int64
	// Unsupported is why Sluice cannot run the query (the error of the
	// statement that failed); the other fields are then zero.
	Unsupported string
	// Elapsed is the median wall time of the rounds.
	Elapsed time.Duration
	// CPU is the median of the process's CPU time during each round.
	CPU time.Duration
	// HandCPU is the median CPU time of the hand-written program doing the
	// same work, 0 for none, and Ratio the median of the rounds' ratios
	// of Sluice's CPU time to it.
	HandCPU time.Duration
	Ratio   float64
	// rounds are the measurements of each round: wall time, CPU time and
	// the hand-written program's CPU time.
	rounds [][3]time.Duration
}

// summarize sets the medians from the rounds.
func (r *NexmarkResult) summarize() {
	if len(r.rounds) == 0 {
		return
	}
	var elapsed, cpu, hand []time.Duration
	var ratios []float64
	for _, m := range r.rounds {
		elapsed, cpu, hand = append(elapsed, m[0]), append(cpu, m[1]), append(hand, m[2])
		if m[2] > 0 {
			ratios = append(ratios, m[1].Seconds()/m[2].Seconds())
		}
	}
	r.Elapsed, r.CPU, r.HandCPU = median(elapsed), median(cpu), median(hand)
	if len(ratios) > 0 {
		r.Ratio = median(ratios)
	}
}

// median returns the middle of xs, the mean of the two middle ones for an
// even count.
func median[T time.Duration | float64](xs []T) T {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// EventsPerCoreSecond is events per second of CPU time.
func (r NexmarkResult) EventsPerCoreSecond() float64 { return float64(r.Events) / r.CPU.Seconds() }

// NexmarkReport is the outcome of `sluice bench nexmark`.
type NexmarkReport struct {
	Config  NexmarkConfig
	Results []NexmarkResult
}

// nexmarkBaseTime is the tables' 'base-time' (2023-11-14 22:13:20 UTC),
// so that every run sees the same events.
const nexmarkBaseTime = 1_700_000_000_000

// nexmarkColumns are the columns of the three tables, as Flink's person,
// auction and bid ROW types.
var nexmarkColumns = map[string]string{
	"person": "id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR, state VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR",
	"auction": "id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3), " +
		"seller BIGINT, category BIGINT, extra VARCHAR",
	"bid": "auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, dateTime TIMESTAMP(3), extra VARCHAR",
}

// nexmarkWatermark is the watermark of Flink's Nexmark DDL.
const nexmarkWatermark = "WATERMARK FOR dateTime AS dateTime - INTERVAL '4' SECOND"

// generatorConfig is the generator the tables of c read.
func (c *NexmarkConfig) generatorConfig() nexmark.Config {
	g := nexmark.DefaultConfig()
	g.NumEvents, g.FirstEventRate, g.BaseTime = c.Events, c.Rate, nexmarkBaseTime
	return g
}

// generatorDDL declares the person, auction and bid tables over the
// generator.
func generatorDDL(events, rate int64) string {
	var b strings.Builder
	for _, kind := range []string{"person", "auction", "bid"} {
		fmt.Fprintf(&b, "CREATE TABLE %s (%s, %s) %s;\n", kind, nexmarkColumns[kind], nexmarkWatermark,
			with("connector", "nexmark", "kind", kind, "first-event.rate", strconv.FormatInt(rate, 10),
				"next-event.rate", strconv.FormatInt(rate, 10), "events.num", strconv.FormatInt(events, 10),
				"base-time", strconv.FormatInt(nexmarkBaseTime, 10)))
	}
	return b.String()
}

// defaultKafkaQueries are the queries run over bids read from Kafka when
// no queries are named.
var defaultKafkaQueries = []string{"q0", "q1", "q1-decimal18", "q2"}

// overKafka reports whether q runs over the bids read from Kafka too.
func (c *NexmarkConfig) overKafka(q nexmarkQuery) bool {
	if c.Queries == nil {
		return slices.Contains(defaultKafkaQueries, q.name)
	}
	return q.bidsOnly
}

// partitions is the number of partitions of the Kafka topics.
func (c *NexmarkConfig) partitions() int {
	if c.Partitions > 0 {
		return c.Partitions
	}
	return max(2, c.Parallelism)
}

// RunNexmark runs the Nexmark queries, each into blackhole, and the
// hand-written programs of those that have one.
func RunNexmark(ctx context.Context, cfg NexmarkConfig) (*NexmarkReport, error) {
	if cfg.Events < 1 || cfg.Rate < 1 || cfg.Parallelism < 1 || cfg.Rounds < 1 || cfg.Partitions < 0 {
		return nil, fmt.Errorf("bench nexmark: events, rate, parallelism and rounds must be positive, partitions not negative")
	}
	var queries []nexmarkQuery
	for _, q := range nexmarkQueries {
		if cfg.Queries == nil || slices.Contains(cfg.Queries, q.name) {
			queries = append(queries, q)
		}
	}
	for _, n := range cfg.Queries {
		if !slices.ContainsFunc(nexmarkQueries, func(q nexmarkQuery) bool { return q.name == n }) {
			return nil, fmt.Errorf("bench nexmark: unknown query %q", n)
		}
	}
	logf := func(f string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, f+"\n", args...)
		}
	}
	type run struct {
		q      nexmarkQuery
		source string
		ddl    string
		events int64
	}
	var runs []run
	for _, q := range queries {
		runs = append(runs, run{q, "generator", generatorDDL(cfg.Events, cfg.Rate), cfg.Events})
	}
	if cfg.Kafka {
		k, err := startNexmarkKafka(ctx, &cfg, logf)
		if err != nil {
			return nil, err
		}
		defer k.close()
		for _, src := range k.sources {
			for _, q := range queries {
				if cfg.overKafka(q) {
					runs = append(runs, run{q, src.name, src.ddl, k.bids})
				}
			}
		}
	}
	rep := &NexmarkReport{Config: cfg, Results: make([]NexmarkResult, len(runs))}
	gen := cfg.generatorConfig()
	for round := range cfg.Rounds {
		profile := cfg.CPUProfile
		if round > 0 {
			profile = ""
		}
		for i, r := range runs {
			res := &rep.Results[i]
			res.Query, res.Source, res.Events = r.q.name, r.source, r.events
			if res.Unsupported != "" {
				continue
			}
			m, err := runNexmarkQuery(ctx, cfg.Parallelism, cfg.Settings, r.ddl, r.q, r.source, r.events, profile)
			var unsupported *unsupportedError
			if errors.As(err, &unsupported) {
				res.Unsupported = unsupported.reason
				logf("%s: unsupported: %s", r.q.name, res.Unsupported)
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("bench nexmark: %s (%s): %w", r.q.name, r.source, err)
			}
			logf("round %d of %d: %s %s: %.2f s, CPU %.2f s", round+1, cfg.Rounds, r.q.name, r.source, m.Elapsed.Seconds(), m.CPU.Seconds())
			measured := [3]time.Duration{m.Elapsed, m.CPU}
			hand := handQueries[r.q.name]
			if hand == nil || r.source != "generator" || cfg.Parallelism != 1 {
				res.rounds = append(res.rounds, measured)
				continue
			}
			var out handOut
			h, err := measure("hand-"+r.q.name, int(r.events), profile, func() (int64, error) {
				hand(gen, &out)
				return out.rows, nil
			})
			if err != nil {
				return nil, err
			}
			logf("round %d of %d: %s hand-written: CPU %.2f s, %d rows", round+1, cfg.Rounds, r.q.name, h.CPU.Seconds(), out.rows)
			measured[2] = h.CPU
			res.rounds = append(res.rounds, measured)
		}
	}
	for i := range rep.Results {
		rep.Results[i].summarize()
	}
	return rep, nil
}

// unsupportedError is a statement of a query Sluice refused.
type unsupportedError struct{ reason string }

func (e *unsupportedError) Error() string { return e.reason }

// runNexmarkQuery runs one query into blackhole on a fresh engine and
// measures it: from the INSERT's submission until its job has finished.
func runNexmarkQuery(ctx context.Context, parallelism int, settings [][2]string, tables string, q nexmarkQuery, source string, events int64, profile string) (Result, error) {
	eng := sluice.NewEngine()
	defer eng.Close()
	if err := eng.Config().Set(sluice.ConfParallelism, strconv.Itoa(parallelism)); err != nil {
		return Result{}, err
	}
	for _, kv := range settings {
		if err := eng.Config().Set(kv[0], kv[1]); err != nil {
			return Result{}, err
		}
	}
	if _, err := eng.Execute(ctx, tables); err != nil {
		return Result{}, err
	}
	if _, err := eng.Execute(ctx, q.ddl); err != nil {
		return Result{}, &unsupportedError{firstLine(err)}
	}
	name := q.name
	if source != "generator" {
		name += "-" + strings.ReplaceAll(source, " ", "-")
	}
	var submitErr error
	res, err := measure(name, int(events), profile, func() (int64, error) {
		rs, err := eng.Execute(ctx, q.insert)
		if err != nil {
			submitErr = err
			return 0, nil
		}
		return 0, awaitJob(ctx, eng, rs[0].JobID)
	})
	if submitErr != nil {
		return res, &unsupportedError{firstLine(submitErr)}
	}
	return res, err
}

// firstLine is the first line of an error's message.
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// Print writes the report as a table: per query and source, the events
// per second of CPU time, and for those with a hand-written program its
// CPU time and Sluice's ratio to it; then the queries Sluice cannot run,
// with the reason.
func (r *NexmarkReport) Print(w io.Writer) error {
	c := r.Config
	if _, err := fmt.Fprintf(w, "Nexmark: %d events at first-event.rate %d, parallelism %d, medians of %d rounds, %s, %d CPUs\n\n",
		c.Events, c.Rate, c.Parallelism, c.Rounds, runtime.Version(), runtime.NumCPU()); err != nil {
		return err
	}
	for _, kv := range c.Settings {
		if _, err := fmt.Fprintf(w, "SET '%s' = '%s'\n", kv[0], kv[1]); err != nil {
			return err
		}
	}
	if len(c.Settings) > 0 {
		fmt.Fprintln(w)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "query\tsource\tevents\tseconds\tCPU s\tevents/s/core\thand-written CPU s\tSluice/hand-written\t")
	var unsupported []NexmarkResult
	for _, res := range r.Results {
		if res.Unsupported != "" {
			if res.Source == "generator" {
				unsupported = append(unsupported, res)
			}
			continue
		}
		hand, ratio := "-", "-"
		if res.HandCPU > 0 {
			hand = strconv.FormatFloat(res.HandCPU.Seconds(), 'f', 2, 64)
			ratio = strconv.FormatFloat(res.Ratio, 'f', 2, 64)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.2f\t%.2f\t%.0f\t%s\t%s\t\n", res.Query, res.Source, res.Events,
			res.Elapsed.Seconds(), res.CPU.Seconds(), res.EventsPerCoreSecond(), hand, ratio)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(unsupported) == 0 {
		return nil
	}
	if _, err := fmt.Fprintf(w, "\nnot supported:\n\n"); err != nil {
		return err
	}
	for _, res := range unsupported {
		if _, err := fmt.Fprintf(w, "%s: %s\n", res.Query, res.Unsupported); err != nil {
			return err
		}
	}
	return nil
}

// nexmarkKafka is the embedded cluster holding the bids as JSON and Avro.
type nexmarkKafka struct {
	cluster *devcluster.Cluster
	bids    int64
	sources []struct{ name, ddl string }
}

func (k *nexmarkKafka) close() { k.cluster.Close() }

// startNexmarkKafka starts an embedded cluster and writes the generator's
// bids into a topic per format, through Sluice (not measured).
func startNexmarkKafka(ctx context.Context, cfg *NexmarkConfig, logf func(string, ...any)) (*nexmarkKafka, error) {
	cluster, err := devcluster.Start(devcluster.Options{Partitions: cfg.partitions()})
	if err != nil {
		return nil, err
	}
	k := &nexmarkKafka{cluster: cluster}
	gen := cfg.generatorConfig()
	for i := range cfg.Parallelism {
		k.bids += nexmark.NewGenerator(gen, i, cfg.Parallelism).CountOf(nexmark.BidKind)
	}
	for _, f := range []struct{ name, format string }{{"kafka json", formatJSON}, {"kafka avro", formatAvro}} {
		topic := "nexmark-bid-" + f.format
		opts := []string{"connector", "kafka", "topic", topic, "properties.bootstrap.servers", cluster.BootstrapServers(),
			"value.format", f.format, "scan.startup.mode", "earliest-offset", "scan.bounded.mode", "latest-offset"}
		if f.format == formatAvro {
			opts = append(opts, "value.avro-confluent.url", cluster.RegistryURL())
		}
		ddl := fmt.Sprintf("CREATE TABLE bid (%s, %s) %s;\n", nexmarkColumns["bid"], nexmarkWatermark, with(opts...))
		logf("loading %d bids into %s as %s", k.bids, topic, f.format)
		if err := loadBids(ctx, cfg, strings.Replace(ddl, "CREATE TABLE bid ", "CREATE TABLE kafka_bid ", 1)); err != nil {
			k.close()
			return nil, fmt.Errorf("bench nexmark: loading %s: %w", topic, err)
		}
		k.sources = append(k.sources, struct{ name, ddl string }{f.name, ddl})
	}
	return k, nil
}

// loadBids copies the generator's bids into the Kafka table kafka_bid.
func loadBids(ctx context.Context, cfg *NexmarkConfig, kafkaDDL string) error {
	eng := sluice.NewEngine()
	defer eng.Close()
	if err := eng.Config().Set(sluice.ConfParallelism, strconv.Itoa(cfg.Parallelism)); err != nil {
		return err
	}
	if _, err := eng.Execute(ctx, generatorDDL(cfg.Events, cfg.Rate)+kafkaDDL); err != nil {
		return err
	}
	rs, err := eng.Execute(ctx, "INSERT INTO kafka_bid SELECT * FROM bid")
	if err != nil {
		return err
	}
	return awaitJob(ctx, eng, rs[0].JobID)
}
