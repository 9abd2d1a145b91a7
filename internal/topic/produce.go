package topic

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/twmb/franz-go/pkg/kgo"
)

// maxLine bounds one input line of Produce.
const maxLine = 16 << 20

// ProduceOptions says how Produce reads records from its input lines.
type ProduceOptions struct {
	// KeySeparator, when set, splits each line at its first occurrence into
	// the record key and value; else lines are values without keys.
	KeySeparator string
	// ValueFormat is FormatRaw (the line as it is) or FormatJSON (the line
	// must be a JSON document).
	ValueFormat string
}

// Produce writes one record per line of r to the topic and returns how many
// were written. It stops at the first line it cannot turn into a record,
// after the records before it are written.
func (c *Client) Produce(ctx context.Context, name string, opts ProduceOptions, r io.Reader) (int, error) {
	switch opts.ValueFormat {
	case FormatRaw, FormatJSON:
	default:
		return 0, fmt.Errorf("value format: unknown format '%s'; supported formats: raw, json", opts.ValueFormat)
	}
	if err := c.exists(ctx, name); err != nil {
		return 0, err
	}
	var (
		mu       sync.Mutex
		written  int
		firstErr error
	)
	done := func(_ *kgo.Record, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err == nil {
			written++
		} else if firstErr == nil {
			firstErr = err
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxLine)
	var lineErr error
	for lineNo := 1; sc.Scan(); lineNo++ {
		rec, err := parseLine(sc.Bytes(), opts)
		if err != nil {
			lineErr = fmt.Errorf("topic '%s': input line %d: %w", name, lineNo, err)
			break
		}
		rec.Topic = name
		c.kc.Produce(ctx, rec, done)
	}
	if lineErr == nil && sc.Err() != nil {
		lineErr = fmt.Errorf("topic '%s': reading input: %w", name, sc.Err())
	}
	flushErr := c.kc.Flush(ctx)
	mu.Lock()
	defer mu.Unlock()
	switch {
	case firstErr != nil:
		return written, fmt.Errorf("topic '%s': producing: %w", name, firstErr)
	case flushErr != nil:
		return written, fmt.Errorf("topic '%s': producing: %w", name, flushErr)
	}
	return written, lineErr
}

// parseLine turns one input line into a record.
func parseLine(line []byte, opts ProduceOptions) (*kgo.Record, error) {
	rec := &kgo.Record{}
	value := line
	if opts.KeySeparator != "" {
		key, rest, ok := bytes.Cut(line, []byte(opts.KeySeparator))
		if !ok {
			return nil, fmt.Errorf("no key separator %q", opts.KeySeparator)
		}
		rec.Key, value = bytes.Clone(key), rest
	}
	if opts.ValueFormat == FormatJSON && !json.Valid(value) {
		return nil, fmt.Errorf("the value is not valid JSON: %s", value)
	}
	rec.Value = bytes.Clone(value)
	return rec, nil
}
