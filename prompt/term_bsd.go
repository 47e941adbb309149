//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package prompt

import "golang.org/x/sys/unix"

// What golang.org/x/term does not offer, on macOS and the BSDs: the
// termios requests, flushing type-ahead, and the terminal's device (no
// TIOCGDEV there: the lock falls back to the device of the file, which
// for /dev/tty is the controlling terminal's on these systems).

const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)

// devTTY is /dev/tty's own device number (2, 0 on these systems).
var devTTY = unix.Mkdev(2, 0)

// fread is FREAD of <sys/fcntl.h>: TIOCFLUSH with it discards input only.
const fread = 0x1

func flushTerminalInput(fd int) { unix.IoctlSetPointerInt(fd, unix.TIOCFLUSH, fread) }

func ttyDevice(fd int) (uint64, bool) { return 0, false }
