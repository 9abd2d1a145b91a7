package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/devcluster"
)

// Topics of the latency measurement.
const (
	latencyIn  = "latency-in"
	latencyOut = "latency-out"
)

// LatencyConfig says what `sluice bench latency` measures.
type LatencyConfig struct {
	// Records is the number of records produced and measured in each
	// round, after the warm-up.
	Records int
	// Rate is the records produced per second.
	Rate int
	// Parallelism is parallelism.default and the topics' partition count.
	Parallelism int
	// Rounds is how many times the measurement runs, each on a fresh job
	// and fresh topics.
	Rounds int
	// SourceOptions and SinkOptions are options added to the WITH clause
	// of the source and the sink table (key, value pairs), to measure
	// settings other than the defaults.
	SourceOptions, SinkOptions []string
	// Log receives progress messages; nil discards them.
	Log io.Writer
}

// Latencies are the percentiles of one set of delays.
type Latencies struct {
	P50, P90, P99, P999, Max time.Duration
}

// latencies summarises ds, which it sorts.
func latencies(ds []time.Duration) Latencies {
	slices.Sort(ds)
	at := func(q float64) time.Duration {
		// The nearest-rank percentile.
		i := int(q*float64(len(ds))+0.999999) - 1
		return ds[max(0, min(i, len(ds)-1))]
	}
	return Latencies{P50: at(0.50), P90: at(0.90), P99: at(0.99), P999: at(0.999), Max: ds[len(ds)-1]}
}

// LatencyRound is one round of the latency measurement.
type LatencyRound struct {
	// Produced is the number of measured records produced, Received the
	// number of them the filter kept, each read once from the output.
	Produced, Received int
	// Rate is the produce rate achieved over the measured records.
	Rate float64
	// EndToEnd is from each record's send time to a consumer's receipt of
	// its output record; Handed from the send time to the sink's hand-over
	// of the output record to its producer, at most: the record's
	// timestamp (CreateTime, which the sink sets then) is in milliseconds,
	// and Handed counts to the end of its millisecond.
	EndToEnd, Handed Latencies
	// CPU is the process's CPU time during the measured records.
	CPU time.Duration
}

// LatencyReport is the outcome of `sluice bench latency`.
type LatencyReport struct {
	Config LatencyConfig
	Rounds []LatencyRound
}

// latencyPrice is the price of the record with the given id: 5 to 54,
// spread by a hash; the filter keeps prices above 10.
func latencyPrice(id int64) int64 { return saleAt(int(id)).value }

// RunLatency measures the end-to-end latency of a filter job from one
// topic to another, on an embedded cluster: records carrying their send
// time are produced at cfg.Rate per second and read back from the output
// topic by a consumer in the same process.
func RunLatency(ctx context.Context, cfg LatencyConfig) (*LatencyReport, error) {
	if cfg.Records < 1 || cfg.Rate < 1 || cfg.Parallelism < 1 || cfg.Rounds < 1 {
		return nil, errors.New("bench latency: records, rate, parallelism and rounds must be positive")
	}
	if len(cfg.SourceOptions)%2 != 0 || len(cfg.SinkOptions)%2 != 0 {
		return nil, errors.New("bench latency: table options come in key, value pairs")
	}
	cluster, err := devcluster.Start(devcluster.Options{Partitions: cfg.Parallelism})
	if err != nil {
		return nil, err
	}
	defer cluster.Close()
	rep := &LatencyReport{Config: cfg}
	for round := range cfg.Rounds {
		r, err := latencyRound(ctx, cfg, cluster.BootstrapServers(), round)
		if err != nil {
			return nil, fmt.Errorf("bench latency: round %d: %w", round+1, err)
		}
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, "round %d of %d: %d records at %.0f/s, p50 %v, p99 %v, max %v\n", round+1, cfg.Rounds,
				r.Produced, r.Rate, r.EndToEnd.P50, r.EndToEnd.P99, r.EndToEnd.Max)
		}
		rep.Rounds = append(rep.Rounds, r)
	}
	return rep, nil
}

// latencyRound runs the filter job on fresh topics, produces the warm-up
// and the measured records, and collects the delays of the measured ones.
func latencyRound(ctx context.Context, cfg LatencyConfig, brokers string, round int) (LatencyRound, error) {
	var res LatencyRound
	in, out := latencyIn+"-"+strconv.Itoa(round), latencyOut+"-"+strconv.Itoa(round)
	eng := sluice.NewEngine()
	defer eng.Close()
	if err := eng.Config().Set(sluice.ConfParallelism, strconv.Itoa(cfg.Parallelism)); err != nil {
		return res, err
	}
	ddl := fmt.Sprintf(`CREATE TABLE latency_in (id BIGINT, sent_ns BIGINT, price BIGINT, item STRING) %s;
CREATE TABLE latency_out (id BIGINT, sent_ns BIGINT, price BIGINT, item STRING) %s;`,
		with(append([]string{"connector", "kafka", "topic", in, "properties.bootstrap.servers", brokers,
			"value.format", "json", "scan.startup.mode", "earliest-offset"}, cfg.SourceOptions...)...),
		with(append([]string{"connector", "kafka", "topic", out, "properties.bootstrap.servers", brokers,
			"value.format", "json"}, cfg.SinkOptions...)...))
	if _, err := eng.Execute(ctx, ddl); err != nil {
		return res, err
	}
	if _, err := eng.Execute(ctx, "INSERT INTO latency_out SELECT id, sent_ns, price, item FROM latency_in WHERE price > 10"); err != nil {
		return res, err
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	prod, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.DefaultProduceTopic(in), kgo.ProducerLinger(0),
		kgo.RecordPartitioner(kgo.RoundRobinPartitioner()), kgo.AllowAutoTopicCreation())
	if err != nil {
		return res, err
	}
	defer prod.Close()
	cons, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.ConsumeTopics(out),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.AllowAutoTopicCreation())
	if err != nil {
		return res, err
	}
	defer cons.Close()

	// The consumer notes when each output record arrived, in got; first
	// is closed when the first one has, more signalled after each poll.
	type arrival struct {
		id, sent int64
		at, ts   time.Time
	}
	var mu sync.Mutex
	var got []arrival
	more := make(chan struct{}, 1)
	first := make(chan struct{})
	recvErr := make(chan error, 1)
	go func() {
		for {
			fs := cons.PollFetches(ctx)
			now := time.Now()
			if ctx.Err() != nil {
				return
			}
			if errs := fs.Errors(); len(errs) > 0 {
				recvErr <- fmt.Errorf("reading %s: %w", out, errs[0].Err)
				return
			}
			mu.Lock()
			n := len(got)
			for it := fs.RecordIter(); !it.Done(); {
				r := it.Next()
				id, ok1 := jsonInt(r.Value, "id")
				sent, ok2 := jsonInt(r.Value, "sent_ns")
				if !ok1 || !ok2 {
					mu.Unlock()
					recvErr <- fmt.Errorf("%s offset %d: unexpected value %q", out, r.Offset, r.Value)
					return
				}
				got = append(got, arrival{id, sent, now, r.Timestamp})
			}
			if n == 0 && len(got) > 0 {
				close(first)
			}
			mu.Unlock()
			select {
			case more <- struct{}{}:
			default:
			}
		}
	}()

	// The producer sends at the rate until the job's first output has
	// arrived and half a second more, then the measured records.
	var next int64 // the next id
	produced := make(chan error, 1)
	send := func() {
		sent := time.Now().UnixNano()
		v := fmt.Appendf(nil, `{"id":%d,"sent_ns":%d,"price":%d,"item":"item-%d"}`, next, sent, latencyPrice(next), next%1000)
		prod.Produce(ctx, &kgo.Record{Value: v}, func(_ *kgo.Record, err error) {
			if err != nil && ctx.Err() == nil {
				select {
				case produced <- err:
				default:
				}
			}
		})
		next++
	}
	// pace sends n records at the rate; it returns early when stop is
	// closed.
	interval := time.Second / time.Duration(cfg.Rate)
	pace := func(n int64, stop <-chan struct{}) error {
		start, from := time.Now(), next
		for next-from < n {
			due := min(n, int64(time.Since(start)/interval)+1)
			for next-from < due {
				send()
			}
			select {
			case err := <-produced:
				return err
			case err := <-recvErr:
				return fmt.Errorf("the consumer stopped: %v", err)
			case <-stop:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Until(start.Add(time.Duration(next-from) * interval))):
			}
		}
		return nil
	}
	warm := make(chan struct{})
	go func() {
		select {
		case <-first:
			select {
			case <-time.After(500 * time.Millisecond):
			case <-ctx.Done():
			}
		case <-ctx.Done():
		}
		close(warm)
	}()
	// At most a minute of warm-up: the job starts within it.
	if err := pace(int64(cfg.Rate)*60, warm); err != nil {
		return res, err
	}
	select {
	case <-warm:
	default:
		return res, errors.New("no output within a minute")
	}
	from := next
	want := 0
	for id := from; id < from+int64(cfg.Records); id++ {
		if latencyPrice(id) > 10 {
			want++
		}
	}
	start, cpu := time.Now(), cpuTime()
	if err := pace(int64(cfg.Records), nil); err != nil {
		return res, err
	}
	res.Produced = int(next - from)
	res.Rate = float64(res.Produced) / time.Since(start).Seconds()

	seen := make(map[int64]bool, want)
	var endToEnd, handed []time.Duration
	deadline := time.After(30 * time.Second)
	for done := 0; len(seen) < want; {
		mu.Lock()
		batch := got[done:]
		done = len(got)
		mu.Unlock()
		for _, a := range batch {
			if a.id < from {
				continue // warm-up
			}
			if a.id >= next || seen[a.id] || latencyPrice(a.id) <= 10 {
				return res, fmt.Errorf("unexpected output record id %d (twice, filtered out or never sent)", a.id)
			}
			seen[a.id] = true
			endToEnd = append(endToEnd, a.at.Sub(time.Unix(0, a.sent)))
			handed = append(handed, a.ts.Add(time.Millisecond).Sub(time.Unix(0, a.sent)))
		}
		if len(seen) == want {
			break
		}
		select {
		case <-more:
		case err := <-recvErr:
			return res, fmt.Errorf("the consumer stopped: %v", err)
		case <-deadline:
			return res, fmt.Errorf("%d of %d output records arrived within 30 s of the last send", len(seen), want)
		}
	}
	res.CPU = cpuTime() - cpu
	res.Received = len(seen)
	res.EndToEnd, res.Handed = latencies(endToEnd), latencies(handed)
	return res, nil
}

// jsonInt reads the integer member name of a flat JSON object as the json
// format writes it.
func jsonInt(v []byte, name string) (int64, bool) {
	key := `"` + name + `":`
	i := bytes.Index(v, []byte(key))
	if i < 0 {
		return 0, false
	}
	rest := v[i+len(key):]
	end := bytes.IndexAny(rest, ",}")
	if end < 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(rest[:end])), 10, 64)
	return n, err == nil
}

// Print writes the report: one line per round.
func (r *LatencyReport) Print(w io.Writer) error {
	c := r.Config
	opts := ""
	if len(c.SourceOptions) > 0 {
		opts += ", source " + pairs(c.SourceOptions)
	}
	if len(c.SinkOptions) > 0 {
		opts += ", sink " + pairs(c.SinkOptions)
	}
	if _, err := fmt.Fprintf(w, "filter kafka -> kafka (json), %d records a round at %d/s, parallelism %d%s\n"+
		"latency from each record's send time to a consumer's receipt of its output (end to end),\n"+
		"and to the sink's hand-over of the output record to its producer (at most: to the end of its timestamp's millisecond)\n\n",
		c.Records, c.Rate, c.Parallelism, opts); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\trecords out\trate/s\tCPU s\tp50 ms\tp90 ms\tp99 ms\tp99.9 ms\tmax ms\tto sink p50 ms ≤\tto sink p99 ms ≤\t")
	ms := func(d time.Duration) string {
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64)
	}
	for i, res := range r.Rounds {
		e, h := res.EndToEnd, res.Handed
		fmt.Fprintf(tw, "%d\t%d\t%.0f\t%.2f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", i+1, res.Received, res.Rate, res.CPU.Seconds(),
			ms(e.P50), ms(e.P90), ms(e.P99), ms(e.P999), ms(e.Max), ms(h.P50), ms(h.P99))
	}
	return tw.Flush()
}

// pairs writes key, value pairs as key=value, comma-separated.
func pairs(kv []string) string {
	var parts []string
	for i := 0; i+1 < len(kv); i += 2 {
		parts = append(parts, kv[i]+"="+kv[i+1])
	}
	return strings.Join(parts, ",")
}
