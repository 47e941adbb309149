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
// atomically, keeping the rules already there. A sandbox level makes it
// a rule of its own ([[allow.rule]] with that sandbox).
func AddLearned(path, prefix, level string, now time.Time) error {
	if strings.TrimSpace(prefix) == "" {
		return fmt.Errorf("empty prefix")
	}
	return fsutil.Locked(path+".lock", func() error {
		var prefixes []string
		var rules []ruleSpec
		data, err := readFile(path)
		if err != nil {
			return err
		}
		if data != nil {
			f, err := parseFile(path, data)
			if err != nil {
				return err
			}
			prefixes, rules = f.Allow.Prefix, f.Allow.Rule
		}
		switch {
		case level == "" && slices.Contains(prefixes, prefix):
			return nil
		case level == "":
			prefixes = append(prefixes, prefix)
		default:
			for _, r := range rules {
				if r.Prefix == prefix && r.Sandbox == level && len(r.Except) == 0 && len(r.Writable) == 0 {
					return nil
				}
			}
			rules = append(rules, ruleSpec{Prefix: prefix, Sandbox: level})
		}
		var b strings.Builder
		b.WriteString("# Written by agentgate when you chose \"Always allow\" at the prompt.\n")
		b.WriteString("# These rules are allowed like those in config.toml; remove one to take it back.\n")
		fmt.Fprintf(&b, "# Last change: %s\n\n[allow]\nprefix = [\n", now.UTC().Format(time.RFC3339))
		for _, p := range prefixes {
			fmt.Fprintf(&b, "  %s,\n", strconv.Quote(p))
		}
		b.WriteString("]\n")
		for _, r := range rules {
			fmt.Fprintf(&b, "\n[[allow.rule]]\nprefix = %s\n", strconv.Quote(r.Prefix))
			if len(r.Except) > 0 {
				fmt.Fprintf(&b, "except = %s\n", quoteList(r.Except))
			}
			if r.Note != "" {
				fmt.Fprintf(&b, "note = %s\n", strconv.Quote(r.Note))
			}
			if r.Sandbox != "" {
				fmt.Fprintf(&b, "sandbox = %s\n", strconv.Quote(r.Sandbox))
			}
			if len(r.Writable) > 0 {
				fmt.Fprintf(&b, "writable = %s\n", quoteList(r.Writable))
			}
		}
		return fsutil.WriteAtomic(path, []byte(b.String()))
	})
}

func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
