package prompt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// WaitingNotice is the line a prompt shows while another prompt holds the
// same terminal.
const WaitingNotice = "agentgate: waiting for another approval on this terminal"

// DefaultLockDir is where the terminal locks live: $XDG_RUNTIME_DIR/agentgate,
// else the state directory ($XDG_STATE_HOME/agentgate, ~/.local/state/agentgate).
func DefaultLockDir(getenv func(string) string) string {
	if d := getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(d) {
		return filepath.Join(d, "agentgate")
	}
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "agentgate")
	}
	home := getenv("HOME")
	if home == "" {
		home = os.TempDir()
	}
	return filepath.Join(home, ".local", "state", "agentgate")
}

// terminalDevice is the device number of the terminal tty is: TIOCGDEV
// on it, else tty_nr from /proc/self/stat (the controlling terminal, which
// is what /dev/tty opens), else the device of the file when it is not
// /dev/tty itself. Never the device of /dev/tty (5, 0), which is the same
// in every terminal and would make all terminals wait for each other.
func terminalDevice(tty *os.File) (uint64, error) {
	if dev, ok := ttyDevice(int(tty.Fd())); ok {
		return dev, nil
	}
	if data, err := os.ReadFile("/proc/self/stat"); err == nil {
		if nr, ok := ttyNr(string(data)); ok && nr != 0 {
			return nr, nil
		}
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(tty.Fd()), &st); err != nil {
		return 0, err
	}
	if uint64(st.Rdev) == devTTY {
		return 0, errors.New("no device number for the terminal")
	}
	return uint64(st.Rdev), nil
}

// ttyNr reads field 7 (tty_nr) of /proc/PID/stat. The command name in
// field 2 is in parentheses and may hold spaces and parentheses itself,
// so fields are counted from the last ')'.
func ttyNr(stat string) (uint64, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 5 {
		return 0, false
	}
	n, err := strconv.ParseInt(f[4], 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	return uint64(n), true
}

// errLockWait: the terminal stayed locked longer than any honest prompt
// would hold it.
var errLockWait = errors.New("the terminal stayed locked by another prompt")

// lockTerminal takes the lock of the terminal tty belongs to, so that two
// escalations at once (an agent running tool calls in parallel) never
// draw two prompts over each other. When another prompt holds it, one
// line says so and the lock is waited for until ctx ends, or for maxWait
// when it is positive (errLockWait): nothing hangs, even if a hostile
// process holds the lock. If the lock cannot be made at all (no writable
// directory), the prompt goes ahead without it: it still asks, which is
// the safe side.
func lockTerminal(ctx context.Context, tty *os.File, dir string, maxWait time.Duration) (unlock func(), err error) {
	none := func() {}
	dev, err := terminalDevice(tty)
	if err != nil {
		return none, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return none, nil
	}
	name := filepath.Join(dir, fmt.Sprintf("tty-%d-%d.lock", unix.Major(dev), unix.Minor(dev)))
	fd, err := unix.Open(name, unix.O_RDWR|unix.O_CREAT|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0o600)
	if err != nil {
		return none, nil
	}
	unlock = func() { unix.Flock(fd, unix.LOCK_UN); unix.Close(fd) }
	shown := false
	var deadline <-chan time.Time
	if maxWait > 0 {
		t := time.NewTimer(maxWait)
		defer t.Stop()
		deadline = t.C
	}
	for {
		err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return unlock, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			unix.Close(fd)
			return none, nil
		}
		if !shown {
			tty.WriteString("\r" + WaitingNotice + "\r\n")
			shown = true
		}
		select {
		case <-ctx.Done():
			unix.Close(fd)
			return none, ctx.Err()
		case <-deadline:
			unix.Close(fd)
			return none, errLockWait
		case <-time.After(50 * time.Millisecond):
		}
	}
}
