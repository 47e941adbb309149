package cmd

import (
	"errors"
	"fmt"
	"github.com/agentgate/agentgate/project"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/config"
	"github.com/agentgate/agentgate/internal/visible"
	"github.com/agentgate/agentgate/prompt"
)

func newCmdConfig(env *Env) *cobra.Command {
	var flags ConfigFlags
	c := &cobra.Command{
		Use:   "config",
		Short: "Print the effective configuration: every rule with its source",
		Long: `Print the effective configuration: the mode and where it came from, the
files read and those found but (partly) ignored, and every rule with its
kind and source (file:line, "default" or "flag").`,
		Example: `  agentgate config
  agentgate config --mode readonly --allow "make test"   # what these flags would change`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			cfg, err := env.loadConfig(&flags)
			if err != nil {
				return err
			}
			printConfig(env.Stdout, cfg)
			return nil
		},
	}
	flags.register(c.Flags())
	return c
}

func printConfig(w io.Writer, c *config.Config) {
	fmt.Fprintf(w, "mode: %s (from %s)\n", c.Mode, c.ModeSource)
	fmt.Fprintf(w, "compound: %s (from %s)\n", c.Compound, c.CompoundSource)
	if len(c.Packs) == 0 {
		fmt.Fprintf(w, "packs: none (available: %s)\n", strings.Join(allowlist.PackNames(), ", "))
	}
	for i, p := range c.Packs {
		pk, _ := allowlist.LookupPack(p)
		fmt.Fprintf(w, "pack %s (from %s, sandbox %s): %s\n", p, c.PackSources[i], allowlist.PackSandbox, pk.Note)
	}
	fmt.Fprintf(w, "prompt_timeout: %s  prompt_challenge: %v  session_ttl: %s  breaker: %d in %s\n",
		c.PromptTimeout, c.PromptChallenge, c.SessionTTL, c.BreakerThreshold, c.BreakerWindow)
	fmt.Fprintf(w, "files:\n")
	for _, f := range c.Files {
		fmt.Fprintf(w, "  %-14s %s: %s\n", f.Role, f.Path, f.Status)
	}
	if len(c.ForbidModes)+len(c.ForbidAllow) > 0 {
		fmt.Fprintf(w, "policy: forbidden modes %v; allow rules forbidden for %v\n", c.ForbidModes, c.ForbidAllow)
	}
	fmt.Fprintf(w, "rules (checked deny, then ask, then allow):\n")
	for _, kind := range []allowlist.Kind{allowlist.Deny, allowlist.Ask, allowlist.Allow} {
		for _, r := range c.Rules {
			if r.Kind != kind {
				continue
			}
			fmt.Fprintf(w, "  %-5s %-22s %s", r.Kind, r.String(), r.Source)
			if r.Sandbox != "" {
				fmt.Fprintf(w, "  sandbox %s", r.Sandbox)
			}
			if len(r.Except) > 0 {
				ex := make([]string, len(r.Except))
				for i, e := range r.Except {
					ex[i] = e.Text
				}
				fmt.Fprintf(w, "  except %s", strings.Join(ex, " "))
			}
			fmt.Fprintln(w)
		}
	}
	for _, r := range c.Ignored {
		fmt.Fprintf(w, "  ignored %s %s %s (the policy forbids allow rules for %s)\n", r.Kind, r.String(), r.Source, r.Prefix[0])
	}
	fmt.Fprintf(w, "sensitive paths: %s\n", strings.Join(c.Sensitive, " "))
	fmt.Fprintf(w, "self-protected: %s\n", strings.Join(c.Self, " "))
}

func newCmdInit(env *Env) *cobra.Command {
	var projectFile, propose bool
	c := &cobra.Command{
		Use:   "init [--project | --propose]",
		Short: "Write a commented starter config (never overwrites); propose rules for the project's builds",
		Long: `Write the commented starter configuration (the text of config.example.toml)
to your user config, $XDG_CONFIG_HOME/agentgate/config.toml, or with
--project to .agentgate.toml in the working directory. An existing file is
never overwritten.

With --project, the file also holds rules for the project's own build and
test commands, found in its Makefile, package.json, go.mod, Cargo.toml and
pyproject.toml (make test, npm run build, go test ...), each confined to
the project (sandbox = "workspace": it may write inside the project, but
not .git, the agents' settings or agentgate's files, and has no network),
each with where it came from and what it runs today. They apply only
after you read the file and run 'agentgate trust'. --propose prints
them, for a file you already have, and writes nothing.`,
		Example: `  agentgate init              # ~/.config/agentgate/config.toml
  agentgate init --project    # ./.agentgate.toml, then: agentgate trust
  agentgate init --propose    # print rules for this project's builds and tests`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if projectFile && propose {
				return usagef("", "--project and --propose are exclusive")
			}
			return initRun(env, projectFile, propose)
		},
	}
	c.Flags().BoolVar(&projectFile, "project", false, "write .agentgate.toml in the working directory instead, with rules for its builds")
	c.Flags().BoolVar(&propose, "propose", false, "print rules for the working directory's builds and tests; write nothing")
	return c
}

func initRun(env *Env, projectFile, propose bool) error {
	cwd, err := env.Getwd()
	if err != nil {
		return &internalError{err}
	}
	proposals := project.Commands(cwd)
	if propose {
		if len(proposals) == 0 {
			fmt.Fprintf(env.Stdout, "no build or test commands found in %s (Makefile, package.json, go.mod, Cargo.toml, pyproject.toml)\n", visible.String(cwd))
			return nil
		}
		fmt.Fprintf(env.Stdout, "# rules for .agentgate.toml in %s (then: agentgate trust)%s", visible.String(cwd), project.TOML(proposals))
		return nil
	}
	path, text := env.UserConfig(), env.ExampleConfig
	if projectFile {
		path, text = filepath.Join(cwd, ".agentgate.toml"), text+project.TOML(proposals)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return &internalError{err}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		hint := "edit it, or remove it first"
		if projectFile {
			hint += "; 'agentgate init --propose' prints rules for this project's builds"
		}
		return usagef(hint, "%s already exists; not overwriting it", path)
	}
	if err != nil {
		return &internalError{err}
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return &internalError{err}
	}
	if err := f.Close(); err != nil {
		return &internalError{err}
	}
	fmt.Fprintf(env.Stdout, "wrote %s\n", visible.String(path))
	switch {
	case projectFile:
		for _, p := range proposals {
			fmt.Fprintf(env.Stdout, "  proposed: %-18s from %s: %s\n", p.Prefix, p.Source, p.Runs)
		}
		fmt.Fprintf(env.Stdout, "its allow rules apply once you have read it and run: agentgate trust %s\n", visible.String(path))
	case len(proposals) > 0:
		fmt.Fprintf(env.Stdout, "this directory's builds and tests could run without asking, confined to it: agentgate init --project\n")
	}
	return nil
}

func newCmdTrust(env *Env) *cobra.Command {
	var revoke, list bool
	c := &cobra.Command{
		Use:   "trust [--revoke | --list] [FILE]",
		Short: "Trust a project's .agentgate.toml so its allow rules apply",
		Long: `A project's .agentgate.toml comes with the repository, possibly from an
untrusted author, and an agent can edit it. Its ask and deny rules always
apply; its allow rules and settings apply only after you review the file
and run 'agentgate trust', which records its SHA-256. Any later change
makes it untrusted again until you trust it again.

Trusting widens what runs without asking, so agentgate shows the allow
rules and settings the file turns on and asks you to confirm on the
terminal (/dev/tty, never stdin; Deny is preset). With no terminal
nothing is trusted. --revoke and --list change nothing that widens and
do not ask.

FILE defaults to the project file agentgate would read from the working
directory; it must be named .agentgate.toml or .agentgate.local.toml.`,
		Example: `  agentgate trust                 # review and trust ./.agentgate.toml (or the nearest one up)
  agentgate trust --list          # every trusted file and whether it changed since
  agentgate trust --revoke        # stop trusting it`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			store := config.TrustPath(env.StateDir())
			t, err := config.LoadTrust(store)
			if err != nil && !list {
				return &internalError{err}
			}
			if list {
				for _, p := range t.Paths() {
					state := "trusted"
					if !t.Trusted(p) {
						state = "changed since trusted (allow rules ignored)"
					}
					fmt.Fprintf(env.Stdout, "%s  %s  %s\n", t.Files[p].SHA256[:12], p, state)
				}
				return nil
			}
			path, err := env.projectFile(args)
			if err != nil {
				return err
			}
			if revoke {
				if !t.Known(path) {
					return usagef("see agentgate trust --list", "%s is not trusted", path)
				}
				delete(t.Files, path)
			} else {
				summary, err := config.TrustSummary(path)
				if err != nil {
					return usagef("name a .agentgate.toml that agentgate can read (agentgate config shows errors)", "%v", err)
				}
				cfg, err := env.loadConfig(&ConfigFlags{})
				if err != nil {
					return err
				}
				change := prompt.Change{
					Title: fmt.Sprintf("Trust %s? Trusting it turns on:", visible.String(path)),
					Lines: visibleLines(summary),
					Yes:   "Trust it", Word: "trust",
				}
				if err := env.confirm(change, cfg); err != nil {
					return err
				}
				if _, err := t.Add(path, env.Now()); err != nil {
					return &internalError{err}
				}
			}
			if err := t.Save(store); err != nil {
				return &internalError{fmt.Errorf("save trust store: %w", err)}
			}
			if revoke {
				fmt.Fprintf(env.Stdout, "no longer trusted: %s\n", path)
			} else {
				fmt.Fprintf(env.Stdout, "trusted: %s (sha256 %s)\n", path, t.Files[path].SHA256)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&revoke, "revoke", false, "stop trusting the file")
	c.Flags().BoolVar(&list, "list", false, "list trusted files")
	return c
}

// projectFile is the named file, or the .agentgate.toml config would read
// from the working directory.
func (e *Env) projectFile(args []string) (string, error) {
	if len(args) == 1 {
		abs, err := filepath.Abs(args[0])
		if err != nil {
			return "", &internalError{err}
		}
		if _, err := os.Stat(abs); err != nil {
			return "", usagef("name an existing .agentgate.toml", "%v", err)
		}
		return abs, nil
	}
	cwd, err := e.Getwd()
	if err != nil {
		return "", &internalError{err}
	}
	for _, f := range config.ProjectFiles(cwd, e.home()) {
		if f.Role == "project" {
			return f.Path, nil
		}
	}
	return "", usagef("run it in a project with a .agentgate.toml, or name the file", "no .agentgate.toml found from %s up to the repository root", cwd)
}
