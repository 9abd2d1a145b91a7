// Command sluice is the Sluice SQL client and tools.
//
//	sluice                  interactive SQL client on an embedded Kafka broker and Schema Registry
//	sluice sql -f FILE      run a SQL script
//	sluice server           a long-running server with Flink's SQL Gateway REST API
//	sluice test FILE...     run golden tests (NAME.sqltest scripts, NAME.sql with NAME.out beside)
//	sluice bench            throughput, Nexmark and latency measurements
//	sluice topic            Kafka topic tools (list, create, describe, consume, produce, ...)
//	sluice help [COMMAND]   the list of commands, or a command's flags
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/sluicesql/sluice"
	"github.com/sluicesql/sluice/internal/client"
	"github.com/sluicesql/sluice/internal/devcluster"
	"github.com/sluicesql/sluice/sqltest"
)

func main() {
	args := os.Args[1:]
	cmd := "sql"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	} else if len(args) > 0 && slices.Contains([]string{"-h", "-help", "--help"}, args[0]) {
		// sluice -h lists every command; sluice sql -h the client's flags.
		cmd, args = "help", args[1:]
	}
	var err error
	switch cmd {
	case "sql":
		err = runSQL(args)
	case "server":
		err = runServer(args)
	case "test":
		err = runTests(args)
	case "bench":
		err = runBench(args)
	case "topic":
		err = runTopic(args)
	case "help":
		err = help(args)
	case "version":
		fmt.Println(version())
	default:
		fmt.Fprintf(os.Stderr, "sluice: unknown command %q\n\n", cmd)
		usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sluice:", err)
		var sig signalStop
		if errors.As(err, &sig) {
			os.Exit(sig.exitCode())
		}
		os.Exit(1)
	}
}

// version describes the build: the module's version and, when built
// from a repository, its commit and whether it had changes.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "sluice (unknown build)"
	}
	v := "sluice " + info.Main.Version
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		v += " (commit " + rev
		if settings["vcs.modified"] == "true" {
			v += ", modified"
		}
		if t := settings["vcs.time"]; t != "" {
			v += ", " + t
		}
		v += ")"
	}
	return v + ", " + info.GoVersion
}

// help prints the list of commands, or with a command (sluice help bench
// nexmark) that command's flags, as its -h does.
func help(args []string) error {
	if len(args) == 0 {
		usage()
		return nil
	}
	run := map[string]func([]string) error{"sql": runSQL, "server": runServer, "test": runTests, "bench": runBench, "topic": runTopic}[args[0]]
	if run == nil {
		fmt.Fprintf(os.Stderr, "sluice: unknown command %q\n\n", args[0])
		usage()
		os.Exit(2)
	}
	return run(append(args[1:], "-h"))
}

func usage() {
	fmt.Fprint(os.Stderr, `Usage:
  sluice [sql] [flags]        interactive SQL client (embedded Kafka broker and Schema Registry)
  sluice sql -f FILE [flags]  run a SQL script and exit
  sluice sql -endpoint http://localhost:8083 [-token TOKEN] [-f FILE] [-i FILE]
                              the SQL client on a sluice server's session; jobs keep running there
  sluice server [-data-dir DIR] [-external] [-address 127.0.0.1] [-port 8083] [-token TOKEN]
                [-tls-cert FILE -tls-key FILE [-tls-client-ca FILE]] [-D KEY=VALUE ...]
                              serve Flink's SQL Gateway REST API; jobs outlive the sessions that start them
  sluice test [-parallelism N] FILE.sqltest | FILE.sql...
                              run golden tests: check each statement of a .sqltest script, or
                              compare a .sql script's last query with FILE.out
  sluice bench [-records N] [-parallelism P] [-format avro-confluent|json] [-rounds R] [-pipelines P1,P2]
               [-checkpoint-intervals 10s,1s,100ms|none] [-checkpoint-dir DIR] [-state-backend hashmap|rocksdb]
               [-incremental] [-cpuprofile FILE]
                              measure SQL pipelines' throughput against a plain Kafka consumer
  sluice bench nexmark [-events N] [-rate R] [-parallelism P] [-rounds R] [-queries q0,q1,...] [-kafka=false] [-partitions N]
                       [-set KEY=VALUE ...] [-cpuprofile FILE]
                              run the Nexmark queries on the nexmark generator, against hand-written Go programs
  sluice bench latency [-records N] [-rate R] [-parallelism P] [-rounds R] [-source-options K=V,...] [-sink-options K=V,...]
                              measure the end-to-end latency of a filter job from Kafka to Kafka at a steady rate
  sluice topic list|create|delete|describe|alter-config|consume|produce [NAME] [flags]
                              inspect and change Kafka topics, read and write records
  sluice version              print the version of this build
  sluice help [COMMAND]       print this list, or a command's flags

Run 'sluice help COMMAND' (or 'sluice COMMAND -h') for a command's flags.
`)
}

func runSQL(args []string) error {
	fs := flag.NewFlagSet("sql", flag.ExitOnError)
	file := fs.String("f", "", "run the statements of this SQL script, then exit")
	initFile := fs.String("i", "", "set the session up with this SQL script (DDL, SET) before the prompt or -f")
	kafkaPort := fs.Int("kafka-port", 9092, "port of the embedded Kafka broker (0: any free port)")
	registryPort := fs.Int("registry-port", 8081, "port of the embedded Schema Registry (0: any free port)")
	dataDir := fs.String("data-dir", "", "keep the catalog, the jobs, their checkpoints and the embedded broker's topics and schemas in this directory across restarts; jobs left running there are resumed")
	external := fs.Bool("external", false, "do not start the embedded cluster (tables name their own brokers and registries)")
	history := fs.String("history", defaultHistory(), "keep the interactive client's statement history in this file (\"\": none)")
	endpoint := fs.String("endpoint", "", "run the statements on the SQL gateway (sluice server) at this URL, such as http://localhost:8083, instead of an embedded engine; jobs keep running there after the client quits")
	token := fs.String("token", "", "with -endpoint: the server's bearer token (default: $SLUICE_SERVER_TOKEN)")
	tlsCA := fs.String("tls-ca", "", "with an https -endpoint: trust the server's certificate if one of the CAs of this PEM file signed it (default: the system's roots)")
	tlsCert := fs.String("tls-cert", "", "with an https -endpoint: the client certificate (PEM) for a server that requires one")
	tlsKey := fs.String("tls-key", "", "the private key of -tls-cert (PEM)")
	_ = fs.Parse(args)
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "sluice sql: unexpected argument %q (run a script with -f FILE)\n", fs.Arg(0))
		fs.Usage()
		os.Exit(2)
	}
	var script, initScript []byte
	if *initFile != "" {
		var err error
		if initScript, err = os.ReadFile(*initFile); err != nil {
			return err
		}
	}
	if *file != "" {
		var err error
		if script, err = os.ReadFile(*file); err != nil {
			return err
		}
	}

	if *endpoint != "" {
		if err := onlyGatewayFlags(fs); err != nil {
			return err
		}
		if *token == "" {
			*token = os.Getenv("SLUICE_SERVER_TOKEN")
		}
		tlsConfig, err := clientTLS(*tlsCA, *tlsCert, *tlsKey)
		if err != nil {
			return err
		}
		return runGateway(*endpoint, *token, tlsConfig, *initFile, string(initScript), *file, string(script), *history)
	}
	var gatewayOnly []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "token", "tls-ca", "tls-cert", "tls-key":
			gatewayOnly = append(gatewayOnly, "-"+f.Name)
		}
	})
	if len(gatewayOnly) > 0 {
		return fmt.Errorf("%s: settings of a connection to a SQL gateway, which need -endpoint", strings.Join(gatewayOnly, ", "))
	}
	if !*external {
		cluster, err := startCluster(fs, *kafkaPort, *registryPort, *dataDir)
		if err != nil {
			return err
		}
		defer announceCluster(cluster)()
		// Deferred first, so closed last: the session's final offset
		// commits need the broker.
		defer cluster.Close()
		fmt.Fprintf(os.Stderr, "Embedded Kafka broker at %s, Schema Registry at %s\n", cluster.BootstrapServers(), cluster.RegistryURL())
	}
	// SIGTERM ends every session; SIGINT ends a script's (at the prompt
	// and in a query shown interactively, Ctrl-C stops only the query or
	// the line being typed).
	ctx, stop := notifyShutdown(*file != "")
	defer stop()
	e := sluice.NewEngine()
	if *dataDir != "" {
		if err := recoverJobs(ctx, e, *dataDir); err != nil {
			return err
		}
	}
	c := &client.Client{Backend: &client.Embedded{Engine: e, DataDir: *dataDir}, Out: os.Stdout}
	if *file == "" {
		c.Interrupts = client.NotifyInterrupts()
	}
	err := session(ctx, c, *initFile, string(initScript), *file, string(script), *history, func(ctx context.Context) { waitForJobs(ctx, e) })
	// Flink's SQL client says so while it closes the session (its shutdown
	// hook, which also runs on SIGINT and SIGTERM).
	fmt.Print("\nShutting down the session...\n")
	e.Close()
	fmt.Print("done.\n")
	if *file != "" {
		// Whenever a job failed, the script did not do its work.
		err = errors.Join(err, e.JobFailures())
	}
	return exitError(ctx, err)
}

// exitError is the error a client session ends the process with: its own,
// or else the signal that stopped it.
func exitError(ctx context.Context, err error) error {
	if err != nil {
		return err
	}
	if sig, ok := context.Cause(ctx).(signalStop); ok {
		return sig
	}
	return nil
}

// onlyGatewayFlags refuses the flags of the embedded engine, which a
// client of a SQL gateway has no use for, naming them.
func onlyGatewayFlags(fs *flag.FlagSet) error {
	var bad []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "data-dir", "external", "kafka-port", "registry-port":
			bad = append(bad, "-"+f.Name)
		}
	})
	if len(bad) > 0 {
		return fmt.Errorf("%s: not with -endpoint (the server has its own cluster and data directory)", strings.Join(bad, ", "))
	}
	return nil
}

// runGateway runs the client on a session of the SQL gateway at endpoint.
// Jobs run on the server: a script does not wait for them, and they keep
// running after the client quits.
func runGateway(endpoint, token string, tlsConfig *tls.Config, initFile, initScript, file, script, history string) error {
	ctx, stop := notifyShutdown(file != "")
	defer stop()
	g, err := client.OpenGateway(ctx, endpoint, token, tlsConfig)
	if err != nil {
		return err
	}
	c := &client.Client{Backend: g, Out: os.Stdout}
	if file == "" {
		c.Interrupts = client.NotifyInterrupts()
	}
	err = session(ctx, c, initFile, initScript, file, script, history, nil)
	fmt.Print("\nShutting down the session...\n")
	if cerr := g.Close(); cerr != nil {
		err = errors.Join(err, fmt.Errorf("closing the session: %w", cerr))
	}
	fmt.Print("done.\n")
	return exitError(ctx, err)
}

// recoverJobs keeps the engine's catalog and jobs in dataDir and starts
// again the jobs a previous process left running there, as a Flink
// cluster with high availability does. A job that cannot be recovered is
// reported; the others run regardless.
func recoverJobs(ctx context.Context, e *sluice.Engine, dataDir string) error {
	if err := e.SetDataDir(dataDir); err != nil {
		return err
	}
	if err := e.KeepCatalog(ctx, dataDir); err != nil {
		return err
	}
	jobs, err := e.Recover(ctx)
	for _, j := range jobs {
		fmt.Fprintf(os.Stderr, "Recovered job %s (%s)\n", j.ID, j.Name)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
	}
	return nil
}

// session runs the initialization script, then the script (and then
// wait, when set) or the interactive client, until ctx ends.
func session(ctx context.Context, c *client.Client, initFile, initScript, file, script, history string, wait func(context.Context)) error {
	if initFile != "" && !c.Init(ctx, initFile, initScript) && ctx.Err() == nil {
		return fmt.Errorf("initialization script %s failed", initFile)
	}
	if ctx.Err() != nil {
		return nil
	}
	if file != "" {
		if !c.RunScript(ctx, script) && ctx.Err() == nil {
			return fmt.Errorf("script %s failed", file)
		}
		if wait != nil {
			wait(ctx)
		}
		return nil
	}
	// Prompts, line editing and the full-screen result views need a terminal on
	// both sides.
	c.Interactive = isTerminal(os.Stdin) && isTerminal(os.Stdout)
	var err error
	if c.Interactive {
		err = c.RunTerminal(ctx, history)
	} else {
		err = c.Run(ctx, os.Stdin)
	}
	if ctx.Err() != nil {
		return nil // stopped by a signal
	}
	return err
}

// signalStop is the cause of a session stopped by a signal, and the error
// that makes the process exit as the shell's convention (and the JVM that
// runs Flink's client) has it: 128 + the signal's number.
type signalStop struct{ sig syscall.Signal }

func (s signalStop) Error() string {
	if s.sig == syscall.SIGINT {
		return "stopped by SIGINT"
	}
	return "stopped by SIGTERM"
}

// exitCode is the process's exit status.
func (s signalStop) exitCode() int { return 128 + int(s.sig) }

// notifyShutdown returns a context ended by SIGTERM, and by SIGINT too
// when interrupt is set, with the signal as its cause. stop releases the
// signals.
func notifyShutdown(interrupt bool) (context.Context, func()) {
	sigs := []os.Signal{syscall.SIGTERM}
	if interrupt {
		sigs = append(sigs, syscall.SIGINT)
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			cancel(signalStop{sig.(syscall.Signal)})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// waitForJobs keeps the process, and so the INSERT jobs a script started,
// running until they end or ctx ends: a bounded job writes all its rows,
// an unbounded one runs until Ctrl-C or SIGTERM stops it. (Flink's client
// returns at once because its jobs run on a cluster; here they run in this
// process.) Failed jobs are reported when the session closes.
func waitForJobs(ctx context.Context, e *sluice.Engine) {
	running := 0
	for _, j := range e.Jobs() {
		if j.Status() == "RUNNING" {
			running++
		}
	}
	if running == 0 {
		return
	}
	fmt.Fprintf(os.Stderr, "Waiting for %d running job(s) to finish; Ctrl-C stops them.\n", running)
	// Its failures are the session's, reported when it closes.
	_ = e.WaitJobs(ctx)
}

// defaultHistory is the history file in the home directory, like Flink's
// ~/.flink-sql-history, or none if there is no home directory.
func defaultHistory() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".sluice_history")
}

// startCluster starts the embedded cluster on the ports of fs's
// -kafka-port and -registry-port. Ports given explicitly must be had: a
// table naming such a port would otherwise reach another process's broker
// or registry. The default ports fall back to free ones, saying so. With
// a data directory, the directory and every file the process creates from
// then on (the broker's topics among them) are readable by their owner
// only.
func startCluster(fs *flag.FlagSet, kafkaPort, registryPort int, dataDir string) (*devcluster.Cluster, error) {
	if dataDir != "" {
		if err := sluice.PrepareDataDir(dataDir); err != nil {
			return nil, err
		}
		ownerOnlyFiles()
	}
	c, err := devcluster.Start(devcluster.Options{KafkaPort: kafkaPort, RegistryPort: registryPort, DataDir: dataDir})
	if err == nil {
		return c, nil
	}
	var explicit []string
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "kafka-port" || f.Name == "registry-port" {
			explicit = append(explicit, "-"+f.Name+" "+f.Value.String())
		}
	})
	if len(explicit) > 0 {
		return nil, fmt.Errorf("cannot start the embedded cluster on the requested ports (%s): %w", strings.Join(explicit, ", "), err)
	}
	c, err2 := devcluster.Start(devcluster.Options{DataDir: dataDir})
	if err2 != nil {
		return nil, err2
	}
	fmt.Fprintf(os.Stderr, "The default ports %d/%d are not both free (%v): the embedded broker listens on %s and the registry on %s instead; tables must name these (localhost:%d reaches whatever listens there).\n",
		kafkaPort, registryPort, err, c.BootstrapServers(), c.RegistryURL(), kafkaPort)
	return c, nil
}

// isTerminal reports whether f is a terminal: a character device other
// than the null device, which scripts often redirect from or to.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(st, null)
}

// runTest runs one test file, a script test (NAME.sqltest) or a NAME.sql
// whose last query must print NAME.out, and describes how it failed ("" if
// it passed).
func runTest(path string, opts sqltest.Options) (string, error) {
	if sqltest.IsScriptTest(path) {
		failures, err := sqltest.RunScriptFile(path, opts)
		var b strings.Builder
		for _, f := range failures {
			fmt.Fprintf(&b, "%s\n", f)
		}
		return b.String(), err
	}
	res, err := sqltest.RunFile(path, opts)
	if err != nil || res.OK() {
		return "", err
	}
	return fmt.Sprintf("expected lines missing (-) and unexpected lines printed (+):\n%s\nprinted:\n%s", res.Diff(), res.Got), nil
}

func runTests(args []string) error {
	fs := flag.NewFlagSet("test", flag.ExitOnError)
	parallelism := fs.Int("parallelism", 0, "set parallelism.default before each script (0: leave the default)")
	_ = fs.Parse(args)
	if fs.NArg() == 0 {
		return fmt.Errorf("test: no SQL files given")
	}
	failed := 0
	for _, path := range fs.Args() {
		report, err := runTest(path, sqltest.Options{Parallelism: *parallelism})
		switch {
		case err != nil:
			failed++
			fmt.Printf("FAIL %s\n%v\n", path, err)
		case report != "":
			failed++
			fmt.Printf("FAIL %s\n%s\n", path, report)
		default:
			fmt.Printf("PASS %s\n", path)
		}
	}
	fmt.Printf("%d passed, %d failed\n", fs.NArg()-failed, failed)
	if failed > 0 {
		return fmt.Errorf("%d of %d tests failed", failed, fs.NArg())
	}
	return nil
}
