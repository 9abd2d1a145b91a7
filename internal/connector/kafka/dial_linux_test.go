package kafka

import (
	"context"
	"net"
	"syscall"
	"testing"
)

// TestSocketBuffers checks send.buffer.bytes and receive.buffer.bytes on
// the socket (Linux reports twice the size asked for).
func TestSocketBuffers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	size := func(props map[string]string, opt int) int {
		t.Helper()
		conn, err := newDialer(props).dialFunc(nil)(context.Background(), "tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		raw, err := conn.(*net.TCPConn).SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var n int
		if err := raw.Control(func(fd uintptr) { n, err = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, opt) }); err != nil {
			t.Fatal(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	props := map[string]string{propSendBuffer: "12345", propReceiveBuffer: "23456"}
	if got := size(props, syscall.SO_SNDBUF); got != 2*12345 {
		t.Errorf("send buffer %d, want %d", got, 2*12345)
	}
	if got := size(props, syscall.SO_RCVBUF); got != 2*23456 {
		t.Errorf("receive buffer %d, want %d", got, 2*23456)
	}
}
