package prompt

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// terminal is the prompt's side of /dev/tty: its saved modes, the keys
// read but not yet used, and the rows drawn last.
type terminal struct {
	f       *os.File
	fd      int
	saved   *term.State
	pending []byte
	drawn   int // rows of the frame on screen, 0 when none
	hidden  bool
	winch   chan os.Signal
}

func openTerminal(f *os.File) *terminal {
	return &terminal{f: f, fd: int(f.Fd())}
}

// makeRaw saves the terminal's modes and switches to raw input: no echo,
// no line editing, no signals from keys (Ctrl-C arrives as a key). Output
// processing stays on, so "\n" still starts a new line.
func (t *terminal) makeRaw() error {
	current, err := unix.IoctlGetTermios(t.fd, ioctlGetTermios)
	if err != nil {
		return err
	}
	if t.saved, err = term.GetState(t.fd); err != nil {
		return err
	}
	raw := *current
	raw.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	raw.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	raw.Cflag &^= unix.CSIZE | unix.PARENB
	raw.Cflag |= unix.CS8
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	return unix.IoctlSetTermios(t.fd, ioctlSetTermios, &raw)
}

// makeCooked saves the terminal's modes and makes sure line editing,
// echo and signal keys are on, for the plain prompt.
func (t *terminal) makeCooked() error {
	current, err := unix.IoctlGetTermios(t.fd, ioctlGetTermios)
	if err != nil {
		return err
	}
	if t.saved, err = term.GetState(t.fd); err != nil {
		return err
	}
	cooked := *current
	cooked.Lflag |= unix.ECHO | unix.ICANON | unix.ISIG
	cooked.Iflag |= unix.ICRNL
	return unix.IoctlSetTermios(t.fd, ioctlSetTermios, &cooked)
}

// restore puts back the modes saved by makeRaw or makeCooked and shows
// the cursor. It runs on every way out of the prompt: a choice, Esc,
// Ctrl-C, a timeout, a signal (which ends the context), a panic.
func (t *terminal) restore() {
	if t.winch != nil {
		signal.Stop(t.winch)
	}
	if t.hidden {
		t.f.WriteString("\x1b[?25h")
		t.hidden = false
	}
	if t.saved != nil {
		term.Restore(t.fd, t.saved)
		t.saved = nil
	}
}

// flushInput discards what was typed before the prompt appeared: keys
// meant for the shell or the agent must not answer it.
func flushInput(f *os.File) { flushTerminalInput(int(f.Fd())) }

// size is the terminal's size, 80x24 when it cannot be read.
func (t *terminal) size() (cols, rows int) {
	cols, rows, err := term.GetSize(t.fd)
	if err != nil || cols == 0 || rows == 0 {
		return 80, 24
	}
	return cols, rows
}

// draw replaces the frame on screen with rows. The cursor stays on the
// last row, so the next draw goes back up to the first.
func (t *terminal) draw(rows []string) {
	var b strings.Builder
	b.WriteString("\x1b[?25l\r")
	if t.drawn > 1 {
		b.WriteString("\x1b[" + strconv.Itoa(t.drawn-1) + "A")
	}
	b.WriteString("\x1b[J")
	b.WriteString(strings.Join(rows, "\r\n"))
	t.f.WriteString(b.String())
	t.drawn, t.hidden = len(rows), true
}

// finish leaves the last frame on screen and moves below it.
func (t *terminal) finish() {
	t.f.WriteString("\r\n\x1b[?25h")
	t.drawn, t.hidden = 0, false
}

// errResize is returned by readKey when the terminal changed size.
var errResize = errors.New("resized")

// readKey waits for the next key, or for ctx to end, or for the terminal
// to change size.
func (t *terminal) readKey(ctx context.Context) (key, error) {
	if t.winch == nil {
		t.winch = make(chan os.Signal, 1)
		signal.Notify(t.winch, syscall.SIGWINCH)
	}
	for {
		if k, n := decodeKey(t.pending, false); n > 0 {
			t.pending = t.pending[n:]
			return k, nil
		}
		wait := 100 * time.Millisecond
		if len(t.pending) > 0 {
			wait = 30 * time.Millisecond // the rest of an escape sequence
		}
		got, err := t.poll(ctx, wait)
		if err != nil {
			return key{}, err
		}
		if !got && len(t.pending) > 0 {
			k, n := decodeKey(t.pending, true)
			t.pending = t.pending[n:]
			return k, nil
		}
	}
}

// poll waits up to d for input and reads it into pending.
func (t *terminal) poll(ctx context.Context, d time.Duration) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	select {
	case <-t.winch:
		return false, errResize
	default:
	}
	fds := []unix.PollFd{{Fd: int32(t.fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(d.Milliseconds()))
	if err == unix.EINTR {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if n == 0 {
		return false, nil
	}
	if fds[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0 && fds[0].Revents&unix.POLLIN == 0 {
		return false, errHangup
	}
	buf := make([]byte, 256)
	m, err := unix.Read(t.fd, buf)
	if err == unix.EINTR || err == unix.EAGAIN {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if m == 0 {
		return false, errHangup
	}
	t.pending = append(t.pending, buf[:m]...)
	return true, nil
}

// errHangup: the terminal went away or reached end of input.
var errHangup = errors.New("the terminal hung up")
