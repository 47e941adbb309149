package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// NewScratch makes a private, empty scratch directory under base (mode
// 0700), named after the process that will use it. A confined command
// that replaced agentgate keeps its process id, so scratch directories
// whose process is gone are stale: they are removed here first.
func NewScratch(base string) (string, error) {
	if err := os.MkdirAll(base, 0o700); err != nil {
		return "", fmt.Errorf("sandbox: scratch directory: %w", err)
	}
	removeStale(base)
	var b [6]byte
	_, _ = rand.Read(b[:])
	dir := filepath.Join(base, fmt.Sprintf("%d-%s", os.Getpid(), hex.EncodeToString(b[:])))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", fmt.Errorf("sandbox: scratch directory: %w", err)
	}
	return dir, nil
}

// removeStale removes the scratch directories of processes that are gone.
// os.RemoveAll does not follow symbolic links, so a link planted inside
// cannot make it remove anything outside.
func removeStale(base string) {
	ents, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range ents {
		pidText, _, ok := strings.Cut(e.Name(), "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || alive(pid) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(base, e.Name()))
	}
}

// alive reports whether process pid exists (signal 0 reaches it, or it
// exists but belongs to someone else).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
