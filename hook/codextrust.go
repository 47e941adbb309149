package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// Codex runs a hook from hooks.json only when its config.toml trusts it:
// [hooks.state."<hooks.json path>:<event>:<group>:<handler>"] with
// trusted_hash, the SHA-256 of the hook's normalized identity (its event,
// matcher and handler as Codex serializes them, object keys sorted,
// compact). An untrusted or changed hook is skipped silently, so install
// writes the trust itself and doctor checks it.

// codexEventLabel is the event's name in trust keys and hashes.
var codexEventLabel = map[string]string{"PreToolUse": "pre_tool_use", "PostToolUse": "post_tool_use", "PermissionRequest": "permission_request", "Stop": "stop"}

// CodexHash is the trusted_hash Codex computes for a command handler with
// this matcher and timeout (in seconds) under event.
func CodexHash(event, matcher, command string, timeout int) string {
	identity := map[string]any{
		"event_name": codexEventLabel[event],
		"matcher":    matcher,
		"hooks": []any{map[string]any{
			"type": "command", "command": command, "timeout": timeout, "async": false,
		}},
	}
	if event == "Stop" {
		delete(identity, "matcher") // Codex keeps no matcher for an event without a tool
	}
	// encoding/json sorts map keys, as Codex's canonical form does.
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(identity)
	sum := sha256.Sum256([]byte(strings.TrimSuffix(b.String(), "\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// codexTrust is one trust entry: its key and hash.
type codexTrust struct{ key, hash string }

// codexEntries finds the command handlers of a Codex hooks.json
// document with their trust keys, agentgate's (mine) or the others'.
func codexEntries(sp spec, doc *object, mine bool) []codexTrust {
	var out []codexTrust
	for _, ev := range sp.events {
		eachHandler(doc, ev, true, func(h handler) {
			if isOurs(h.obj, "codex", sp.self) != mine {
				return
			}
			t, _ := h.obj.get("timeout")
			secs := 600
			switch n := t.(type) {
			case json.Number:
				if i, err := n.Int64(); err == nil && i >= 1 {
					secs = int(i)
				}
			case int:
				secs = max(n, 1)
			}
			out = append(out, codexTrust{
				key:  fmt.Sprintf("%s:%s:%d:%d", sp.path, codexEventLabel[ev], h.group, h.index),
				hash: CodexHash(ev, h.matcher, h.command, secs),
			})
		})
	}
	return out
}

// codexEdit edits doc like spec.edit and says how Codex's trust must
// follow: agentgate's keys before and after, and the new keys of the
// other hooks whose positions moved.
func (sp spec) codexEdit(doc *object, command string) (drop map[string]bool, add []codexTrust, rename map[string]string, err error) {
	before, othersBefore := codexEntries(sp, doc, true), codexEntries(sp, doc, false)
	if err := sp.edit(doc, "codex", command); err != nil {
		return nil, nil, nil, err
	}
	add, othersAfter := codexEntries(sp, doc, true), codexEntries(sp, doc, false)
	drop = map[string]bool{}
	for _, e := range append(before, add...) {
		drop[e.key] = true
	}
	rename = map[string]string{}
	for i := range othersBefore {
		if i < len(othersAfter) && othersBefore[i].key != othersAfter[i].key {
			rename[othersBefore[i].key] = othersAfter[i].key
		}
	}
	return drop, add, rename, nil
}

// stateHeader matches a [hooks.state."KEY"] table header.
var stateHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*\[\s*hooks\s*\.\s*state\s*\.\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*\]\s*(?:#.*)?$`)
})

// trustCodex writes (install) or removes (uninstall) the trust of
// agentgate's entries in doc, in Codex's config.toml, keeping the rest of
// the file as it is. Where it cannot, it changes nothing and the notes
// say how a person trusts the hook.
func (s Setup) trustCodex(sp spec, drop map[string]bool, add []codexTrust, rename map[string]string) (*Change, []string, error) {
	cfgPath := filepath.Join(s.codexHome(), "config.toml")
	manual := []string{"trust the hook in Codex: start codex, open /hooks and trust the agentgate entries (Codex skips an untrusted hook silently), then run 'agentgate doctor'"}
	old, err := os.ReadFile(cfgPath)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, manual, nil
	}
	var out []string
	skip := false
	lines := strings.SplitAfter(string(old), "\n")
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "[") {
			skip = false
			if m := stateHeader().FindStringSubmatch(strings.TrimRight(l, "\r\n")); m != nil {
				if key, ok := tomlKey(m[1]); ok && drop[key] {
					skip = true
					continue
				} else if ok && rename[key] != "" {
					l = "[hooks.state." + tomlString(rename[key]) + "]\n"
				}
			}
		}
		if !skip {
			out = append(out, l)
		}
	}
	text := strings.Join(out, "")
	if len(add) > 0 {
		// One blank line before each table added: the blank lines that
		// ended the tables dropped stay behind, and must not pile up.
		if text != "" {
			text = strings.TrimRight(text, "\n") + "\n"
		}
		for _, e := range add {
			if text != "" {
				text += "\n"
			}
			text += fmt.Sprintf("[hooks.state.%s]\nenabled = true\ntrusted_hash = %s\n", tomlString(e.key), tomlString(e.hash))
		}
	}
	if text == string(old) {
		return nil, nil, nil
	}
	var check map[string]any
	if _, err := toml.Decode(text, &check); err != nil {
		return nil, append(manual, fmt.Sprintf("%s was not changed: %v", cfgPath, err)), nil
	}
	c, err := s.write(cfgPath, old, []byte(text))
	if err != nil {
		return nil, manual, err
	}
	return c, nil, nil
}

// tomlKey decodes a quoted TOML key.
func tomlKey(q string) (string, bool) {
	if strings.HasPrefix(q, "'") {
		return strings.Trim(q, "'"), true
	}
	s, err := strconv.Unquote(q)
	return s, err == nil
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// CodexTrusted reports, for each of agentgate's entries in the Codex
// hooks.json for scope, whether config.toml trusts it with the hash it
// has now. problems is empty when all are trusted.
func (s Setup) CodexTrusted(scope Scope) (problems []string, err error) {
	sp, err := s.spec("codex", scope)
	if err != nil {
		return nil, err
	}
	doc, old, err := readSettings(sp.path)
	if err != nil || old == nil {
		return nil, err
	}
	var cfg struct {
		Hooks struct {
			State map[string]struct {
				Enabled     *bool  `toml:"enabled"`
				TrustedHash string `toml:"trusted_hash"`
			} `toml:"state"`
		} `toml:"hooks"`
	}
	cfgPath := filepath.Join(s.codexHome(), "config.toml")
	if _, err := toml.DecodeFile(cfgPath, &cfg); err != nil && !errors.Is(err, os.ErrNotExist) {
		return []string{fmt.Sprintf("%s cannot be read: %v", cfgPath, err)}, nil
	}
	for _, e := range codexEntries(sp, doc, true) {
		st, ok := cfg.Hooks.State[e.key]
		switch {
		case !ok || st.TrustedHash == "":
			problems = append(problems, fmt.Sprintf("%s is not trusted in %s (Codex skips it)", e.key, cfgPath))
		case st.TrustedHash != e.hash:
			problems = append(problems, fmt.Sprintf("%s changed since it was trusted (Codex skips it)", e.key))
		case st.Enabled != nil && !*st.Enabled:
			problems = append(problems, fmt.Sprintf("%s is disabled in %s", e.key, cfgPath))
		}
	}
	return problems, nil
}
