package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Scope is where install writes: the user's configuration (the default)
// or the project's.
type Scope string

// The scopes.
const (
	User    Scope = "user"
	Project Scope = "project"
)

// Setup locates each host's configuration and says what to install.
type Setup struct {
	// Home is $HOME; CodexHome is $CODEX_HOME, else Home/.codex;
	// ClaudeDir is $CLAUDE_CONFIG_DIR, else Home/.claude.
	Home, CodexHome, ClaudeDir string
	// Project is the project directory, for project scope.
	Project string
	// Self is agentgate's absolute path, which the hook entries run.
	Self string
	// Timeout is what the host gives the hook; agentgate's own deadline
	// is well inside it.
	Timeout time.Duration
	Now     func() time.Time
}

// Change is one file install or uninstall wrote.
type Change struct {
	Path string
	// Backup is the copy of the file as it was, "" for a new file.
	Backup string
}

// spec is how one host's hook entries look.
type spec struct {
	path string
	// events are the host's event names install adds an entry for.
	events []string
	// matcher selects the shell tool; "" for Cursor, whose entries sit
	// directly under the event.
	matcher string
	handler func(command string) *object
	// top are keys the file needs at its top level (Cursor's version).
	top map[string]any
	// self is agentgate's path, whose entries are agentgate's.
	self string
}

func (s Setup) codexHome() string {
	if s.CodexHome != "" {
		return s.CodexHome
	}
	return filepath.Join(s.Home, ".codex")
}

// Command is the hook command a host runs: agentgate's absolute path and
// "hook HOST".
func (s Setup) Command(host string) string {
	return shellWord(s.Self) + " hook " + host
}

// shellWord quotes p only when the shell would change it.
func shellWord(p string) string {
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+,:@%", r)) {
			return Quote(p)
		}
	}
	return p
}

// Path is the file install writes for host in scope.
func (s Setup) Path(host string, scope Scope) (string, error) {
	sp, err := s.spec(host, scope)
	return sp.path, err
}

func (s Setup) spec(host string, scope Scope) (spec, error) {
	sp, err := s.spec0(host, scope)
	sp.self = s.Self
	return sp, err
}

func (s Setup) spec0(host string, scope Scope) (spec, error) {
	base := s.Home
	if scope == Project {
		if !filepath.IsAbs(s.Project) {
			return spec{}, fmt.Errorf("project scope needs an absolute project directory")
		}
		base = s.Project
	}
	secs := int(s.Timeout / time.Second)
	if secs < 1 {
		secs = 30
	}
	command := func(extra ...any) func(string) *object {
		return func(c string) *object {
			o := newObject()
			o.set("type", "command")
			o.set("command", c)
			for i := 0; i+1 < len(extra); i += 2 {
				o.set(extra[i].(string), extra[i+1])
			}
			return o
		}
	}
	switch host {
	case "claude":
		p := filepath.Join(base, ".claude", "settings.json")
		if scope == User && filepath.IsAbs(s.ClaudeDir) {
			p = filepath.Join(s.ClaudeDir, "settings.json")
		}
		return spec{path: p, matcher: ClaudeFileMatcher,
			events:  []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionDenied"},
			handler: command("timeout", secs)}, nil
	case "codex":
		p := filepath.Join(s.codexHome(), "hooks.json")
		if scope == Project {
			p = filepath.Join(base, ".codex", "hooks.json")
		}
		return spec{path: p, matcher: CodexFileMatcher, events: []string{"PreToolUse", "PostToolUse", "PermissionRequest", "Stop"},
			handler: command("timeout", secs)}, nil
	case "gemini":
		return spec{path: filepath.Join(base, ".gemini", "settings.json"), matcher: GeminiFileMatcher,
			events:  []string{"BeforeTool", "AfterTool"},
			handler: command("name", "agentgate", "timeout", secs*1000)}, nil
	case "cursor":
		return spec{path: filepath.Join(base, ".cursor", "hooks.json"), events: []string{"beforeShellExecution", "beforeReadFile"},
			handler: func(c string) *object {
				o := newObject()
				o.set("command", c)
				o.set("timeout", secs)
				o.set("failClosed", true)
				return o
			}, top: map[string]any{"version": json.Number("1")}}, nil
	}
	return spec{}, fmt.Errorf("unknown host %q (hosts: %s)", host, strings.Join(Names, ", "))
}

// ours reports whether a hook command is agentgate's for host: it runs
// self, or a program whose name holds "agentgate" (an old or broken path
// included), with "hook HOST".
func ours(command, host, self string) bool {
	f := strings.Fields(command)
	if len(f) < 3 || f[len(f)-2] != "hook" || f[len(f)-1] != host {
		return false
	}
	first := strings.Trim(strings.Join(f[:len(f)-2], " "), `'"`)
	return (self != "" && first == self) || strings.Contains(filepath.Base(first), "agentgate")
}

// readSettings reads a JSON settings file; a missing or empty file is an
// empty object.
func readSettings(path string) (*object, []byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return newObject(), nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if strings.TrimSpace(string(data)) == "" {
		return newObject(), data, nil
	}
	v, err := parseJSON(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s is not valid JSON (%v): fix it first, nothing was changed", path, err)
	}
	o, ok := v.(*object)
	if !ok {
		return nil, nil, fmt.Errorf("%s does not hold a JSON object: nothing was changed", path)
	}
	return o, data, nil
}

// hooksOf returns the file's "hooks" object, created when missing.
func hooksOf(doc *object, path string) (*object, error) {
	v, ok := doc.get("hooks")
	if !ok {
		h := newObject()
		doc.set("hooks", h)
		return h, nil
	}
	h, ok := v.(*object)
	if !ok {
		return nil, fmt.Errorf(`%s: "hooks" is not an object: nothing was changed`, path)
	}
	return h, nil
}

// edit rewrites host's entries in doc: each event's entry of agentgate
// is replaced where it is (so that the positions of other hooks, which
// Codex's trust keys name, do not move), added at the end when missing,
// or, with command "", removed.
func (sp spec) edit(doc *object, host, command string) error {
	hooks, err := hooksOf(doc, sp.path)
	if err != nil {
		return err
	}
	for _, ev := range sp.events {
		var list []any
		if v, ok := hooks.get(ev); ok {
			if list, ok = v.([]any); !ok {
				return fmt.Errorf("%s: hooks.%s is not a list: nothing was changed", sp.path, ev)
			}
		}
		placed := false
		var out []any
		for _, item := range list {
			if sp.matcher == "" {
				h, ok := item.(*object)
				if ok && isOurs(h, host, sp.self) {
					if command != "" && !placed {
						out, placed = append(out, sp.handler(command)), true
					}
					continue
				}
				out = append(out, item)
				continue
			}
			group, ok := item.(*object)
			if !ok {
				out = append(out, item)
				continue
			}
			hv, _ := group.get("hooks")
			handlers, _ := hv.([]any)
			gm, _ := group.get("matcher")
			sameMatcher := gm == sp.matcher
			var kept []any
			removed := false
			for _, h := range handlers {
				if ho, ok := h.(*object); ok && isOurs(ho, host, sp.self) {
					removed = true
					// An entry under an older matcher (the shell tool
					// alone) moves to a group of its own with today's.
					if command != "" && !placed && sameMatcher {
						kept, placed = append(kept, sp.handler(command)), true
					}
					continue
				}
				kept = append(kept, h)
			}
			if removed {
				if len(kept) == 0 {
					continue
				}
				group.set("hooks", kept)
			}
			out = append(out, group)
		}
		if command != "" && !placed {
			if sp.matcher == "" {
				out = append(out, sp.handler(command))
			} else {
				g := newObject()
				g.set("matcher", sp.matcher)
				g.set("hooks", []any{sp.handler(command)})
				out = append(out, g)
			}
		}
		if len(out) == 0 {
			hooks.del(ev)
		} else {
			hooks.set(ev, out)
		}
	}
	if command != "" {
		for k, v := range sp.top {
			if _, ok := doc.get(k); !ok {
				doc.set(k, v)
			}
		}
	}
	return nil
}

// shellTool is the name each host's matcher sees for its shell tool.
var shellTool = map[string]string{"claude": "Bash", "codex": "Bash", "gemini": "run_shell_command"}

// matchesShell reports whether a hook group's matcher selects the host's
// shell tool; a matcher that is not a valid pattern is taken to.
func matchesShell(matcher, host string) bool {
	if matcher == "" || matcher == "*" {
		return true
	}
	re, err := regexp.Compile("^(?:" + matcher + ")$")
	return err != nil || re.MatchString(shellTool[host])
}

func isOurs(h *object, host, self string) bool {
	c, _ := h.get("command")
	s, _ := c.(string)
	return ours(s, host, self)
}

// Install writes host's hook entries into its configuration for scope:
// merged with what is there, idempotent (a second run changes nothing),
// with a backup of every file it changes. For Codex it also trusts the
// entries; notes say what a person must still do, if anything.
func (s Setup) Install(host string, scope Scope) (changes []Change, notes []string, err error) {
	sp, err := s.spec(host, scope)
	if err != nil {
		return nil, nil, err
	}
	doc, old, err := readSettings(sp.path)
	if err != nil {
		return nil, nil, err
	}
	var drop map[string]bool
	var add []codexTrust
	var rename map[string]string
	if host == "codex" {
		drop, add, rename, err = sp.codexEdit(doc, s.Command(host))
	} else {
		err = sp.edit(doc, host, s.Command(host))
	}
	if err != nil {
		return nil, nil, err
	}
	c, err := s.write(sp.path, old, formatJSON(doc))
	if err != nil {
		return nil, nil, err
	}
	if c != nil {
		changes = append(changes, *c)
	}
	if host == "codex" {
		tc, tnotes, err := s.trustCodex(sp, drop, add, rename)
		if err != nil {
			return changes, nil, err
		}
		if tc != nil {
			changes = append(changes, *tc)
		}
		notes = append(notes, tnotes...)
		if scope == User {
			rc, rnotes, err := s.codexRule(true)
			if err != nil {
				return changes, notes, err
			}
			if rc != nil {
				changes = append(changes, *rc)
			}
			notes = append(notes, rnotes...)
		}
		if scope == Project {
			notes = append(notes, fmt.Sprintf("Codex loads a project's .codex only when the project is trusted: [projects.%s] trust_level = \"trusted\" in %s", tomlString(s.Project), filepath.Join(s.codexHome(), "config.toml")))
		}
	}
	return changes, notes, nil
}

// Uninstall removes exactly what Install wrote for host in scope.
func (s Setup) Uninstall(host string, scope Scope) (changes []Change, err error) {
	sp, err := s.spec(host, scope)
	if err != nil {
		return nil, err
	}
	doc, old, err := readSettings(sp.path)
	if err != nil || old == nil {
		return nil, err
	}
	if host == "codex" {
		// The trust keys name positions: drop ours, and move the keys of
		// the hooks after ours with them.
		drop, _, rename, err := sp.codexEdit(doc, "")
		if err != nil {
			return nil, err
		}
		tc, _, err := s.trustCodex(sp, drop, nil, rename)
		if err != nil {
			return nil, err
		}
		if tc != nil {
			changes = append(changes, *tc)
		}
		if scope == User {
			rc, _, err := s.codexRule(false)
			if err != nil {
				return changes, err
			}
			if rc != nil {
				changes = append(changes, *rc)
			}
		}
	} else if err := sp.edit(doc, host, ""); err != nil {
		return changes, err
	}
	c, err := s.write(sp.path, old, formatJSON(doc))
	if c != nil {
		changes = append(changes, *c)
	}
	return changes, err
}

// codexRule writes (install) or removes (uninstall) agentgate's rules
// file in Codex's home, through which Codex asks a person about what
// agentgate asks (codexask.go). It returns nil when nothing changed.
func (s Setup) codexRule(install bool) (*Change, []string, error) {
	path := CodexRuleFile(s.codexHome())
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	if !install {
		if old == nil || !strings.HasPrefix(string(old), codexRuleHeader) {
			return nil, nil, nil
		}
		return &Change{Path: path}, nil, os.Remove(path)
	}
	text := CodexRuleText(s.Self)
	if text == "" {
		return nil, []string{fmt.Sprintf("%s holds a character Codex's rules cannot match: Codex cannot ask you about what agentgate asks, which is denied with an id to approve from another terminal", s.Self)}, nil
	}
	c, err := s.write(path, old, []byte(text))
	return c, nil, err
}

// CodexRuleProblem says what is wrong with agentgate's rules file in
// Codex's home ("" when it is as install writes it): without it Codex
// cannot ask a person about what agentgate asks.
func (s Setup) CodexRuleProblem() string {
	path := CodexRuleFile(s.codexHome())
	want := CodexRuleText(s.Self)
	if want == "" {
		return fmt.Sprintf("%s holds a character Codex's rules cannot match: what agentgate asks about in Codex is denied with an id", s.Self)
	}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return path + " is missing: Codex cannot ask you about what agentgate asks (it is denied with an id); run 'agentgate install codex'"
	case err != nil:
		return err.Error()
	case string(data) != want:
		return path + " is not the rule agentgate writes for " + s.Self + ": run 'agentgate install codex'"
	}
	if f := codexOtherRules(Where{Home: s.Home}, s.codexHome(), s.Self); f != "" {
		return f + " names agentgate: Codex could show its rule's words in place of why agentgate asks, so what agentgate asks about is denied with an id; remove agentgate from it"
	}
	return ""
}

// write replaces path with data when it differs from old, keeping a
// backup of old. It returns nil when nothing changed.
func (s Setup) write(path string, old, data []byte) (*Change, error) {
	if old != nil && string(old) == string(data) {
		return nil, nil
	}
	c := &Change{Path: path}
	mode := os.FileMode(0o600)
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	if old != nil {
		now := time.Now
		if s.Now != nil {
			now = s.Now
		}
		c.Backup = path + ".agentgate-backup-" + now().UTC().Format("20060102T150405.000Z")
		if err := os.WriteFile(c.Backup, old, mode); err != nil {
			return nil, fmt.Errorf("could not back up %s: %w", path, err)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	return c, os.Rename(tmp.Name(), path)
}

// Entry is what Inspect finds of agentgate in a host's configuration.
type Entry struct {
	Path string
	// Events maps each event install writes to the hook command found
	// for it ("" when missing).
	Events map[string]string
	// Other lists other hooks on the shell tool in the same file.
	Other []string
}

// Inspect reads host's configuration for scope. A missing file gives an
// Entry with no events found and no error.
func (s Setup) Inspect(host string, scope Scope) (Entry, error) {
	sp, err := s.spec(host, scope)
	if err != nil {
		return Entry{}, err
	}
	e := Entry{Path: sp.path, Events: map[string]string{}}
	doc, old, err := readSettings(sp.path)
	if err != nil || old == nil {
		return e, err
	}
	for _, ev := range sp.events {
		e.Events[ev] = ""
		eachHandler(doc, ev, sp.matcher != "", func(h handler) {
			if sp.matcher != "" && !matchesShell(h.matcher, host) {
				return
			}
			switch {
			case ours(h.command, host, s.Self):
				e.Events[ev] = h.command
			case ev == sp.events[0]:
				e.Other = append(e.Other, h.command)
			}
		})
	}
	return e, nil
}

// handler is one command handler of a host's hooks document: its group's
// and its own place in the event's list (for Codex's trust keys), the
// group's matcher, and the handler itself.
type handler struct {
	group, index int
	matcher      string
	command      string
	obj          *object
}

// eachHandler calls fn with every command handler of event in doc: in
// groups ({"matcher": ..., "hooks": [...]}) when grouped, else each entry
// of the event's list is a handler itself (Cursor).
func eachHandler(doc *object, event string, grouped bool, fn func(handler)) {
	hv, _ := doc.get("hooks")
	hooks, _ := hv.(*object)
	if hooks == nil {
		return
	}
	v, _ := hooks.get(event)
	list, _ := v.([]any)
	for gi, item := range list {
		g, _ := item.(*object)
		if g == nil {
			continue
		}
		handlers, matcher := []any{g}, ""
		if grouped {
			hv, _ := g.get("hooks")
			handlers, _ = hv.([]any)
			m, _ := g.get("matcher")
			matcher, _ = m.(string)
		}
		for hi, h := range handlers {
			ho, _ := h.(*object)
			if ho == nil {
				continue
			}
			c, _ := ho.get("command")
			cs, _ := c.(string)
			fn(handler{group: gi, index: hi, matcher: matcher, command: cs, obj: ho})
		}
	}
}
