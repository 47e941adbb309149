package cmd

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/agentgate/agentgate/prompt"
	"github.com/agentgate/agentgate/runner"
)

// Env is everything agentgate touches outside its arguments. System
// returns the real one; tests replace fields.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Environ        func() []string
	Getwd          func() (string, error)
	Now            func() time.Time
	// OpenTTY opens the terminal for the prompt. It is called only when a
	// command escalates: nothing on the allow path touches the terminal.
	OpenTTY func() (*os.File, error)
	// Exec replaces agentgate with the command; Run starts it and waits.
	Exec func(runner.Plan) error
	Run  func(runner.Plan) (int, error)
	// Ask shows the approval prompt on the terminal.
	Ask func(ctx context.Context, tty *os.File, q prompt.Question, o prompt.Options) prompt.Result
	// ExampleConfig is the starter config "agentgate init" writes.
	ExampleConfig string
	// Policy is the organisation policy's path (SystemPolicy).
	Policy string
}

// System returns the Env of the running process.
func System() *Env {
	return &Env{
		Stdout:  os.Stdout,
		Stderr:  os.Stderr,
		Getenv:  os.Getenv,
		Environ: os.Environ,
		Getwd:   os.Getwd,
		Now:     time.Now,
		OpenTTY: func() (*os.File, error) { return os.OpenFile("/dev/tty", os.O_RDWR, 0) },
		Exec:    runner.Exec,
		Run:     runner.Run,
		Ask:     prompt.Ask,
		Policy:  SystemPolicy,
	}
}

// SystemPolicy is where the organisation policy lives. It is fixed: a
// variable naming another file would let whoever sets agentgate's
// environment (the host's project settings, which the agent writes) drop
// the policy.
const SystemPolicy = "/etc/agentgate/policy.toml"

// ciVariables mark a CI run: nobody is there to answer a prompt.
var ciVariables = []string{"CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "JENKINS_URL"}

// terminal opens the terminal for a prompt, or says why there is none:
// --non-interactive, a CI variable, AGENTGATE_TTY=none (the test
// override), or no controlling terminal.
func (e *Env) terminal(nonInteractive bool) (*os.File, string) {
	switch {
	case nonInteractive:
		return nil, "--non-interactive"
	case e.Getenv("AGENTGATE_TTY") == "none":
		return nil, "AGENTGATE_TTY=none"
	}
	for _, v := range ciVariables {
		if e.Getenv(v) != "" {
			return nil, v + " is set"
		}
	}
	f, err := e.OpenTTY()
	if err != nil {
		return nil, "no terminal (" + err.Error() + ")"
	}
	return f, ""
}

// unwatched reports whether nobody is at a terminal to watch a command
// and stop it, and why: the cases in which terminal opens none.
func (e *Env) unwatched(nonInteractive bool) (string, bool) {
	f, why := e.terminal(nonInteractive)
	if f != nil {
		f.Close()
		return "", false
	}
	return why, true
}

// home returns $HOME, or "/" when it is unset: paths under it then point
// nowhere useful rather than at the working directory.
func (e *Env) home() string {
	if h := e.Getenv("HOME"); h != "" {
		return h
	}
	return "/"
}

// xdg returns $name when it is an absolute path, else $HOME/fallback, as
// the XDG base directory specification says.
func (e *Env) xdg(name, fallback string) string {
	if d := e.Getenv(name); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(e.home(), fallback)
}

// ConfigDir is $XDG_CONFIG_HOME/agentgate.
func (e *Env) ConfigDir() string {
	return filepath.Join(e.xdg("XDG_CONFIG_HOME", ".config"), "agentgate")
}

// StateDir is $XDG_STATE_HOME/agentgate.
func (e *Env) StateDir() string {
	return filepath.Join(e.xdg("XDG_STATE_HOME", ".local/state"), "agentgate")
}

// UserConfig is the user's config file.
func (e *Env) UserConfig() string { return filepath.Join(e.ConfigDir(), "config.toml") }

// AuditLog is the audit log path: the flag, else the state directory's
// audit.jsonl. No environment variable moves it: the host's settings can
// set agentgate's environment, and the agent writes those.
func (e *Env) AuditLog(flag string) string {
	if flag != "" {
		return flag
	}
	return filepath.Join(e.StateDir(), "audit.jsonl")
}
