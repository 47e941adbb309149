package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// Trust records which project files the user reviewed: the SHA-256 of
// each file's content when it was trusted. A file whose content changed
// is untrusted again (the direnv model).
type Trust struct {
	Files map[string]TrustEntry `json:"files"`
}

// TrustEntry is one trusted file.
type TrustEntry struct {
	SHA256  string `json:"sha256"`
	Trusted string `json:"trusted"`
}

// TrustPath is the trust store in the state directory.
func TrustPath(stateDir string) string { return filepath.Join(stateDir, "trust.json") }

// LoadTrust reads the trust store; a missing store trusts nothing.
func LoadTrust(path string) (*Trust, error) {
	t := &Trust{Files: map[string]TrustEntry{}}
	data, err := fsutil.ReadRegular(path, fsutil.MaxStateSize)
	if errors.Is(err, os.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return t, fmt.Errorf("read trust store %s: %v", path, err)
	}
	if err := json.Unmarshal(data, t); err != nil {
		return &Trust{Files: map[string]TrustEntry{}}, fmt.Errorf("trust store %s is corrupt: %v", path, err)
	}
	if t.Files == nil {
		t.Files = map[string]TrustEntry{}
	}
	return t, nil
}

// Known reports whether path was ever trusted.
func (t *Trust) Known(path string) bool {
	_, ok := t.Files[path]
	return ok
}

// Trusted reports whether path is trusted with its current content.
func (t *Trust) Trusted(path string) bool {
	e, ok := t.Files[path]
	if !ok {
		return false
	}
	sum, err := fileSum(path)
	return err == nil && sum == e.SHA256
}

// Add trusts path with its current content.
func (t *Trust) Add(path string, now time.Time) (string, error) {
	sum, err := fileSum(path)
	if err != nil {
		return "", err
	}
	t.Files[path] = TrustEntry{SHA256: sum, Trusted: now.UTC().Format(time.RFC3339)}
	return sum, nil
}

// Paths lists the trusted files, sorted.
func (t *Trust) Paths() []string {
	var out []string
	for p := range t.Files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Save writes the store atomically (temp file + rename), 0600 in a 0700
// directory.
func (t *Trust) Save(path string) error {
	data, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err
	}
	return fsutil.WriteAtomic(path, append(data, '\n'))
}

func fileSum(path string) (string, error) {
	data, err := fsutil.ReadRegular(path, fsutil.MaxConfigSize)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}
