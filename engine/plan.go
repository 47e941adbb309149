package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/gitsafe"
	"github.com/agentgate/agentgate/internal/fsutil"
	"github.com/agentgate/agentgate/internal/shparse"
	"github.com/agentgate/agentgate/runner"
	"github.com/agentgate/agentgate/sandbox"
)

// Plan resolves how j's command runs, so that what runs is what the gate
// checked: the argv form directly (a bash builtin through bash, as its
// quoted text); the shell form directly too when it is
// one simple command whose words are literal (the gate's words are then
// exactly the program's argv, and a shell start is saved); anything else,
// and bash builtins, whose behaviour differs from the programs of the same
// name, with bash. auto is true when the gate allowed the command on its
// own; an auto-allowed git command also gets the gitsafe environment.
func (e *Engine) Plan(j *Judgement, auto bool) (runner.Plan, error) {
	req, d := j.Request, j.Decision
	var p runner.Plan
	var err error
	switch {
	case len(req.Argv) > 0 && bashBuiltins[req.Argv[0]]:
		// A builtin named as separate words ("exec -- type ls") runs in
		// bash as the text form's would: there may be no program of
		// that name (type, cd), or one that reads its words otherwise
		// (echo --help). req.Text is the argv quoted for bash.
		p = e.shellPlan(req.Text)
	case req.Argv != nil:
		p, err = runner.Resolve(req.Argv, e.Environ())
	case d.Literal() && !bashBuiltins[d.Argv()[0]]:
		p, err = runner.Resolve(d.Argv(), e.Environ())
	default:
		p = e.shellPlan(req.Text)
	}
	if err != nil {
		return p, err
	}
	if !auto {
		p.Sandbox = e.guard(j)
		return p, nil
	}
	// What runs on its own gets the accept-listed environment, which the
	// git and pack checks judged.
	p.Env = AcceptedEnviron(p.Env, programs(d)...)
	if isGit(d) {
		p.Env = gitsafe.Environ(p.Env)
	}
	p.Env = pinPacks(d, p.Env)
	if p.Sandbox, err = e.spec(j, p.Path); err != nil || p.Sandbox == nil {
		return p, err
	}
	// The private scratch directory is the command's TMPDIR, and git must
	// not try to refresh the index, which it could not write.
	p.Env = setEnv(p.Env, "TMPDIR", p.Sandbox.TmpDir)
	p.Env = setEnv(p.Env, "GIT_OPTIONAL_LOCKS", "0")
	return p, nil
}

// packPins are the settings each pack program runs with in command scope,
// as git runs with gitsafe's: npm, pnpm and yarn run no package scripts
// (npm diff once ran a planted prepare script); go uses the toolchain on
// the machine, with no GOFLAGS of the environment; pip reads no config
// file; cargo wraps rustc with nothing. The hazard checks judge the
// project's files; the pins hold where a check cannot see.
var packPins = map[string][][2]string{
	"npm":   {{"npm_config_ignore_scripts", "true"}, {"npm_config_script_shell", ""}},
	"pnpm":  {{"npm_config_ignore_scripts", "true"}},
	"yarn":  {{"npm_config_ignore_scripts", "true"}, {"YARN_ENABLE_SCRIPTS", "false"}},
	"go":    {{"GOTOOLCHAIN", "local"}, {"GOFLAGS", ""}},
	"pip":   {{"PIP_CONFIG_FILE", "/dev/null"}},
	"pip3":  {{"PIP_CONFIG_FILE", "/dev/null"}},
	"uv":    {{"UV_NO_CONFIG", "1"}},
	"cargo": {{"RUSTC_WRAPPER", ""}, {"CARGO_BUILD_RUSTC_WRAPPER", ""}, {"CARGO_BUILD_RUSTC", "rustc"}},
}

// pinPacks sets the pins of every pack program the decision runs.
func pinPacks(d gate.Decision, environ []string) []string {
	for _, prog := range programs(d) {
		for _, kv := range packPins[filepath.Base(prog)] {
			environ = setEnv(environ, kv[0], kv[1])
		}
	}
	return environ
}

// setEnv returns environ with name set to value, replacing earlier values.
func setEnv(environ []string, name, value string) []string {
	out := environ[:0:0]
	for _, kv := range environ {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}

// isGit reports whether any command the gate judged is git.
func isGit(d gate.Decision) bool {
	for _, argv := range d.Commands() {
		if len(argv) > 0 && argv[0] == "git" {
			return true
		}
	}
	return false
}

// bashBuiltins run inside bash rather than as programs.
var bashBuiltins = map[string]bool{}

func init() {
	for _, b := range strings.Fields(`alias bg bind break builtin caller cd command compgen complete compopt
		continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history
		jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift
		shopt source suspend test times trap true type typeset ulimit umask unalias unset wait . : [`) {
		bashBuiltins[b] = true
	}
}

// shellPlan runs text with "bash --norc --noprofile -c", or "/bin/sh -c"
// when there is no bash. Startup files and exported functions could add
// commands to what the gate checked, so BASH_ENV, ENV and BASH_FUNC_*
// are removed from the environment.
func (e *Engine) shellPlan(text string) runner.Plan {
	env := CleanShellEnv(e.Environ())
	if bash, err := exec.LookPath("bash"); err == nil {
		return runner.Plan{Path: bash, Argv: []string{"bash", "--norc", "--noprofile", "-c", text}, Env: env}
	}
	return runner.Plan{Path: "/bin/sh", Argv: []string{"sh", "-c", text}, Env: env}
}

// CleanShellEnv drops the variables that make bash run code of their own,
// and CDPATH, which would make "cd name" go somewhere the gate did not
// judge.
func CleanShellEnv(environ []string) []string {
	out := environ[:0:0]
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if name == "BASH_ENV" || name == "ENV" || name == "CDPATH" || strings.HasPrefix(name, "BASH_FUNC_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// elevators run what follows them as another user: a command through one
// is not guarded (the user namespace a guard needs for a user other than
// root keeps sudo from working, and root can undo a guard anyway).
var elevators = map[string]bool{"sudo": true, "doas": true, "su": true, "pkexec": true, "run0": true, "sudoedit": true}

// guard is the specification that keeps agentgate's own files read-only
// for a command it runs unconfined (approved, bypassed):
// [sandbox.Spec.Guard]. nil where the system cannot (not Linux) or the
// command is sudo and the like. Guarded are agentgate's configuration
// and state directories (made if missing: an absent ~/.config/agentgate
// is where a planted script would put a config.toml with mode =
// "bypass"), the audit log and a configuration file named elsewhere
// (the files, not their directories: --audit-log ~/x.jsonl must not make
// the home read-only), agentgate's own executable, and the hosts'
// user-scope settings that choose the hook (a planted script removed
// Claude Code's hook from ~/.claude/settings.json).
func (e *Engine) guard(j *Judgement) *sandbox.Spec {
	if !sandbox.CanGuard {
		return nil
	}
	if runsElevated(j.Request.Script.Of(j.Request.Text), e.Getenv("PATH")) {
		return nil
	}
	home := j.Request.Paths.Home
	var paths []string
	seen := map[string]bool{}
	add := func(p string, dir bool) {
		if p == "" || !filepath.IsAbs(p) {
			return
		}
		if dir {
			_ = os.MkdirAll(p, 0o700)
		}
		if _, err := os.Lstat(p); err != nil {
			return
		}
		_, r, err := fsutil.Walk(p)
		if err != nil || seen[r] {
			return
		}
		fi, err := os.Stat(r)
		if err != nil || fi.IsDir() != dir || !dir && !fi.Mode().IsRegular() {
			return
		}
		seen[r] = true
		paths = append(paths, r)
	}
	add(e.ConfigDir, true)
	add(e.StateDir, true)
	add(e.AuditLog, false)
	add(e.UserConfig, false)
	add(e.ExtraConfig, false)
	if self, err := os.Executable(); err == nil {
		add(self, false)
	}
	// The hosts' settings that say which hook runs, in the home and
	// where the hosts' variables move them (agentgate install writes the
	// hook there then).
	for _, h := range HostDirs {
		dirs := []string{}
		if home != "" {
			dirs = append(dirs, filepath.Join(home, h.InHome))
		}
		if d := e.Getenv(h.Env); h.Env != "" && filepath.IsAbs(d) {
			dirs = append(dirs, d)
		}
		for _, d := range dirs {
			for _, f := range h.Settings {
				add(filepath.Join(d, f), false)
			}
		}
	}
	if len(paths) == 0 {
		return nil
	}
	return &sandbox.Spec{Level: sandbox.None, Root: "/", Guard: paths}
}

// HostDirs are the hosts' user-scope directories, in the home and where
// a variable moves them, with the files in them that say which hook runs
// (and in which permission mode). The guard binds those files read-only
// for what agentgate runs, and the hook asks before the agent's file
// tools write into those directories.
var HostDirs = []HostDir{
	{Env: "CLAUDE_CONFIG_DIR", InHome: ".claude", Settings: []string{"settings.json"}},
	{Env: "CODEX_HOME", InHome: ".codex", Settings: []string{"config.toml", "hooks.json"}},
	{InHome: ".gemini", Settings: []string{"settings.json"}},
	{InHome: ".cursor", Settings: []string{"hooks.json"}},
}

// HostDir is one host's user-scope directory.
type HostDir struct {
	// Env moves the directory ("" when nothing does); InHome is where it
	// is otherwise, relative to the home.
	Env, InHome string
	Settings    []string
}

// runsElevated reports a text that is one simple command whose program is
// an elevator ("sudo make install"): that command is not guarded. Only
// then: "false && sudo true; sh ./planted.sh" is guarded, and a sudo it
// reaches fails rather than the guard. The program must be the system's:
// named as PATH finds it, with no assignment in front (PATH=.:$PATH sudo),
// and a set-user-ID file of root's (a planted ./sudo is neither).
func runsElevated(sc *shparse.Script, path string) bool {
	if sc.Err != nil {
		return false
	}
	f := sc.Form()
	if len(f.Stmts) != 1 || !f.Complete() {
		return false
	}
	st := f.Stmts[0]
	if st.Kind != shparse.KindCall || len(st.Args) == 0 || len(st.Assigns) > 0 || st.Background || len(st.Redirs) > 0 {
		return false
	}
	v, ok := st.Args[0].Value, st.Args[0].Static
	if !ok || !elevators[filepath.Base(v)] {
		return false
	}
	prog := v
	if !strings.Contains(v, "/") {
		prog = ""
		for _, dir := range filepath.SplitList(path) {
			if p := filepath.Join(dir, v); filepath.IsAbs(dir) && isFile(p) {
				prog = p
				break
			}
		}
	}
	fi, err := os.Stat(prog)
	if err != nil || fi.Mode()&os.ModeSetuid == 0 {
		return false
	}
	st2, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st2.Uid == 0
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
