package kafka

// The Kafka client configurations a table takes as 'properties.<name>'
// options: every configuration of Kafka 3.9's consumer, producer and admin
// client (ConsumerConfig, ProducerConfig, AdminClientConfig and
// CommonClientConfigs), the few client configurations newer Kafka versions
// added, and the ones Flink's Kafka source reads from the same properties
// (KafkaSourceOptions). Each is honoured, accepted without effect as in
// Flink, or refused by name with the reason; the ssl.* and sasl.* ones are
// read by tls.go and sasl.go.
//
// Any other name is not a Kafka client configuration. Kafka's clients log
// such names and ignore them; Flink's SQL connector passes 'properties.*'
// to them and documents that the names must be Kafka configurations (no
// pass-through of other keys), so Sluice refuses them, naming the closest
// known one.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"time"

	"github.com/sluicesql/sluice/internal/textdist"
	"github.com/twmb/franz-go/pkg/kgo"
)

// propertyClass is what Sluice does with a Kafka client property.
type propertyClass uint8

const (
	// honoured: the table's clients behave as Kafka's do with the
	// property, through the franz-go option that does the same or through
	// Sluice's source and sink. Values Sluice cannot honour are refused
	// with the reason.
	honoured propertyClass = iota
	// overridden: the value is validated as Kafka does, and has no effect,
	// as in Flink: Flink overrides the property, or its source never uses
	// it (the source assigns partitions itself and joins no consumer
	// group).
	overridden
	// refused: a table that sets it is refused, with the reason.
	refused
)

// mapper validates a property's value as Kafka's client does and returns
// the franz-go options it maps to; props are all the table's properties.
type mapper func(v string, props map[string]string) ([]kgo.Opt, error)

// property is one Kafka client configuration.
type property struct {
	class propertyClass
	apply mapper
}

// honour, noEffect and refuse make the table's entries of each class;
// refuseUnless, a refused property whose mapper accepts Kafka's default.
func honour(m mapper) property       { return property{honoured, m} }
func noEffect(m mapper) property     { return property{overridden, m} }
func refuse(reason string) property  { return property{refused, reject(reason)} }
func refuseUnless(m mapper) property { return property{refused, m} }
func reject(reason string) mapper {
	return func(string, map[string]string) ([]kgo.Opt, error) { return nil, errors.New(reason) }
}
func noOption(string, map[string]string) ([]kgo.Opt, error) { return nil, nil }

// Properties read in several places.
const (
	propAcks           = "acks"
	propIdempotence    = "enable.idempotence"
	propRetries        = "retries"
	propInFlight       = "max.in.flight.requests.per.connection"
	propCompression    = "compression.type"
	propGzipLevel      = "compression.gzip.level"
	propZstdLevel      = "compression.zstd.level"
	propBatchSize      = "batch.size"
	propAdaptive       = "partitioner.adaptive.partitioning.enable"
	propIgnoreKeys     = "partitioner.ignore.keys"
	propAvailability   = "partitioner.availability.timeout.ms"
	propRetryBackoff   = "retry.backoff.ms"
	propRetryMax       = "retry.backoff.max.ms"
	propAutoCommit     = "enable.auto.commit"
	propCommitOnCkpt   = "commit.offsets.on.checkpoint"
	propIsolationLevel = "isolation.level"
)

const (
	javaInt  = math.MaxInt32
	javaLong = math.MaxInt64
	// maxMillis is the longest time.Duration in milliseconds.
	maxMillis = math.MaxInt64 / int64(time.Millisecond)
)

// Reasons shared by several refused properties.
const (
	noMetrics    = "not supported: Sluice does not report the Kafka clients' metrics"
	javaInternal = "not supported: an internal setting of Kafka's Java consumer"
)

// kafkaProperties are the Kafka client configurations, by name.
var kafkaProperties = withSecurityProperties(map[string]property{
	// Common to the consumer, the producer and the admin client.
	"bootstrap.servers": honour(seedBrokers),
	"client.dns.lookup": honour(only("use_all_dns_ips", []string{"resolve_canonical_bootstrap_servers_only"},
		"Sluice connects to the bootstrap servers as given, trying every address a name resolves to (use_all_dns_ips)")),
	"client.id":               honour(clientID),
	"connections.max.idle.ms": honour(numeric(number{unit: "milliseconds", min: math.MinInt64, max: javaLong, clientMin: 100, clientMax: 900000}, millis(kgo.ConnIdleTimeout))),
	propAPITimeout:            honour(numeric(intMillis, millis(kgo.RetryTimeout))), // and the source, see faults.go
	"enable.metrics.push": honour(boolean(func(push bool) []kgo.Opt {
		if push {
			return nil
		}
		return []kgo.Opt{kgo.DisableClientMetrics()}
	})),
	"metadata.max.age.ms": honour(numeric(number{unit: "milliseconds", min: 0, max: javaLong, clientMin: 10, clientMax: 3600000}, metadataMaxAge)),
	"metadata.recovery.strategy": honour(only("rebootstrap", []string{"none"},
		"the Kafka client Sluice uses goes back to the bootstrap servers when no broker it knows answers (rebootstrap)")),
	// Read when a connection is opened, see dial.go.
	propConnectTimeout:    honour(numeric(number{unit: "milliseconds", min: math.MinInt64, max: javaLong, clientMin: 1, clientMax: maxMillis}, nil)),
	propConnectTimeoutMax: honour(numeric(number{unit: "milliseconds", min: math.MinInt64, max: javaLong, clientMin: 1, clientMax: maxMillis}, nil)),
	propSendBuffer:        honour(socketBuffer),
	propReceiveBuffer:     honour(socketBuffer),
	// Timeouts the source and the sink enforce, see faults.go.
	propRequestTimeout: honour(requestTimeoutProperty),
	// Read with retry.backoff.max.ms, see derivedOptions.
	propRetryBackoff:    honour(numeric(longMillis, nil)),
	propRetryMax:        honour(numeric(longMillis, nil)),
	securityProtocolKey: honour(securityOptions),
	// Sluice has no metrics: turning them off is what it does.
	"auto.include.jmx.reporter": honour(onlyFalse(noMetrics)),

	// Consumer.
	propCommitInterval: honour(millisProperty), // read by the source
	"allow.auto.create.topics": honour(onlyTrue("not supported yet: Sluice creates the missing topics of a table, " +
		"as a broker with auto.create.topics.enable does")),
	"auto.offset.reset": honour(oneOf("earliest", "latest", "none")), // read by the source for 'group-offsets'
	"check.crcs": honour(boolean(func(check bool) []kgo.Opt {
		if check {
			return nil
		}
		return []kgo.Opt{kgo.DisableFetchCRCValidation()}
	})),
	"client.rack": honour(clientRack),
	// A source with group.id commits the offsets of the rows it emitted
	// when a checkpoint completes, as Flink's does (its
	// commit.offsets.on.checkpoint), or every auto.commit.interval.ms in a
	// job without checkpoints. false is Flink's default: the Kafka client
	// does not commit by itself; true asks for the Java consumer's own
	// periodic commits besides the checkpoints'.
	propAutoCommit: honour(onlyFalse("not supported yet: a source with 'properties.group.id' commits the offsets of the rows it emitted " +
		"when a checkpoint completes, or every 'properties.auto.commit.interval.ms' in a job without checkpoints")),
	"fetch.max.bytes":           honour(numeric(number{unit: "bytes", min: 0, max: javaInt, clientMax: 1 << 30}, fetchMaxBytes)),
	"fetch.max.wait.ms":         honour(numeric(number{unit: "milliseconds", min: 0, max: javaInt, clientMin: 10}, millis(kgo.FetchMaxWait))),
	"fetch.min.bytes":           honour(numeric(number{unit: "bytes", min: 0, max: javaInt}, bytes32(kgo.FetchMinBytes))),
	"group.id":                  honour(noOption), // read by the source
	propIsolationLevel:          honour(isolationLevel),
	"max.partition.fetch.bytes": honour(numeric(number{unit: "bytes", min: 0, max: javaInt}, bytes32(kgo.FetchMaxPartitionBytes))),

	// Producer.
	propAcks:        honour(acksOption),
	propBatchSize:   honour(numeric(number{unit: "bytes", min: 0, max: javaInt}, nil)), // the partitioner's, see derivedOptions
	"buffer.memory": honour(numeric(number{unit: "bytes", min: 0, max: javaLong, clientMin: 1}, bufferMemory)),
	propCompression: honour(compressionOption),
	propGzipLevel:   honour(compressionLevel("gzip", number{min: -1, max: 9})),
	propZstdLevel:   honour(compressionLevel("zstd", number{min: -131072, max: 22})),
	propIdempotence: honour(idempotenceOption),
	propInFlight:    honour(inFlightOption),
	propLinger:      honour(numeric(number{unit: "milliseconds", min: 0, max: javaLong, clientMax: 60000}, millis(kgo.ProducerLinger))),
	"max.request.size": honour(numeric(number{unit: "bytes", min: 0, max: javaInt, clientMin: 1 << 10, clientMax: 1 << 30}, func(n int64, _ map[string]string) []kgo.Opt {
		return []kgo.Opt{kgo.BrokerMaxWriteBytes(int32(n)), kgo.ProducerBatchMaxBytes(int32(n))}
	})),
	propAdaptive:     honour(boolean(nil)), // the partitioner's, see derivedOptions
	propIgnoreKeys:   honour(boolean(nil)),
	propAvailability: honour(availabilityTimeout),
	propRetries:      honour(retriesOption),
	// Timeouts the sink enforces, see faults.go.
	propDeliveryTimeout: honour(deliveryTimeoutProperty),
	propMaxBlock:        honour(millisProperty),
	// Read by an exactly-once sink, see sink_txn.go and
	// checkTransactionProperties.
	propTxnTimeout: honour(numeric(intMillis, nil)),
	// Sluice has no metrics: not registering them is what it does.
	"register.producer.metrics": honour(onlyFalse(noMetrics)),

	// Flink's source options, read from the same properties.
	propCommitOnCkpt:            honour(onlyTrue("not supported yet: a source with 'properties.group.id' commits the offsets of the rows it emitted")), // see enable.auto.commit
	"register.consumer.metrics": honour(onlyFalse(noMetrics)),

	// Accepted and validated, without effect, as in Flink. Flink's source
	// assigns partitions itself and joins no consumer group, so that
	// group membership settings do nothing; so does Sluice's.
	"exclude.internal.topics":       noEffect(boolean(nil)),
	"group.instance.id":             noEffect(nonEmpty),
	"group.protocol":                noEffect(groupProtocol),
	"group.remote.assignor":         noEffect(remoteAssignor),
	"heartbeat.interval.ms":         noEffect(numeric(number{unit: "milliseconds", min: math.MinInt32, max: javaInt}, nil)),
	"max.poll.interval.ms":          noEffect(numeric(number{unit: "milliseconds", min: 1, max: javaInt}, nil)),
	"partition.assignment.strategy": noEffect(assignors),
	"session.timeout.ms":            noEffect(numeric(number{unit: "milliseconds", min: math.MinInt32, max: javaInt}, nil)),
	// Records are bytes for the table's formats: Flink sets these to
	// Kafka's byte array (de)serializers, which are accepted.
	"key.deserializer":   noEffect(byteArrayClass("org.apache.kafka.common.serialization.ByteArrayDeserializer")),
	"value.deserializer": noEffect(byteArrayClass("org.apache.kafka.common.serialization.ByteArrayDeserializer")),
	"key.serializer":     noEffect(byteArrayClass("org.apache.kafka.common.serialization.ByteArraySerializer")),
	"value.serializer":   noEffect(byteArrayClass("org.apache.kafka.common.serialization.ByteArraySerializer")),
	// Flink's table factory overrides it with
	// 'scan.topic-partition-discovery.interval'.
	"partition.discovery.interval.ms": noEffect(numeric(number{unit: "milliseconds", min: math.MinInt64, max: javaLong}, nil)),

	// Refused. Empty class lists, Kafka's default, are accepted.
	"bootstrap.controllers":                             refuse("not supported: Sluice's clients talk to brokers; set 'properties.bootstrap.servers'"),
	"bootstrap.resolve.timeout.ms":                      refuse("not supported: the Kafka client Sluice uses resolves broker names when it connects"),
	"client.id.prefix":                                  refuse("not supported yet: a source's clients are named by 'properties.client.id'"),
	"compression.lz4.level":                             refuse("not supported: the Kafka client Sluice uses compresses lz4 at its one level"),
	"config.providers":                                  refuse("not supported: Java config providers are not available"),
	"interceptor.classes":                               refuseUnless(emptyList("not supported: Java interceptor classes are not available")),
	"internal.leave.group.on.close":                     refuse(javaInternal),
	"internal.throw.on.fetch.stable.offset.unsupported": refuse(javaInternal),
	"max.poll.records":                                  refuse("not supported yet: the source polls up to 1024 records at a time"),
	"metadata.max.idle.ms":                              refuse("not supported: the Kafka client Sluice uses keeps the metadata of the topic it writes for as long as it runs"),
	"metadata.recovery.rebootstrap.trigger.ms":          refuse("not supported: the Kafka client Sluice uses asks the bootstrap servers for metadata on its own schedule"),
	"metric.reporters":                                  refuseUnless(emptyList(noMetrics)),
	"metrics.num.samples":                               refuse(noMetrics),
	"metrics.recording.level":                           refuse(noMetrics),
	"metrics.sample.window.ms":                          refuse(noMetrics),
	"partitioner.class":                                 refuse("not supported: Java partitioner classes are not available; use 'sink.partitioner' (default, fixed or round-robin)"),
	"reconnect.backoff.max.ms":                          refuse(noReconnectBackoff),
	"reconnect.backoff.ms":                              refuse(noReconnectBackoff),
	"security.providers":                                refuse("not supported: Java security providers are not available"),
	"transaction.two.phase.commit.enable": refuse("not supported: an exactly-once sink commits the transactions of a restored checkpoint " +
		"with the producer id and epoch it recorded, not with Kafka's two-phase commit (KIP-939)"),
	"transactional.id": refuse("not supported: an exactly-once sink names its transactions after '" + optTxnPrefix + "'"),
})

const noReconnectBackoff = "not supported: the Kafka client Sluice uses waits between attempts to reach a broker with the retry backoff; " +
	"set 'properties.retry.backoff.ms' and 'properties.retry.backoff.max.ms'"

// withSecurityProperties adds the supported ssl.* and sasl.* properties.
// They are read by security.protocol, which needs them all at once; their
// own mappers check that the protocol uses them.
func withSecurityProperties(props map[string]property) map[string]property {
	for _, k := range sslProperties {
		props[k] = honour(needsProtocol(true))
	}
	for _, k := range saslProperties {
		props[k] = honour(needsProtocol(false))
	}
	return props
}

// lookupProperty returns property k, a refusal for the ssl.* and sasl.*
// properties Sluice does not support, or the error of a name that is not a
// Kafka client configuration, with the closest known name.
func lookupProperty(k string) (property, error) {
	if p, ok := kafkaProperties[k]; ok {
		return p, nil
	}
	for _, r := range refusedProperties {
		if r.match(k) {
			return refuse(r.reason), nil
		}
	}
	msg := fmt.Sprintf("Unsupported option '%s%s': not a Kafka client configuration", propertiesPrefix, k)
	if s := closestProperty(k); s != "" {
		msg += fmt.Sprintf("; did you mean '%s%s'?", propertiesPrefix, s)
	}
	return property{}, errors.New(msg)
}

// closestProperty returns the known property name nearest to k by edit
// distance, or "" when none is within a third of k's length.
func closestProperty(k string) string {
	names := make([]string, 0, len(kafkaProperties))
	for name := range kafkaProperties {
		names = append(names, name)
	}
	sort.Strings(names) // ties go to the first name
	best, bestDist := "", max(1, len(k)/3)+1
	for _, name := range names {
		if d := textdist.Levenshtein(k, name); d < bestDist {
			best, bestDist = name, d
		}
	}
	return best
}

// commitsAsked tells whether commit.offsets.on.checkpoint is set to true,
// for which Flink's source (KafkaSourceBuilder) requires group.id.
func commitsAsked(props map[string]string) bool {
	b, err := parseBool(props[propCommitOnCkpt])
	return err == nil && b
}

// partitionerProperties configure the sink's default partitioner.
var partitionerProperties = []string{propBatchSize, propAdaptive, propIgnoreKeys, propAvailability}

// checkPartitionerProperties refuses the partitioner's properties with a
// sink partitioner other than the default one, which would ignore them.
func checkPartitionerProperties(props map[string]string, partitioner string) error {
	if partitioner == partitionDefault {
		return nil
	}
	for _, k := range partitionerProperties {
		if _, ok := props[k]; ok {
			return badProperty(props, k, "takes effect only with '%s' = '%s'", optPartitioner, partitionDefault)
		}
	}
	return nil
}

// checkTransactionProperties refuses transaction.timeout.ms on a table
// whose sink writes no transactions, which would ignore it.
func checkTransactionProperties(props map[string]string, guarantee string) error {
	if _, ok := props[propTxnTimeout]; ok && guarantee != guaranteeExactlyOnce {
		return badProperty(props, propTxnTimeout, "takes effect only with '%s' = '%s'", optGuarantee, guaranteeExactlyOnce)
	}
	return nil
}

// derivedOptions are the options read from several properties at once,
// which their own mappers validated.
func derivedOptions(props map[string]string) []kgo.Opt {
	var opts []kgo.Opt
	// The producer sends as soon as it can, as the Java producer of the
	// Kafka 3.x clients Flink's connector uses (linger.ms 0), rather
	// than after franz-go's default 10 ms: records still batch while a
	// request is in flight, and latency is not spent waiting.
	if _, ok := props[propLinger]; !ok {
		opts = append(opts, kgo.ProducerLinger(0))
	}
	// Nor does it compress unless told to (compression.type none, as
	// Java's ProducerConfig), where franz-go compresses with snappy.
	if _, ok := props[propCompression]; !ok {
		opts = append(opts, noCompression())
	}
	// Kafka's built-in partitioner (KIP-794): records with a key go by the
	// murmur2 hash of the key unless partitioner.ignore.keys; the others
	// stick to a partition for batch.size bytes, then move, preferring
	// less loaded partitions with partitioner.adaptive.partitioning.enable.
	_, b := props[propBatchSize]
	_, a := props[propAdaptive]
	_, k := props[propIgnoreKeys]
	if b || a || k {
		size, adaptive, ignoreKeys := 16384, true, false
		if n, err := strconv.Atoi(props[propBatchSize]); err == nil {
			size = n
		}
		if v, err := parseBool(props[propAdaptive]); err == nil {
			adaptive = v
		}
		if v, err := parseBool(props[propIgnoreKeys]); err == nil {
			ignoreKeys = v
		}
		opts = append(opts, kgo.RecordPartitioner(kgo.UniformBytesPartitioner(size, adaptive, !ignoreKeys, nil)))
	}
	_, rb := props[propRetryBackoff]
	_, rm := props[propRetryMax]
	if rb || rm {
		base := millisOr(props, propRetryBackoff, 100*time.Millisecond)
		ceiling := millisOr(props, propRetryMax, time.Second)
		backoff := exponentialBackoff(base, ceiling)
		// franz-go counts failures from 1, Kafka attempts from 0.
		opts = append(opts, kgo.RetryBackoffFn(func(fails int) time.Duration { return backoff(fails - 1) }))
	}
	if useTLS, _, err := securityProtocol(orDefault(props[securityProtocolKey], "PLAINTEXT")); err == nil && !useTLS && dialerConfigured(props) {
		opts = append(opts, kgo.Dialer(newDialer(props).dialFunc(nil)))
	}
	return opts
}

// millisOr reads a validated millisecond property, def when unset.
func millisOr(props map[string]string, key string, def time.Duration) time.Duration {
	ms, err := strconv.ParseInt(props[key], 10, 64)
	if err != nil {
		return def
	}
	return time.Duration(ms) * time.Millisecond
}

// exponentialBackoff is Kafka's ExponentialBackoff with multiplier 2 and
// jitter 0.2, as its clients use for retry.backoff.ms and
// socket.connection.setup.timeout.ms: attempt n (from 0) waits base·2ⁿ,
// give or take 20%, at most ceiling. A base above the ceiling gives the
// ceiling each time, as Kafka warns it does.
func exponentialBackoff(base, ceiling time.Duration) func(attempt int) time.Duration {
	return func(attempt int) time.Duration {
		if base >= ceiling {
			return ceiling
		}
		d := float64(base) * math.Pow(2, float64(min(max(attempt, 0), 62))) * (0.8 + 0.4*rand.Float64())
		if d >= float64(ceiling) {
			return ceiling
		}
		return time.Duration(d)
	}
}
