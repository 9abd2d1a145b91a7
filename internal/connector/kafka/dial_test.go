package kafka

import (
	"context"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/sluicesql/sluice/internal/connector"
)

// TestConnectTimeouts checks Kafka's connection setup timeouts
// (ClusterConnectionStates): socket.connection.setup.timeout.ms doubled
// per failed attempt in a row, give or take 20%, up to
// socket.connection.setup.timeout.max.ms.
func TestConnectTimeouts(t *testing.T) {
	within := func(what string, got, want time.Duration) {
		t.Helper()
		if got < want*8/10 || got > want*12/10 {
			t.Errorf("%s: %v, want %v ± 20%%", what, got, want)
		}
	}
	d := newDialer(map[string]string{propConnectTimeout: "100", propConnectTimeoutMax: "400"})
	within("first attempt", d.timeout(0), 100*time.Millisecond)
	within("after a failure", d.timeout(1), 200*time.Millisecond)
	if got := d.timeout(5); got != 400*time.Millisecond {
		t.Errorf("after five failures: %v, want the maximum", got)
	}
	within("default maximum", newDialer(map[string]string{propConnectTimeout: "1000"}).timeout(1), 2*time.Second)
	if got := newDialer(map[string]string{propConnectTimeout: "60000"}).timeout(0); got != defaultConnectTimeoutMax {
		t.Errorf("a timeout above the default maximum: %v, want the maximum, as Kafka applies", got)
	}
	if got := newDialer(nil).timeout(3); got != defaultConnectTimeout {
		t.Errorf("without the properties: %v, want %v each time", got, defaultConnectTimeout)
	}
}

// TestDialerCountsFailuresPerAddress: failed attempts lengthen the next
// attempt's timeout until a connection succeeds.
func TestDialerCountsFailuresPerAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // connections are now refused
	d := newDialer(map[string]string{propConnectTimeout: "1000", propConnectTimeoutMax: "30000"})
	dial := d.dialFunc(nil)
	for range 2 {
		if _, err := dial(context.Background(), "tcp", addr); err == nil {
			t.Fatal("dialing a closed port succeeded")
		}
	}
	if d.failures[addr] != 2 {
		t.Fatalf("failures %d, want 2", d.failures[addr])
	}
	ln, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("the port was taken meanwhile: %v", err)
	}
	defer ln.Close()
	conn, err := dial(context.Background(), "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if n, ok := d.failures[addr]; ok {
		t.Errorf("failures %d after a connection, want none", n)
	}
}

// TestConnectionPropertiesOnAPlainConnection reads a topic through the
// dialer the connection properties set up.
func TestConnectionPropertiesOnAPlainConnection(t *testing.T) {
	if clientFor(t, propConnectTimeout, "2000").OptValue(kgo.Dialer) == nil {
		t.Fatal("socket.connection.setup.timeout.ms set no dialer")
	}
	c := startCluster(t, 1)
	createTopic(t, c, "dialed", 1)
	produce(t, c, rec("dialed", 0, "", `{"id":1}`))
	tbl := table(idCols, options(c, "dialed", "scan.bounded.mode", "latest-offset", "properties."+propConnectTimeout, "2000",
		"properties."+propSendBuffer, "65536", "properties."+propReceiveBuffer, "65536"))
	job, coll := runSource(t, tbl, connector.SourceSpec{}, 1)
	if err := waitDone(t, job); err != nil {
		t.Fatal(err)
	}
	if got := coll.sorted(); !slices.Equal(got, ids(1)) {
		t.Fatalf("read %v", got)
	}
}
