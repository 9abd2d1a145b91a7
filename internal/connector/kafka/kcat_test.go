package kafka

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/connector"
	"github.com/sluicesql/sluice/internal/testenv"
	"github.com/sluicesql/sluice/internal/types"
)

// kcat is librdkafka's command line client: an independent check that what
// Sluice writes and reads is plain Kafka.
func kcat(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	path := testenv.LookPath(t, "kcat", "apt-get install kcat")
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("kcat %v: %v\n%s", args, err, stderr)
	}
	return string(out)
}

func TestKcatReadsWhatTheSinkWrites(t *testing.T) {
	c := startCluster(t, 1)
	cols := []catalog.Column{column("name", types.StringType), column("score", types.DoubleType)}
	tbl := table(cols, options(c, "scores", "key.format", "raw", "key.fields", "name"))
	writeRows(t, tbl, 0, 1, chunk(tbl.Schema().Types(), []any{"ann", 1.5}, []any{"bob", nil}))
	got := kcat(t, "", "-C", "-b", c.BootstrapServers(), "-t", "scores", "-e", "-q", "-f", `%k\t%s\n`)
	want := "ann\t{\"name\":\"ann\",\"score\":1.5}\nbob\t{\"name\":\"bob\",\"score\":null}\n"
	if got != want {
		t.Fatalf("kcat read %q, want %q", got, want)
	}
}

func TestSourceReadsWhatKcatWrites(t *testing.T) {
	c := startCluster(t, 1)
	createTopic(t, c, "lines", 1)
	kcat(t, "a|first line\nb|second line\n", "-P", "-b", c.BootstrapServers(), "-t", "lines", "-K", "|")
	cols := []catalog.Column{column("k", types.StringType), column("line", types.StringType)}
	tbl := table(cols, options(c, "lines", "format", "raw", "key.format", "raw", "key.fields", "k",
		"value.fields-include", "EXCEPT_KEY", "scan.bounded.mode", "latest-offset"))
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	if got, want := coll.sorted(), []string{"+I[a, first line]", "+I[b, second line]"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
