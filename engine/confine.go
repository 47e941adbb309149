package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/gitsafe"
	"github.com/agentgate/agentgate/internal/fsutil"
	"github.com/agentgate/agentgate/sandbox"
)

// Confinement is the sandbox a command the gate allowed on its own runs
// under: "read-only" for the built-in rules; a user rule's own level
// (default "none"), but never looser than the configuration's floor. A
// compound judged in split mode runs at the loosest level of its parts;
// an allow whose rule cannot be found runs at the tightest.
func Confinement(j *Judgement) (sandbox.Level, []string) {
	var level sandbox.Level
	var writable []string
	for _, r := range j.Decision.Reasons() {
		if r.Check != gate.CheckAllowlist {
			continue
		}
		l, w := ruleLevel(j, r)
		if level == "" {
			level = l
		} else {
			level = sandbox.Looser(level, l)
		}
		writable = append(writable, w...)
	}
	if level == "" {
		level = sandbox.ReadOnly
	}
	return level, writable
}

// ruleLevel finds the rule that allowed one command and its level.
func ruleLevel(j *Judgement, r gate.Reason) (sandbox.Level, []string) {
	for _, rule := range j.Config.Rules {
		if rule.Kind != allowlist.Allow || rule.String() != r.Rule || rule.Source.String() != r.Source {
			continue
		}
		if rule.Source == allowlist.DefaultSource {
			return levelOr(rule.Sandbox, sandbox.ReadOnly), nil
		}
		l := levelOr(rule.Sandbox, sandbox.None)
		if floor := j.Config.MinRuleSandbox; floor != "" {
			l = sandbox.Tighter(l, floor)
		}
		return l, rule.Writable
	}
	return sandbox.ReadOnly, nil
}

func levelOr(s string, def sandbox.Level) sandbox.Level {
	if l, err := sandbox.ParseLevel(s); err == nil {
		return l
	}
	return def
}

// vetConfinement turns an allow into an ask when its confinement cannot be
// given: full confinement required but missing on this kernel, or a
// workspace rule whose root would be / or would hold $HOME.
func (e *Engine) vetConfinement(j *Judgement, home string) gate.Decision {
	d := j.Decision
	if d.Verdict() != gate.Allow {
		return d
	}
	level, writable := Confinement(j)
	if level == sandbox.Workspace {
		root := ProjectRoot(j.Cwd)
		if bad := badWorkspaceRoot(root, home); bad != "" {
			return gate.Escalate(d, gate.Reason{Check: gate.CheckSandbox, Match: root,
				Message: fmt.Sprintf("a workspace sandbox rooted at %s would %s", root, bad)})
		}
		if rel, err := filepath.Rel(root, j.Cwd); err == nil && inProtected(rel) {
			return gate.Escalate(d, gate.Reason{Check: gate.CheckSandbox, Match: j.Cwd,
				Message: fmt.Sprintf("a workspace command would run inside %s, which it may not change", j.Cwd)})
		}
		for _, w := range writable {
			if bad := badWritable(w, home); bad != "" {
				return gate.Escalate(d, gate.Reason{Check: gate.CheckSandbox, Match: w,
					Message: fmt.Sprintf("the rule's writable path %s would %s", w, bad)})
			}
		}
	}
	missing := e.probe().Missing(level)
	if len(missing) == 0 {
		return d
	}
	if j.Config.SandboxRequire {
		return gate.Escalate(d, gate.Reason{Check: gate.CheckSandbox, Match: string(level),
			Message: fmt.Sprintf("sandbox = \"require\" (from %s) and this kernel cannot fully confine it: it could still %s",
				j.Config.SandboxSource, strings.Join(missing, ", "))})
	}
	// A user who wrote a sandbox level into a rule chose the rule for what
	// the level promises; where this kernel cannot keep it, the person
	// decides. (Built-in rules run best effort: they are read-only by
	// judgement before confinement.)
	if r, ok := userRuleAt(j, level); ok {
		return gate.Escalate(d, gate.Reason{Check: gate.CheckSandbox, Match: string(level), Rule: r.String(), Source: r.Source.String(),
			Message: fmt.Sprintf("the rule's sandbox = %q cannot be kept on this kernel: the command could still %s",
				level, strings.Join(missing, ", "))})
	}
	return d
}

// userRuleAt is a user rule that allowed part of j and names level as its
// own sandbox.
func userRuleAt(j *Judgement, level sandbox.Level) (allowlist.Rule, bool) {
	for _, r := range j.Decision.Reasons() {
		if r.Check != gate.CheckAllowlist {
			continue
		}
		for _, rule := range j.Config.Rules {
			if rule.Kind == allowlist.Allow && rule.Source != allowlist.DefaultSource && rule.String() == r.Rule &&
				rule.Source.String() == r.Source && rule.Sandbox == string(level) {
				return rule, true
			}
		}
	}
	return allowlist.Rule{}, false
}

// badWorkspaceRoot says what is wrong with root as a workspace, or "".
func badWorkspaceRoot(root, home string) string {
	root = filepath.Clean(root)
	switch {
	case root == "/":
		return "let the command write anywhere"
	case home != "" && (root == filepath.Clean(home) || strings.HasPrefix(filepath.Clean(home)+"/", root+"/")):
		return "let the command write in your home directory"
	}
	return ""
}

// inProtected reports whether rel, a path inside a workspace, lies in a
// directory a workspace command may not change (a .git at any depth, or a
// protected top-level entry): a command run from there is refused rather
// than trusted to the binds alone.
func inProtected(rel string) bool {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if len(parts) > 0 && sandbox.IsProtectedName(parts[0]) {
		return true
	}
	for _, p := range parts {
		if p == ".git" {
			return true
		}
	}
	return false
}

// homeProtected are what a rule's extra writable path may not hold: the
// files that run code at the next shell start, the agents' settings and
// agentgate's own configuration and state (a red team's trusted rule with
// writable = [HOME] wrote ~/.bashrc).
var homeProtected = []string{".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile",
	".zlogin", ".config/fish", ".inputrc", ".ssh", ".claude", ".claude.json", ".codex", ".gemini", ".cursor",
	".config/agentgate", ".local/state/agentgate", ".gitconfig", ".config/git"}

// badWritable says what is wrong with an extra writable path, or "".
func badWritable(w, home string) string {
	if bad := badWorkspaceRoot(w, home); bad != "" {
		return bad
	}
	w = filepath.Clean(w)
	for _, p := range homeProtected {
		if home == "" {
			break
		}
		if full := filepath.Join(home, p); full == w || strings.HasPrefix(full+"/", w+"/") {
			return "let the command write " + full
		}
	}
	return ""
}

// ProjectRoot is the project a command in cwd belongs to: the nearest
// directory at or above cwd that holds .git or .agentgate.toml, else cwd.
func ProjectRoot(cwd string) string {
	for d := filepath.Clean(cwd); ; d = filepath.Dir(d) {
		for _, mark := range []string{".git", ".agentgate.toml"} {
			if _, err := os.Lstat(filepath.Join(d, mark)); err == nil {
				return d
			}
		}
		if d == filepath.Dir(d) {
			return filepath.Clean(cwd)
		}
	}
}

// probe is what this kernel enforces; tests replace Engine.Probe.
func (e *Engine) probe() sandbox.Support {
	if e.Probe != nil {
		return e.Probe()
	}
	return sandbox.Probe()
}

// spec is the sandbox specification for an auto-allowed command.
func (e *Engine) spec(j *Judgement, program string) (*sandbox.Spec, error) {
	level, writable := Confinement(j)
	if !level.Confined() {
		return nil, nil
	}
	tmp, err := sandbox.NewScratch(filepath.Join(e.StateDir, "tmp"))
	if err != nil {
		return nil, err
	}
	s := &sandbox.Spec{Level: level, Program: program, TmpDir: tmp, Require: j.Config.SandboxRequire}
	if level == sandbox.Workspace {
		s.Root, s.Writable = ProjectRoot(j.Cwd), writable
		s.Protect = sandbox.Protected(s.Root)
		watch := append([]string(nil), s.Protect...)
		if hooks := hooksDir(s.Root); hooks != "" && !slices.ContainsFunc(s.Protect, func(p string) bool { return fsutil.Within(hooks, p) }) {
			watch = append(watch, hooks)
			if b, ok := sandbox.Bindable(s.Root, hooks); ok && !slices.Contains(s.Protect, b) {
				s.Protect = append(s.Protect, b)
			}
		}
		s.Watch = sandbox.Watched(s.Root, watch...)
	}
	return s, nil
}

// hooksDir is the repository's hooks directory when core.hooksPath puts
// it inside the project (husky's .husky/_, a .githooks): a workspace
// command could otherwise plant a hook the person's next commit runs.
// git reads its configuration for it (reading runs nothing), with a
// bare environment and a bound on its time. It is returned whether or
// not it exists: an existing directory is bound read-only, and a missing
// one (or a link) is watched, since a command that creates it plants
// hooks as surely as one that writes into it.
func hooksDir(root string) string {
	// Not gitsafe.Environ: it sets core.hooksPath itself. git needs only
	// PATH and HOME to find the repository's and the person's files.
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "GIT_CONFIG_NOSYSTEM=1"}
	p, err := gitsafe.HooksDir(root, env)
	if err != nil || p == "" {
		return ""
	}
	// git names it physically; the sandbox binds paths as root spells them.
	rel, err := filepath.Rel(fsutil.Resolve(root), p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return ""
	}
	return filepath.Join(root, rel)
}
