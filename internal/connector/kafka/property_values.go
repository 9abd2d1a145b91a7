package kafka

// Validation of Kafka client property values, as Kafka's ConfigDef types
// and validators do, and their mapping to franz-go options.

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/twmb/franz-go/pkg/kgo"
)

// number is the type and range of a numeric property: Kafka's (a Java int
// or long, with the bounds of its validator) and, where franz-go takes
// less, the client's (a zero bound is Kafka's).
type number struct {
	unit                 string // "milliseconds", "bytes"; empty for a plain number
	min, max             int64
	clientMin, clientMax int64
}

var (
	intMillis  = number{unit: "milliseconds", min: 0, max: javaInt}
	longMillis = number{unit: "milliseconds", min: 0, max: javaLong, clientMax: maxMillis}
)

func (n number) parse(v string) (int64, error) {
	what := "an integer"
	if n.unit != "" {
		what = "a number of " + n.unit
	}
	x, err := strconv.ParseInt(v, 10, 64)
	if err != nil || x < n.min || x > n.max {
		return 0, fmt.Errorf("expected %s from %d to %d", what, n.min, n.max)
	}
	lo, hi := n.min, n.max
	if n.clientMin != 0 {
		lo = n.clientMin
	}
	if n.clientMax != 0 {
		hi = n.clientMax
	}
	if x < lo || x > hi {
		return 0, fmt.Errorf("the Kafka client Sluice uses takes %d to %d %s", lo, hi, n.unit)
	}
	return x, nil
}

// numeric maps a numeric property with opts (nil when the value is only
// validated here and read elsewhere).
func numeric(n number, opts func(x int64, props map[string]string) []kgo.Opt) mapper {
	return func(v string, props map[string]string) ([]kgo.Opt, error) {
		x, err := n.parse(v)
		if err != nil || opts == nil {
			return nil, err
		}
		return opts(x, props), nil
	}
}

// millis maps a number of milliseconds to a duration option.
func millis[O kgo.Opt](opt func(time.Duration) O) func(int64, map[string]string) []kgo.Opt {
	return func(ms int64, _ map[string]string) []kgo.Opt {
		return []kgo.Opt{opt(time.Duration(ms) * time.Millisecond)}
	}
}

// bytes32 maps a Java int number of bytes to an option.
func bytes32[O kgo.Opt](opt func(int32) O) func(int64, map[string]string) []kgo.Opt {
	return func(n int64, _ map[string]string) []kgo.Opt { return []kgo.Opt{opt(int32(n))} }
}

// parseBool reads a Kafka boolean, whose case does not matter.
func parseBool(v string) (bool, error) {
	switch {
	case strings.EqualFold(v, "true"):
		return true, nil
	case strings.EqualFold(v, "false"):
		return false, nil
	}
	return false, errors.New("expected true or false")
}

// boolean maps a boolean property with opts (nil: validated only).
func boolean(opts func(bool) []kgo.Opt) mapper {
	return func(v string, _ map[string]string) ([]kgo.Opt, error) {
		b, err := parseBool(v)
		if err != nil || opts == nil {
			return nil, err
		}
		return opts(b), nil
	}
}

// onlyTrue and onlyFalse accept the one boolean value Sluice behaves as,
// and refuse the other with reason.
func onlyTrue(reason string) mapper  { return onlyBool(true, reason) }
func onlyFalse(reason string) mapper { return onlyBool(false, reason) }

func onlyBool(want bool, reason string) mapper {
	return func(v string, _ map[string]string) ([]kgo.Opt, error) {
		b, err := parseBool(v)
		if err != nil {
			return nil, err
		}
		if b != want {
			return nil, errors.New(reason)
		}
		return nil, nil
	}
}

// oneOf accepts the listed values.
func oneOf(allowed ...string) mapper {
	return func(v string, _ map[string]string) ([]kgo.Opt, error) {
		if !slices.Contains(allowed, v) {
			return nil, fmt.Errorf("expected one of %s", strings.Join(allowed, ", "))
		}
		return nil, nil
	}
}

// only accepts value, the one of Kafka's values (with others, compared
// without case) that Sluice behaves as, and refuses the others with why.
func only(value string, others []string, why string) mapper {
	return func(v string, _ map[string]string) ([]kgo.Opt, error) {
		switch {
		case strings.EqualFold(v, value):
			return nil, nil
		case slices.ContainsFunc(others, func(o string) bool { return strings.EqualFold(v, o) }):
			return nil, errors.New("not supported: " + why)
		}
		return nil, fmt.Errorf("expected %s", strings.Join(append([]string{value}, others...), " or "))
	}
}

// emptyList accepts an empty list of classes, Kafka's default, and
// refuses any class with reason.
func emptyList(reason string) mapper {
	return func(v string, _ map[string]string) ([]kgo.Opt, error) {
		if strings.TrimSpace(v) != "" {
			return nil, errors.New(reason)
		}
		return nil, nil
	}
}

func nonEmpty(v string, _ map[string]string) ([]kgo.Opt, error) {
	if v == "" {
		return nil, errors.New("expected a non-empty string")
	}
	return nil, nil
}

// byteArrayClass accepts Kafka's byte array (de)serializer class, the one
// Flink sets, possibly shaded.
func byteArrayClass(class string) mapper {
	return func(v string, _ map[string]string) ([]kgo.Opt, error) {
		if !isClass(v, class) {
			return nil, fmt.Errorf("not supported: records are encoded and decoded by the table's formats; the only class is %s, which Flink sets", class)
		}
		return nil, nil
	}
}

func seedBrokers(v string, _ map[string]string) ([]kgo.Opt, error) {
	var seeds []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			seeds = append(seeds, s)
		}
	}
	if len(seeds) == 0 {
		return nil, errors.New("no broker address")
	}
	return []kgo.Opt{kgo.SeedBrokers(seeds...)}, nil
}

// clientID names the client to the brokers. Empty, Kafka's default, keeps
// franz-go's name.
func clientID(v string, _ map[string]string) ([]kgo.Opt, error) {
	switch {
	case v == "":
		return nil, nil
	case len(v) > 256:
		return nil, errors.New("the Kafka client Sluice uses takes at most 256 bytes")
	}
	return []kgo.Opt{kgo.ClientID(v)}, nil
}

// clientRack is the rack brokers may serve fetches from (KIP-392). Empty,
// Kafka's default, is no rack.
func clientRack(v string, _ map[string]string) ([]kgo.Opt, error) {
	switch {
	case v == "":
		return nil, nil
	case len(v) > 512:
		return nil, errors.New("the Kafka client Sluice uses takes at most 512 bytes")
	}
	return []kgo.Opt{kgo.Rack(v)}, nil
}

// metadataMaxAge also lowers franz-go's minimum time between metadata
// requests (5 s) when the maximum age is shorter.
func metadataMaxAge(ms int64, _ map[string]string) []kgo.Opt {
	d := time.Duration(ms) * time.Millisecond
	opts := []kgo.Opt{kgo.MetadataMaxAge(d)}
	if d < 5*time.Second {
		opts = append(opts, kgo.MetadataMinAge(d))
	}
	return opts
}

// socketBuffer validates send.buffer.bytes and receive.buffer.bytes, read
// by the dialer: -1 keeps the system's size; Java fails to connect with 0.
func socketBuffer(v string, _ map[string]string) ([]kgo.Opt, error) {
	n, err := number{unit: "bytes", min: -1, max: javaInt}.parse(v)
	if err == nil && n == 0 {
		err = errors.New("expected -1 (the system's default) or a positive number of bytes")
	}
	return nil, err
}

// fetchMaxBytes also raises the largest response the client reads
// (100 MiB) to twice fetch.max.bytes, as franz-go advises: a response
// holds at least one batch, however large.
func fetchMaxBytes(n int64, _ map[string]string) []kgo.Opt {
	opts := []kgo.Opt{kgo.FetchMaxBytes(int32(n))}
	if 2*n > 100<<20 {
		opts = append(opts, kgo.BrokerMaxReadBytes(int32(min(2*n, 1<<30))))
	}
	return opts
}

// bufferMemory bounds the bytes of records the client holds. Like Java's
// producer, franz-go fails a record larger than the buffer at once.
func bufferMemory(n int64, _ map[string]string) []kgo.Opt {
	return []kgo.Opt{kgo.MaxBufferedBytes(int(min(n, math.MaxInt)))}
}

func isolationLevel(v string, _ map[string]string) ([]kgo.Opt, error) {
	switch v {
	case "read_uncommitted":
		return []kgo.Opt{kgo.FetchIsolationLevel(kgo.ReadUncommitted())}, nil
	case "read_committed":
		return []kgo.Opt{kgo.FetchIsolationLevel(kgo.ReadCommitted())}, nil
	}
	return nil, errors.New("expected read_uncommitted or read_committed")
}

// explicitIdempotence tells whether enable.idempotence is set to true:
// settings that would disable idempotence are then errors, as in Java's
// ProducerConfig.
func explicitIdempotence(props map[string]string) bool {
	v, ok := props[propIdempotence]
	b, err := parseBool(v)
	return ok && err == nil && b
}

// idempotent tells whether the producer writes idempotently, as Java's
// producer (Kafka 3.x) decides: by default, unless acks is not all,
// retries is 0 or more than 5 requests may be in flight.
func idempotent(props map[string]string) bool {
	if v, ok := props[propIdempotence]; ok {
		b, _ := parseBool(v)
		return b
	}
	if a, ok := props[propAcks]; ok && a != "all" && a != "-1" {
		return false
	}
	if retriesZero(props) {
		return false
	}
	n, err := strconv.Atoi(props[propInFlight])
	return err != nil || n <= 5
}

func idempotenceOption(v string, _ map[string]string) ([]kgo.Opt, error) {
	b, err := parseBool(v)
	if err != nil || b {
		return nil, err
	}
	return []kgo.Opt{kgo.DisableIdempotentWrite()}, nil
}

func acksOption(v string, props map[string]string) ([]kgo.Opt, error) {
	var acks kgo.Acks
	switch v {
	case "all", "-1":
		return []kgo.Opt{kgo.RequiredAcks(kgo.AllISRAcks())}, nil
	case "1":
		acks = kgo.LeaderAck()
	case "0":
		acks = kgo.NoAck()
	default:
		return nil, errors.New("expected all, -1, 1 or 0")
	}
	if explicitIdempotence(props) {
		return nil, errors.New("idempotence requires acks=all")
	}
	return []kgo.Opt{kgo.RequiredAcks(acks), kgo.DisableIdempotentWrite()}, nil
}

// retriesOption maps retries to the times the sink retries a record. 0
// disables idempotence, as in Java.
func retriesOption(v string, props map[string]string) ([]kgo.Opt, error) {
	n, err := number{min: 0, max: javaInt}.parse(v)
	switch {
	case err != nil:
		return nil, err
	case n > 0:
		return []kgo.Opt{kgo.RecordRetries(int(n))}, nil
	case explicitIdempotence(props):
		return nil, errors.New("idempotence requires retries above 0")
	}
	return []kgo.Opt{kgo.RecordRetries(0), kgo.DisableIdempotentWrite()}, nil
}

// inFlightOption maps max.in.flight.requests.per.connection. Idempotent
// writes keep up to 5 requests in flight per broker (the most Kafka
// allows them), in order; more disables idempotence, as in Java. Fewer
// can only be kept without idempotence.
func inFlightOption(v string, props map[string]string) ([]kgo.Opt, error) {
	n, err := number{min: 1, max: javaInt}.parse(v)
	switch {
	case err != nil:
		return nil, err
	case n > 5 && explicitIdempotence(props):
		return nil, errors.New("idempotence requires at most 5")
	case !idempotent(props):
		return []kgo.Opt{kgo.DisableIdempotentWrite(), kgo.MaxProduceRequestsInflightPerBroker(int(n))}, nil
	case n < 5:
		return nil, fmt.Errorf("with idempotent writes the Kafka client Sluice uses keeps up to 5 requests in flight per broker, in order; "+
			"set '%s%s' to 'false' to keep fewer", propertiesPrefix, propIdempotence)
	}
	return nil, nil
}

// compressionOption maps compression.type. The client options are shared
// by every client of a table, made concurrently, and a client rewrites its
// list of codecs in place when it builds its compressor: the compressor is
// built here once instead (safe for concurrent use), and none is an empty
// list.
func compressionOption(v string, props map[string]string) ([]kgo.Opt, error) {
	var c kgo.CompressionCodec
	switch v {
	case "none":
		return []kgo.Opt{noCompression()}, nil
	case "gzip":
		c = kgo.GzipCompression()
		if l, err := strconv.Atoi(props[propGzipLevel]); err == nil {
			c = c.WithLevel(l)
		}
	case "snappy":
		c = kgo.SnappyCompression()
	case "lz4":
		c = kgo.Lz4Compression()
	case "zstd":
		c = kgo.ZstdCompression()
		if l, err := strconv.Atoi(props[propZstdLevel]); err == nil {
			// Go's zstd encoder has four speeds; zstd's levels map to them.
			c = c.WithLevel(int(zstd.EncoderLevelFromZstd(l)))
		}
	default:
		return nil, errors.New("expected none, gzip, snappy, lz4 or zstd")
	}
	comp, err := kgo.DefaultCompressor(c)
	if err != nil {
		return nil, err
	}
	return []kgo.Opt{kgo.ProducerBatchCompression(c), kgo.WithCompressor(comp)}, nil
}

// noCompression produces uncompressed batches.
func noCompression() kgo.Opt { return kgo.ProducerBatchCompression() }

// compressionLevel validates a codec's level, which takes effect only
// with that codec (Kafka ignores it otherwise); compression.type applies
// it.
func compressionLevel(codec string, n number) mapper {
	return func(v string, props map[string]string) ([]kgo.Opt, error) {
		l, err := n.parse(v)
		switch {
		case err != nil:
			return nil, err
		case codec == "gzip" && l == 0:
			return nil, errors.New("expected -1 (the default) or an integer from 1 to 9")
		case props[propCompression] != codec:
			return nil, fmt.Errorf("takes effect only with '%s%s' = '%s'", propertiesPrefix, propCompression, codec)
		}
		return nil, nil
	}
}

// availabilityTimeout accepts 0, Kafka's default: franz-go's partitioner
// has no availability timeout.
func availabilityTimeout(v string, _ map[string]string) ([]kgo.Opt, error) {
	n, err := number{unit: "milliseconds", min: 0, max: javaLong}.parse(v)
	if err == nil && n != 0 {
		err = errors.New("not supported: the Kafka client Sluice uses has no partition availability timeout; only 0 (off, the default)")
	}
	return nil, err
}

func groupProtocol(v string, _ map[string]string) ([]kgo.Opt, error) {
	if !strings.EqualFold(v, "classic") && !strings.EqualFold(v, "consumer") {
		return nil, errors.New("expected classic or consumer")
	}
	return nil, nil
}

// remoteAssignor is refused with the classic group protocol, as in Java.
func remoteAssignor(v string, props map[string]string) ([]kgo.Opt, error) {
	if p := props["group.protocol"]; v != "" && (p == "" || strings.EqualFold(p, "classic")) {
		return nil, fmt.Errorf("cannot be set when '%sgroup.protocol' is classic", propertiesPrefix)
	}
	return nil, nil
}

// assignors accepts Kafka's partition assignors.
func assignors(v string, _ map[string]string) ([]kgo.Opt, error) {
	for _, a := range strings.Split(v, ",") {
		a = strings.TrimSpace(a)
		if !slices.ContainsFunc([]string{"RangeAssignor", "RoundRobinAssignor", "StickyAssignor", "CooperativeStickyAssignor"},
			func(c string) bool { return isClass(a, "org.apache.kafka.clients.consumer."+c) }) {
			return nil, fmt.Errorf("not supported: '%s' is not one of Kafka's assignors (Java classes are not available)", a)
		}
	}
	return nil, nil
}
