// Package devcluster runs a single-node Kafka cluster and a Confluent-style
// Schema Registry inside the process, on real TCP ports, for the playground
// and for tests. The broker is franz-go's kfake and the registry is srfake;
// any Kafka client (kcat, franz-go, the Java client) can talk to them.
package devcluster

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/sr/srfake"
)

// Options configures a cluster.
type Options struct {
	// KafkaPort is the broker's port on 127.0.0.1; 0 picks a free one.
	KafkaPort int
	// RegistryPort is the schema registry's port on 127.0.0.1; 0 picks a
	// free one.
	RegistryPort int
	// DataDir, when set, keeps the broker's topics and offsets in that
	// directory so that they survive restarts, and with them the registry's
	// schemas, which it then stores in the _schemas topic as Confluent's
	// registry does. Empty keeps everything in memory.
	DataDir string
	// Partitions is the partition count of topics created with the broker
	// default (CreateTopics with -1 partitions, or auto-creation); 0 means 1,
	// Kafka's own default for num.partitions.
	Partitions int
}

// Cluster is a running broker and schema registry.
type Cluster struct {
	mu    sync.Mutex
	kafka *kfake.Cluster // nil while the broker is stopped
	// kopts start the broker again on the same port and data directory.
	kopts    []kfake.Opt
	registry *srfake.Registry
	store    *schemaStore // nil without a DataDir
	server   *http.Server
	kport    int
	rport    int
}

// Start launches a cluster.
func Start(opts Options) (*Cluster, error) {
	parts := opts.Partitions
	if parts == 0 {
		parts = 1
	}
	if parts < 0 {
		return nil, fmt.Errorf("devcluster: invalid partition count %d", parts)
	}
	kopts := []kfake.Opt{
		kfake.NumBrokers(1),
		kfake.Ports(opts.KafkaPort),
		kfake.DefaultNumPartitions(parts),
		kfake.AllowAutoTopicCreation(),
		kfake.ClusterID("sluice-dev"),
		// Exactly-once Kafka sinks ask for Flink's transaction timeout of
		// one hour, which a broker refuses above its
		// transaction.max.timeout.ms (15 minutes unless set).
		kfake.BrokerConfigs(map[string]string{"transaction.max.timeout.ms": "3600000"}),
	}
	if opts.DataDir != "" {
		kopts = append(kopts, kfake.DataDir(opts.DataDir))
	}
	kc, err := kfake.NewCluster(kopts...)
	if err != nil {
		return nil, fmt.Errorf("devcluster: starting Kafka on port %d: %w", opts.KafkaPort, err)
	}
	kport, err := portOf(kc.ListenAddrs()[0])
	if err != nil {
		kc.Close()
		return nil, err
	}
	// A restart listens on the port picked now.
	kopts = append(kopts, kfake.Ports(kport))

	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(opts.RegistryPort)))
	if err != nil {
		kc.Close()
		return nil, fmt.Errorf("devcluster: starting the schema registry on port %d: %w", opts.RegistryPort, err)
	}
	reg := srfake.NewRegistry()
	c := &Cluster{
		kafka:    kc,
		kopts:    kopts,
		registry: reg,
		server:   &http.Server{Handler: reg.Handler(), ReadHeaderTimeout: 10 * time.Second},
		kport:    kport,
		rport:    ln.Addr().(*net.TCPAddr).Port,
	}
	if opts.DataDir != "" {
		if c.store, err = openSchemaStore(c.BootstrapServers(), reg); err != nil {
			ln.Close()
			kc.Close()
			return nil, err
		}
		c.server.Handler = c.store.handler(reg.Handler())
	}
	c.server.Handler = guard(c.server.Handler)
	go func() {
		// Serve returns http.ErrServerClosed after Close; nothing else can
		// go wrong once the listener is bound.
		_ = c.server.Serve(ln)
	}()
	return c, nil
}

func portOf(addr string) (int, error) {
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		return 0, fmt.Errorf("devcluster: broker address %q: %w", addr, err)
	}
	return strconv.Atoi(p)
}

// BootstrapServers is the value for 'properties.bootstrap.servers'.
func (c *Cluster) BootstrapServers() string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(c.kport))
}

// RegistryURL is the schema registry's base URL, for 'avro-confluent.url'.
func (c *Cluster) RegistryURL() string {
	return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(c.rport))
}

// KafkaPort is the broker's port.
func (c *Cluster) KafkaPort() int { return c.kport }

// RegistryPort is the schema registry's port.
func (c *Cluster) RegistryPort() int { return c.rport }

// Registry gives direct access to the in-memory schema registry.
func (c *Cluster) Registry() *srfake.Registry { return c.registry }

// Kafka is the running broker, for tests that inject faults through its
// Fault and ControlKey hooks; nil while the broker is stopped.
func (c *Cluster) Kafka() *kfake.Cluster {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kafka
}

// StopKafka stops the broker, as a broker shut down for a restart: its
// port refuses connections and, with a DataDir, its state is written out.
// The registry keeps running. Stopping a stopped broker does nothing.
func (c *Cluster) StopKafka() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kafka != nil {
		c.kafka.Close()
		c.kafka = nil
	}
}

// StartKafka starts a stopped broker again on the same port. With a
// DataDir it comes back with the topics, records and committed offsets
// stored there (none if the directory was emptied meanwhile); without one
// it comes back empty. Starting a running broker does nothing.
func (c *Cluster) StartKafka() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kafka != nil {
		return nil
	}
	kc, err := kfake.NewCluster(c.kopts...)
	if err != nil {
		return fmt.Errorf("devcluster: restarting Kafka on port %d: %w", c.kport, err)
	}
	c.kafka = kc
	return nil
}

// Close stops the broker and the registry; with a DataDir, the broker's
// state is written out first.
func (c *Cluster) Close() {
	if c.store != nil {
		c.store.close()
	}
	c.StopKafka()
	// Closing the server only closes its listener and connections; there is
	// nothing to report if that fails.
	_ = c.server.Close()
}
