package hook

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Tested are the host versions agentgate's end-to-end tests drive
// (internal/e2e/testdata/e2e/package.json pins them; a test keeps the
// two in step): what this package says of a host's hook protocol, rules
// and dialog was shown on these versions. Cursor is not on the registry
// the tests install from.
var Tested = map[string]Program{
	"claude": {Command: "claude", Version: "2.1.328"},
	"codex":  {Command: "codex", Version: "0.169.0"},
	"gemini": {Command: "gemini", Version: "0.61.0"},
}

// Program is a host's command-line program and a version of it.
type Program struct {
	Command, Version string
}

var versionNumber = regexp.MustCompile(`\b\d+\.\d+\.\d+\b`)

// InstalledVersion runs the host's program with --version, found on path
// (a PATH value; relative entries are skipped, as the host's own launcher
// would not be found there by a careful user), and returns the first
// version number it prints. ok is false when the host is not one the
// tests drive, its program is not found, or it prints no version within
// a few seconds.
func InstalledVersion(host, path string) (version, program string, ok bool) {
	t, known := Tested[host]
	if !known {
		return "", "", false
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, t.Command)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			v := runVersion(p)
			return v, p, v != ""
		}
	}
	return "", "", false
}

// runVersion is the first version number "p --version" prints, or "".
func runVersion(p string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, p, "--version")
	c.WaitDelay = time.Second
	out, err := c.Output()
	if err != nil {
		return ""
	}
	return versionNumber.FindString(strings.TrimSpace(string(out)))
}
