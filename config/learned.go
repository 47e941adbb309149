package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// LearnedPath is the file agentgate owns for "Always allow" answers.
func LearnedPath(configDir string) string { return filepath.Join(configDir, "learned.toml") }

// AddLearned adds an allow prefix to learned.toml, under a lock and
// atomically, keeping the prefixes already there.
func AddLearned(path, prefix string, now time.Time) error {
	if strings.TrimSpace(prefix) == "" {
		return fmt.Errorf("empty prefix")
	}
	return fsutil.Locked(path+".lock", func() error {
		var prefixes []string
		data, err := readFile(path)
		if err != nil {
			return err
		}
		if data != nil {
			f, err := parseFile(path, data)
			if err != nil {
				return err
			}
			prefixes = f.Allow.Prefix
		}
		if slices.Contains(prefixes, prefix) {
			return nil
		}
		prefixes = append(prefixes, prefix)
		var b strings.Builder
		b.WriteString("# Written by agentgate when you chose \"Always allow\" at the prompt.\n")
		b.WriteString("# These prefixes are allowed like those in config.toml; remove a line to take one back.\n")
		fmt.Fprintf(&b, "# Last change: %s\n\n[allow]\nprefix = [\n", now.UTC().Format(time.RFC3339))
		for _, p := range prefixes {
			fmt.Fprintf(&b, "  %s,\n", strconv.Quote(p))
		}
		b.WriteString("]\n")
		return fsutil.WriteAtomic(path, []byte(b.String()))
	})
}
