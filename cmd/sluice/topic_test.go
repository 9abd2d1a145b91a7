package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestTopicFindsEmbeddedCluster: sluice topic without -bootstrap-servers
// uses the embedded cluster a running sluice sql announced, whatever its
// ports; Kafka's tools' spellings --bootstrap-server and --topic work; the
// announcement goes when the client ends, and one left by a killed
// process is ignored and removed.
func TestTopicFindsEmbeddedCluster(t *testing.T) {
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	dir := filepath.Join(run, "sluice")

	// A stale announcement: a process that has ended.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, fmt.Sprintf("embedded-%d.json", dead.Process.Pid))
	writeFile(t, stale, fmt.Sprintf(`{"pid": %d, "bootstrap_servers": "127.0.0.1:1", "registry_url": "http://127.0.0.1:1"}`, dead.Process.Pid))

	sql := exec.Command(binary, "sql", "-kafka-port", "0", "-registry-port", "0")
	stdin, err := sql.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sql.Stdout, sql.Stderr = &out, &out
	if err := sql.Start(); err != nil {
		t.Fatal(err)
	}
	announced := filepath.Join(dir, fmt.Sprintf("embedded-%d.json", sql.Process.Pid))
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(announced); err == nil {
			break
		}
		if time.Now().After(deadline) {
			_ = sql.Process.Kill()
			t.Fatalf("sluice sql announced no cluster in %s:\n%s", dir, out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}

	r := runSluice(t, nil, "topic", "create", "--topic", "found", "-partitions", "1")
	if r.code != 0 || r.stdout != "Created topic found.\n" || !strings.Contains(r.stderr, fmt.Sprintf("Using the embedded cluster of sluice (pid %d)", sql.Process.Pid)) {
		t.Fatalf("sluice topic create --topic found: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale announcement is still there: %v", err)
	}
	b, err := os.ReadFile(announced)
	if err != nil {
		t.Fatal(err)
	}
	var a announcement
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	r = runSluice(t, nil, "topic", "list", "--bootstrap-server", a.BootstrapServers)
	if r.code != 0 || !strings.Contains(r.stdout, "found") || strings.Contains(r.stderr, "Using the embedded cluster") {
		t.Fatalf("sluice topic list --bootstrap-server: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	stdin.Close()
	if err := sql.Wait(); err != nil {
		t.Fatalf("sluice sql: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(announced); !os.IsNotExist(err) {
		t.Errorf("the announcement outlived the client: %v", err)
	}
}
