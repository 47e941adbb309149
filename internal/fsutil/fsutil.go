// Package fsutil writes agentgate's state files safely.
package fsutil

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// WriteAtomic replaces path with data: readers see the old file or the
// new one, never a part, and a crash leaves one of the two. The file is
// 0600 in a 0700 directory.
func WriteAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	for _, step := range []func() error{
		func() error { _, err := f.Write(data); return err },
		func() error { return f.Chmod(0o600) },
		f.Sync,
	} {
		if err := step(); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// LockWait bounds how long [Locked] waits for another holder of the lock.
// Writers hold it for milliseconds; a process that holds it for longer is
// not one of them (a red team's command, run in bypass mode, opened the
// audit log's lock file read-only, took the lock and slept, and every
// later escalation waited with it).
var LockWait = 10 * time.Second

// LockBusyError is a lock held by another process for longer than
// [LockWait]: nothing was done.
type LockBusyError struct{ Path string }

func (e *LockBusyError) Error() string {
	return fmt.Sprintf("%s has been locked by another process for more than %s, so nothing was written (a command started earlier may hold it; find it with: fuser %s)", e.Path, LockWait, e.Path)
}

// Locked runs fn while holding an exclusive flock on lockPath (created
// 0600), so read-modify-write cycles of concurrent processes do not lose
// each other's changes. It waits at most [LockWait] for the lock.
func Locked(lockPath string, fn func() error) error {
	if err := os.MkdirAll(filepath.Dir(lockPath), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	// The wait is the kernel's (waiters polling with LOCK_NB starved one
	// another under sixty concurrent writers), in a goroutine that is
	// left behind when the wait is too long: it keeps the file open, and
	// lets the lock go the moment it gets it.
	got := make(chan error, 1)
	go func() {
		for {
			err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
			if err != unix.EINTR {
				got <- err
				return
			}
		}
	}()
	timer := time.NewTimer(LockWait)
	defer timer.Stop()
	select {
	case err = <-got:
	case <-timer.C:
		go func() {
			if <-got == nil {
				unix.Flock(int(f.Fd()), unix.LOCK_UN) //nolint:errcheck // Close releases it too
			}
			f.Close()
		}()
		return &LockBusyError{Path: lockPath}
	}
	defer f.Close()
	if err != nil {
		return err
	}
	defer unix.Flock(int(f.Fd()), unix.LOCK_UN) //nolint:errcheck // Close releases it too
	return fn()
}
