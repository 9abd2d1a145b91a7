package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice/internal/format"
	"github.com/sluicesql/sluice/internal/types"
)

// sourceTopic holds the generated ticket sales.
const sourceTopic = "movie-ticket-sales"

// titles are the movies tickets are sold for: ten franchises of five films.
var titles = func() []string {
	var out []string
	for _, f := range []string{"Aliens", "Die Hard", "The Godfather", "The Big Lebowski", "Tree of Life",
		"A Walk in the Clouds", "Super Mario Bros.", "Toy Story", "Rocky", "Mad Max"} {
		out = append(out, f)
		for k := 2; k <= 5; k++ {
			out = append(out, fmt.Sprintf("%s %d", f, k))
		}
	}
	return out
}()

// epoch is the event time of the first sale; each sale is step later than
// the one before.
var epoch = time.Date(2019, 7, 18, 10, 0, 0, 0, time.UTC)

const (
	step   = 10 * time.Millisecond
	window = time.Minute // the tumbling window of the windowed pipeline
	// minTicket is the smallest ticket value; the filtering pipeline keeps
	// values above bigTicket.
	minTicket, ticketRange, bigTicket = 5, 50, 10
)

// sale is one generated record.
type sale struct {
	title int // index into titles
	value int64
	ts    time.Time
}

// saleAt returns the i-th sale: titles and values are spread by a hash of
// i, times rise by step.
func saleAt(i int) sale {
	x := uint64(i) + 0x9e3779b97f4a7c15 // splitmix64
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return sale{
		title: int(x % uint64(len(titles))),
		value: minTicket + int64((x>>32)%ticketRange),
		ts:    epoch.Add(time.Duration(i) * step),
	}
}

// valueSchema is the value of a sale record; the title is the record key.
var valueSchema = types.Schema{
	{Name: "sales_ts", Type: types.StringType},
	{Name: "total_ticket_value", Type: types.BigIntType},
	{Name: "ts", Type: types.TimestampType(3)},
}

// totals is a count and a sum.
type totals struct{ count, sum int64 }

func (t *totals) add(v int64) { t.count++; t.sum += v }

// windowKey names one title's tumbling window by its start.
type windowKey struct {
	title string
	start int64 // microseconds since the epoch, as TIMESTAMP(3) values are held
}

// expected is what each pipeline must produce from the first n sales.
type expected struct {
	n        int64
	byTitle  map[string]totals
	big      totals // the sales above bigTicket, with doubled values summed
	byWindow map[windowKey]totals
}

func expect(n int) *expected {
	e := &expected{n: int64(n), byTitle: map[string]totals{}, byWindow: map[windowKey]totals{}}
	for i := range n {
		s := saleAt(i)
		t := titles[s.title]
		bt := e.byTitle[t]
		bt.add(s.value)
		e.byTitle[t] = bt
		if s.value > bigTicket {
			e.big.add(2 * s.value)
		}
		k := windowKey{t, s.ts.Truncate(window).UnixMicro()}
		bw := e.byWindow[k]
		bw.add(s.value)
		e.byWindow[k] = bw
	}
	return e
}

// bySecond returns the count and sum of the first n sales per title and
// sales_ts (a second), as group-agg-wide groups them; it is computed only
// for that pipeline, as it holds a group per 2.3 sales.
func bySecond(n int) map[[2]string]totals {
	out := map[[2]string]totals{}
	for i := range n {
		s := saleAt(i)
		k := [2]string{titles[s.title], s.ts.Format(time.RFC3339)}
		t := out[k]
		t.add(s.value)
		out[k] = t
	}
	return out
}

// load creates the source topic with the given partition count and
// produces n pre-encoded sales to it; each title stays in one partition,
// as Kafka's key partitioning would have it.
func load(ctx context.Context, cl *kgo.Client, codec format.Codec, n, partitions int) error {
	adm := kadm.NewClient(cl)
	resp, err := adm.CreateTopic(ctx, int32(partitions), 1, nil, sourceTopic)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		return fmt.Errorf("creating topic %s: %w", sourceTopic, err)
	}
	const batch = 8192
	keys := make([][]byte, len(titles)) // the 'raw' key format: the UTF-8 bytes
	for i, t := range titles {
		keys[i] = []byte(t)
	}
	recs := make([]*kgo.Record, 0, batch)
	var buf []byte
	row := make(types.Row, len(valueSchema))
	for i := range n {
		s := saleAt(i)
		row[0] = types.StringValue(s.ts.Format(time.RFC3339))
		row[1] = types.IntValue(s.value)
		row[2] = types.IntValue(s.ts.UnixMicro())
		start := len(buf)
		if buf, err = codec.Encode(buf, row); err != nil {
			return err
		}
		recs = append(recs, &kgo.Record{Topic: sourceTopic, Partition: int32(s.title % partitions),
			Key: keys[s.title], Value: buf[start:len(buf):len(buf)]})
		if len(recs) == batch || i == n-1 {
			if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
				return fmt.Errorf("loading %s: %w", sourceTopic, err)
			}
			recs, buf = recs[:0], nil
		}
	}
	return nil
}

// readTopic consumes every record a topic holds now, from the start of each
// partition to its end offset, and hands each to fn.
func readTopic(ctx context.Context, brokers, topic string, fn func(*kgo.Record) error) error {
	admCl, err := kgo.NewClient(kgo.SeedBrokers(brokers))
	if err != nil {
		return err
	}
	ends, err := kadm.NewClient(admCl).ListEndOffsets(ctx, topic)
	admCl.Close()
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return fmt.Errorf("listing the end offsets of %s: %w", topic, err)
	}
	left := map[int32]int64{}
	starts := map[int32]kgo.Offset{}
	ends.Each(func(o kadm.ListedOffset) {
		if o.Offset > 0 {
			left[o.Partition] = o.Offset
			starts[o.Partition] = kgo.NewOffset().AtStart()
		}
	})
	if len(left) == 0 {
		return nil
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: starts}))
	if err != nil {
		return err
	}
	defer cl.Close()
	for len(left) > 0 {
		fs := cl.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			return err
		}
		if errs := fs.Errors(); len(errs) > 0 {
			return fmt.Errorf("reading %s: %w", topic, errs[0].Err)
		}
		for it := fs.RecordIter(); !it.Done(); {
			r := it.Next()
			end, ok := left[r.Partition]
			if !ok {
				continue
			}
			if err := fn(r); err != nil {
				return err
			}
			if r.Offset+1 >= end {
				delete(left, r.Partition)
			}
		}
	}
	return nil
}
