package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/internal/fsutil"
)

// ProjectFileNames are the names of project files, the only files
// "agentgate trust" accepts.
var ProjectFileNames = []string{".agentgate.toml", ".agentgate.local.toml"}

// TrustSummary reads a project file and says what trusting it would turn
// on: its allow rules and its settings, each with its line, one per line
// of text. Ask and deny rules apply whether trusted or not and are not
// listed. It refuses a file that is not named like a project file or is
// not a valid agentgate configuration.
func TrustSummary(path string) ([]string, error) {
	base := filepath.Base(path)
	if base != ProjectFileNames[0] && base != ProjectFileNames[1] {
		return nil, fmt.Errorf("%s is not an agentgate project file (%s or %s)", path, ProjectFileNames[0], ProjectFileNames[1])
	}
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	if data == nil {
		return nil, fmt.Errorf("%s does not exist", path)
	}
	f, err := parseFile(path, data)
	if err != nil {
		return nil, err
	}
	if f.Policy != nil {
		return nil, &Error{Path: path, Line: 1, Col: 1, Msg: "[policy] is only read from the policy file", Fix: "remove it"}
	}
	rules, err := f.rules(path, data)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, r := range rules {
		if r.Kind != allowlist.Allow {
			continue
		}
		line := fmt.Sprintf("allow without asking: %s  (line %d)", r.String(), r.Source.Line)
		if len(r.Except) > 0 {
			line += fmt.Sprintf(", with %d argument exceptions", len(r.Except))
		}
		// What the rule's command may do is part of what is trusted: a
		// red team widened a trusted rule with writable = [HOME] and the
		// dialog showed the same line as before.
		switch r.Sandbox {
		case "", "none":
			line += ", UNCONFINED: it runs with all your rights"
		default:
			line += fmt.Sprintf(", sandbox %s", r.Sandbox)
		}
		if len(r.Writable) > 0 {
			line += ", may also write " + strings.Join(r.Writable, ", ")
		}
		out = append(out, line)
	}
	set := func(key string, v any) {
		out = append(out, fmt.Sprintf("setting: %s = %v  (line %d)", key, v, keyLine(data, []string{key})))
	}
	if f.Mode != "" {
		set("mode", fmt.Sprintf("%q", f.Mode))
	}
	if f.Compound != "" {
		set("compound", fmt.Sprintf("%q", f.Compound))
	}
	if f.PromptTimeout != nil {
		set("prompt_timeout", f.PromptTimeout.Duration)
	}
	if f.PromptChallenge != nil {
		set("prompt_challenge", *f.PromptChallenge)
	}
	if f.SessionTTL != nil {
		set("session_ttl", f.SessionTTL.Duration)
	}
	if f.BreakerThreshold != nil {
		set("breaker_threshold", *f.BreakerThreshold)
	}
	if f.BreakerWindow != nil {
		set("breaker_window", f.BreakerWindow.Duration)
	}
	if f.Audit.MaxSize != nil {
		out = append(out, fmt.Sprintf("setting: audit.max_size = %d bytes  (line %d)", f.Audit.MaxSize.n, keyLine(data, []string{"audit", "max_size"})))
	}
	if f.Audit.Syslog != nil {
		out = append(out, fmt.Sprintf("setting: audit.syslog = %v  (line %d)", *f.Audit.Syslog, keyLine(data, []string{"audit", "syslog"})))
	}
	if len(out) == 0 {
		out = append(out, "nothing: the file has no allow rules or settings (its ask and deny rules apply anyway)")
	}
	return out, nil
}

// warnedPath records, per project file, the content last warned about.
func warnedPath(stateDir string) string { return filepath.Join(stateDir, "untrusted-warned.json") }

// warnOnce reports whether the "not trusted" warning for path is due: the
// first time agentgate reads the file with this content. It records the
// content, so that the warning shows once per change of the file, not on
// every call. Any failure to read or write the record warns (the safe
// side is to say it again).
func warnOnce(stateDir, path string) bool {
	if stateDir == "" {
		return true
	}
	sum, err := fileSum(path)
	if err != nil {
		return true
	}
	store := warnedPath(stateDir)
	warned := map[string]string{}
	if data, err := os.ReadFile(store); err == nil {
		if json.Unmarshal(data, &warned) != nil {
			warned = map[string]string{}
		}
	}
	if warned[path] == sum {
		return false
	}
	warned[path] = sum
	if data, err := json.Marshal(warned); err == nil {
		fsutil.WriteAtomic(store, data)
	}
	return true
}
