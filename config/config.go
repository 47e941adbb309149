// Package config loads agentgate's layered configuration.
//
// # Sources
//
// From the most to the least authoritative: the policy file
// (/etc/agentgate/policy.toml, always), flags, the
// environment, the project-local file (.agentgate.local.toml), the
// project file (.agentgate.toml, the nearest walking up from the working
// directory, stopping at the repository root or home), the user file
// ($XDG_CONFIG_HOME/agentgate/config.toml, and learned.toml beside it),
// and the embedded defaults.
//
// Rules from every source are merged, each remembering its file and line,
// and checked by kind: deny, then ask, then allow, whatever their source.
// Settings (mode, compound, timeouts) are taken from the most
// authoritative source that sets them.
//
// # Trust
//
// A project file comes with the repository and an agent can edit it. Its
// ask and deny rules and sensitive paths always apply; its allow rules and
// settings apply only while its SHA-256 matches the one recorded by
// "agentgate trust".
//
// Every problem is an [*Error] naming file, line and fix; nothing falls
// back to defaults silently.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/internal/fsutil"
	"github.com/agentgate/agentgate/sandbox"
)

// Mode is how escalations are handled.
type Mode string

// The modes.
const (
	// ModeDefault asks a person, or denies when no one can be asked.
	ModeDefault Mode = "default"
	// ModeCI denies every escalation (same as --non-interactive).
	ModeCI Mode = "ci"
	// ModeReadonly runs only allowlisted commands and denies the rest
	// without asking, also at a terminal.
	ModeReadonly Mode = "readonly"
	// ModeBypass allows escalations, except sticky ones (deny rules,
	// explicit ask rules, sensitive paths, self-protection), which still
	// ask. Each such allow is audited as "bypassed".
	ModeBypass Mode = "bypass"
)

// ParseMode checks a mode name.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeDefault, ModeCI, ModeReadonly, ModeBypass:
		return m, nil
	}
	return "", fmt.Errorf("unknown mode %q; use default, ci, readonly or bypass", s)
}

// Options say where to look and what the flags and environment said.
type Options struct {
	Cwd, Home string
	// ConfigDir is $XDG_CONFIG_HOME/agentgate; StateDir is
	// $XDG_STATE_HOME/agentgate (trust store, sessions, audit log).
	ConfigDir, StateDir string
	PolicyPath          string
	// Config is an extra config file named by --config (FromFlag) or
	// $AGENTGATE_CONFIG.
	Config         string
	ConfigFromFlag bool
	FlagMode       string
	EnvMode        string
	FlagAllow      []string
	FlagAsk        []string
	FlagDeny       []string
	FlagCompound   string
	// AuditLog is protected like agentgate's other files.
	AuditLog string
	// SkipPolicyOwnerCheck is for tests that cannot make root-owned files.
	SkipPolicyOwnerCheck bool
}

// File is a config file agentgate looked at.
type File struct {
	Path, Role string
	// Status is "read", or why some of it was ignored.
	Status string
}

// Config is the effective configuration.
type Config struct {
	Rules          []allowlist.Rule
	Mode           Mode
	ModeSource     string
	Compound       string
	CompoundSource string
	// Packs are the opt-in packs of read-only commands turned on by the
	// trusted files (see allowlist.PackNames), each with the file that
	// named it first.
	Packs           []string
	PackSources     []string
	PromptTimeout   time.Duration
	PromptChallenge bool
	// CommandTimeout is how long a command allowed on its own may run
	// when nobody is watching (a hook, CI, --non-interactive); then it is
	// ended. Only tightens: the shortest of every file's wins.
	CommandTimeout       time.Duration
	CommandTimeoutSource string
	SessionTTL           time.Duration
	BreakerThreshold     int
	BreakerWindow        time.Duration
	// AuditMaxSize rotates the audit log; AuditSyslog also forwards it.
	AuditMaxSize int64
	AuditSyslog  bool
	Sensitive    []string
	Self         []string
	// UntrustedDirs are directories the agent may write besides the
	// project and the temporary directories (untrusted_dirs, from every
	// file: more of them only tighten).
	UntrustedDirs []string
	Files         []File
	// Ignored lists rules dropped by the policy's forbid_allow.
	Ignored []allowlist.Rule
	// Warnings are printed on stderr (untrusted or changed project file).
	Warnings []string
	// SandboxRequire turns an auto-allow into an ask when this kernel
	// cannot fully confine the command (sandbox = "require"); SandboxSource
	// names the file that asked for it.
	SandboxRequire bool
	SandboxSource  string
	// MinRuleSandbox is the floor for user rules' confinement: a rule
	// asking for less runs under this level.
	MinRuleSandbox       sandbox.Level
	MinRuleSandboxSource string
	// ForbidModes and ForbidAllow come from the policy file.
	ForbidModes []string
	ForbidAllow []string
	// LiftCatastrophic names built-in catastrophic deny rules
	// (gate.CatastrophicRules) the policy file turned off; no other file
	// can. It goes into gate.Request.Lift.
	LiftCatastrophic []string
}

// Paths returns the protected paths for the gate.
func (c *Config) Paths(home, cwd string) gate.Paths {
	return gate.Paths{Home: home, Cwd: cwd, Self: c.Self, Sensitive: c.Sensitive}
}

// setting is a scalar value with the source that set it.
type setting[T any] struct {
	v   T
	src string
	set bool
}

func (s *setting[T]) offer(v T, src string, ok bool) {
	if ok && !s.set {
		s.v, s.src, s.set = v, src, true
	}
}

// Load reads every source and merges them.
func Load(o Options) (*Config, error) {
	c := &Config{Rules: allowlist.Defaults()}
	var (
		mode      setting[Mode]
		compound  setting[string]
		timeout   setting[time.Duration]
		challenge setting[bool]
		ttl       setting[time.Duration]
		threshold setting[int]
		window    setting[time.Duration]
		maxSize   setting[int64]
		syslog    setting[bool]
	)
	// layers, most authoritative first; each file's settings are offered
	// in this order so the first one set wins.
	type layer struct {
		path, role string
		trusted    bool // settings and allow rules apply
	}
	var layers []layer
	trust, err := LoadTrust(TrustPath(o.StateDir))
	if err != nil {
		c.Warnings = append(c.Warnings, err.Error()+"; treating every project file as untrusted")
		trust = &Trust{}
	}
	if o.PolicyPath != "" {
		if err := checkPolicyPerms(o.PolicyPath, o.SkipPolicyOwnerCheck); err != nil {
			return nil, err
		}
		layers = append(layers, layer{o.PolicyPath, "policy", true})
	}
	if o.Config != "" {
		role := "config (AGENTGATE_CONFIG)"
		if o.ConfigFromFlag {
			role = "config (--config)"
		}
		if _, err := os.Stat(o.Config); err != nil {
			return nil, &Error{Path: o.Config, Msg: "cannot read the config file named by " + role, Fix: "check the path"}
		}
		// A file named by the environment gets the trust check a project
		// file gets: the agent's host may set AGENTGATE_CONFIG from
		// project settings, naming a file the agent wrote.
		layers = append(layers, layer{o.Config, role, o.ConfigFromFlag || trust.Trusted(o.Config)})
	}
	for _, p := range ProjectFiles(o.Cwd, o.Home) {
		layers = append(layers, layer{p.Path, p.Role, trust.Trusted(p.Path)})
	}
	if o.ConfigDir != "" {
		layers = append(layers,
			layer{filepath.Join(o.ConfigDir, "config.toml"), "user", true},
			layer{filepath.Join(o.ConfigDir, "learned.toml"), "learned", true})
	}

	var policy *policyTab
	// Flags and environment rank right after the policy file: their
	// settings are offered once the policy's have been.
	flagsOffered := false
	offerFlags := func() error {
		flagsOffered = true
		if o.FlagMode != "" {
			m, err := ParseMode(o.FlagMode)
			if err != nil {
				return &Error{Path: "--mode", Msg: err.Error()}
			}
			mode.offer(m, "flag --mode", true)
		}
		if o.FlagCompound != "" {
			if err := checkCompound(o.FlagCompound); err != nil {
				return &Error{Path: "--compound", Msg: err.Error()}
			}
			compound.offer(o.FlagCompound, "flag --compound", true)
		}
		if o.EnvMode != "" {
			m, err := ParseMode(o.EnvMode)
			if err != nil {
				return &Error{Path: "AGENTGATE_MODE", Msg: err.Error()}
			}
			// The environment only tightens: an agent's host can set it
			// from project files the agent writes (Claude Code's "env"
			// in .claude/settings.json), so bypass from there would be
			// the agent switching agentgate off.
			if m == ModeBypass {
				c.Warnings = append(c.Warnings, "AGENTGATE_MODE=bypass is ignored: the environment may only choose a stricter mode (ci, readonly); choose bypass with --mode or mode = \"bypass\" in "+filepath.Join(o.ConfigDir, "config.toml"))
			} else {
				mode.offer(m, "environment AGENTGATE_MODE", true)
			}
		}
		return nil
	}
	for _, l := range layers {
		if !flagsOffered && l.role != "policy" {
			if err := offerFlags(); err != nil {
				return nil, err
			}
		}
		data, err := readFile(l.path)
		if err != nil {
			return nil, err
		}
		if data == nil {
			if l.role == "policy" || strings.HasPrefix(l.role, "config") || l.role == "user" {
				c.Files = append(c.Files, File{l.path, l.role, "absent"})
			}
			continue
		}
		f, err := parseFile(l.path, data)
		if err != nil {
			return nil, err
		}
		if f.Policy != nil {
			if l.role != "policy" {
				return nil, &Error{Path: l.path, Line: keyLine(data, []string{"policy"}), Col: 1, Msg: "[policy] is only read from the policy file",
					Fix: "move it to " + o.PolicyPath + ", or remove it"}
			}
			policy = f.Policy
		}
		rules, err := f.rules(l.path, data)
		if err != nil {
			return nil, err
		}
		status := "read"
		if !l.trusted {
			status = "untrusted: its allow rules and settings are ignored (run 'agentgate trust')"
			kept := rules[:0]
			for _, r := range rules {
				if r.Kind != allowlist.Allow {
					kept = append(kept, r)
				}
			}
			rules = kept
			if hasAllowOrSettings(f) && warnOnce(o.StateDir, l.path) {
				what := "not trusted"
				if trust.Known(l.path) {
					what = "changed since you trusted it"
				}
				c.Warnings = append(c.Warnings, fmt.Sprintf("%s is %s: its allow rules are ignored; review it, then run 'agentgate trust'", l.path, what))
			}
		}
		c.Files = append(c.Files, File{l.path, l.role, status})
		c.Rules = append(c.Rules, rules...)
		c.Sensitive = append(c.Sensitive, f.Sensitive.Paths...)
		// More agent-writable directories only tighten: from every file.
		c.UntrustedDirs = append(c.UntrustedDirs, f.UntrustedDirs...)
		if !l.trusted {
			// An untrusted file may still tighten confinement.
			if err := c.tighten(f, l.path, data); err != nil {
				return nil, err
			}
			continue
		}
		src := l.path
		if f.Mode != "" {
			m, err := ParseMode(f.Mode)
			if err != nil {
				return nil, &Error{Path: l.path, Line: keyLine(data, []string{"mode"}), Col: 1, Msg: err.Error()}
			}
			mode.offer(m, src, true)
		}
		for _, p := range f.Packs {
			if err := allowlist.CheckPacks([]string{p}); err != nil {
				return nil, &Error{Path: l.path, Line: keyLine(data, []string{"packs"}), Col: 1, Msg: err.Error()}
			}
			if !slices.Contains(c.Packs, p) {
				c.Packs, c.PackSources = append(c.Packs, p), append(c.PackSources, src)
				c.Rules = append(c.Rules, allowlist.PackRules([]string{p})...)
			}
		}
		if f.Compound != "" {
			if err := checkCompound(f.Compound); err != nil {
				return nil, &Error{Path: l.path, Line: keyLine(data, []string{"compound"}), Col: 1, Msg: err.Error()}
			}
			compound.offer(f.Compound, src, true)
		}
		if f.PromptTimeout != nil {
			timeout.offer(f.PromptTimeout.Duration, src, true)
		}
		if f.PromptChallenge != nil {
			challenge.offer(*f.PromptChallenge, src, true)
		}
		if f.SessionTTL != nil {
			ttl.offer(f.SessionTTL.Duration, src, true)
		}
		if f.BreakerThreshold != nil {
			if *f.BreakerThreshold < 1 {
				return nil, &Error{Path: l.path, Line: keyLine(data, []string{"breaker_threshold"}), Col: 1,
					Msg: "breaker_threshold must be at least 1"}
			}
			threshold.offer(*f.BreakerThreshold, src, true)
		}
		if f.BreakerWindow != nil {
			window.offer(f.BreakerWindow.Duration, src, true)
		}
		// The sandbox settings and command_timeout only tighten,
		// whichever file sets them and whether or not it is trusted:
		// "require" anywhere holds, and the tightest floor and the
		// shortest limit win.
		if err := c.tighten(f, l.path, data); err != nil {
			return nil, err
		}
		if f.Audit.MaxSize != nil {
			maxSize.offer(f.Audit.MaxSize.n, src, true)
		}
		if f.Audit.Syslog != nil {
			syslog.offer(*f.Audit.Syslog, src, true)
		}
	}
	if !flagsOffered {
		if err := offerFlags(); err != nil {
			return nil, err
		}
	}
	c.Rules = append(c.Rules, flagRules(o)...)

	mode.offer(ModeDefault, "default", true)
	compound.offer("split", "default", true)
	timeout.offer(5*time.Minute, "default", true)
	challenge.offer(false, "default", true)
	ttl.offer(12*time.Hour, "default", true)
	threshold.offer(3, "default", true)
	window.offer(10*time.Minute, "default", true)
	maxSize.offer(50<<20, "default", true)
	syslog.offer(false, "default", true)
	c.Mode, c.ModeSource = mode.v, mode.src
	c.Compound, c.CompoundSource = compound.v, compound.src
	c.PromptTimeout, c.PromptChallenge = timeout.v, challenge.v
	c.SessionTTL, c.BreakerThreshold, c.BreakerWindow = ttl.v, threshold.v, window.v
	c.AuditMaxSize, c.AuditSyslog = maxSize.v, syslog.v
	if c.CommandTimeout == 0 {
		c.CommandTimeout, c.CommandTimeoutSource = DefaultCommandTimeout, "default"
	}

	if policy != nil {
		c.ForbidModes, c.ForbidAllow = policy.ForbidModes, policy.ForbidAllow
		for _, name := range policy.LiftCatastrophic {
			if !slices.Contains(gate.CatastrophicRules, name) {
				data, _ := os.ReadFile(o.PolicyPath)
				return nil, &Error{Path: o.PolicyPath, Line: keyLine(data, []string{"policy", "lift_catastrophic"}), Col: 1,
					Msg: fmt.Sprintf("lift_catastrophic: %q is not a built-in catastrophic rule", name),
					Fix: "use one of " + strings.Join(gate.CatastrophicRules, ", ")}
			}
		}
		c.LiftCatastrophic = policy.LiftCatastrophic
		if slices.Contains(policy.ForbidModes, string(c.Mode)) {
			data, _ := fsutil.ReadRegular(o.PolicyPath, fsutil.MaxConfigSize)
			return nil, &Error{Path: o.PolicyPath, Line: keyLine(data, []string{"policy", "forbid_modes"}), Col: 1,
				Msg: fmt.Sprintf("mode %q (from %s) is forbidden by the policy", c.Mode, c.ModeSource),
				Fix: "use another mode; the policy is set by your organisation"}
		}
		c.dropForbiddenAllows(o.PolicyPath)
	}
	c.Sensitive = append(append([]string(nil), gate.DefaultSensitive...), c.Sensitive...)
	c.Self = selfPaths(o)
	return c, nil
}

// dropForbiddenAllows removes allow rules for programs the policy forbids,
// except the embedded defaults and the policy's own.
func (c *Config) dropForbiddenAllows(policyPath string) {
	if len(c.ForbidAllow) == 0 {
		return
	}
	kept := c.Rules[:0]
	for _, r := range c.Rules {
		if r.Kind == allowlist.Allow && len(r.Prefix) > 0 && slices.Contains(c.ForbidAllow, r.Prefix[0]) &&
			r.Source != allowlist.DefaultSource && r.Source.Name != policyPath {
			c.Ignored = append(c.Ignored, r)
			continue
		}
		kept = append(kept, r)
	}
	c.Rules = kept
}

func flagRules(o Options) []allowlist.Rule {
	var out []allowlist.Rule
	for _, f := range []struct {
		name string
		kind allowlist.Kind
		vals []string
	}{{"--allow", allowlist.Allow, o.FlagAllow}, {"--ask", allowlist.Ask, o.FlagAsk}, {"--deny", allowlist.Deny, o.FlagDeny}} {
		for _, v := range f.vals {
			if words := strings.Fields(v); len(words) > 0 {
				out = append(out, allowlist.Rule{Kind: f.kind, Prefix: words, Source: allowlist.Source{Name: "flag " + f.name}})
			}
		}
	}
	return out
}

func hasAllowOrSettings(f *file) bool {
	return len(f.Allow.Prefix)+len(f.Allow.Rule)+len(f.Packs) > 0 || f.Mode != "" || f.Compound != "" ||
		f.PromptTimeout != nil || f.PromptChallenge != nil || f.SessionTTL != nil || f.BreakerThreshold != nil || f.BreakerWindow != nil ||
		f.Audit.MaxSize != nil || f.Audit.Syslog != nil
}

// DefaultCommandTimeout is command_timeout's default: generous, since it
// is a backstop for what nobody watches, not a budget.
const DefaultCommandTimeout = 10 * time.Minute

func checkCompound(s string) error {
	if s != "ask" && s != "split" {
		return fmt.Errorf("unknown compound setting %q; use \"ask\" (default) or \"split\"", s)
	}
	return nil
}

// selfPaths are agentgate's own files, protected in every mode.
func selfPaths(o Options) []string {
	var out []string
	for _, p := range []string{o.ConfigDir, o.StateDir, o.PolicyPath, o.AuditLog, o.Config} {
		if p != "" {
			if abs, err := filepath.Abs(p); err == nil {
				out = append(out, abs)
			}
		}
	}
	return append(out, gate.DefaultSelf...)
}

// checkPolicyPerms refuses a policy file that someone other than root
// could have written: the floor it sets would be no floor.
func checkPolicyPerms(path string, skipOwner bool) error {
	for _, p := range []string{path, filepath.Dir(path)} {
		st, err := os.Stat(p)
		if os.IsNotExist(err) && p == path {
			return nil
		}
		if err != nil {
			return &Error{Path: p, Msg: err.Error(), Fix: "make the policy file readable"}
		}
		if st.Mode().Perm()&0o022 != 0 {
			return &Error{Path: p, Msg: fmt.Sprintf("the policy is writable by users other than its owner (mode %o)", st.Mode().Perm()),
				Fix: "run: chmod go-w " + p}
		}
		if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Uid != 0 && !skipOwner {
			return &Error{Path: p, Msg: fmt.Sprintf("the policy is owned by uid %d, not root", sys.Uid),
				Fix: "run: sudo chown root " + p}
		}
	}
	return nil
}

// ProjectFile is a project config file and its role ("project" or
// "project-local").
type ProjectFile struct{ Path, Role string }

// ProjectFiles are the project files that apply in cwd: every
// .agentgate.local.toml and .agentgate.toml from cwd up to the outermost
// repository root below home (the topmost directory with .git; home, or
// the file system's root outside home, when there is none), nearest
// first, so that the nearest's settings win while every file's ask and
// deny rules apply (allow rules and settings only once trusted, as
// always). The walk used to stop at the nearest file or .git, and a red
// team's build planted an empty sub/.agentgate.toml (or a sub/.git) that
// hid the project's deny rules from commands run in sub.
func ProjectFiles(cwd, home string) []ProjectFile {
	if cwd == "" {
		return nil
	}
	top := ""
	for dir := filepath.Clean(cwd); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			top = dir
		}
		if dir == home || dir == filepath.Dir(dir) {
			if top == "" {
				top = dir
			}
			break
		}
	}
	var out []ProjectFile
	for dir := filepath.Clean(cwd); ; dir = filepath.Dir(dir) {
		for _, f := range []ProjectFile{{".agentgate.local.toml", "project-local"}, {".agentgate.toml", "project"}} {
			p := filepath.Join(dir, f.Path)
			if _, err := os.Stat(p); err == nil {
				out = append(out, ProjectFile{p, f.Role})
			}
		}
		if dir == top || dir == filepath.Dir(dir) {
			return out
		}
	}
}

// tighten applies a file's settings that can only make agentgate
// stricter: sandbox, min_rule_sandbox and command_timeout.
func (c *Config) tighten(f *file, path string, data []byte) error {
	switch f.Sandbox {
	case "":
	case "require":
		if !c.SandboxRequire {
			c.SandboxRequire, c.SandboxSource = true, path
		}
	case "best-effort":
		if c.SandboxSource == "" {
			c.SandboxSource = path
		}
	default:
		return &Error{Path: path, Line: keyLine(data, []string{"sandbox"}), Col: 1,
			Msg: fmt.Sprintf("unknown sandbox setting %q", f.Sandbox), Fix: `use "best-effort" (the default) or "require"`}
	}
	if f.CommandTimeout != nil {
		d := f.CommandTimeout.Duration
		if d <= 0 {
			return &Error{Path: path, Line: keyLine(data, []string{"command_timeout"}), Col: 1,
				Msg: fmt.Sprintf("command_timeout must be positive, not %s", d), Fix: `use a duration such as "10m"`}
		}
		if c.CommandTimeout == 0 || d < c.CommandTimeout {
			c.CommandTimeout, c.CommandTimeoutSource = d, path
		}
	}
	if f.MinRuleSandbox != "" {
		l, err := sandbox.ParseLevel(f.MinRuleSandbox)
		if err != nil {
			return &Error{Path: path, Line: keyLine(data, []string{"min_rule_sandbox"}), Col: 1, Msg: err.Error()}
		}
		if c.MinRuleSandbox == "" || sandbox.Tighter(c.MinRuleSandbox, l) != c.MinRuleSandbox {
			c.MinRuleSandbox, c.MinRuleSandboxSource = l, path
		}
	}
	return nil
}
