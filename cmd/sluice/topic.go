package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/sluicesql/sluice/internal/topic"
)

const topicUsage = `Usage:
  sluice topic list
  sluice topic create NAME [-partitions N] [-replication-factor N] [-config KEY=VALUE]...
  sluice topic delete NAME
  sluice topic describe NAME [-all-configs]
  sluice topic alter-config NAME [-set KEY=VALUE]... [-delete KEY]...
  sluice topic consume NAME [-from-beginning] [-max-messages N] [-timeout DURATION]
                       [-print-key] [-key-separator S] [-key-format raw|json|avro]
                       [-value-format raw|json|avro] [-registry URL]
  sluice topic produce NAME [-key-separator S] [-value-format raw|json]

Every command takes -bootstrap-servers (or Kafka's tools' spelling,
--bootstrap-server); without it, the embedded cluster of a running sluice
process on this machine, else localhost:9092. A command's topic may be
given as --topic NAME, as Kafka's tools take it. Run 'sluice topic COMMAND
-h' for a command's flags.
`

// runTopic runs a 'sluice topic' command; Ctrl-C ends it.
func runTopic(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return topicCommand(ctx, args, os.Stdin, os.Stdout, os.Stderr)
}

// topicCommand runs the topic command in args[0] with the rest as its
// arguments.
func topicCommand(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" {
		fmt.Fprint(stderr, topicUsage)
		return nil
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("topic "+sub, flag.ExitOnError)
	fs.SetOutput(stderr)
	servers := fs.String("bootstrap-servers", "localhost:9092", "Kafka bootstrap servers, comma-separated (default: the embedded cluster of a running sluice process, else localhost:9092)")
	fs.StringVar(servers, "bootstrap-server", "localhost:9092", "the same as -bootstrap-servers (Kafka's tools' spelling)")
	topicFlag := fs.String("topic", "", "the topic, instead of the NAME argument (Kafka's tools' spelling)")
	// run does the command's work once the flags are parsed.
	var run func(c *topic.Client, name string) error
	switch sub {
	case "list":
		run = func(c *topic.Client, _ string) error {
			topics, err := c.List(ctx)
			if err != nil {
				return err
			}
			return topic.WriteList(stdout, topics)
		}
	case "create":
		partitions := fs.Int("partitions", -1, "partition count (-1: the broker's default)")
		replication := fs.Int("replication-factor", -1, "replication factor (-1: the broker's default)")
		configs := keyValues{}
		fs.Var(configs, "config", "topic config KEY=VALUE, e.g. cleanup.policy=compact (repeatable)")
		run = func(c *topic.Client, name string) error {
			if err := c.Create(ctx, name, int32(*partitions), int16(*replication), configs); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "Created topic %s.\n", name)
			return nil
		}
	case "delete":
		run = func(c *topic.Client, name string) error {
			if err := c.Delete(ctx, name); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "Deleted topic %s.\n", name)
			return nil
		}
	case "describe":
		all := fs.Bool("all-configs", false, "list every config with its source, not only those set on the topic")
		run = func(c *topic.Client, name string) error {
			d, err := c.Describe(ctx, name)
			if err != nil {
				return err
			}
			return d.Write(stdout, *all)
		}
	case "alter-config":
		set := keyValues{}
		fs.Var(set, "set", "set config KEY=VALUE (repeatable)")
		var remove stringList
		fs.Var(&remove, "delete", "remove config KEY, reverting to the broker's value (repeatable)")
		run = func(c *topic.Client, name string) error {
			if err := c.AlterConfig(ctx, name, set, remove); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "Completed updating config for topic %s.\n", name)
			return nil
		}
	case "consume":
		var o topic.ConsumeOptions
		fs.BoolVar(&o.FromBeginning, "from-beginning", false, "start with the oldest record kept, not the next one written")
		fs.IntVar(&o.MaxMessages, "max-messages", 0, "stop after this many records (0: no limit)")
		fs.DurationVar(&o.Timeout, "timeout", 0, "stop when no record arrives for this long, e.g. 10s (0: wait until Ctrl-C)")
		fs.BoolVar(&o.PrintKey, "print-key", false, "print each record's key and the key separator before the value")
		fs.StringVar(&o.KeySeparator, "key-separator", "\t", "printed between key and value")
		fs.StringVar(&o.KeyFormat, "key-format", topic.FormatRaw, "how keys are printed: raw, json or avro (Confluent wire format)")
		fs.StringVar(&o.ValueFormat, "value-format", topic.FormatRaw, "how values are printed: raw, json or avro (Confluent wire format)")
		fs.StringVar(&o.Registry, "registry", "http://localhost:8081", "Schema Registry URL, for avro (default: the embedded cluster's of a running sluice process, else http://localhost:8081)")
		run = func(c *topic.Client, name string) error {
			n, err := c.Consume(ctx, name, o, stdout)
			if err == nil || n > 0 { // else nothing was read: no count, only the error
				fmt.Fprintf(stderr, "Processed a total of %d messages\n", n)
			}
			return err
		}
	case "produce":
		var o topic.ProduceOptions
		fs.StringVar(&o.KeySeparator, "key-separator", "", "split each line into key and value at this separator (default: no keys)")
		fs.StringVar(&o.ValueFormat, "value-format", topic.FormatRaw, "raw or json (each value must be a JSON document)")
		run = func(c *topic.Client, name string) error {
			_, err := c.Produce(ctx, name, o, stdin)
			return err
		}
	default:
		fmt.Fprint(stderr, topicUsage)
		return fmt.Errorf("topic: unknown command %q", sub)
	}

	pos := parseInterleaved(fs, args)
	if *topicFlag != "" {
		pos = append(pos, *topicFlag)
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if !given["bootstrap-servers"] && !given["bootstrap-server"] {
		if a, ok := findCluster(); ok {
			*servers = a.BootstrapServers
			if !given["registry"] {
				if r := fs.Lookup("registry"); r != nil {
					_ = r.Value.Set(a.RegistryURL)
				}
			}
			fmt.Fprintf(stderr, "Using the embedded cluster of sluice (pid %d): broker %s, registry %s\n", a.PID, a.BootstrapServers, a.RegistryURL)
		}
	}
	name := ""
	switch {
	case sub == "list" && len(pos) > 0:
		return fmt.Errorf("topic list: unexpected argument %q", pos[0])
	case sub != "list" && len(pos) != 1:
		return fmt.Errorf("topic %s: expected one topic name, got %d arguments", sub, len(pos))
	case sub != "list":
		name = pos[0]
	}
	c, err := topic.New(*servers)
	if err != nil {
		return err
	}
	defer c.Close()
	return run(c, name)
}

// parseInterleaved parses the flags in args wherever they stand among the
// positional arguments, so that both 'create -partitions 3 NAME' and
// 'create NAME -partitions 3' work, and returns the positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) []string {
	var pos []string
	for {
		_ = fs.Parse(args) // ExitOnError: Parse exits on a bad flag
		if fs.NArg() == 0 {
			return pos
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// keyValues is a repeatable KEY=VALUE flag.
type keyValues map[string]string

func (kv keyValues) String() string {
	parts := make([]string, 0, len(kv))
	for k, v := range kv {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, ",")
}

func (kv keyValues) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not KEY=VALUE", s)
	}
	kv[k] = v
	return nil
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
}
