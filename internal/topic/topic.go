// Package topic is Sluice's Kafka topic tooling: it lists, creates,
// describes, reconfigures and deletes topics, and consumes and produces
// records the way Kafka's and Confluent's console tools do, so that no other
// Kafka tooling is needed next to Sluice.
package topic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// RequestTimeout bounds each administrative request, so that an unreachable
// cluster gives an error instead of a hang.
const RequestTimeout = 30 * time.Second

// ErrNoTopic is wrapped by the errors about a topic that does not exist.
var ErrNoTopic = errors.New("topic does not exist")

// Client talks to one Kafka cluster.
type Client struct {
	servers string
	opts    []kgo.Opt
	kc      *kgo.Client
	adm     *kadm.Client
}

// New returns a client of the cluster at bootstrapServers, a comma-separated
// list of host:port. It does not connect until the first request.
func New(bootstrapServers string) (*Client, error) {
	var seeds []string
	for s := range strings.SplitSeq(bootstrapServers, ",") {
		if s = strings.TrimSpace(s); s != "" {
			seeds = append(seeds, s)
		}
	}
	if len(seeds) == 0 {
		return nil, errors.New("no bootstrap servers given")
	}
	opts := []kgo.Opt{kgo.SeedBrokers(seeds...)}
	kc, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("bootstrap servers %q: %w", bootstrapServers, err)
	}
	return &Client{servers: bootstrapServers, opts: opts, kc: kc, adm: kadm.NewClient(kc)}, nil
}

// Close releases the client's connections.
func (c *Client) Close() { c.kc.Close() }

// request runs fn with RequestTimeout and turns a timeout into an error that
// names the cluster.
func (c *Client) request(ctx context.Context, fn func(context.Context) error) error {
	rctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	err := fn(rctx)
	if err != nil && ctx.Err() == nil && errors.Is(rctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("no answer from Kafka at %s within %s: %w", c.servers, RequestTimeout, err)
	}
	return err
}

// topicError names the topic in err, and says plainly when the topic does
// not exist.
func topicError(name, doing string, err error) error {
	if errors.Is(err, kerr.UnknownTopicOrPartition) || errors.Is(err, kerr.UnknownTopicID) {
		return fmt.Errorf("topic '%s': %w", name, ErrNoTopic)
	}
	return fmt.Errorf("topic '%s': %s: %w", name, doing, err)
}

// Summary is a topic and its partition count.
type Summary struct {
	Name       string
	Partitions int
}

// List returns the cluster's topics, internal ones excluded, sorted by name.
func (c *Client) List(ctx context.Context) ([]Summary, error) {
	var details kadm.TopicDetails
	err := c.request(ctx, func(ctx context.Context) (err error) {
		details, err = c.adm.ListTopics(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listing topics: %w", err)
	}
	if err := details.Error(); err != nil {
		return nil, fmt.Errorf("listing topics: %w", err)
	}
	out := make([]Summary, 0, len(details))
	for _, name := range details.Names() {
		out = append(out, Summary{Name: name, Partitions: len(details[name].Partitions)})
	}
	return out, nil
}

// WriteList prints topics as a table of names and partition counts.
func WriteList(w io.Writer, topics []Summary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOPIC\tPARTITIONS")
	for _, t := range topics {
		fmt.Fprintf(tw, "%s\t%d\n", t.Name, t.Partitions)
	}
	return tw.Flush()
}

// exists returns an error wrapping ErrNoTopic when the topic does not
// exist. Consumers and producers check first: clients wait for a missing
// topic to appear.
func (c *Client) exists(ctx context.Context, name string) error {
	_, err := c.details(ctx, name)
	return err
}

// details returns the topic's metadata.
func (c *Client) details(ctx context.Context, name string) (kadm.TopicDetail, error) {
	var details kadm.TopicDetails
	err := c.request(ctx, func(ctx context.Context) (err error) {
		details, err = c.adm.ListTopics(ctx, name)
		return err
	})
	if err == nil {
		err = details[name].Err
	}
	if err != nil {
		return kadm.TopicDetail{}, topicError(name, "reading metadata", err)
	}
	return details[name], nil
}

// Create creates a topic. partitions and replicationFactor of -1 take the
// broker's defaults; configs are topic configs such as cleanup.policy.
func (c *Client) Create(ctx context.Context, name string, partitions int32, replicationFactor int16, configs map[string]string) error {
	cfg := make(map[string]*string, len(configs))
	for k, v := range configs {
		cfg[k] = &v
	}
	err := c.request(ctx, func(ctx context.Context) error {
		resp, err := c.adm.CreateTopic(ctx, partitions, replicationFactor, cfg, name)
		if err == nil {
			err = resp.Err
		}
		return err
	})
	// The client caches metadata for a few seconds; drop what it holds on
	// the topic so that this client's next requests see the change.
	c.kc.PurgeTopicsFromClient(name)
	if err != nil {
		return fmt.Errorf("topic '%s': creating: %w", name, err)
	}
	return nil
}

// Delete deletes a topic.
func (c *Client) Delete(ctx context.Context, name string) error {
	err := c.request(ctx, func(ctx context.Context) error {
		resp, err := c.adm.DeleteTopic(ctx, name)
		if err == nil {
			err = resp.Err
		}
		return err
	})
	c.kc.PurgeTopicsFromClient(name) // as after Create
	if err != nil {
		return topicError(name, "deleting", err)
	}
	return nil
}

// Partition describes one partition of a topic.
type Partition struct {
	ID       int32
	Leader   int32
	Replicas []int32
	// StartOffset and EndOffset bound the records the partition holds: the
	// first one still kept and the next one to be written.
	StartOffset, EndOffset int64
}

// Config is one topic config and where its value comes from.
type Config struct {
	Key, Value string
	// Source is "topic" for a value set on the topic, else where the
	// broker takes the value from ("default", "broker", ...).
	Source string
}

// Description is what Describe reports about a topic.
type Description struct {
	Name       string
	Partitions []Partition
	// Configs are sorted by key.
	Configs []Config
}

// Describe returns the topic's partitions with their offsets and its
// configs.
func (c *Client) Describe(ctx context.Context, name string) (*Description, error) {
	detail, err := c.details(ctx, name)
	if err != nil {
		return nil, err
	}
	var starts, ends kadm.ListedOffsets
	var configs kadm.ResourceConfigs
	err = c.request(ctx, func(ctx context.Context) (err error) {
		if starts, err = c.adm.ListStartOffsets(ctx, name); err != nil {
			return err
		}
		if ends, err = c.adm.ListEndOffsets(ctx, name); err != nil {
			return err
		}
		if err = errors.Join(starts.Error(), ends.Error()); err != nil {
			return err
		}
		if configs, err = c.adm.DescribeTopicConfigs(ctx, name); err != nil {
			return err
		}
		rc, err := configs.On(name, nil)
		if err == nil {
			err = rc.Err
		}
		return err
	})
	if err != nil {
		return nil, topicError(name, "describing", err)
	}
	d := &Description{Name: name}
	for _, p := range detail.Partitions.Sorted() {
		start, _ := starts.Lookup(name, p.Partition)
		end, _ := ends.Lookup(name, p.Partition)
		d.Partitions = append(d.Partitions, Partition{
			ID: p.Partition, Leader: p.Leader, Replicas: p.Replicas,
			StartOffset: start.Offset, EndOffset: end.Offset,
		})
	}
	rc, _ := configs.On(name, nil)
	for _, cfg := range rc.Configs {
		d.Configs = append(d.Configs, Config{Key: cfg.Key, Value: cfg.MaybeValue(), Source: sourceName(cfg.Source)})
	}
	slices.SortFunc(d.Configs, func(a, b Config) int { return strings.Compare(a.Key, b.Key) })
	return d, nil
}

// sourceName names a config source briefly.
func sourceName(s kmsg.ConfigSource) string {
	switch s {
	case kmsg.ConfigSourceDynamicTopicConfig:
		return "topic"
	case kmsg.ConfigSourceDynamicBrokerConfig, kmsg.ConfigSourceDynamicDefaultBrokerConfig, kmsg.ConfigSourceStaticBrokerConfig:
		return "broker"
	case kmsg.ConfigSourceDefaultConfig:
		return "default"
	}
	return strings.ToLower(s.String())
}

// Write prints the description: a header line, a table of partitions, and
// the configs set on the topic (all configs with their sources when
// allConfigs is set).
func (d *Description) Write(w io.Writer, allConfigs bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Topic: %s\tPartitions: %d\n\n", d.Name, len(d.Partitions))
	fmt.Fprintln(tw, "PARTITION\tLEADER\tREPLICAS\tSTART OFFSET\tEND OFFSET")
	for _, p := range d.Partitions {
		replicas := make([]string, len(p.Replicas))
		for i, r := range p.Replicas {
			replicas[i] = fmt.Sprint(r)
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%d\t%d\n", p.ID, p.Leader, strings.Join(replicas, ","), p.StartOffset, p.EndOffset)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nConfigs:")
	for _, cfg := range d.Configs {
		switch {
		case allConfigs:
			fmt.Fprintf(w, "  %s=%s (%s)\n", cfg.Key, cfg.Value, cfg.Source)
		case cfg.Source == "topic":
			fmt.Fprintf(w, "  %s=%s\n", cfg.Key, cfg.Value)
		}
	}
	return nil
}

// AlterConfig sets and removes topic configs in one request; a removed
// config falls back to the broker's value.
func (c *Client) AlterConfig(ctx context.Context, name string, set map[string]string, remove []string) error {
	var alters []kadm.AlterConfig
	for _, k := range slices.Sorted(maps.Keys(set)) {
		v := set[k]
		alters = append(alters, kadm.AlterConfig{Op: kadm.SetConfig, Name: k, Value: &v})
	}
	for _, k := range remove {
		alters = append(alters, kadm.AlterConfig{Op: kadm.DeleteConfig, Name: k})
	}
	if len(alters) == 0 {
		return fmt.Errorf("topic '%s': no config to set or remove", name)
	}
	err := c.request(ctx, func(ctx context.Context) error {
		resp, err := c.adm.AlterTopicConfigs(ctx, alters, name)
		if err != nil {
			return err
		}
		r, err := resp.On(name, nil)
		if err == nil && r.Err != nil {
			err = r.Err
			if r.ErrMessage != "" {
				err = fmt.Errorf("%w (%s)", err, r.ErrMessage)
			}
		}
		return err
	})
	if err != nil {
		return topicError(name, "altering configs", err)
	}
	return nil
}
