//go:build unix

package client

import (
	"bytes"
	"os"

	"golang.org/x/sys/unix"
)

// readTyped reads a line typed on standard input, a terminal in canonical
// mode, or returns false once done is closed. Nothing is read past the
// line, so that the next prompt reads what follows.
func readTyped(done <-chan struct{}) (string, bool) {
	wake, w, err := os.Pipe()
	if err != nil {
		return "", false
	}
	defer wake.Close()
	go func() {
		<-done
		w.Close()
	}()
	fds := []unix.PollFd{
		{Fd: int32(os.Stdin.Fd()), Events: unix.POLLIN},
		{Fd: int32(wake.Fd()), Events: unix.POLLIN},
	}
	var line []byte
	buf := make([]byte, 1024)
	for {
		if _, err := unix.Poll(fds, -1); err == unix.EINTR {
			continue
		} else if err != nil || fds[1].Revents != 0 {
			return "", false
		}
		if fds[0].Revents == 0 {
			continue
		}
		// In canonical mode a read returns at most one line, once it is
		// complete.
		n, err := os.Stdin.Read(buf)
		if err != nil {
			// Ctrl-D, or the terminal is gone.
			return "", false
		}
		line = append(line, buf[:n]...)
		if bytes.HasSuffix(line, []byte("\n")) {
			return string(line), true
		}
	}
}
