package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/inspect"
	"github.com/agentgate/agentgate/internal/visible"
)

// CheckOptions are the inputs of "agentgate check".
type CheckOptions struct {
	Env   *Env
	Args  []string
	Flags ConfigFlags
	JSON  bool
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
	return c
}

func checkRun(o *CheckOptions) error {
	req, d, cfg, _, err := o.Env.judge(o.Args, &o.Flags)
	if err != nil {
		return err
	}
	next := ""
	if d.Verdict() != gate.Allow {
		next = gate.NextStep(d, o.Env.UserConfig())
	}
	eff := effective(d, cfg.Mode)
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
		}{req.Text, req.Argv, d.Verdict(), d.Reasons(), nonNilRisks(d.Risks()), next, inspect.Parse(req.Text), cfg.Mode, eff})
		if err != nil {
			return &internalError{err}
		}
		fmt.Fprintf(o.Env.Stdout, "%s\n", out)
	} else {
		printDecision(o.Env.Stdout, req, d, next)
		if eff != d.Verdict() {
			fmt.Fprintf(o.Env.Stdout, "in mode %s (from %s), exec would %s it\n", cfg.Mode, cfg.ModeSource, map[gate.Verdict]string{gate.Allow: "run", gate.Deny: "deny", gate.Ask: "ask about"}[eff])
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

// effective is what exec would do in the mode: bypass runs a non-sticky
// ask, readonly and ci deny every ask.
func effective(d gate.Decision, mode config.Mode) gate.Verdict {
	if d.Verdict() != gate.Ask {
		return d.Verdict()
	}
	switch {
	case mode == config.ModeBypass && !d.Sticky():
		return gate.Allow
	case mode == config.ModeReadonly || mode == config.ModeCI:
		return gate.Deny
	}
	return gate.Ask
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
	fmt.Fprintf(w, "the shell would run:\n%s", indent(inspect.Parse(req.Text).Tree(), "  "))
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
