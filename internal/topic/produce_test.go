package topic

import (
	"strings"
	"testing"
	"time"
)

func TestProduceThenConsumeRaw(t *testing.T) {
	_, c := start(t)
	ctx := testContext(t)
	if err := c.Create(ctx, "lines", 1, -1, nil); err != nil {
		t.Fatal(err)
	}
	input := "Aliens:1\nDie Hard:{\"n\": 2}\nempty:\n:no key\n"
	n, err := c.Produce(ctx, "lines", ProduceOptions{KeySeparator: ":", ValueFormat: FormatRaw}, strings.NewReader(input))
	if err != nil || n != 4 {
		t.Fatalf("Produce: %d records, %v", n, err)
	}
	var out strings.Builder
	opts := ConsumeOptions{
		FromBeginning: true, MaxMessages: 4, PrintKey: true, KeySeparator: ":",
		KeyFormat: FormatRaw, ValueFormat: FormatRaw,
	}
	if n, err = c.Consume(ctx, "lines", opts, &out); err != nil || n != 4 {
		t.Fatalf("Consume: %d records, %v", n, err)
	}
	if out.String() != input {
		t.Fatalf("consumed\n%s\nwant\n%s", out.String(), input)
	}

	// Values only, as JSON: a bad line stops the input after the lines
	// before it are written, and the error says which line.
	_, err = c.Produce(ctx, "lines", ProduceOptions{ValueFormat: FormatJSON}, strings.NewReader("{\"a\": 1}\n[1, 2]\nnot json\n{}\n"))
	if err == nil || !strings.Contains(err.Error(), "topic 'lines': input line 3: the value is not valid JSON: not json") {
		t.Fatalf("Produce of a bad JSON line: got %v", err)
	}
	out.Reset()
	opts = ConsumeOptions{FromBeginning: true, Timeout: 300 * time.Millisecond, ValueFormat: FormatJSON}
	if _, err = c.Consume(ctx, "lines", opts, &out); err == nil || !strings.Contains(err.Error(), "partition 0 offset 2: value: invalid JSON") {
		t.Fatalf("Consume of raw values as JSON: got %v", err)
	}
	opts.ValueFormat = FormatAvro
	if _, err = c.Consume(ctx, "lines", opts, &out); err == nil || !strings.Contains(err.Error(), "offset 0: value: not in the Confluent Avro wire format") {
		t.Fatalf("Consume of raw values as Avro: got %v", err)
	}
	opts.ValueFormat = "xml"
	if _, err = c.Consume(ctx, "lines", opts, &out); err == nil || err.Error() != "value format: unknown format 'xml'; supported formats: raw, json, avro" {
		t.Fatalf("Consume with an unknown format: got %v", err)
	}
	opts.ValueFormat = FormatRaw
	out.Reset()
	if n, err = c.Consume(ctx, "lines", opts, &out); err != nil || n != 6 {
		t.Fatalf("Consume: %d records, %v", n, err)
	}
	if want := "1\n{\"n\": 2}\n\nno key\n{\"a\": 1}\n[1, 2]\n"; out.String() != want {
		t.Fatalf("consumed\n%s\nwant\n%s", out.String(), want)
	}

	_, err = c.Produce(ctx, "lines", ProduceOptions{KeySeparator: "\t", ValueFormat: FormatRaw}, strings.NewReader("no tab\n"))
	if err == nil || !strings.Contains(err.Error(), `input line 1: no key separator "\t"`) {
		t.Fatalf("Produce of a line without the separator: got %v", err)
	}
	if _, err = c.Produce(ctx, "lines", ProduceOptions{ValueFormat: FormatAvro}, strings.NewReader("x\n")); err == nil {
		t.Fatal("Produce accepted Avro values")
	}
}
