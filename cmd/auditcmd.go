package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mattn/go-runewidth"
	"golang.org/x/sys/unix"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/internal/fsutil"
	"github.com/agentgate/agentgate/internal/visible"
	"github.com/agentgate/agentgate/prompt"
)

func newCmdAudit(env *Env) *cobra.Command {
	var logPath string
	c := &cobra.Command{
		Use:   "audit",
		Short: "Read the audit log: log, stats, suggest, verify",
		Long: `Read the audit log of escalations: list records, count them, suggest
allowlist rules from what was approved, and verify the hash chain.

The log is --audit-log, else $XDG_STATE_HOME/agentgate/audit.jsonl, with
its rotated siblings.`,
		Example: `  agentgate audit log -n 20
  agentgate audit stats --since 7d
  agentgate audit verify`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error { return c.Help() },
	}
	c.PersistentFlags().StringVar(&logPath, "audit-log", "", "audit log path")
	path := func() string { return env.AuditLog(logPath) }
	c.AddCommand(newCmdAuditLog(env, path), newCmdAuditStats(env, path), newCmdAuditSuggest(env, path), newCmdAuditVerify(env, path))
	return c
}

// scanEntries streams the parsed records of the log, reporting lines it
// cannot read (torn, not JSON, an older version) on stderr and skipping
// them.
func (e *Env) scanEntries(path string, fn func(audit.Entry, audit.Line)) error {
	err := audit.Scan(path, func(l audit.Line) error {
		ent, err := audit.Parse(l)
		if err != nil {
			warnf(e.Stderr, "%v; skipped", err)
			return nil
		}
		fn(ent, l)
		return nil
	})
	if err != nil {
		return &internalError{fmt.Errorf("read audit log: %w", err)}
	}
	return nil
}

// parseQuery checks q, as a usage error when it cannot be read.
func parseQuery(q *audit.Query, now time.Time) error {
	if err := q.Parse(now); err != nil {
		var qe *audit.QueryError
		if errors.As(err, &qe) {
			return usagef(qe.Hint, "%s", qe.Msg)
		}
		return err
	}
	return nil
}

func newCmdAuditLog(env *Env, path func() string) *cobra.Command {
	var (
		f      audit.Query
		n      int
		asJSON bool
		follow bool
		full   bool
	)
	c := &cobra.Command{
		Use:   "log",
		Short: "List the records, newest last, one line each",
		Long: `List the records, newest last, one line each: time, outcome, session,
command and directory. On a terminal a line longer than its width is cut
with a marker (~>); --full or --json show everything.`,
		Example: `  agentgate audit log -n 20
  agentgate audit log --since 2h --outcome denied_noninteractive
  agentgate audit log --session conv-42 --json
  agentgate audit log --full --grep deploy
  agentgate audit log --follow`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if err := parseQuery(&f, env.Now()); err != nil {
				return err
			}
			width := 0
			if !full {
				width = env.stdoutWidth()
			}
			show := func(e audit.Entry, l audit.Line) {
				if asJSON {
					fmt.Fprintf(env.Stdout, "%s\n", l.Raw)
				} else {
					fmt.Fprintln(env.Stdout, cut(formatEntry(e), width))
				}
			}
			var ring []struct {
				e audit.Entry
				l audit.Line
			}
			live := false // past the records written before the command started
			each := func(e audit.Entry, l audit.Line) {
				if !f.Match(e) {
					return
				}
				if n <= 0 || live {
					show(e, l)
					return
				}
				l.Raw = append([]byte(nil), l.Raw...)
				ring = append(ring, struct {
					e audit.Entry
					l audit.Line
				}{e, l})
				if len(ring) > n {
					ring = ring[1:]
				}
			}
			flush := func() error {
				for _, r := range ring {
					show(r.e, r.l)
				}
				ring, live = nil, true
				return nil
			}
			if follow {
				// One reader from the first record to the last appended, so
				// that nothing written between the two is lost, nor the end
				// of a file that is rotated.
				err := audit.Follow(context.Background(), path(), audit.FollowOptions{CaughtUp: flush}, func(l audit.Line) error {
					if ent, err := audit.Parse(l); err == nil {
						each(ent, l)
					} else if !live {
						warnf(env.Stderr, "%v; skipped", err)
					}
					return nil
				})
				if err != nil {
					return &internalError{fmt.Errorf("follow audit log: %w", err)}
				}
				return nil
			}
			if err := env.scanEntries(path(), each); err != nil {
				return err
			}
			return flush()
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.Since, "since", "", `only records since a duration ago ("2h", "7d") or a date ("2026-11-01")`)
	fl.StringVar(&f.Session, "session", "", "only this session")
	fl.StringVar(&f.Outcome, "outcome", "", "only this outcome (denied, approved_once, timeout ...)")
	fl.StringVar(&f.Grep, "grep", "", "only commands containing this text")
	fl.IntVarP(&n, "lines", "n", 0, "only the last N records")
	fl.BoolVar(&asJSON, "json", false, "print the raw JSON records")
	fl.BoolVar(&follow, "follow", false, "keep printing records as they are appended")
	fl.BoolVar(&full, "full", false, "never cut long lines to the terminal's width")
	return c
}

// stdoutWidth is the width of the terminal stdout is, or 0 (no limit)
// when it is not a terminal.
func (e *Env) stdoutWidth() int {
	f, ok := e.Stdout.(*os.File)
	if !ok {
		return 0
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil || ws.Col == 0 {
		return 0
	}
	return int(ws.Col)
}

// truncMarker ends a line cut to the terminal's width.
const truncMarker = " ~>"

// cut shortens line to width columns, ending it with the marker; width 0
// is no limit.
func cut(line string, width int) string {
	if width <= 0 || runewidth.StringWidth(line) < width {
		return line
	}
	// One column spare: a terminal wraps a line that fills the last one.
	return runewidth.Truncate(line, max(width-1-len(truncMarker), 1), "") + truncMarker
}

// formatEntry is one line for people.
func formatEntry(e audit.Entry) string {
	when := e.Time
	if t, err := time.Parse(audit.TimeFormat, e.Time); err == nil {
		when = t.Local().Format("2006-01-02 15:04:05")
	}
	if e.Event == audit.EventResult {
		code := "?"
		if e.ExitCode != nil {
			code = fmt.Sprint(*e.ExitCode)
		}
		return fmt.Sprintf("%s  %-22s %-14s %s  (exit %s)", when, "  finished", sessionColumn(e.Session), visible.String(e.Command), code)
	}
	return fmt.Sprintf("%s  %-22s %-14s %s  (in %s)", when, e.Outcome, sessionColumn(e.Session), visible.String(e.Command), visible.String(e.Cwd))
}

// sessionColumn is the session, cut to 14 columns ("-" for none).
func sessionColumn(s string) string {
	if s == "" {
		return "-"
	}
	s = visible.String(s)
	if runewidth.StringWidth(s) > 14 {
		return runewidth.Truncate(s, 13, "") + "~"
	}
	return s
}

func newCmdAuditVerify(env *Env, path func() string) *cobra.Command {
	var anchor string
	c := &cobra.Command{
		Use:   "verify",
		Short: "Check the hash chain; exit 0 only when the log is intact",
		Long: `Check the hash chain of the audit log and its rotated files: every line a
record, seq rising by one, each prev the SHA-256 of the line before, and the
last record the head kept beside the log. Reports the first broken record
by file and line and why: edited, deleted, inserted, reordered, torn or
cut off. Exit 0 only when the log is intact, 1 otherwise.

The chain has no secret: someone who can write both the log and its head
can forge a consistent one. With [audit] syslog = true every record is
also in the system log, out of an agent's reach; --anchor FILE compares the
log with those copies, exported by you (for journald: journalctl
SYSLOG_IDENTIFIER=agentgate -o cat > FILE), and reports a record that
differs or is gone.`,
		Example: `  agentgate audit verify
  agentgate audit verify --audit-log /var/log/agentgate/audit.jsonl
  journalctl SYSLOG_IDENTIFIER=agentgate -o cat > anchor.txt && agentgate audit verify --anchor anchor.txt`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			rep, err := audit.Verify(path())
			if err != nil {
				return &internalError{err}
			}
			if rep.Problem != nil {
				fmt.Fprintf(env.Stderr, "agentgate: audit: %s: %s\n", rep.Problem.Pos, rep.Problem.Why)
				fmt.Fprintf(env.Stderr, "agentgate: audit: chain broken after %d intact records in %d files\n", max(rep.Records-1, 0), len(rep.Files))
				return exitStatus(1)
			}
			anchored := ""
			if anchor != "" {
				f, err := fsutil.OpenRegular(anchor)
				if err != nil {
					return usagef("export the system log's agentgate records to a regular file", "%v", err)
				}
				defer f.Close()
				prob, n, err := audit.Anchor(path(), f)
				if err != nil {
					return &internalError{err}
				}
				if prob != nil {
					fmt.Fprintf(env.Stderr, "agentgate: audit: %s: %s\n", prob.Pos, prob.Why)
					return exitStatus(1)
				}
				anchored = fmt.Sprintf("; %d records match their copies in %s", n, anchor)
			}
			fmt.Fprintf(env.Stdout, "ok: %d records in %d files, chain intact%s\n", rep.Records, len(rep.Files), anchored)
			return nil
		},
	}
	c.Flags().StringVar(&anchor, "anchor", "", "compare with the records' copies from the system log, exported to this file")
	return c
}

func newCmdAuditStats(env *Env, path func() string) *cobra.Command {
	var asJSON bool
	var top int
	var f audit.Query
	c := &cobra.Command{
		Use:   "stats",
		Short: "Counts by outcome, most escalated commands and prefixes, approval rates, busiest sessions",
		Example: `  agentgate audit stats
  agentgate audit stats --since 7d --top 20
  agentgate audit stats --json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if err := parseQuery(&f, env.Now()); err != nil {
				return err
			}
			r, err := audit.Stats(path(), f, top, func(err error) { warnf(env.Stderr, "%v; skipped", err) })
			if err != nil {
				return &internalError{fmt.Errorf("read audit log: %w", err)}
			}
			if asJSON {
				out, _ := audit.Marshal(r)
				fmt.Fprintf(env.Stdout, "%s\n", out)
				return nil
			}
			w := env.Stdout
			fmt.Fprintf(w, "escalations: %d\n\nby outcome:\n", r.Escalations)
			for _, o := range r.Outcomes {
				fmt.Fprintf(w, "  %7d  %s\n", o.Count, o.Key)
			}
			fmt.Fprintf(w, "\nmost escalated commands:\n")
			for _, o := range r.Commands {
				fmt.Fprintf(w, "  %7d  %s\n", o.Count, visible.String(o.Key))
			}
			fmt.Fprintf(w, "\nmost escalated prefixes (approved/escalated):\n")
			for _, p := range r.Prefixes {
				fmt.Fprintf(w, "  %7d  %-24s %d/%d approved (%.0f%%)\n", p.Escalations, visible.String(p.Prefix), p.Approved, p.Escalations, 100*p.Rate)
			}
			fmt.Fprintf(w, "\nsessions with most escalations:\n")
			for _, o := range r.Sessions {
				fmt.Fprintf(w, "  %7d  %s\n", o.Count, visible.String(o.Key))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the counts as one JSON object")
	c.Flags().IntVar(&top, "top", 10, "how many commands, prefixes and sessions to list")
	c.Flags().StringVar(&f.Since, "since", "", `only records since a duration ago ("2h", "7d") or a date ("2026-11-01")`)
	return c
}

func newCmdAuditSuggest(env *Env, path func() string) *cobra.Command {
	var minApproved int
	var apply bool
	var f audit.Query
	c := &cobra.Command{
		Use:   "suggest",
		Short: "Propose allowlist prefixes from what was approved and never denied",
		Long: `Propose allowlist rules: prefixes (program and subcommand) approved at
least --min times and never denied, never an interpreter, shell, wrapper or
program with a risk note, and never a prefix whose approved commands held
operators. Prints a TOML snippet for [allow] with the evidence; --apply
also adds the prefixes to learned.toml, after you confirm at the terminal
(it widens what runs without asking; with no terminal nothing is added).`,
		Example: `  agentgate audit suggest
  agentgate audit suggest --min 5 --since 30d
  agentgate audit suggest --apply`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if err := parseQuery(&f, env.Now()); err != nil {
				return err
			}
			out, err := audit.Suggest(path(), f, minApproved, func(err error) { warnf(env.Stderr, "%v; skipped", err) })
			if err != nil {
				return &internalError{fmt.Errorf("read audit log: %w", err)}
			}
			printSuggestions(env.Stdout, out, minApproved)
			if apply && len(out) > 0 {
				cfg, err := env.loadConfig(&ConfigFlags{})
				if err != nil {
					return err
				}
				learned := config.LearnedPath(env.ConfigDir())
				var lines []string
				for _, cd := range out {
					how := ""
					if cd.Sandbox != "" {
						how = ", confined to the project (sandbox = " + cd.Sandbox + ")"
					}
					lines = append(lines, fmt.Sprintf("allow without asking%s: %s  (approved %d times)", how, visible.String(cd.Prefix), cd.Approved))
				}
				change := prompt.Change{Title: fmt.Sprintf("Add %d prefixes to %s?", len(out), visible.String(learned)), Lines: lines, Yes: "Add them", Word: "add"}
				if err := env.confirm(change, cfg); err != nil {
					return err
				}
				for _, cd := range out {
					if err := config.AddLearned(learned, cd.Prefix, cd.Sandbox, env.Now()); err != nil {
						return &internalError{err}
					}
				}
				fmt.Fprintf(env.Stdout, "# added %d prefixes to %s\n", len(out), learned)
			}
			return nil
		},
	}
	c.Flags().IntVar(&minApproved, "min", 3, "approved at least this many times")
	c.Flags().BoolVar(&apply, "apply", false, "add the suggested prefixes to learned.toml (asks you to confirm)")
	c.Flags().StringVar(&f.Since, "since", "", `only records since a duration ago ("2h", "7d") or a date ("2026-11-01")`)
	return c
}

func printSuggestions(w io.Writer, out []audit.Candidate, minApproved int) {
	if len(out) == 0 {
		fmt.Fprintf(w, "# no prefix was approved %d times or more without ever being denied\n", minApproved)
		return
	}
	fmt.Fprintf(w, "# prefixes approved at least %d times and never denied (agentgate audit suggest)\n", minApproved)
	plain := 0
	for _, cd := range out {
		if cd.Sandbox == "" {
			if plain == 0 {
				fmt.Fprintf(w, "[allow]\nprefix = [\n")
			}
			plain++
			fmt.Fprintf(w, "  %-28s # approved %d times, first %s, last %s\n", fmt.Sprintf("%q,", cd.Prefix), cd.Approved, day(cd.First), day(cd.Last))
		}
	}
	if plain > 0 {
		fmt.Fprintln(w, "]")
	}
	for _, cd := range out {
		if cd.Sandbox != "" {
			fmt.Fprintf(w, "\n# approved %d times, first %s, last %s; it runs code, so only confined to the project\n[[allow.rule]]\nprefix = %q\nsandbox = %q\n",
				cd.Approved, day(cd.First), day(cd.Last), cd.Prefix, cd.Sandbox)
		}
	}
}

func day(ts string) string {
	if len(ts) >= 10 {
		return ts[:10]
	}
	return ts
}
