package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/server"
)

// runServer runs sluice server: the embedded cluster (unless -external), a
// job manager and a catalog (in the data directory, if one is given) and
// Flink's SQL Gateway REST API over them, until SIGINT or SIGTERM.
func runServer(args []string) error {
	fs := flag.NewFlagSet("server", flag.ExitOnError)
	dataDir := fs.String("data-dir", "", "keep the catalog, the jobs, their checkpoints and the embedded broker's topics in this directory; jobs left running there are resumed")
	external := fs.Bool("external", false, "do not start the embedded cluster (tables name their own brokers and registries)")
	address := fs.String("address", "127.0.0.1", "address the REST endpoint listens on; one that is not loopback needs -token")
	port := fs.Int("port", 8083, "port of the REST endpoint (Flink's SQL Gateway default; 0: any free port)")
	token := fs.String("token", os.Getenv("SLUICE_SERVER_TOKEN"), "bearer token every request must carry (default: $SLUICE_SERVER_TOKEN)")
	kafkaPort := fs.Int("kafka-port", 9092, "port of the embedded Kafka broker (0: any free port)")
	registryPort := fs.Int("registry-port", 8081, "port of the embedded Schema Registry (0: any free port)")
	tlsCert := fs.String("tls-cert", "", "serve HTTPS with this certificate (PEM; with -tls-key)")
	tlsKey := fs.String("tls-key", "", "the private key of -tls-cert (PEM)")
	tlsClientCA := fs.String("tls-client-ca", "", "require client certificates signed by the CAs of this PEM file (with -tls-cert)")
	var opts server.Options
	fs.Func("D", "set an option of the SQL Gateway, KEY=VALUE (repeatable): "+server.OptSessionIdleTimeout+", "+server.OptSessionCheckInterval+
		", "+server.OptMaxSessions+", "+server.OptMaxContentLength+", "+server.OptMaxStatementLength, func(kv string) error {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("expected KEY=VALUE, not %q", kv)
		}
		return opts.Set(strings.TrimSpace(k), strings.TrimSpace(v))
	})
	_ = fs.Parse(args)
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "sluice server: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	tlsConfig, err := serverTLS(*tlsCert, *tlsKey, *tlsClientCA)
	if err != nil {
		return err
	}
	if *token == "" && *tlsClientCA == "" && !isLoopback(*address) {
		return fmt.Errorf("refusing to serve on %q without a token: anyone who reaches it could run statements; set -token (or SLUICE_SERVER_TOKEN), require client certificates (-tls-client-ca), or listen on loopback", *address)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(*address, strconv.Itoa(*port)))
	if err != nil {
		return fmt.Errorf("REST endpoint: %w", err)
	}
	scheme := "http"
	if tlsConfig != nil {
		ln, scheme = tls.NewListener(ln, tlsConfig), "https"
	}
	if !*external {
		cluster, err := startCluster(fs, *kafkaPort, *registryPort, *dataDir)
		if err != nil {
			ln.Close()
			return err
		}
		defer announceCluster(cluster)()
		defer cluster.Close()
		fmt.Fprintf(os.Stderr, "Embedded Kafka broker at %s, Schema Registry at %s\n", cluster.BootstrapServers(), cluster.RegistryURL())
	}
	ctx, stop := notifyShutdown(true)
	defer stop()

	jobs := sluice.NewJobManager()
	catalog := sluice.NewCatalog()
	if *dataDir != "" {
		if err := jobs.SetDataDir(*dataDir); err != nil {
			ln.Close()
			return err
		}
		if catalog, err = sluice.OpenCatalog(ctx, *dataDir); err != nil {
			ln.Close()
			return err
		}
		recovered, err := jobs.Recover(ctx)
		for _, j := range recovered {
			fmt.Fprintf(os.Stderr, "Recovered job %s (%s)\n", j.ID, j.Name)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%v\n", err)
		}
	}
	// Closed last: jobs take their final checkpoints and stay RUNNING in
	// the job store.
	defer jobs.Close()
	opts.Token = *token
	gateway := server.New(catalog, jobs, opts)
	defer gateway.Close()

	srv := &http.Server{Handler: gateway, ReadHeaderTimeout: 30 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(os.Stderr, "SQL Gateway REST endpoint at %s://%s\n", scheme, ln.Addr())
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintln(os.Stderr, "Shutting down the server...")
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// isLoopback reports whether a listen address is a loopback one.
func isLoopback(address string) bool {
	if address == "localhost" {
		return true
	}
	ip := net.ParseIP(address)
	return ip != nil && ip.IsLoopback()
}
