package kafka

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// securityOptions maps security.protocol: TLS from the ssl.* properties
// (tls.go), SASL from the sasl.* ones (sasl.go).
func securityOptions(v string, props map[string]string) ([]kgo.Opt, error) {
	useTLS, useSASL, err := securityProtocol(v)
	if err != nil {
		return nil, err
	}
	var opts []kgo.Opt
	if useTLS {
		o, err := tlsOptions(props)
		if err != nil {
			return nil, err
		}
		opts = append(opts, o...)
	}
	if useSASL {
		o, err := saslOptions(props)
		if err != nil {
			return nil, err
		}
		opts = append(opts, o...)
	}
	return opts, nil
}

// securityProtocol tells whether a security.protocol value uses TLS and
// SASL.
func securityProtocol(v string) (useTLS, useSASL bool, err error) {
	switch v {
	case "PLAINTEXT":
		return false, false, nil
	case "SSL":
		return true, false, nil
	case "SASL_PLAINTEXT":
		return false, true, nil
	case "SASL_SSL":
		return true, true, nil
	}
	return false, false, errors.New("expected PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL")
}

// needsProtocol is the mapper of a property that takes effect only when
// security.protocol uses TLS (tls true) or SASL (tls false): set with
// another protocol it would be ignored, so it is refused.
func needsProtocol(tls bool) func(string, map[string]string) ([]kgo.Opt, error) {
	return func(_ string, props map[string]string) ([]kgo.Opt, error) {
		proto, ok := props[securityProtocolKey]
		if !ok {
			proto = "PLAINTEXT"
		}
		useTLS, useSASL, err := securityProtocol(proto)
		if err != nil {
			return nil, nil // reported on security.protocol
		}
		switch {
		case tls && !useTLS:
			return nil, fmt.Errorf("SSL properties take effect only with '%s%s' SSL or SASL_SSL, not %s", propertiesPrefix, securityProtocolKey, proto)
		case !tls && !useSASL:
			return nil, fmt.Errorf("SASL properties take effect only with '%s%s' SASL_PLAINTEXT or SASL_SSL, not %s", propertiesPrefix, securityProtocolKey, proto)
		}
		return nil, nil
	}
}

// secretProperties are shown as [hidden] in errors, as Kafka shows its
// password-type settings.
var secretProperties = map[string]bool{
	saslJAASConfig: true, sslKeyPassword: true, sslKeystorePassword: true, sslTruststorePassword: true,
	sslKeystoreKey: true, sslKeystoreChain: true, sslTruststoreCerts: true,
}

// propertyError is an invalid value of one Kafka client property.
type propertyError struct {
	key, value string
	err        error
}

func (e *propertyError) Error() string {
	v := e.value
	if secretProperties[e.key] {
		v = "[hidden]"
	}
	return fmt.Sprintf("Invalid value '%s' for option '%s%s': %v", v, propertiesPrefix, e.key, e.err)
}

func (e *propertyError) Unwrap() error { return e.err }

// badProperty returns the error of property key of props.
func badProperty(props map[string]string, key, format string, args ...any) error {
	return &propertyError{key: key, value: props[key], err: fmt.Errorf(format, args...)}
}

// refusedProperty refuses the properties named key, or starting with it
// when it ends with a dot, for reason.
type refusedProperty struct{ key, reason string }

func (r refusedProperty) match(k string) bool {
	if strings.HasSuffix(r.key, ".") {
		return strings.HasPrefix(k, r.key)
	}
	return k == r.key
}

// refusedProperties are the ssl.* and sasl.* properties Sluice does not
// support, first match wins.
var refusedProperties = []refusedProperty{
	{"ssl.provider", "Java security providers are not available: TLS is Go's crypto/tls"},
	{"ssl.secure.random.implementation", "Java SecureRandom implementations are not available: TLS uses Go's crypto/rand"},
	{"ssl.client.auth", "a broker setting: the client presents its keystore's certificate when the broker asks for one"},
	{"ssl.principal.mapping.rules", "a broker setting"},
	{"ssl.allow.dn.changes", "a broker setting"},
	{"ssl.allow.san.changes", "a broker setting"},
	{"ssl.", "not supported; the supported ssl.* properties are " + strings.Join(sslProperties, ", ")},
	{"sasl.kerberos.", "Kerberos (GSSAPI) is not supported"},
	{"sasl.", "not supported; the supported sasl.* properties are " + strings.Join(saslProperties, ", ")},
}

// clientOptions validates a table's Kafka client properties and turns them
// into franz-go options (see properties.go).
func clientOptions(props map[string]string) ([]kgo.Opt, error) {
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var opts []kgo.Opt
	for _, k := range keys {
		p, err := lookupProperty(k)
		if err != nil {
			return nil, err
		}
		o, err := p.apply(props[k], props)
		if err != nil {
			if pe := (*propertyError)(nil); errors.As(err, &pe) {
				return nil, pe
			}
			return nil, &propertyError{key: k, value: props[k], err: err}
		}
		opts = append(opts, o...)
	}
	return append(opts, derivedOptions(props)...), nil
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
