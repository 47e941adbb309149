package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/agentgate/agentgate/config"
)

// ConfigFlags are the flags every command that judges commands shares.
type ConfigFlags struct {
	Config   string
	Mode     string
	Compound string
	Allow    []string
	Ask      []string
	Deny     []string
	AuditLog string
}

func (f *ConfigFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.Config, "config", "", "extra config file (default $AGENTGATE_CONFIG)")
	fs.StringVar(&f.Mode, "mode", "", "default, ci, readonly or bypass (default $AGENTGATE_MODE, else config)")
	fs.StringVar(&f.Compound, "compound", "", `"ask" (any operator escalates) or "split" (judge each part)`)
	fs.Var(repeated{&f.Allow}, "allow", `allow a prefix for this call, e.g. --allow "make test" (repeatable)`)
	fs.Var(repeated{&f.Ask}, "ask", "always ask for a prefix (repeatable)")
	fs.Var(repeated{&f.Deny}, "deny", "deny a prefix (repeatable)")
	fs.StringVar(&f.AuditLog, "audit-log", "", "audit log path (default $XDG_STATE_HOME/agentgate/audit.jsonl)")
}

// repeated is a flag each use of which adds a value, as pflag's
// StringArrayVar makes (whose type name the help keeps). pflag's spells
// its default as CSV when the flag is made, with a 4 kB buffer: three
// of them on every start of every command.
type repeated struct{ values *[]string }

func (r repeated) Set(v string) error {
	*r.values = append(*r.values, v)
	return nil
}

func (r repeated) Type() string { return "stringArray" }

func (r repeated) String() string {
	if len(*r.values) == 0 {
		return "" // no default to show
	}
	return "[" + strings.Join(*r.values, ",") + "]"
}

// passOn spells the flags again for the rewritten "agentgate exec" of a
// hook, so that exec judges with what the hook judged with: a hook
// installed with --config or --mode must not have its command run looser.
func (f *ConfigFlags) passOn() []string {
	var out []string
	add := func(name, v string) {
		if v != "" {
			out = append(out, "--"+name+"="+v)
		}
	}
	add("config", f.Config)
	add("mode", f.Mode)
	add("compound", f.Compound)
	add("audit-log", f.AuditLog)
	for _, v := range f.Allow {
		add("allow", v)
	}
	for _, v := range f.Ask {
		add("ask", v)
	}
	for _, v := range f.Deny {
		add("deny", v)
	}
	return out
}

// configError is a configuration problem: exit 2, named by file and line.
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }
func (e *configError) Unwrap() error { return e.err }

// PolicyPath is where the organisation policy lives: SystemPolicy, or
// another file only where a test builds the Env (Setup.Policy).
func (e *Env) PolicyPath() string {
	if e.Policy != "" {
		return e.Policy
	}
	return SystemPolicy
}

// loadConfig reads every config source and prints its warnings.
func (e *Env) loadConfig(f *ConfigFlags) (*config.Config, error) {
	cwd, _ := e.Getwd()
	o := config.Options{
		Cwd: cwd, Home: e.home(), ConfigDir: e.ConfigDir(), StateDir: e.StateDir(), PolicyPath: e.PolicyPath(),
		Config: f.Config, ConfigFromFlag: f.Config != "", FlagMode: f.Mode, EnvMode: e.Getenv("AGENTGATE_MODE"),
		FlagAllow: f.Allow, FlagAsk: f.Ask, FlagDeny: f.Deny, FlagCompound: f.Compound,
		AuditLog: e.AuditLog(f.AuditLog),
	}
	if o.Config == "" {
		o.Config = e.Getenv("AGENTGATE_CONFIG")
	}
	c, err := config.Load(o)
	if err != nil {
		var ce *config.Error
		if errors.As(err, &ce) {
			return nil, &configError{err}
		}
		return nil, &internalError{fmt.Errorf("load configuration: %w", err)}
	}
	for _, w := range c.Warnings {
		warnf(e.Stderr, "%s", w)
	}
	return c, nil
}
