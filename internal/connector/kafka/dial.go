package kafka

import (
	"context"
	"net"
	"strconv"
	"sync"
	"time"
)

// The properties that say how connections to brokers are opened.
const (
	propConnectTimeout    = "socket.connection.setup.timeout.ms"
	propConnectTimeoutMax = "socket.connection.setup.timeout.max.ms"
	propSendBuffer        = "send.buffer.bytes"
	propReceiveBuffer     = "receive.buffer.bytes"
)

// Kafka's defaults of socket.connection.setup.timeout.ms and
// socket.connection.setup.timeout.max.ms. Without either property, every
// attempt is given defaultConnectTimeout, as franz-go does.
const (
	defaultConnectTimeout    = 10 * time.Second
	defaultConnectTimeoutMax = 30 * time.Second
)

// dialer opens a table's connections to brokers as Kafka's clients do
// (ClusterConnectionStates): an attempt to connect to an address is given
// socket.connection.setup.timeout.ms, doubled after each failed attempt in
// a row up to socket.connection.setup.timeout.max.ms, give or take 20%;
// the socket buffers are set to send.buffer.bytes and
// receive.buffer.bytes. A TLS handshake is part of the attempt. The
// failures are counted per address for all the clients of the table.
type dialer struct {
	timeout          func(failures int) time.Duration
	sendBuf, recvBuf int // -1: the system's

	mu       sync.Mutex
	failures map[string]int
}

// dialerConfigured tells whether props set how connections are opened.
func dialerConfigured(props map[string]string) bool {
	for _, k := range []string{propConnectTimeout, propConnectTimeoutMax, propSendBuffer, propReceiveBuffer} {
		if _, ok := props[k]; ok {
			return true
		}
	}
	return false
}

// newDialer reads the validated connection properties.
func newDialer(props map[string]string) *dialer {
	d := &dialer{sendBuf: -1, recvBuf: -1, failures: map[string]int{},
		timeout: func(int) time.Duration { return defaultConnectTimeout }}
	_, hasBase := props[propConnectTimeout]
	_, hasMax := props[propConnectTimeoutMax]
	if hasBase || hasMax {
		d.timeout = exponentialBackoff(millisOr(props, propConnectTimeout, defaultConnectTimeout),
			millisOr(props, propConnectTimeoutMax, defaultConnectTimeoutMax))
	}
	for _, b := range []struct {
		key string
		n   *int
	}{{propSendBuffer, &d.sendBuf}, {propReceiveBuffer, &d.recvBuf}} {
		if n, err := strconv.Atoi(props[b.key]); err == nil {
			*b.n = n
		}
	}
	return d
}

// dialFunc returns a franz-go dial function opening TCP connections,
// wrapped by wrap (nil: plain TCP) within the attempt's timeout.
func (d *dialer) dialFunc(wrap func(ctx context.Context, addr string, conn net.Conn) (net.Conn, error)) func(context.Context, string, string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		d.mu.Lock()
		failures := d.failures[addr]
		d.mu.Unlock()
		ctx, cancel := context.WithTimeout(ctx, d.timeout(failures))
		defer cancel()
		conn, err := d.connect(ctx, network, addr, wrap)
		d.mu.Lock()
		if err != nil {
			d.failures[addr]++
		} else {
			delete(d.failures, addr)
		}
		d.mu.Unlock()
		return conn, err
	}
}

func (d *dialer) connect(ctx context.Context, network, addr string, wrap func(context.Context, string, net.Conn) (net.Conn, error)) (net.Conn, error) {
	var nd net.Dialer
	conn, err := nd.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		if d.sendBuf > 0 {
			err = tcp.SetWriteBuffer(d.sendBuf)
		}
		if d.recvBuf > 0 && err == nil {
			err = tcp.SetReadBuffer(d.recvBuf)
		}
	}
	if err == nil && wrap != nil {
		var wrapped net.Conn
		if wrapped, err = wrap(ctx, addr, conn); err == nil {
			return wrapped, nil
		}
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}
