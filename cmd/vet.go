package cmd

import (
	"path/filepath"

	"github.com/agentgate/agentgate/engine"
	"github.com/agentgate/agentgate/session"
)

// engine is the one escalation engine, on this Env.
func (e *Env) engine(auditFlag string) *engine.Engine {
	return &engine.Engine{
		Getenv: e.Getenv, Environ: e.Environ, Now: e.Now,
		StateDir: e.StateDir(), ConfigDir: e.ConfigDir(), UserConfig: e.UserConfig(),
		AuditLog: e.AuditLog(auditFlag), Version: version(),
	}
}

// judge is what exec and check share: read the command and the
// configuration, and let the engine judge it where it runs.
func (e *Env) judge(args []string, flags *ConfigFlags, sess, hostTicket string) (*engine.Engine, *engine.Judgement, error) {
	req, err := proposal(args)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := e.loadConfig(flags)
	if err != nil {
		return nil, nil, err
	}
	cwd, _ := e.Getwd()
	if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs
	}
	eng := e.engine(flags.AuditLog)
	// A config file named elsewhere steers every later run that names it
	// (the hook passes --config on to the exec it rewrites): it is
	// guarded as agentgate's own files are.
	if eng.ExtraConfig = flags.Config; eng.ExtraConfig == "" {
		eng.ExtraConfig = e.Getenv("AGENTGATE_CONFIG")
	}
	if eng.ExtraConfig != "" && !filepath.IsAbs(eng.ExtraConfig) {
		eng.ExtraConfig = filepath.Join(cwd, eng.ExtraConfig)
	}
	return eng, eng.Judge(engine.Proposal{Text: req.Text, Argv: req.Argv, Cwd: cwd, Home: e.home(), Session: session.ID(sess),
		Harness: "exec", Hardened: true, HostTicket: hostTicket}, cfg), nil
}
