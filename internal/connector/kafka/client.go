package kafka

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// propertyMappers turn Kafka client properties ('properties.<name>') into
// franz-go options. Properties not listed here are accepted and ignored.
var propertyMappers = map[string]func(v string, props map[string]string) ([]kgo.Opt, error){
	"bootstrap.servers": func(v string, _ map[string]string) ([]kgo.Opt, error) {
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
	},
	"group.id":          noOption, // used for committed offsets, see source.go
	"auto.offset.reset": validateOneOf("earliest", "latest", "none"),
	"client.id": func(v string, _ map[string]string) ([]kgo.Opt, error) {
		return []kgo.Opt{kgo.ClientID(v)}, nil
	},
	"isolation.level": func(v string, _ map[string]string) ([]kgo.Opt, error) {
		switch v {
		case "read_uncommitted":
			return []kgo.Opt{kgo.FetchIsolationLevel(kgo.ReadUncommitted())}, nil
		case "read_committed":
			return []kgo.Opt{kgo.FetchIsolationLevel(kgo.ReadCommitted())}, nil
		}
		return nil, errors.New("expected read_uncommitted or read_committed")
	},
	"acks": func(v string, props map[string]string) ([]kgo.Opt, error) {
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
		if props["enable.idempotence"] == "true" {
			return nil, errors.New("idempotence requires acks=all")
		}
		// Idempotent writes need acks from all in-sync replicas.
		return []kgo.Opt{kgo.RequiredAcks(acks), kgo.DisableIdempotentWrite()}, nil
	},
	"enable.idempotence": func(v string, _ map[string]string) ([]kgo.Opt, error) {
		switch v {
		case "true":
			return nil, nil
		case "false":
			return []kgo.Opt{kgo.DisableIdempotentWrite()}, nil
		}
		return nil, errors.New("expected true or false")
	},
	"linger.ms": millisOption(kgo.ProducerLinger),
	// How long requests other than produce requests are retried.
	"default.api.timeout.ms": millisOption(kgo.RetryTimeout),
	"compression.type": func(v string, _ map[string]string) ([]kgo.Opt, error) {
		codecs := map[string]kgo.CompressionCodec{
			"none": kgo.NoCompression(), "gzip": kgo.GzipCompression(), "snappy": kgo.SnappyCompression(),
			"lz4": kgo.Lz4Compression(), "zstd": kgo.ZstdCompression(),
		}
		c, ok := codecs[v]
		if !ok {
			return nil, errors.New("expected none, gzip, snappy, lz4 or zstd")
		}
		return []kgo.Opt{kgo.ProducerBatchCompression(c)}, nil
	},
	"security.protocol": securityOptions,
	"sasl.mechanism":    noOption, // read by security.protocol
	"sasl.jaas.config":  noOption, // read by security.protocol
}

// mappedPropertyList names the mapped properties, for the option docs.
func mappedPropertyList() string {
	names := make([]string, 0, len(propertyMappers))
	for k := range propertyMappers {
		names = append(names, "'"+k+"'")
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func noOption(string, map[string]string) ([]kgo.Opt, error) { return nil, nil }

func validateOneOf(allowed ...string) func(string, map[string]string) ([]kgo.Opt, error) {
	return func(v string, _ map[string]string) ([]kgo.Opt, error) {
		if !slices.Contains(allowed, v) {
			return nil, fmt.Errorf("expected one of %s", strings.Join(allowed, ", "))
		}
		return nil, nil
	}
}

func millisOption[O kgo.Opt](opt func(time.Duration) O) func(string, map[string]string) ([]kgo.Opt, error) {
	return func(v string, _ map[string]string) ([]kgo.Opt, error) {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms < 0 {
			return nil, errors.New("expected a non-negative number of milliseconds")
		}
		return []kgo.Opt{opt(time.Duration(ms) * time.Millisecond)}, nil
	}
}

var jaasRE = regexp.MustCompile(`(username|password)\s*=\s*"([^"]*)"`)

// securityOptions maps security.protocol, sasl.mechanism and
// sasl.jaas.config (username and password of the Plain and Scram login
// modules). SSL uses the system's trusted certificates.
func securityOptions(v string, props map[string]string) ([]kgo.Opt, error) {
	var opts []kgo.Opt
	switch v {
	case "PLAINTEXT":
		return nil, nil
	case "SSL":
		return []kgo.Opt{kgo.DialTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12})}, nil
	case "SASL_SSL":
		opts = append(opts, kgo.DialTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12}))
	case "SASL_PLAINTEXT":
	default:
		return nil, errors.New("expected PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL")
	}
	creds := map[string]string{}
	for _, m := range jaasRE.FindAllStringSubmatch(props["sasl.jaas.config"], -1) {
		creds[m[1]] = m[2]
	}
	user, pass := creds["username"], creds["password"]
	if user == "" {
		return nil, errors.New(`SASL needs 'properties.sasl.jaas.config' with username="..." and password="..."`)
	}
	switch mech := props["sasl.mechanism"]; mech {
	case "", "PLAIN":
		opts = append(opts, kgo.SASL(plain.Auth{User: user, Pass: pass}.AsMechanism()))
	case "SCRAM-SHA-256":
		opts = append(opts, kgo.SASL(scram.Auth{User: user, Pass: pass}.AsSha256Mechanism()))
	case "SCRAM-SHA-512":
		opts = append(opts, kgo.SASL(scram.Auth{User: user, Pass: pass}.AsSha512Mechanism()))
	default:
		return nil, fmt.Errorf("unsupported SASL mechanism '%s'; supported: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512", mech)
	}
	return opts, nil
}

// clientOptions turns a table's Kafka properties into franz-go options.
func clientOptions(props map[string]string) ([]kgo.Opt, error) {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var opts []kgo.Opt
	for _, k := range keys {
		mapper, ok := propertyMappers[k]
		if !ok {
			continue
		}
		o, err := mapper(props[k], props)
		if err != nil {
			return nil, fmt.Errorf("Invalid value '%s' for option '%s%s': %v", props[k], propertiesPrefix, k, err)
		}
		opts = append(opts, o...)
	}
	return opts, nil
}

// ensureTopics creates the topics that do not exist yet, with the broker's
// default partition count and replication factor, as a broker with
// auto.create.topics.enable would on first use. A client not allowed to
// create topics goes on: the topics may well exist.
func ensureTopics(ctx context.Context, adm *kadm.Client, topics []string) error {
	resp, err := adm.CreateTopics(ctx, -1, -1, nil, topics...)
	if err != nil {
		return fmt.Errorf("creating topics: %w", err)
	}
	for _, r := range resp {
		switch {
		case r.Err == nil, errors.Is(r.Err, kerr.TopicAlreadyExists),
			errors.Is(r.Err, kerr.TopicAuthorizationFailed), errors.Is(r.Err, kerr.ClusterAuthorizationFailed):
		default:
			return fmt.Errorf("creating topic '%s': %w", r.Topic, r.Err)
		}
	}
	return nil
}

// metadataWait is how long a topic may take to appear in the brokers'
// metadata after it was created.
const metadataWait = 10 * time.Second

// topicPartitions asks the cluster for the partitions of topics, bypassing
// the client's metadata cache so that new partitions are seen at once.
// Topics the brokers do not know yet are asked for again for a while.
func topicPartitions(ctx context.Context, cl *kgo.Client, topics []string) (map[string][]int32, error) {
	deadline := time.Now().Add(metadataWait)
	for {
		req := kmsg.NewPtrMetadataRequest()
		for _, t := range topics {
			rt := kmsg.NewMetadataRequestTopic()
			rt.Topic = kmsg.StringPtr(t)
			req.Topics = append(req.Topics, rt)
		}
		resp, err := req.RequestWith(ctx, cl)
		if err != nil {
			return nil, fmt.Errorf("listing partitions: %w", err)
		}
		out := map[string][]int32{}
		retry := false
		for _, t := range resp.Topics {
			var name string
			if t.Topic != nil {
				name = *t.Topic
			}
			if err := kerr.ErrorForCode(t.ErrorCode); err != nil {
				if errors.Is(err, kerr.UnknownTopicOrPartition) && time.Now().Before(deadline) {
					retry = true
					continue
				}
				return nil, fmt.Errorf("topic '%s': %w", name, err)
			}
			for _, p := range t.Partitions {
				out[name] = append(out[name], p.Partition)
			}
			slices.Sort(out[name])
		}
		if !retry {
			return out, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}
