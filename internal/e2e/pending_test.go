package e2e

import (
	"errors"
	"net"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// pending counts, without waiting, what reached a listener by the time
// the probe that tried it has ended: a completed TCP or Unix connection
// waits in the listener's accept queue, a datagram in its socket buffer,
// so the kernel answers at once and no sleep decides the result. Nothing
// else may read the listener (no goroutine accepting on it).
func pending(t *testing.T, l syscall.Conn) int {
	t.Helper()
	rc, err := l.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ctl := rc.Control(func(fd uintptr) {
		kind, _ := unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_TYPE)
		buf := make([]byte, 512)
		for {
			var err error
			if kind == unix.SOCK_DGRAM {
				_, _, err = unix.Recvfrom(int(fd), buf, unix.MSG_DONTWAIT)
			} else {
				var c int
				c, _, err = unix.Accept(int(fd))
				if err == nil {
					unix.Close(c)
				}
			}
			if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EWOULDBLOCK) {
				return
			}
			if err != nil {
				t.Errorf("reading the listener: %v", err)
				return
			}
			n++
		}
	})
	if ctl != nil {
		t.Fatal(ctl)
	}
	return n
}

var (
	_ syscall.Conn = (*net.TCPListener)(nil)
	_ syscall.Conn = (*net.UDPConn)(nil)
	_ syscall.Conn = (*net.UnixListener)(nil)
)
