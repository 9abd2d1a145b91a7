package topic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Formats are the ways keys and values are printed and read: "raw" (the
// bytes as they are), "json" and "avro" (Confluent's wire format with the
// schema in the registry; consuming only).
const (
	FormatRaw  = "raw"
	FormatJSON = "json"
	FormatAvro = "avro"
)

// ConsumeOptions says where to start reading, when to stop and how to print
// records.
type ConsumeOptions struct {
	// FromBeginning reads from the first record kept; else only records
	// written after the start are read.
	FromBeginning bool
	// MaxMessages stops after that many records; 0 reads on.
	MaxMessages int
	// Timeout stops when no record arrives for that long; 0 waits for ever
	// (until the context ends).
	Timeout time.Duration
	// PrintKey prints each record's key and KeySeparator before the value.
	PrintKey     bool
	KeySeparator string
	// KeyFormat and ValueFormat are FormatRaw, FormatJSON or FormatAvro.
	KeyFormat, ValueFormat string
	// Registry is the Schema Registry URL, for FormatAvro.
	Registry string
}

// decodeFunc appends the printed form of a key or value to dst.
type decodeFunc func(ctx context.Context, dst, data []byte) ([]byte, error)

// decoder returns the decodeFunc of the named format; reg decodes Avro.
func decoder(format string, reg *registryDecoder) (decodeFunc, error) {
	switch format {
	case FormatRaw:
		return func(_ context.Context, dst, data []byte) ([]byte, error) { return append(dst, data...), nil }, nil
	case FormatJSON:
		return appendCompactJSON, nil
	case FormatAvro:
		return reg.appendJSON, nil
	}
	return nil, fmt.Errorf("unknown format '%s'; supported formats: raw, json, avro", format)
}

// appendCompactJSON appends a JSON document on one line. A Confluent
// wire-format header (JSON Schema serializers write one) is skipped.
func appendCompactJSON(_ context.Context, dst, data []byte) ([]byte, error) {
	if len(data) >= confluentHeaderSize && data[0] == 0 {
		data = data[confluentHeaderSize:]
	}
	buf := bytes.NewBuffer(dst)
	if err := json.Compact(buf, data); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	return buf.Bytes(), nil
}

// Consume prints the topic's records to w, one a line, the way
// kafka-avro-console-consumer does (a null key or value prints as null),
// and returns how many it printed. It ends after opts.MaxMessages records,
// after opts.Timeout without a record, or when ctx ends; none of these is
// an error.
func (c *Client) Consume(ctx context.Context, name string, opts ConsumeOptions, w io.Writer) (int, error) {
	var reg *registryDecoder
	if opts.ValueFormat == FormatAvro || opts.PrintKey && opts.KeyFormat == FormatAvro {
		var err error
		if reg, err = newRegistryDecoder(opts.Registry); err != nil {
			return 0, err
		}
	}
	value, err := decoder(opts.ValueFormat, reg)
	if err != nil {
		return 0, fmt.Errorf("value format: %w", err)
	}
	var key decodeFunc
	if opts.PrintKey {
		if key, err = decoder(opts.KeyFormat, reg); err != nil {
			return 0, fmt.Errorf("key format: %w", err)
		}
	}
	if err := c.exists(ctx, name); err != nil {
		return 0, err
	}
	start := kgo.NewOffset().AtEnd()
	if opts.FromBeginning {
		start = kgo.NewOffset().AtStart()
	}
	cl, err := kgo.NewClient(slices.Concat(c.opts, []kgo.Opt{kgo.ConsumeTopics(name), kgo.ConsumeResetOffset(start)})...)
	if err != nil {
		return 0, fmt.Errorf("topic '%s': %w", name, err)
	}
	defer cl.Close()

	n := 0
	var line []byte
	for opts.MaxMessages <= 0 || n < opts.MaxMessages {
		pctx, cancel := ctx, context.CancelFunc(func() {})
		if opts.Timeout > 0 {
			pctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		}
		limit := -1
		if opts.MaxMessages > 0 {
			limit = opts.MaxMessages - n
		}
		fs := cl.PollRecords(pctx, limit)
		stop := pctx.Err() != nil // timed out or interrupted
		cancel()
		for _, fe := range fs.Errors() {
			if errors.Is(fe.Err, context.Canceled) || errors.Is(fe.Err, context.DeadlineExceeded) {
				continue
			}
			return n, fmt.Errorf("topic '%s' partition %d: %w", name, fe.Partition, fe.Err)
		}
		recs := fs.Records()
		for _, rec := range recs {
			line = line[:0]
			if key != nil {
				if line, err = appendField(ctx, line, rec.Key, key); err != nil {
					return n, recordError(rec, "key", err)
				}
				line = append(line, opts.KeySeparator...)
			}
			if line, err = appendField(ctx, line, rec.Value, value); err != nil {
				return n, recordError(rec, "value", err)
			}
			if _, err := w.Write(append(line, '\n')); err != nil {
				return n, err
			}
			n++
		}
		if len(recs) == 0 && stop {
			return n, nil
		}
	}
	return n, nil
}

// appendField appends a printed key or value; a Kafka null prints as null.
func appendField(ctx context.Context, dst, data []byte, decode decodeFunc) ([]byte, error) {
	if data == nil {
		return append(dst, "null"...), nil
	}
	return decode(ctx, dst, data)
}

// recordError names the record that could not be printed.
func recordError(rec *kgo.Record, what string, err error) error {
	return fmt.Errorf("topic '%s' partition %d offset %d: %s: %w", rec.Topic, rec.Partition, rec.Offset, what, err)
}
