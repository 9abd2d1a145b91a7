package main

import (
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/devcluster"
)

func TestTopicCommands(t *testing.T) {
	cluster, err := devcluster.Start(devcluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Close)
	servers := cluster.BootstrapServers()
	// topic runs 'sluice topic' with args and the cluster's address, and
	// checks its exit status and output.
	topic := func(stdin string, code int, wantOut, wantErr string, args ...string) {
		t.Helper()
		r := runSluice(t, strings.NewReader(stdin), append(append([]string{"topic"}, args...), "-bootstrap-servers", servers)...)
		if r.code != code || r.stdout != wantOut || r.stderr != wantErr {
			t.Fatalf("sluice topic %s: exit status %d, stdout:\n%s\nstderr:\n%s\nwant %d, stdout:\n%s\nstderr:\n%s",
				strings.Join(args, " "), r.code, r.stdout, r.stderr, code, wantOut, wantErr)
		}
	}

	// Flags go before or after the topic name.
	topic("", 0, "Created topic clicks.\n", "", "create", "clicks", "-partitions", "2", "-config", "retention.ms=60000")
	topic("", 0, "Created topic views.\n", "", "create", "-partitions", "1", "views")
	topic("", 0, "TOPIC   PARTITIONS\nclicks  2\nviews   1\n", "", "list")

	topic("u1\t/home\nu2\t/cart\n", 0, "", "", "produce", "views", "-key-separator", "\t")
	topic("", 0, "u1-/home\nu2-/cart\n", "Processed a total of 2 messages\n",
		"consume", "views", "-from-beginning", "-max-messages", "10", "-timeout", "500ms", "-print-key", "-key-separator", "-")

	topic("", 0, "Completed updating config for topic views.\n", "", "alter-config", "views", "-set", "cleanup.policy=compact")
	topic("", 0, `Topic: views  Partitions: 1

PARTITION  LEADER  REPLICAS  START OFFSET  END OFFSET
0          0       0         0             2

Configs:
  cleanup.policy=compact
`, "", "describe", "views")

	topic("", 0, "Deleted topic clicks.\n", "", "delete", "clicks")
	topic("", 1, "", "sluice: topic 'clicks': topic does not exist\n", "consume", "clicks", "-from-beginning")
	topic("", 1, "", "sluice: topic describe: expected one topic name, got 0 arguments\n", "describe")
}
