// Command sluice is the Sluice SQL client and tools.
//
//	sluice                  interactive SQL client on an embedded Kafka broker and Schema Registry
//	sluice sql -f FILE      run a SQL script
//	sluice test FILE.sql... run golden tests (FILE.out beside each)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
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
	}
	var err error
	switch cmd {
	case "sql":
		err = runSQL(args)
	case "test":
		err = runTests(args)
	case "bench":
		err = runBench(args)
	case "topic":
		err = runTopic(args)
	case "help":
		usage()
	default:
		fmt.Fprintf(os.Stderr, "sluice: unknown command %q\n\n", cmd)
		usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sluice:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprint(os.Stderr, `Usage:
  sluice [sql] [flags]        interactive SQL client (embedded Kafka broker and Schema Registry)
  sluice sql -f FILE [flags]  run a SQL script and exit
  sluice test [-parallelism N] FILE.sql...
                              run golden tests: compare each script's last query with FILE.out
  sluice bench [-records N] [-parallelism P] [-format avro-confluent|json] [-rounds R] [-cpuprofile FILE]
                              measure SQL pipelines' throughput against a plain Kafka consumer
  sluice topic list|create|delete|describe|alter-config|consume|produce [NAME] [flags]
                              inspect and change Kafka topics, read and write records

Run 'sluice sql -h' or 'sluice test -h' for flags.
`)
}

func runSQL(args []string) error {
	fs := flag.NewFlagSet("sql", flag.ExitOnError)
	file := fs.String("f", "", "run the statements of this SQL script, then exit")
	initFile := fs.String("i", "", "set the session up with this SQL script (DDL, SET) before the prompt or -f")
	kafkaPort := fs.Int("kafka-port", 9092, "port of the embedded Kafka broker (0: any free port)")
	registryPort := fs.Int("registry-port", 8081, "port of the embedded Schema Registry (0: any free port)")
	dataDir := fs.String("data-dir", "", "keep the embedded broker's topics and the registry's schemas in this directory across restarts")
	external := fs.Bool("external", false, "do not start the embedded cluster (tables name their own brokers and registries)")
	history := fs.String("history", defaultHistory(), "keep the interactive client's statement history in this file (\"\": none)")
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

	if !*external {
		cluster, err := startCluster(*kafkaPort, *registryPort, *dataDir)
		if err != nil {
			return err
		}
		defer cluster.Close()
		fmt.Fprintf(os.Stderr, "Embedded Kafka broker at %s, Schema Registry at %s\n", cluster.BootstrapServers(), cluster.RegistryURL())
	}
	e := sluice.NewEngine()
	defer func() {
		// Flink's SQL client says so while it closes the session.
		fmt.Print("\nShutting down the session...\n")
		e.Close()
		fmt.Print("done.\n")
	}()
	c := &client.Client{Engine: e, Out: os.Stdout, Interrupts: client.NotifyInterrupts()}
	ctx := context.Background()
	if *initFile != "" && !c.Init(ctx, *initFile, string(initScript)) {
		return fmt.Errorf("initialization script %s failed", *initFile)
	}
	if *file != "" {
		if !c.RunScript(ctx, string(script)) {
			return fmt.Errorf("script %s failed", *file)
		}
		return waitForJobs(e)
	}
	// Prompts, line editing and the redrawn table view need a terminal on
	// both sides.
	c.Interactive = isTerminal(os.Stdin) && isTerminal(os.Stdout)
	if c.Interactive {
		return c.RunTerminal(ctx, *history)
	}
	return c.Run(ctx, os.Stdin)
}

// waitForJobs keeps the process, and so the INSERT jobs a script started,
// running until they end: a bounded job writes all its rows, an unbounded
// one runs until Ctrl-C or SIGTERM stops it. (Flink's client returns at
// once because its jobs run on a cluster; here they run in this process.)
func waitForJobs(e *sluice.Engine) error {
	running := 0
	for _, j := range e.Jobs() {
		if j.Status() == "RUNNING" {
			running++
		}
	}
	if running == 0 {
		return nil
	}
	// Listen before telling: a signal sent on seeing the notice must find
	// the handler in place.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(os.Stderr, "Waiting for %d running job(s) to finish; Ctrl-C stops them.\n", running)
	if err := e.WaitJobs(ctx); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
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

// startCluster starts the embedded cluster on the given ports, falling back
// to free ports when they are taken.
func startCluster(kafkaPort, registryPort int, dataDir string) (*devcluster.Cluster, error) {
	c, err := devcluster.Start(devcluster.Options{KafkaPort: kafkaPort, RegistryPort: registryPort, DataDir: dataDir})
	if err == nil {
		return c, nil
	}
	fmt.Fprintf(os.Stderr, "ports %d/%d unavailable (%v); using free ports\n", kafkaPort, registryPort, err)
	return devcluster.Start(devcluster.Options{DataDir: dataDir})
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
