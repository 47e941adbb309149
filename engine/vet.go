package engine

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"

	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/gitsafe"
)

// VetWorld runs the checks of an allowed command that need to look at the
// world rather than the text: for git, the repository's configuration.
// It can only turn an allow into an ask.
func (e *Engine) VetWorld(j *Judgement) gate.Decision {
	d := j.Decision
	if d.Verdict() != gate.Allow || !isGit(d) {
		return d
	}
	c := exec.Command("git", gitsafe.ListArgs...)
	c.Dir = j.Cwd
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
