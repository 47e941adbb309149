package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/gate"
)

// world is a temporary home with a repository and every config location.
type world struct {
	t                           *testing.T
	home, repo, cfg, state, pol string
}

func newWorld(t *testing.T) *world {
	home := t.TempDir()
	w := &world{t: t, home: home, repo: filepath.Join(home, "repo"), cfg: filepath.Join(home, ".config", "agentgate"),
		state: filepath.Join(home, ".local", "state", "agentgate"), pol: filepath.Join(t.TempDir(), "policy.toml")}
	os.MkdirAll(filepath.Join(w.repo, ".git"), 0o755)
	os.MkdirAll(filepath.Join(w.repo, "sub"), 0o755)
	os.MkdirAll(w.cfg, 0o700)
	return w
}

func (w *world) write(path, text string) string {
	w.t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		w.t.Fatal(err)
	}
	return path
}

func (w *world) opts() config.Options {
	return config.Options{Cwd: filepath.Join(w.repo, "sub"), Home: w.home, ConfigDir: w.cfg, StateDir: w.state,
		PolicyPath: w.pol, SkipPolicyOwnerCheck: true}
}

func (w *world) load(o config.Options) *config.Config {
	w.t.Helper()
	c, err := config.Load(o)
	if err != nil {
		w.t.Fatalf("Load: %v", err)
	}
	return c
}

func (w *world) decide(c *config.Config, text string) gate.Decision {
	return gate.Decide(gate.Request{Text: text, Rules: c.Rules, Paths: c.Paths(w.home, w.repo)})
}

func (w *world) trust(path string) {
	w.t.Helper()
	tr, err := config.LoadTrust(config.TrustPath(w.state))
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := tr.Add(path, time.Now()); err != nil {
		w.t.Fatal(err)
	}
	if err := tr.Save(config.TrustPath(w.state)); err != nil {
		w.t.Fatal(err)
	}
}

// sources are the places a rule can come from, most authoritative first.
var sources = []string{"policy", "flag", "env-config", "project-local", "project", "user"}

// put writes a rule of kind for prefix into source, returning the options.
func (w *world) put(o *config.Options, source, kind, prefix string) {
	table := "[" + kind + "]\nprefix = [\"" + prefix + "\"]\n"
	switch source {
	case "policy":
		w.write(w.pol, table)
	case "flag":
		switch kind {
		case "allow":
			o.FlagAllow = append(o.FlagAllow, prefix)
		case "ask":
			o.FlagAsk = append(o.FlagAsk, prefix)
		case "deny":
			o.FlagDeny = append(o.FlagDeny, prefix)
		}
	case "env-config":
		// A file named by AGENTGATE_CONFIG counts once trusted, as a
		// project file does (TestEnvConfigNeedsTrust).
		o.Config = w.write(filepath.Join(w.home, "env.toml"), table)
		w.trust(o.Config)
	case "project-local":
		w.trust(w.write(filepath.Join(w.repo, ".agentgate.local.toml"), table))
	case "project":
		w.trust(w.write(filepath.Join(w.repo, ".agentgate.toml"), table))
	case "user":
		w.write(filepath.Join(w.cfg, "config.toml"), table)
	}
}

// For every pair of sources and every pair of kinds, the stronger kind
// wins whichever source holds it: deny > ask > allow.
func TestPrecedenceByKind(t *testing.T) {
	kinds := []string{"deny", "ask", "allow"}
	want := map[string]gate.Verdict{"deny": gate.Deny, "ask": gate.Ask, "allow": gate.Allow}
	for _, a := range sources {
		for _, b := range sources {
			if a == b {
				continue
			}
			for i, ka := range kinds {
				for _, kb := range kinds[i+1:] {
					for _, swap := range []bool{false, true} {
						w := newWorld(t)
						o := w.opts()
						strong, weak := ka, kb
						sa, sb := a, b
						if swap {
							sa, sb = b, a
						}
						w.put(&o, sa, strong, "make test")
						w.put(&o, sb, weak, "make test")
						c := w.load(o)
						d := w.decide(c, "make test -j4")
						if d.Verdict() != want[strong] {
							t.Errorf("%s in %s, %s in %s: %s (%s); want %s", strong, sa, weak, sb, d.Verdict(), d.Primary(), want[strong])
						}
					}
				}
			}
		}
	}
}

// A file named by AGENTGATE_CONFIG is the agent's to name when its host
// sets the environment from project settings: its allow rules apply only
// once trusted; its deny and ask rules always do.
func TestEnvConfigNeedsTrust(t *testing.T) {
	for kind, want := range map[string]gate.Verdict{"allow": gate.Ask, "ask": gate.Ask, "deny": gate.Deny} {
		w := newWorld(t)
		o := w.opts()
		o.Config = w.write(filepath.Join(w.home, "env.toml"), "["+kind+"]\nprefix = [\"make test\"]\n")
		if d := w.decide(w.load(o), "make test"); d.Verdict() != want {
			t.Errorf("untrusted AGENTGATE_CONFIG %s rule: %s, want %s", kind, d.Verdict(), want)
		}
	}
	w := newWorld(t)
	o := w.opts()
	o.Config, o.ConfigFromFlag = w.write(filepath.Join(w.home, "flag.toml"), "[allow]\nprefix = [\"make test\"]\n"), true
	if d := w.decide(w.load(o), "make test"); d.Verdict() != gate.Allow {
		t.Errorf("--config allow rule: %s, want allow", d.Verdict())
	}
}

// Each source's rule alone takes effect, and names its source.
func TestEachSourceAlone(t *testing.T) {
	for _, src := range sources {
		for _, kind := range []string{"allow", "ask", "deny"} {
			w := newWorld(t)
			o := w.opts()
			w.put(&o, src, kind, "make test")
			d := w.decide(w.load(o), "make test")
			want := map[string]gate.Verdict{"deny": gate.Deny, "ask": gate.Ask, "allow": gate.Allow}[kind]
			if d.Verdict() != want || d.Primary().Source == "" || d.Primary().Source == "default" {
				t.Errorf("%s rule in %s: %s from %q", kind, src, d.Verdict(), d.Primary().Source)
			}
		}
	}
}

func TestModePrecedence(t *testing.T) {
	w := newWorld(t)
	w.write(filepath.Join(w.cfg, "config.toml"), "mode = \"ci\"\n")
	o := w.opts()
	if c := w.load(o); c.Mode != config.ModeCI || !strings.HasSuffix(c.ModeSource, "config.toml") {
		t.Errorf("user mode: %s from %s", c.Mode, c.ModeSource)
	}
	o.EnvMode = "readonly"
	if c := w.load(o); c.Mode != config.ModeReadonly || c.ModeSource != "environment AGENTGATE_MODE" {
		t.Errorf("env mode: %s from %s", c.Mode, c.ModeSource)
	}
	o.FlagMode = "bypass"
	if c := w.load(o); c.Mode != config.ModeBypass || c.ModeSource != "flag --mode" {
		t.Errorf("flag mode: %s from %s", c.Mode, c.ModeSource)
	}
	w.write(w.pol, "mode = \"ci\"\n")
	if c := w.load(o); c.Mode != config.ModeCI || c.ModeSource != w.pol {
		t.Errorf("policy mode: %s from %s; the policy beats flags", c.Mode, c.ModeSource)
	}
	w.write(w.pol, "[policy]\nforbid_modes = [\"bypass\"]\n")
	_, err := config.Load(o)
	var ce *config.Error
	if !errors.As(err, &ce) || ce.Line != 2 || !strings.Contains(err.Error(), `mode "bypass" (from flag --mode) is forbidden by the policy`) {
		t.Errorf("forbidden mode: %v", err)
	}
	if c := w.load(w.opts()); c.Mode != config.ModeCI {
		t.Errorf("without the flag the user mode applies: %s", c.Mode)
	}
}

// The trust flow: an untrusted project's allow rules are ignored with a
// warning; trusted they apply; an edit untrusts; ask and deny always apply.
// The untrusted-file warning shows once per content of the file, not on
// every call.
func TestUntrustedWarningOncePerChange(t *testing.T) {
	w := newWorld(t)
	proj := w.write(filepath.Join(w.repo, ".agentgate.toml"), "[allow]\nprefix = [\"make test\"]\n")
	if c := w.load(w.opts()); len(c.Warnings) != 1 {
		t.Fatalf("first read: %q", c.Warnings)
	}
	if c := w.load(w.opts()); len(c.Warnings) != 0 {
		t.Errorf("second read of the same file warned again: %q", c.Warnings)
	}
	w.write(proj, "[allow]\nprefix = [\"make test\", \"rm\"]\n")
	if c := w.load(w.opts()); len(c.Warnings) != 1 {
		t.Errorf("after a change: %q", c.Warnings)
	}
	c := w.load(w.opts())
	untrusted := false
	for _, f := range c.Files {
		untrusted = untrusted || f.Path == proj && strings.HasPrefix(f.Status, "untrusted")
	}
	if !untrusted {
		t.Errorf("the file status must still say untrusted: %+v", c.Files)
	}
}

// Only the policy file lifts a built-in catastrophic rule, and only one
// that exists.
func TestLiftCatastrophic(t *testing.T) {
	w := newWorld(t)
	w.write(w.pol, "[policy]\nlift_catastrophic = [\"mkfs\"]\n")
	if c := w.load(w.opts()); !slices.Equal(c.LiftCatastrophic, []string{"mkfs"}) {
		t.Errorf("lifted: %q", c.LiftCatastrophic)
	}
	w.write(w.pol, "[policy]\nlift_catastrophic = [\"rm\"]\n")
	if _, err := config.Load(w.opts()); err == nil || !strings.Contains(err.Error(), `"rm" is not a built-in catastrophic rule; use one of recursive-delete`) {
		t.Errorf("unknown rule: %v", err)
	}
	w = newWorld(t)
	w.write(filepath.Join(w.cfg, "config.toml"), "[policy]\nlift_catastrophic = [\"mkfs\"]\n")
	if _, err := config.Load(w.opts()); err == nil || !strings.Contains(err.Error(), "[policy] is only read from the policy file") {
		t.Errorf("user file lifts: %v", err)
	}
}

func TestProjectTrust(t *testing.T) {
	w := newWorld(t)
	proj := w.write(filepath.Join(w.repo, ".agentgate.toml"), "mode = \"bypass\"\n[allow]\nprefix = [\"make test\"]\n[deny]\nprefix = [\"make deploy\"]\n")
	c := w.load(w.opts())
	if d := w.decide(c, "make test"); d.Verdict() != gate.Ask {
		t.Errorf("untrusted project allow rule applied: %s", d.Verdict())
	}
	if d := w.decide(c, "make deploy"); d.Verdict() != gate.Deny {
		t.Errorf("untrusted project deny rule ignored: %s", d.Verdict())
	}
	if c.Mode != config.ModeDefault {
		t.Errorf("untrusted project set mode %s", c.Mode)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "is not trusted") {
		t.Errorf("warnings = %q", c.Warnings)
	}
	w.trust(proj)
	c = w.load(w.opts())
	if d := w.decide(c, "make test"); d.Verdict() != gate.Allow || d.Primary().Source != proj+":3" {
		t.Errorf("trusted project allow rule: %s from %s", d.Verdict(), d.Primary().Source)
	}
	if len(c.Warnings) != 0 || c.Mode != config.ModeBypass {
		t.Errorf("trusted: warnings %q, mode %s", c.Warnings, c.Mode)
	}
	w.write(proj, "[allow]\nprefix = [\"make test\", \"rm\"]\n")
	c = w.load(w.opts())
	if d := w.decide(c, "rm x"); d.Verdict() != gate.Ask {
		t.Errorf("edited project allow rule applied: %s", d.Verdict())
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "changed since you trusted it") {
		t.Errorf("warnings after edit = %q", c.Warnings)
	}
}

// The walk up stops at the repository root: a file above it is not read.
func TestProjectWalkStopsAtRepoRoot(t *testing.T) {
	w := newWorld(t)
	above := w.write(filepath.Join(w.home, ".agentgate.toml"), "[deny]\nprefix = [\"ls\"]\n")
	c := w.load(w.opts())
	for _, f := range c.Files {
		if f.Path == above {
			t.Fatalf("read %s above the repository root", above)
		}
	}
	if d := w.decide(c, "ls"); d.Verdict() != gate.Allow {
		t.Errorf("ls = %s", d.Verdict())
	}
}

// A project file or a .git planted in a subdirectory does not hide the
// project's own rules from commands run there (a red team's build did
// both, and "make test deploy", denied at the top, ran in sub).
func TestPlantedFilesDoNotHideTheProject(t *testing.T) {
	for name, plant := range map[string]func(w *world){
		"sub/.agentgate.toml": func(w *world) { w.write(filepath.Join(w.repo, "sub", ".agentgate.toml"), "") },
		"sub/.git":            func(w *world) { os.MkdirAll(filepath.Join(w.repo, "sub", ".git"), 0o755) },
	} {
		w := newWorld(t)
		w.write(filepath.Join(w.repo, ".agentgate.toml"), "[deny]\nprefix = [\"make deploy\"]\n")
		plant(w)
		c := w.load(w.opts())
		if d := w.decide(c, "make deploy"); d.Verdict() != gate.Deny {
			t.Errorf("%s planted: make deploy = %s, want deny", name, d.Verdict())
		}
	}
}

func TestPolicyPermissions(t *testing.T) {
	w := newWorld(t)
	w.write(w.pol, "[deny]\nprefix = [\"rm\"]\n")
	os.Chmod(filepath.Dir(w.pol), 0o755)
	os.Chmod(w.pol, 0o666)
	o := w.opts()
	_, err := config.Load(o)
	if err == nil || !strings.Contains(err.Error(), "writable by users other than its owner (mode 666); run: chmod go-w") {
		t.Errorf("group/world-writable policy: %v", err)
	}
	os.Chmod(w.pol, 0o644)
	if os.Getuid() == 0 {
		os.Chown(w.pol, 65534, 65534)
		o.SkipPolicyOwnerCheck = false
		_, err = config.Load(o)
		if err == nil || !strings.Contains(err.Error(), "owned by uid 65534, not root") {
			t.Errorf("policy owned by nobody: %v", err)
		}
		os.Chown(w.pol, 0, 0)
		if _, err := config.Load(o); err != nil {
			t.Errorf("root-owned 0644 policy refused: %v", err)
		}
	}
}

func TestPolicyForbidAllow(t *testing.T) {
	w := newWorld(t)
	w.write(w.pol, "[policy]\nforbid_allow = [\"curl\"]\n")
	w.write(filepath.Join(w.cfg, "config.toml"), "[allow]\nprefix = [\"curl\", \"make test\"]\n")
	o := w.opts()
	o.FlagAllow = []string{"curl -s"}
	c := w.load(o)
	if d := w.decide(c, "curl https://example.com"); d.Verdict() != gate.Ask {
		t.Errorf("forbidden allow rule applied: %s", d.Verdict())
	}
	if d := w.decide(c, "make test"); d.Verdict() != gate.Allow {
		t.Errorf("other allow rule dropped: %s", d.Verdict())
	}
	if len(c.Ignored) != 2 {
		t.Errorf("ignored = %v", c.Ignored)
	}
}

// Malformed files: exit-2 errors with file:line:col, what and how to fix.
func TestErrors(t *testing.T) {
	tests := []struct {
		text, want string
	}{
		{"mode = \"turbo\"\n", `config.toml:1:1: unknown mode "turbo"; use default, ci, readonly or bypass`},
		{"[allow]\nprefixes = [\"ls\"]\n", `config.toml:2:1: unknown key "allow.prefixes"; check its spelling against config.example.toml`},
		{"[alow]\nprefix = [\"ls\"]\n", `config.toml:1:1: unknown key "alow"`},
		{"[allow]\nprefix = \"ls\"\n", `config.toml:2:1: `},
		{"[allow\nprefix = [\"ls\"]\n", `config.toml:1:7: expected '.' or ']' to end table name`},
		{"prompt_timeout = \"soon\"\n", `"soon" is not a duration; write it like "5m"`},
		{"breaker_threshold = 0\n", `config.toml:1:1: breaker_threshold must be at least 1`},
		{"[allow]\ncontains = [\"ls\"]\n", `config.toml:2:1: [allow] cannot have contains rules`},
		{"[deny]\ncontains = [\"\"]\n", `empty contains in [deny]`},
		{"[[allow.rule]]\nprefix = \"sort\"\nexcept = [\"\"]\n", `exception "" matches nothing useful`},
		{"[policy]\nforbid_modes = [\"bypass\"]\n", `config.toml:1:1: [policy] is only read from the policy file`},
		{"compound = \"maybe\"\n", `unknown compound setting "maybe"`},
		{"[allow]\nprefix = [\"ls\"]\ncompound = \"split\"\n", `config.toml:3:1: "compound" is a top-level key, but after [allow] TOML reads it as "allow.compound"; move the compound line above the first [table] header`},
		{"[audit]\nsyslog = true\nmode = \"ci\"\n", `"mode" is a top-level key, but after [audit]`},
	}
	for _, tt := range tests {
		w := newWorld(t)
		w.write(filepath.Join(w.cfg, "config.toml"), tt.text)
		_, err := config.Load(w.opts())
		var ce *config.Error
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("config %q:\n got %v\nwant %s", tt.text, err, tt.want)
		}
	}
}

func TestRuleWithExceptions(t *testing.T) {
	w := newWorld(t)
	w.write(filepath.Join(w.cfg, "config.toml"), "[[allow.rule]]\nprefix = \"terraform plan\"\nexcept = [\"-out\"]\nnote = \"plans\"\n")
	c := w.load(w.opts())
	if d := w.decide(c, "terraform plan -var x=1"); d.Verdict() != gate.Allow {
		t.Errorf("terraform plan: %s", d.Verdict())
	}
	if d := w.decide(c, "terraform plan -out plan.bin"); d.Verdict() != gate.Ask || d.Primary().Check != gate.CheckException {
		t.Errorf("terraform plan -out: %s %+v", d.Verdict(), d.Primary())
	}
}

// Self-protection and sensitive paths hold in every mode's configuration,
// including paths moved by the environment.
func TestProtectedPathsFromConfig(t *testing.T) {
	w := newWorld(t)
	w.write(filepath.Join(w.cfg, "config.toml"), "[allow]\nprefix = [\"tee\"]\n[sensitive]\npaths = [\"secrets/\"]\n")
	o := w.opts()
	o.AuditLog = filepath.Join(w.home, "logs", "audit.jsonl")
	c := w.load(o)
	for text, check := range map[string]gate.Check{
		"tee " + o.AuditLog:                    gate.CheckSelfProtect,
		"tee ~/.config/agentgate/learned.toml": gate.CheckSelfProtect,
		"cat " + w.pol:                         gate.CheckSelfProtect,
		"cat secrets/db.txt":                   gate.CheckSensitive,
		"cat ~/.ssh/id_rsa":                    gate.CheckSensitive,
	} {
		d := w.decide(c, text)
		if d.Verdict() != gate.Ask || d.Primary().Check != check || !d.Sticky() {
			t.Errorf("%q: %s %+v", text, d.Verdict(), d.Primary())
		}
	}
	if r := c.Rules[len(c.Rules)-1]; r.Kind != allowlist.Allow || r.String() != "tee" {
		t.Errorf("last rule %v", r)
	}
}

// untrusted_dirs merges from every file, an untrusted project's too: more
// agent-writable directories only make commands ask more.
func TestUntrustedDirsMerge(t *testing.T) {
	w := newWorld(t)
	w.write(filepath.Join(w.cfg, "config.toml"), "untrusted_dirs = [\"~/Downloads\"]\n")
	w.write(filepath.Join(w.repo, ".agentgate.toml"), "untrusted_dirs = [\"/srv/shared\"]\n")
	c := w.load(w.opts())
	if got := strings.Join(c.UntrustedDirs, ","); !strings.Contains(got, "~/Downloads") || !strings.Contains(got, "/srv/shared") {
		t.Errorf("UntrustedDirs = %q; want both files' entries", got)
	}
}

// What "agentgate trust" shows: the allow rules and settings the file
// turns on; files that are not project files are refused.
func TestTrustSummary(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".agentgate.toml")
	os.WriteFile(p, []byte("mode = \"bypass\"\n[allow]\nprefix = [\"make test\"]\n[deny]\nprefix = [\"make deploy\"]\n"+
		"[[allow.rule]]\nprefix = \"make build\"\nsandbox = \"workspace\"\nwritable = [\"/srv/out\"]\n"), 0o644)
	got, err := config.TrustSummary(p)
	if err != nil {
		t.Fatal(err)
	}
	// The sandbox and extra writable paths are part of what is trusted
	// (a red team widened a trusted rule and the dialog did not change).
	want := []string{"allow without asking: make test  (line 3), UNCONFINED: it runs with all your rights",
		"allow without asking: make build  (line 7), sandbox workspace, may also write /srv/out", `setting: mode = "bypass"  (line 1)`}
	if !slices.Equal(got, want) {
		t.Errorf("summary %q; want %q", got, want)
	}
	for name, text := range map[string]string{"notes.txt": "[allow]\nprefix = [\"rm\"]\n", ".agentgate.local.toml": "[allow\n", ".agentgate.toml": "[policy]\nforbid_modes = []\n"} {
		d := t.TempDir()
		os.WriteFile(filepath.Join(d, name), []byte(text), 0o644)
		if _, err := config.TrustSummary(filepath.Join(d, name)); err == nil {
			t.Errorf("%s %q: accepted", name, text)
		}
	}
}

// packs = [...] turns packs on from a trusted file only, and an unknown
// pack is an error that names the known ones.
func TestPacks(t *testing.T) {
	w := newWorld(t)
	c := w.load(w.opts())
	if len(c.Packs) != 0 || decidePacked(w, c, "kubectl get pods").Verdict() != gate.Ask {
		t.Fatalf("packs on by default: %v", c.Packs)
	}
	w.write(filepath.Join(w.cfg, "config.toml"), "packs = [\"kubectl\", \"gh\"]\n")
	c = w.load(w.opts())
	if strings.Join(c.Packs, ",") != "kubectl,gh" {
		t.Errorf("packs = %v", c.Packs)
	}
	d := decidePacked(w, c, "kubectl get pods")
	if d.Verdict() != gate.Allow || d.Primary().Source != "pack kubectl" {
		t.Errorf("kubectl get pods with the pack: %s from %s", d.Verdict(), d.Primary().Source)
	}
	for _, r := range c.Rules {
		if r.Source.Name == "pack kubectl" && r.Sandbox != allowlist.PackSandbox {
			t.Errorf("pack rule %s has sandbox %q", r, r.Sandbox)
		}
	}
	if decidePacked(w, c, "docker ps").Verdict() != gate.Ask {
		t.Error("a pack not named is on")
	}
	proj := w.write(filepath.Join(w.repo, ".agentgate.toml"), "packs = [\"docker\"]\n")
	if c = w.load(w.opts()); decidePacked(w, c, "docker ps").Verdict() != gate.Ask {
		t.Error("an untrusted project file turned a pack on")
	}
	w.trust(proj)
	if c = w.load(w.opts()); decidePacked(w, c, "docker ps").Verdict() != gate.Allow {
		t.Error("a trusted project file could not turn a pack on")
	}
	w.write(filepath.Join(w.cfg, "config.toml"), "packs = [\"kubeclt\"]\n")
	if _, err := config.Load(w.opts()); err == nil || !strings.Contains(err.Error(), "kubectl") {
		t.Errorf("unknown pack: %v", err)
	}
}

// decidePacked decides as the engine does for a project without hazards.
func decidePacked(w *world, c *config.Config, text string) gate.Decision {
	return gate.Decide(gate.Request{Text: text, Rules: c.Rules, Paths: c.Paths(w.home, w.repo),
		Hazards: func([]string) []string { return nil }})
}

// "Always allow" adds to learned.toml: a plain prefix to [allow], a
// confined one as a rule of its own with its sandbox; both load, the
// rules already there are kept, and adding one twice changes nothing.
func TestAddLearned(t *testing.T) {
	w := newWorld(t)
	path := config.LearnedPath(w.cfg)
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, add := range [][2]string{{"touch", ""}, {"make test", "workspace"}, {"touch", ""}, {"make test", "workspace"}, {"mkdir", ""}} {
		if err := config.AddLearned(path, add[0], add[1], now); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	if strings.Count(string(data), `"touch"`) != 1 || strings.Count(string(data), `prefix = "make test"`) != 1 || !strings.Contains(string(data), `"mkdir"`) {
		t.Fatalf("learned.toml:\n%s", data)
	}
	c := w.load(w.opts())
	levels := map[string]string{}
	for _, r := range c.Rules {
		if r.Source.Name == path {
			levels[r.String()] = r.Sandbox
		}
	}
	if levels["touch"] != "" || levels["mkdir"] != "" || levels["make test"] != "workspace" || len(levels) != 3 {
		t.Errorf("learned rules and their sandboxes: %v\n%s", levels, data)
	}
}
