package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/confirm"
	"github.com/agentgate/agentgate/engine"
	"github.com/agentgate/agentgate/inspect"
	"github.com/agentgate/agentgate/internal/visible"
	"github.com/agentgate/agentgate/prompt"
)

// Approval from another terminal: a command denied because no one could
// be asked names a short id; "agentgate pending" lists them, "agentgate
// approve ID" lets a person at a terminal approve one (its first retry
// within a few minutes runs), "agentgate deny ID" denies it.

func newCmdPending(env *Env) *cobra.Command {
	var flags ConfigFlags
	var asJSON bool
	c := &cobra.Command{
		Use:   "pending",
		Short: "List commands waiting for approval from another terminal",
		Long: `List the commands that were denied because no one could be asked (a hook
whose host cannot ask, exec with no terminal), newest last, with the id to
approve them by: 'agentgate approve ID'.`,
		Example: `  agentgate pending
  agentgate pending --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			list, err := env.engine(flags.AuditLog).PendingList()
			if err != nil {
				return &internalError{err}
			}
			if asJSON {
				if list == nil {
					list = []engine.Pending{}
				}
				out, err := audit.Marshal(list)
				if err != nil {
					return &internalError{err}
				}
				fmt.Fprintf(env.Stdout, "%s\n", out)
				return nil
			}
			if len(list) == 0 {
				fmt.Fprintln(env.Stdout, "nothing is waiting")
				return nil
			}
			now := env.Now()
			for _, p := range list {
				state := "waiting " + now.Sub(p.Created).Round(time.Second).String()
				if !p.Approved.IsZero() {
					state = "approved, waiting for the retry"
				}
				who := p.Session
				if p.Harness != "" {
					who = p.Harness + " " + who
				}
				fmt.Fprintf(env.Stdout, "%s  %s  (%s; %s)\n      in %s\n", p.ID, visible.String(p.Command), state, who, visible.String(p.Cwd))
			}
			return nil
		},
	}
	flags.register(c.Flags())
	c.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	var clearFlags ConfigFlags
	clear := &cobra.Command{
		Use:     "clear",
		Short:   "Deny every command still waiting (as 'agentgate deny --all')",
		Example: `  agentgate pending clear`,
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			cfg, err := env.loadConfig(&clearFlags)
			if err != nil {
				return err
			}
			return denyAll(env, cfg, clearFlags.AuditLog)
		},
	}
	clearFlags.register(clear.Flags())
	c.AddCommand(clear)
	return c
}

// Confirmer asks the person at the terminal to confirm one approval. It
// is the seam for the one confirmation mechanism; the default shows the
// approval prompt with Deny preset.
type Confirmer func(ctx context.Context, tty *os.File, q prompt.Question, accessible bool) bool

// ApproveOptions are the inputs of "agentgate approve ID".
type ApproveOptions struct {
	Env     *Env
	ID      string
	Flags   ConfigFlags
	Confirm Confirmer
}

func newCmdApprove(env *Env, runF func(*ApproveOptions) error) *cobra.Command {
	o := &ApproveOptions{Env: env}
	// The one confirmation mechanism, as for trust and reset-breaker: the
	// command exactly as the approval prompt shows it, Deny preset, the
	// approval taken only by Enter on it or its whole word.
	o.Confirm = func(ctx context.Context, _ *os.File, q prompt.Question, _ bool) bool {
		lines := []string{"command:   " + q.Command, "directory: " + q.Cwd}
		for _, w := range q.Why {
			lines = append(lines, "why:       "+w)
		}
		if shell := strings.TrimRight(q.Shell, "\n"); shell != "" {
			lines = append(lines, "the shell would run:")
			for _, l := range strings.Split(shell, "\n") {
				lines = append(lines, "  "+l)
			}
		}
		lines = append(lines, "Allow lets its first retry, within "+engine.GrantTTL.String()+", run once.")
		cfg, err := env.loadConfig(&o.Flags)
		challenge := err == nil && cfg.PromptChallenge
		return confirm.Ask(ctx, prompt.Change{Title: "run this command?", Lines: lines, Yes: "Allow once", Word: "allow"},
			confirm.Options{Getenv: env.Getenv, OpenTTY: env.OpenTTY, Challenge: challenge, Timeout: 5 * time.Minute}) == nil
	}
	c := &cobra.Command{
		Use:   "approve ID",
		Short: "Approve, at this terminal, a command another session is waiting on",
		Long: `Show the pending command ID exactly as the approval prompt does, with Deny
preset, and ask the person at this terminal (/dev/tty) to confirm it. Once
approved, the first retry of exactly that command, in that directory, in
that session, within ` + engine.GrantTTL.String() + `, runs (outcome approved_out_of_band).

approve is never allowed through the gate: an agent cannot approve its own
commands with it.`,
		Example: `  agentgate pending
  agentgate approve k3xm7q`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.ID = args[0]
			if runF != nil {
				return runF(o)
			}
			return approveRun(o)
		},
	}
	o.Flags.register(c.Flags())
	return c
}

func approveRun(o *ApproveOptions) error {
	eng := o.Env.engine(o.Flags.AuditLog)
	p, err := eng.PendingGet(o.ID)
	if err != nil {
		return usagef("run 'agentgate pending' to see what waits", "%s: %v", o.ID, err)
	}
	tty, why := o.Env.terminal(false)
	if tty == nil {
		return &internalError{fmt.Errorf("approve needs a person at a terminal: %s", why)}
	}
	defer tty.Close()
	var whys []string
	for _, r := range p.Reasons {
		whys = append(whys, visible.String(r.String()))
	}
	if p.Harness != "" {
		whys = append(whys, "asked by "+p.Harness+" in session "+visible.String(p.Session))
	}
	q := prompt.Question{Command: visible.String(p.Command), Cwd: visible.String(p.Cwd), Why: whys,
		Shell: inspect.Parse(p.Command).Tree()}
	accessible := o.Env.Getenv("AGENTGATE_ACCESSIBLE") == "1" || o.Env.Getenv("TERM") == "dumb"
	if !o.Confirm(context.Background(), tty, q, accessible) {
		fmt.Fprintf(o.Env.Stderr, "agentgate: %s not approved\n", p.ID)
		return exitStatus(exitDenied)
	}
	if _, err := eng.ApprovePending(p.ID); err != nil {
		if errors.Is(err, engine.ErrNoPending) {
			return usagef("", "%s: %v", p.ID, err)
		}
		return &internalError{err}
	}
	fmt.Fprintf(o.Env.Stderr, "agentgate: approved %s: its retry within %s runs once\n", p.ID, engine.GrantTTL)
	return nil
}

func newCmdDenyPending(env *Env) *cobra.Command {
	var flags ConfigFlags
	var all bool
	c := &cobra.Command{
		Use:   "deny ID | --all",
		Short: "Deny a command another session is waiting on",
		Long: `Deny the pending command ID: it is removed, the denial is logged
(denied_out_of_band), and its session remembers it, so a retry is denied
without a new request. With --all, every command still waiting is denied
(the requests of agents that left long ago, say).`,
		Example: `  agentgate pending         # the ids
  agentgate deny k3x9pq
  agentgate deny --all`,
		Args: func(c *cobra.Command, args []string) error {
			if all && len(args) > 0 || !all && len(args) != 1 {
				return usagef("name one id, or --all", "deny takes one ID, or --all alone")
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			cfg, err := env.loadConfig(&flags)
			if err != nil {
				return err
			}
			if all {
				return denyAll(env, cfg, flags.AuditLog)
			}
			p, err := env.engine(flags.AuditLog).DenyPending(cfg, args[0])
			if errors.Is(err, engine.ErrNoPending) {
				return usagef("run 'agentgate pending' to see what waits", "%s: %v", args[0], err)
			}
			if err != nil {
				return &internalError{err}
			}
			fmt.Fprintf(env.Stderr, "agentgate: denied %s: %s\n", p.ID, visible.String(p.Command))
			return nil
		},
	}
	flags.register(c.Flags())
	c.Flags().BoolVar(&all, "all", false, "deny every command still waiting")
	return c
}

// denyAll denies every waiting request; an approved one waiting for its
// retry is left to lapse (GrantTTL).
func denyAll(env *Env, cfg *config.Config, auditLog string) error {
	eng := env.engine(auditLog)
	list, err := eng.PendingList()
	if err != nil {
		return &internalError{err}
	}
	n := 0
	for _, p := range list {
		if !p.Approved.IsZero() {
			continue
		}
		if _, err := eng.DenyPending(cfg, p.ID); err != nil && !errors.Is(err, engine.ErrNoPending) {
			return &internalError{err}
		}
		n++
	}
	fmt.Fprintf(env.Stderr, "agentgate: denied %d waiting command(s)\n", n)
	return nil
}
