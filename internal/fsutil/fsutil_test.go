package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A lock another process holds past LockWait is an error, not a wait
// without end: nothing is done, and the error names the file. (Another
// open file description of the same file stands for the other process:
// flock locks belong to those.)
func TestLockedGivesUpOnAHeldLock(t *testing.T) {
	saved := LockWait
	LockWait = 50 * time.Millisecond
	defer func() { LockWait = saved }()
	lock := filepath.Join(t.TempDir(), "x.lock")
	f, err := os.OpenFile(lock, os.O_RDONLY|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	ran := false
	err = Locked(lock, func() error { ran = true; return nil })
	var busy *LockBusyError
	if !errors.As(err, &busy) || busy.Path != lock || ran {
		t.Fatalf("Locked on a held lock = %v, ran %v; want a LockBusyError naming %s and nothing run", err, ran, lock)
	}
	// Released, it is taken.
	unix.Flock(int(f.Fd()), unix.LOCK_UN)
	if err := Locked(lock, func() error { ran = true; return nil }); err != nil || !ran {
		t.Fatalf("Locked on a free lock = %v, ran %v", err, ran)
	}
}
