package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sluicesql/sluice/internal/server/servertest"
	"github.com/sluicesql/sluice/internal/testenv"
)

// TestServerDataDirOwnerOnly: everything in sluice server's data
// directory, the embedded broker's topics included, is readable by its
// owner only: directories 0700, files 0600.
func TestServerDataDirOwnerOnly(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	data := t.TempDir()
	srv := startServer(t, ctx, "-data-dir", data, "-kafka-port", "0", "-registry-port", "0")
	defer func() { srv.kill() }()
	m := regexp.MustCompile(`Embedded Kafka broker at (\S+),`).FindStringSubmatch(srv.printed())
	if m == nil {
		t.Fatalf("no broker address in:\n%s", srv.printed())
	}
	c := &servertest.Client{Base: srv.url}
	session, err := c.OpenSession(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []string{
		"CREATE TABLE k (a INT) WITH ('connector' = 'kafka', 'topic' = 'k', 'properties.bootstrap.servers' = '" + m[1] + "', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset')",
		"INSERT INTO k VALUES (1), (2)",
	} {
		if _, err := c.Run(ctx, session, st); err != nil {
			t.Fatal(err)
		}
	}
	// The rows are in the topic once a query reads them back.
	op, err := c.Submit(ctx, session, "SELECT a FROM k")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	if _, err := c.Fetch(ctx, "/v1/sessions/"+session+"/operations/"+op+"/result/0", func(r map[string]any) bool {
		n += len(servertest.Rows(r))
		return n < 2
	}); err != nil {
		t.Fatalf("%v\n%s", err, srv.printed())
	}
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := srv.cmd.Wait(); err != nil {
		t.Fatalf("the server stopped by SIGTERM: %v\n%s", err, srv.printed())
	}
	files := 0
	for _, rel := range testenv.OwnerOnly(t, data) {
		if info, err := os.Stat(filepath.Join(data, rel)); err == nil && !info.IsDir() {
			files++
		}
	}
	if files < 3 || !strings.Contains(srv.printed(), "Embedded Kafka broker") {
		t.Errorf("%d files in the data directory", files)
	}
}
