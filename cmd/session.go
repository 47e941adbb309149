package cmd

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/internal/visible"
	"github.com/agentgate/agentgate/prompt"
	"github.com/agentgate/agentgate/session"
)

func newCmdSession(env *Env) *cobra.Command {
	c := &cobra.Command{
		Use:   "session",
		Short: "List or revoke what sessions remember; reset the circuit breaker",
		Long: `Each session (--session, the host's conversation in a hook, else the caller's
Unix session) remembers
the "for this session" answers given at the prompt, until session_ttl, and
the denials the circuit breaker counts. These commands show and change
that memory. list and revoke only read or narrow; reset-breaker lets
stopped commands ask again, so it needs a person to confirm at the
terminal.`,
		Example: `  agentgate session list
  agentgate session revoke conv-42
  agentgate session revoke --all
  agentgate session reset-breaker conv-42`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return usagef("run 'agentgate session --help'", "name a subcommand: list, revoke or reset-breaker")
		},
	}
	var name string
	c.PersistentFlags().StringVar(&name, "session", "", "the session that is \"this session\" (default: the terminal session)")
	c.AddCommand(newCmdSessionList(env, &name), newCmdSessionRevoke(env), newCmdSessionResetBreaker(env, &name))
	return c
}

// sessionStore is the engine's store (engine.Sessions).
func (e *Env) sessionStore(cfg *config.Config) session.Store {
	return e.engine("").Sessions(cfg)
}

// sessionView is one session as list shows it.
type sessionView struct {
	Session string         `json:"session"`
	Handle  string         `json:"handle"`
	Current bool           `json:"current"`
	Entries []entryView    `json:"remembered"`
	Tripped map[string]int `json:"breaker"`
}

type entryView struct {
	Command string    `json:"command"`
	Verdict string    `json:"verdict"`
	Until   time.Time `json:"until"`
}

func newCmdSessionList(env *Env, name *string) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "list",
		Short: "Show what each session remembers, until when, and what its breaker stopped",
		Example: `  agentgate session list
  agentgate session list --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			cfg, err := env.loadConfig(&ConfigFlags{})
			if err != nil {
				return err
			}
			store := env.sessionStore(cfg)
			now := env.Now()
			current := session.ID(*name)
			states, errs := store.List()
			for _, err := range errs {
				warnf(env.Stderr, "%v", err)
			}
			var views []sessionView
			for _, st := range states {
				v := sessionView{Session: st.Session, Handle: store.Short(st.Session), Current: st.Session == current,
					Tripped: store.Tripped(st, cfg.BreakerThreshold, now)}
				for _, e := range st.Entries {
					if until := e.Time.Add(cfg.SessionTTL); until.After(now) {
						v.Entries = append(v.Entries, entryView{e.Command, e.Verdict, until})
					}
				}
				if len(v.Entries)+len(v.Tripped) > 0 {
					views = append(views, v)
				}
			}
			sort.Slice(views, func(i, j int) bool { return views[i].Session < views[j].Session })
			if asJSON {
				out, err := json.Marshal(views)
				if err != nil {
					return &internalError{err}
				}
				fmt.Fprintf(env.Stdout, "%s\n", out)
				return nil
			}
			if len(views) == 0 {
				fmt.Fprintln(env.Stdout, "no session remembers anything")
				return nil
			}
			for _, v := range views {
				mark := ""
				if v.Current {
					mark = " (this session)"
				}
				fmt.Fprintf(env.Stdout, "%s  %s%s\n", v.Handle, visible.String(v.Session), mark)
				for _, e := range v.Entries {
					verdict := "allowed"
					if e.Verdict == session.Denied {
						verdict = "denied "
					}
					fmt.Fprintf(env.Stdout, "  %s  until %s  %s\n", verdict, e.Until.Local().Format("2006-01-02 15:04"), visible.String(e.Command))
				}
				cmds := make([]string, 0, len(v.Tripped))
				for cmd := range v.Tripped {
					cmds = append(cmds, cmd)
				}
				sort.Strings(cmds)
				for _, cmd := range cmds {
					fmt.Fprintf(env.Stdout, "  breaker  denied %d times in %s  %s\n", v.Tripped[cmd], cfg.BreakerWindow, visible.String(cmd))
				}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// sessionsNamed resolves a session argument or --all to session ids.
func sessionsNamed(store session.Store, args []string, all bool, current string) ([]string, error) {
	switch {
	case all && len(args) > 0:
		return nil, usagef("use one of them", "name a session or --all, not both")
	case all:
		states, _ := store.List()
		var ids []string
		for _, st := range states {
			ids = append(ids, st.Session)
		}
		return ids, nil
	case len(args) == 0 && current != "":
		if id, ok := store.Find(current); ok {
			return []string{id}, nil
		}
		return nil, nil
	case len(args) == 0:
		return nil, usagef("see agentgate session list", "name a session (its handle or id) or --all")
	}
	id, ok := store.Find(args[0])
	if !ok {
		return nil, usagef("see agentgate session list", "no session %q remembers anything", args[0])
	}
	return []string{id}, nil
}

func newCmdSessionRevoke(env *Env) *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:   "revoke ID | --all",
		Short: `Forget a session's "allow for this session" answers`,
		Long: `Forget the "allow for this session" answers of a session (by the handle or
id "agentgate session list" shows) or of every session: those commands ask
again. Denials and "deny for this session" answers stay. It only narrows
what runs without asking, so it does not ask for confirmation.`,
		Example: `  agentgate session revoke 3f2a9c1b7d4e
  agentgate session revoke --all`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 && !all {
				return usagef("see agentgate session list", "name a session (its handle or id) or --all")
			}
			cfg, err := env.loadConfig(&ConfigFlags{})
			if err != nil {
				return err
			}
			store := env.sessionStore(cfg)
			ids, err := sessionsNamed(store, args, all, "")
			if err != nil {
				return err
			}
			total := 0
			for _, id := range ids {
				n, err := store.Revoke(id, env.Now())
				if err != nil {
					return &internalError{err}
				}
				total += n
			}
			fmt.Fprintf(env.Stdout, "revoked %d session approvals in %d sessions\n", total, len(ids))
			return nil
		},
	}
	c.Flags().BoolVar(&all, "all", false, "every session")
	return c
}

func newCmdSessionResetBreaker(env *Env, name *string) *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:   "reset-breaker [ID | --all]",
		Short: "Let commands the circuit breaker stopped ask again (asks you to confirm)",
		Long: `Forget the denials the circuit breaker counts, for a session (by handle or
id; this session when none is named) or every session, so that commands it
stopped ask again. That widens what an agent can bring to the prompt, so
agentgate shows what will be reset and asks you to confirm at the
terminal; with no terminal nothing changes.`,
		Example: `  agentgate session reset-breaker
  agentgate session reset-breaker conv-42
  agentgate session reset-breaker --all`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			cfg, err := env.loadConfig(&ConfigFlags{})
			if err != nil {
				return err
			}
			store := env.sessionStore(cfg)
			ids, err := sessionsNamed(store, args, all, session.ID(*name))
			if err != nil {
				return err
			}
			now := env.Now()
			var lines []string
			var reset []string
			for _, id := range ids {
				st, _ := store.Load(id)
				if len(st.Denials) == 0 {
					continue
				}
				reset = append(reset, id)
				tripped := store.Tripped(st, cfg.BreakerThreshold, now)
				lines = append(lines, fmt.Sprintf("session %s: %d denials counted, %d commands stopped", visible.String(id), len(st.Denials), len(tripped)))
				for cmd, n := range tripped {
					lines = append(lines, fmt.Sprintf("  stopped after %d denials: %s", n, visible.String(cmd)))
				}
			}
			if len(reset) == 0 {
				fmt.Fprintln(env.Stdout, "no denials to reset")
				return nil
			}
			change := prompt.Change{
				Title: "Reset the circuit breaker? The commands it stopped will ask again:",
				Lines: lines, Yes: "Reset it", Word: "reset",
			}
			if err := env.confirm(change, cfg); err != nil {
				return err
			}
			total := 0
			for _, id := range reset {
				n, err := store.ResetBreaker(id, now)
				if err != nil {
					return &internalError{err}
				}
				total += n
			}
			fmt.Fprintf(env.Stdout, "reset %d denials in %d sessions\n", total, len(reset))
			return nil
		},
	}
	c.Flags().BoolVar(&all, "all", false, "every session")
	return c
}
