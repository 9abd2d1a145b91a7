package bench

import (
	"context"
	"fmt"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice/internal/format"
	"github.com/sluicesql/sluice/internal/types"
)

// pipeline is one measured statement over the ticket sales.
type pipeline struct {
	name string
	// topic is the topic the statement writes to, if any.
	topic string
	// ddl creates the table the statement writes to.
	ddl string
	// watermark declares the source's event-time watermark.
	watermark bool
	// stmt is the measured statement: a bounded query or an INSERT.
	stmt string
	// check verifies the result (the last row of a query, nil for an
	// INSERT) against what the data set must give and returns the number of
	// rows the statement produced.
	check func(ctx context.Context, last types.Row) (int64, error)
	// optional pipelines are measured only when named
	// (Config.Pipelines).
	optional bool
}

// env is the cluster and data set the pipelines run on.
type env struct {
	brokers, registry, format string
	parallelism               int
	want                      *expected
	// checkpoints is the temporary directory the checkpointed runs
	// checkpoint into, each in a directory of its own.
	checkpoints string
	// stateBackend and incremental are Config's.
	stateBackend string
	incremental  bool
}

// with renders a WITH clause from key-value pairs.
func with(kv ...string) string {
	var b strings.Builder
	b.WriteString("WITH (")
	for i := 0; i < len(kv); i += 2 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "'%s' = '%s'", kv[i], kv[i+1])
	}
	b.WriteString(")")
	return b.String()
}

// kafkaTable renders the options of a table on topic with a value in the
// benchmark's format, followed by extra options.
func (e *env) kafkaTable(connector, topic string, extra ...string) string {
	kv := []string{"connector", connector, "topic", topic, "properties.bootstrap.servers", e.brokers, "value.format", e.format}
	if e.format == formatAvro {
		kv = append(kv, "value.avro-confluent.url", e.registry)
	}
	return with(append(kv, extra...)...)
}

// codec returns the benchmark format's codec for the values of topic.
func (e *env) codec(topic string, fields types.Schema) (format.Codec, error) {
	opts := map[string]string{}
	if e.format == formatAvro {
		opts["url"] = e.registry
	}
	return format.New(e.format, format.Config{Fields: fields, Options: opts, Topic: topic})
}

// sourceDDL declares the ticket sales table, bounded by the offsets at the
// start so that a query over it finishes by itself.
func (e *env) sourceDDL(watermark bool) string {
	wm := ""
	if watermark {
		wm = ",\n  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND"
	}
	return fmt.Sprintf(`CREATE TABLE movie_ticket_sales (
  title STRING,
  sales_ts STRING,
  total_ticket_value BIGINT,
  ts TIMESTAMP(3)%s
) %s;
`, wm, e.kafkaTable("kafka", sourceTopic, "scan.startup.mode", "earliest-offset", "scan.bounded.mode", "latest-offset",
		"key.format", "raw", "key.fields", "title", "value.fields-include", "EXCEPT_KEY"))
}

// pipelines returns the measured pipelines, cheapest first.
func (e *env) pipelines() []pipeline {
	return []pipeline{{
		name: "scan-count",
		stmt: "SELECT COUNT(*) FROM movie_ticket_sales",
		check: func(_ context.Context, last types.Row) (int64, error) {
			if last == nil || last[0].I != e.want.n {
				return 0, fmt.Errorf("COUNT(*) = %v, want %d", last, e.want.n)
			}
			return 1, nil
		},
	}, {
		name:  "filter-project",
		topic: "big-sales",
		ddl: "CREATE TABLE big_sales (title STRING, doubled_value BIGINT) " +
			e.kafkaTable("kafka", "big-sales") + ";",
		stmt: `INSERT INTO big_sales
SELECT UPPER(title), total_ticket_value * 2 FROM movie_ticket_sales WHERE total_ticket_value > 10`,
		check: func(ctx context.Context, _ types.Row) (int64, error) {
			upper := map[string]bool{}
			for _, t := range titles {
				upper[strings.ToUpper(t)] = true
			}
			var got totals
			n, err := e.readValues(ctx, "big-sales", types.Schema{{Name: "title", Type: types.StringType}, {Name: "doubled_value", Type: types.BigIntType}},
				func(_ []byte, r types.Row) error {
					if !upper[r[0].S] {
						return fmt.Errorf("unexpected title %q", r[0].S)
					}
					got.add(r[1].I)
					return nil
				})
			if err == nil && got != e.want.big {
				err = fmt.Errorf("got %d rows summing to %d, want %d rows summing to %d", got.count, got.sum, e.want.big.count, e.want.big.sum)
			}
			return n, err
		},
	}, {
		name:  "group-agg",
		topic: "movie-ticket-sales-by-title",
		ddl: `CREATE TABLE movie_ticket_sales_by_title (
  title STRING,
  tickets_sold BIGINT,
  revenue BIGINT,
  PRIMARY KEY (title) NOT ENFORCED
) ` + e.kafkaTable("upsert-kafka", "movie-ticket-sales-by-title", "key.format", "raw", "value.fields-include", "EXCEPT_KEY") + ";",
		stmt: `INSERT INTO movie_ticket_sales_by_title
SELECT title, COUNT(total_ticket_value), SUM(total_ticket_value) FROM movie_ticket_sales GROUP BY title`,
		check: func(ctx context.Context, _ types.Row) (int64, error) {
			got := map[string]totals{}
			n, err := e.readValues(ctx, "movie-ticket-sales-by-title", types.Schema{{Name: "tickets_sold", Type: types.BigIntType}, {Name: "revenue", Type: types.BigIntType}},
				func(key []byte, r types.Row) error {
					got[string(key)] = totals{r[0].I, r[1].I} // the last change per key wins
					return nil
				})
			if err == nil {
				err = compare(got, e.want.byTitle)
			}
			return n, err
		},
	}, {
		// The state of group-agg grows with the data: a group per title and
		// second, about 0.43 per input record.
		name:     "group-agg-wide",
		topic:    "sales-by-title-second",
		optional: true,
		ddl: `CREATE TABLE sales_by_title_second (
  title STRING,
  sales_ts STRING,
  tickets_sold BIGINT,
  revenue BIGINT,
  PRIMARY KEY (title, sales_ts) NOT ENFORCED
) ` + e.kafkaTable("upsert-kafka", "sales-by-title-second", "key.format", "json") + ";",
		stmt: `INSERT INTO sales_by_title_second
SELECT title, sales_ts, COUNT(total_ticket_value), SUM(total_ticket_value) FROM movie_ticket_sales GROUP BY title, sales_ts`,
		check: func(ctx context.Context, _ types.Row) (int64, error) {
			got := map[[2]string]totals{}
			n, err := e.readValues(ctx, "sales-by-title-second", types.Schema{
				{Name: "title", Type: types.StringType}, {Name: "sales_ts", Type: types.StringType},
				{Name: "tickets_sold", Type: types.BigIntType}, {Name: "revenue", Type: types.BigIntType},
			}, func(_ []byte, r types.Row) error {
				got[[2]string{r[0].S, r[1].S}] = totals{r[2].I, r[3].I} // the last change per key wins
				return nil
			})
			if err == nil {
				err = compare(got, bySecond(int(e.want.n)))
			}
			return n, err
		},
	}, {
		name:      "tumble-window",
		topic:     "sales-per-minute",
		watermark: true,
		ddl: `CREATE TABLE sales_per_minute (
  title STRING,
  window_start TIMESTAMP(3),
  window_end TIMESTAMP(3),
  tickets_sold BIGINT,
  revenue BIGINT
) ` + e.kafkaTable("kafka", "sales-per-minute") + ";",
		stmt: `INSERT INTO sales_per_minute
SELECT title, window_start, window_end, COUNT(*), SUM(total_ticket_value)
FROM TABLE(TUMBLE(TABLE movie_ticket_sales, DESCRIPTOR(ts), INTERVAL '1' MINUTES))
GROUP BY title, window_start, window_end`,
		check: func(ctx context.Context, _ types.Row) (int64, error) {
			got := map[windowKey]totals{}
			ts := types.TimestampType(3)
			n, err := e.readValues(ctx, "sales-per-minute", types.Schema{
				{Name: "title", Type: types.StringType}, {Name: "window_start", Type: ts}, {Name: "window_end", Type: ts},
				{Name: "tickets_sold", Type: types.BigIntType}, {Name: "revenue", Type: types.BigIntType},
			}, func(_ []byte, r types.Row) error {
				k := windowKey{r[0].S, r[1].I}
				if _, dup := got[k]; dup {
					return fmt.Errorf("window %v emitted twice", k)
				}
				got[k] = totals{r[3].I, r[4].I}
				return nil
			})
			if err == nil {
				err = compare(got, e.want.byWindow)
			}
			return n, err
		},
	}}
}

// readValues decodes the value of every record of topic as a row of fields
// and hands it to fn with the record key; it returns the record count.
func (e *env) readValues(ctx context.Context, topic string, fields types.Schema, fn func(key []byte, r types.Row) error) (int64, error) {
	codec, err := e.codec(topic, fields)
	if err != nil {
		return 0, err
	}
	cols := make([]*types.Vector, len(fields))
	for i, f := range fields {
		cols[i] = types.NewVector(f.Type, 1)
	}
	row := make(types.Row, len(fields))
	var n int64
	err = readTopic(ctx, e.brokers, topic, func(r *kgo.Record) error {
		for _, c := range cols {
			c.Reset()
		}
		if err := codec.Decode(r.Value, cols); err != nil {
			return fmt.Errorf("%s offset %d: %w", topic, r.Offset, err)
		}
		for i, c := range cols {
			row[i] = c.Get(0)
		}
		n++
		return fn(r.Key, row)
	})
	return n, err
}

// compare reports the first difference between got and want.
func compare[K comparable](got, want map[K]totals) error {
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			return fmt.Errorf("%v: got %+v, want %+v", k, g, w)
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("got %d results, want %d", len(got), len(want))
	}
	return nil
}
