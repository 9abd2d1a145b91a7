package kafka

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The Kafka client timeouts Sluice honours, with the Java client's defaults
// (ConsumerConfig, ProducerConfig). Each is a 'properties.<name>' option.
const (
	// propAPITimeout bounds how long the brokers may stay unreachable
	// while a source reads (the consumer's blocking calls fail after it).
	propAPITimeout    = "default.api.timeout.ms"
	defaultAPITimeout = 60 * time.Second
	// propCommitInterval is how often a source commits the offsets of
	// what it emitted to 'properties.group.id'.
	propCommitInterval    = "auto.commit.interval.ms"
	defaultCommitInterval = 5 * time.Second
	// propDeliveryTimeout bounds the time from handing a record to the
	// client until the broker acknowledges it.
	propDeliveryTimeout    = "delivery.timeout.ms"
	defaultDeliveryTimeout = 2 * time.Minute
	// propMaxBlock bounds how long a sink waits for its topic's metadata
	// when it starts and for room in the client's buffer.
	propMaxBlock    = "max.block.ms"
	defaultMaxBlock = time.Minute
	// propRequestTimeout bounds the wait for the answer to a request.
	propRequestTimeout    = "request.timeout.ms"
	defaultRequestTimeout = 30 * time.Second
	// propTxnTimeout is how long the broker keeps an exactly-once sink's
	// transaction open before aborting it; Flink's KafkaSink sets one
	// hour (KafkaSinkBuilder), above the broker's default
	// transaction.max.timeout.ms of 15 minutes.
	propTxnTimeout    = "transaction.timeout.ms"
	defaultTxnTimeout = time.Hour
	propLinger        = "linger.ms"
)

// commitTimeout bounds one attempt to commit offsets, and the final commit
// of a stopping source (the API timeout when that is shorter).
const commitTimeout = 5 * time.Second

// parseMillis reads a number of milliseconds: a Java int, as the Kafka
// clients' timeouts are.
func parseMillis(v string) (time.Duration, error) {
	ms, err := strconv.ParseInt(v, 10, 32)
	if err != nil || ms < 0 {
		return 0, errors.New("expected a number of milliseconds from 0 to 2147483647")
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// millisProperty validates a property Sluice reads itself (see duration).
func millisProperty(v string, _ map[string]string) ([]kgo.Opt, error) {
	_, err := parseMillis(v)
	return nil, err
}

// requestTimeoutProperty maps 'request.timeout.ms' to franz-go's client-side
// limit on every answer (RequestTimeoutOverhead, which the client adds to
// the wait a request itself carries) and to the time the broker may take to
// acknowledge a produce request (ProduceRequestTimeout), which the Java
// producer also sets to request.timeout.ms. franz-go needs at least 100 ms.
func requestTimeoutProperty(v string, _ map[string]string) ([]kgo.Opt, error) {
	d, err := parseMillis(v)
	if err != nil {
		return nil, err
	}
	if d < 100*time.Millisecond {
		return nil, errors.New("the Kafka client Sluice uses needs at least 100 milliseconds")
	}
	return []kgo.Opt{kgo.RequestTimeoutOverhead(d), kgo.ProduceRequestTimeout(d)}, nil
}

// deliveryTimeoutProperty validates 'delivery.timeout.ms' with the Java
// producer's rule (KafkaProducer.configureDeliveryTimeout): it must cover
// linger.ms plus request.timeout.ms.
func deliveryTimeoutProperty(v string, props map[string]string) ([]kgo.Opt, error) {
	d, err := parseMillis(v)
	if err != nil {
		return nil, err
	}
	// The other two are validated by their own mappers.
	linger, _ := parseMillis(props[propLinger])
	request := defaultRequestTimeout
	if r, err := parseMillis(props[propRequestTimeout]); err == nil {
		request = r
	}
	if d < linger+request {
		return nil, fmt.Errorf("it should be equal to or larger than 'properties.%s' + 'properties.%s' (%d ms)",
			propLinger, propRequestTimeout, (linger + request).Milliseconds())
	}
	return nil, nil
}

// duration reads a millisecond property, def when it is unset. The value
// was validated with the table's options.
func (c *tableConfig) duration(name string, def time.Duration) time.Duration {
	v, ok := c.props[name]
	if !ok {
		return def
	}
	d, err := parseMillis(v)
	if err != nil {
		return def
	}
	return d
}

// describeTimeout names a timeout property and its value.
func describeTimeout(name string, d time.Duration) string {
	return fmt.Sprintf("%d ms ('properties.%s')", d.Milliseconds(), name)
}

// brokerHealth follows a client's exchanges with the brokers through
// franz-go's hooks: since when requests have been failing (a dial, a write
// or a read that failed, with no request answered since) and the last
// failure. It implements kgo.HookBrokerConnect and kgo.HookBrokerE2E.
type brokerHealth struct {
	mu           sync.Mutex
	failingSince time.Time // zero while the brokers answer
	lastErr      error
}

// OnBrokerConnect implements kgo.HookBrokerConnect.
func (h *brokerHealth) OnBrokerConnect(_ kgo.BrokerMetadata, _ time.Duration, _ net.Conn, err error) {
	if err != nil {
		h.record(err)
	}
}

// OnBrokerE2E implements kgo.HookBrokerE2E.
func (h *brokerHealth) OnBrokerE2E(_ kgo.BrokerMetadata, _ int16, e kgo.BrokerE2E) {
	h.record(e.Err())
}

// record notes an answered request (nil) or a failed one.
func (h *brokerHealth) record(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err == nil {
		h.failingSince = time.Time{}
		return
	}
	if h.failingSince.IsZero() {
		h.failingSince = time.Now()
	}
	h.lastErr = err
}

// failing returns the last failure if no request has been answered since
// the first failure, and how long ago that was.
func (h *brokerHealth) failing(now time.Time) (time.Duration, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.failingSince.IsZero() {
		return 0, nil
	}
	return now.Sub(h.failingSince), h.lastErr
}

// transient reports whether err may go away by itself: a broker that
// refuses or drops connections or does not answer in time (down or
// restarting), or a Kafka error the protocol marks retriable. A failed TLS
// handshake or SASL authentication is not: the Java producer fails at once
// on those too.
func transient(err error) bool {
	var ne net.Error
	return kerr.IsRetriable(err) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.As(err, &ne) && ne.Timeout()
}
