// Package fsutil writes agentgate's state files safely.
package fsutil

import (
	"os"
	"path/filepath"

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

// Locked runs fn while holding an exclusive flock on lockPath (created
// 0600), so read-modify-write cycles of concurrent processes do not lose
// each other's changes.
func Locked(lockPath string, fn func() error) error {
	if err := os.MkdirAll(filepath.Dir(lockPath), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return err
	}
	defer unix.Flock(int(f.Fd()), unix.LOCK_UN) //nolint:errcheck // Close releases it too
	return fn()
}
