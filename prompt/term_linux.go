package prompt

import "golang.org/x/sys/unix"

// What golang.org/x/term does not offer, on Linux: the termios requests
// (the prompt keeps output processing on, which term.MakeRaw turns off),
// flushing type-ahead, and the terminal's own device number.

const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)

// devTTY is /dev/tty's own device number, the same in every terminal.
var devTTY = unix.Mkdev(5, 0)

func flushTerminalInput(fd int) { unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH) }

// ttyDevice is the device of the terminal fd is, through TIOCGDEV (which
// names the real terminal even for /dev/tty).
func ttyDevice(fd int) (uint64, bool) {
	dev, err := unix.IoctlGetUint32(fd, unix.TIOCGDEV)
	return uint64(dev), err == nil && dev != 0
}
