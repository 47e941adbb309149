package cmd

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/hook"
)

// InstallOptions are the inputs of "agentgate install HOST" and
// "agentgate uninstall HOST".
type InstallOptions struct {
	Env     *Env
	Host    string
	Project bool
	// Self returns agentgate's absolute path, which the hook entry runs.
	Self func() (string, error)
}

func (o *InstallOptions) scope() hook.Scope {
	if o.Project {
		return hook.Project
	}
	return hook.User
}

// setup locates the hosts' configuration from the environment.
func (e *Env) setup(self string) hook.Setup {
	cwd, _ := e.Getwd()
	if abs, err := filepath.Abs(cwd); err == nil {
		cwd = abs
	}
	return hook.Setup{Home: e.home(), CodexHome: e.Getenv("CODEX_HOME"), ClaudeDir: e.Getenv("CLAUDE_CONFIG_DIR"), Project: cwd, Self: self,
		Timeout: hookTimeout, Now: e.Now}
}

func hostArg(c *cobra.Command, args []string) error {
	if len(args) != 1 || hook.Hosts[args[0]] == nil {
		return usagef("hosts: "+strings.Join(hook.Names, ", "), "%s takes one host", c.Name())
	}
	return nil
}

func newCmdInstall(env *Env, runF func(*InstallOptions) error) *cobra.Command {
	o := &InstallOptions{Env: env, Self: selfPath}
	var user bool
	c := &cobra.Command{
		Use:   "install HOST [--user|--project]",
		Short: "Put agentgate's hook into an agent's configuration (claude, codex, gemini, cursor)",
		Long: `Write the hook that sends HOST's shell commands through agentgate into its
configuration, merged with what is there:

  claude   ~/.claude/settings.json        PreToolUse, PostToolUse(Failure), PermissionDenied (Bash)
  codex    $CODEX_HOME/hooks.json         PreToolUse, PostToolUse (^Bash$), trusted in config.toml
  gemini   ~/.gemini/settings.json        BeforeTool, AfterTool (run_shell_command)
  cursor   ~/.cursor/hooks.json           beforeShellExecution

--project writes the project's file instead (.claude/settings.json,
.codex/hooks.json, .gemini/settings.json, .cursor/hooks.json in the current
directory). The entry runs agentgate by its absolute path with a timeout
of ` + hookTimeout.String() + `; a changed file is backed up beside itself first. Running
install again changes nothing; 'agentgate uninstall HOST' removes exactly
the entries install wrote. Check the result with 'agentgate doctor'.`,
		Example: `  agentgate install claude
  agentgate install codex
  agentgate install gemini --project`,
		Args: hostArg,
		RunE: func(c *cobra.Command, args []string) error {
			o.Host = args[0]
			if user && o.Project {
				return usagef("", "--user and --project are exclusive")
			}
			if runF != nil {
				return runF(o)
			}
			return installRun(o)
		},
	}
	c.Flags().BoolVar(&user, "user", false, "write the user's configuration (the default)")
	c.Flags().BoolVar(&o.Project, "project", false, "write the project's configuration in the current directory")
	return c
}

func installRun(o *InstallOptions) error {
	self, err := o.Self()
	if err != nil {
		return &internalError{fmt.Errorf("cannot find agentgate's own path: %w", err)}
	}
	s := o.Env.setup(self)
	changes, notes, err := s.Install(o.Host, o.scope())
	if err != nil {
		return &internalError{err}
	}
	w := o.Env.Stdout
	path, _ := s.Path(o.Host, o.scope())
	if len(changes) == 0 {
		fmt.Fprintf(w, "agentgate: %s: already installed in %s\n", o.Host, path)
	}
	for _, c := range changes {
		fmt.Fprintf(w, "agentgate: %s: wrote %s\n", o.Host, c.Path)
		if c.Backup != "" {
			fmt.Fprintf(w, "  backup: %s\n", c.Backup)
		}
	}
	fmt.Fprintf(w, "  hook: %s\n", s.Command(o.Host))
	for _, n := range notes {
		fmt.Fprintf(w, "agentgate: hint: %s\n", n)
	}
	fmt.Fprintf(w, "agentgate: hint: check it with 'agentgate doctor'\n")
	return nil
}

func newCmdUninstall(env *Env, runF func(*InstallOptions) error) *cobra.Command {
	o := &InstallOptions{Env: env, Self: selfPath}
	var user bool
	c := &cobra.Command{
		Use:   "uninstall HOST [--user|--project]",
		Short: "Remove agentgate's hook from an agent's configuration",
		Long: `Remove exactly the entries 'agentgate install HOST' wrote (whatever
agentgate path they name) and, for Codex, their trust; everything else in
the file stays. A changed file is backed up beside itself first.`,
		Example: `  agentgate uninstall claude`,
		Args:    hostArg,
		RunE: func(c *cobra.Command, args []string) error {
			o.Host = args[0]
			if user && o.Project {
				return usagef("", "--user and --project are exclusive")
			}
			if runF != nil {
				return runF(o)
			}
			return uninstallRun(o)
		},
	}
	c.Flags().BoolVar(&user, "user", false, "change the user's configuration (the default)")
	c.Flags().BoolVar(&o.Project, "project", false, "change the project's configuration in the current directory")
	return c
}

func uninstallRun(o *InstallOptions) error {
	self, _ := o.Self()
	s := o.Env.setup(self)
	changes, err := s.Uninstall(o.Host, o.scope())
	if err != nil {
		return &internalError{err}
	}
	w := o.Env.Stdout
	if len(changes) == 0 {
		path, _ := s.Path(o.Host, o.scope())
		fmt.Fprintf(w, "agentgate: %s: not installed in %s\n", o.Host, path)
	}
	for _, c := range changes {
		fmt.Fprintf(w, "agentgate: %s: removed agentgate from %s\n", o.Host, c.Path)
		if c.Backup != "" {
			fmt.Fprintf(w, "  backup: %s\n", c.Backup)
		}
	}
	return nil
}
