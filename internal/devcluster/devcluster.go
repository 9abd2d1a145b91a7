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
	kafka    *kfake.Cluster
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

	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(opts.RegistryPort)))
	if err != nil {
		kc.Close()
		return nil, fmt.Errorf("devcluster: starting the schema registry on port %d: %w", opts.RegistryPort, err)
	}
	reg := srfake.NewRegistry()
	c := &Cluster{
		kafka:    kc,
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

// Close stops the broker and the registry; with a DataDir, the broker's
// state is written out first.
func (c *Cluster) Close() {
	if c.store != nil {
		c.store.close()
	}
	c.kafka.Close()
	// Closing the server only closes its listener and connections; there is
	// nothing to report if that fails.
	_ = c.server.Close()
}
