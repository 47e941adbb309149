package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/engine"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/inspect"
	"github.com/agentgate/agentgate/internal/visible"
	"github.com/agentgate/agentgate/sandbox"
)

// CheckOptions are the inputs of "agentgate check".
type CheckOptions struct {
	Env     *Env
	Args    []string
	Flags   ConfigFlags
	JSON    bool
	Session string
}

func newCmdCheck(env *Env, runF func(*CheckOptions) error) *cobra.Command {
	o := &CheckOptions{Env: env}
	c := &cobra.Command{
		Use:   "check [--json] -- COMMAND...",
		Short: "Show what the gate would decide, and why, without running anything",
		Long: `Show the decision for COMMAND and the whole reason chain. Nothing runs and
no audit record is written.

Exit status, taking the mode into account: 0 when exec would run the
command without asking, 1 when it would ask, 3 when it would deny it, 2 for
a usage or configuration error.`,
		Example: `  agentgate check -- 'find . -name "*.go" -delete'
  agentgate check --json -- 'git log --oneline | head -5'`,
		Args: requireDash,
		RunE: func(c *cobra.Command, args []string) error {
			o.Args = args
			if runF != nil {
				return runF(o)
			}
			return checkRun(o)
		},
	}
	o.Flags.register(c.Flags())
	c.Flags().BoolVar(&o.JSON, "json", false, "print the decision as a JSON object")
	c.Flags().StringVar(&o.Session, "session", "", "session whose memory to consult (default: the terminal session)")
	return c
}

func checkRun(o *CheckOptions) error {
	eng, j, err := o.Env.judge(o.Args, &o.Flags, o.Session, "")
	if err != nil {
		return err
	}
	req, d, cfg := j.Request, j.Decision, j.Config
	next := ""
	if d.Verdict() != gate.Allow {
		next = gate.NextStep(d)
	}
	route := eng.Route(j)
	if route.Warning != "" {
		warnf(o.Env.Stderr, "%s", route.Warning)
	}
	eff := route.Effective()
	if o.JSON {
		out, err := audit.Marshal(struct {
			Command  string         `json:"command"`
			Argv     []string       `json:"argv,omitempty"`
			Decision gate.Verdict   `json:"decision"`
			Reasons  []gate.Reason  `json:"reasons"`
			Risks    []gate.Risk    `json:"risks"`
			NextStep string         `json:"next_step,omitempty"`
			Shell    inspect.Script `json:"shell"`
			Mode     config.Mode    `json:"mode"`
			InMode   gate.Verdict   `json:"in_mode"`
			Sandbox  string         `json:"sandbox"`
		}{req.Text, req.Argv, d.Verdict(), d.Reasons(), engine.NonNilRisks(d.Risks()), next, inspect.Describe(req.Script.Of(req.Text)), cfg.Mode, eff, confinement(j, route)})
		if err != nil {
			return &internalError{err}
		}
		fmt.Fprintf(o.Env.Stdout, "%s\n", out)
	} else {
		printDecision(o.Env.Stdout, req, d, next)
		// check is run by a person: the rule that would let the command
		// through is shown here, and never in what the agent is told.
		if rule := gate.SuggestRule(d, o.Env.UserConfig()); rule != "" {
			fmt.Fprintf(o.Env.Stdout, "for you: %s\n", rule)
		}
		if hint := gate.SplitHint(j.Request, d); hint != "" {
			fmt.Fprintf(o.Env.Stdout, "for you: %s\n", hint)
		}
		fmt.Fprintf(o.Env.Stdout, "sandbox:  %s\n", confinement(j, route))
		if eff != d.Verdict() {
			why := fmt.Sprintf("in mode %s (from %s)", cfg.Mode, cfg.ModeSource)
			switch route.Outcome {
			case audit.OutcomeAllowedBySession:
				why = "approved earlier in this session"
			case audit.OutcomeApprovedOutOfBand:
				why = "approved once from another terminal (agentgate approve)"
			case audit.OutcomeDeniedBySession, audit.OutcomeBreaker:
				why = route.Context
			}
			fmt.Fprintf(o.Env.Stdout, "%s, exec would %s it\n", why, map[gate.Verdict]string{gate.Allow: "run", gate.Deny: "deny", gate.Ask: "ask about"}[eff])
		}
	}
	switch eff {
	case gate.Allow:
		return nil
	case gate.Deny:
		return exitStatus(exitCheckDeny)
	}
	return exitStatus(exitAsk)
}

// confinement names the sandbox exec would run the command under, and
// what this kernel enforces of it. Commands a person approved, and
// bypassed ones, run unconfined.
func confinement(j *engine.Judgement, r engine.Route) string {
	if r.Action != engine.Run || r.Outcome != "" {
		return string(sandbox.None)
	}
	level, _ := engine.Confinement(j)
	return sandbox.Probe().Describe(level)
}

func printDecision(w io.Writer, req gate.Request, d gate.Decision, next string) {
	fmt.Fprintf(w, "command:  %s\n", visible.String(req.Text))
	fmt.Fprintf(w, "decision: %s\n", d.Verdict())
	fmt.Fprintf(w, "reasons:\n")
	for i, r := range d.Reasons() {
		fmt.Fprintf(w, "  %d. [%s] %s\n", i+1, r.Check, visible.String(r.String()))
	}
	if risks := d.Risks(); len(risks) > 0 {
		fmt.Fprintf(w, "risks:\n")
		for _, r := range risks {
			fmt.Fprintf(w, "  - %s: %s\n", r.Program, r.Note)
		}
	}
	if next != "" {
		fmt.Fprintf(w, "next step: %s\n", next)
	}
	fmt.Fprintf(w, "the shell would run:\n%s", indent(inspect.Describe(req.Script.Of(req.Text)).Tree(), "  "))
}

func indent(s, prefix string) string {
	if s == "" {
		return ""
	}
	lines := strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "") + "\n"
}
