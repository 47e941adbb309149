package cmd

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"

	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/gitsafe"
)

// judge is what exec and check share: read the command and the
// configuration, decide, and vet the decision against the world.
func (e *Env) judge(args []string, flags *ConfigFlags) (gate.Request, gate.Decision, *config.Config, string, error) {
	req, err := proposal(args)
	if err != nil {
		return req, gate.Decision{}, nil, "", err
	}
	cfg, err := e.loadConfig(flags)
	if err != nil {
		return req, gate.Decision{}, nil, "", err
	}
	cwd, _ := e.Getwd()
	req.Rules, req.Paths, req.Split = cfg.Rules, cfg.Paths(e.home(), cwd), cfg.Compound == "split"
	return req, e.vet(gate.Decide(req)), cfg, cwd, nil
}

// vet runs the checks of an allowed command that need to look at the
// world rather than the text: for git, the repository's configuration.
// It can only turn an allow into an ask.
func (e *Env) vet(d gate.Decision) gate.Decision {
	if d.Verdict() != gate.Allow || !isGit(d) {
		return d
	}
	c := exec.Command("git", gitsafe.ListArgs...)
	c.Env = gitsafe.Environ(e.Environ())
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		return gate.Escalate(d, gate.Reason{Check: gate.CheckRepoConfig, Match: "git config",
			Message: fmt.Sprintf("could not read the repository's git configuration (%v: %s)", err, strings.TrimSpace(stderr.String()))})
	}
	if f := gitsafe.Findings(out); len(f) > 0 {
		return gate.Escalate(d, gate.Reason{Check: gate.CheckRepoConfig, Match: f[0].Key,
			Message: fmt.Sprintf("the repository's git configuration names a program git could run: %s", f[0])})
	}
	return d
}
