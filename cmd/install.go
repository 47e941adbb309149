package cmd

import (
	"bytes"
	"fmt"
	"os"
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
	return hostCommand(env, runF, installRun, "write", &cobra.Command{
		Use:   "install HOST [--user|--project]",
		Short: "Put agentgate's hook into an agent's configuration (claude, codex, gemini, cursor)",
		Long: `Write the hook that sends HOST's shell commands through agentgate into its
configuration, merged with what is there:

  claude   ~/.claude/settings.json        PreToolUse, PostToolUse(Failure), PermissionDenied (Bash and the file tools)
  codex    $CODEX_HOME/hooks.json         PreToolUse, PostToolUse, PermissionRequest (Bash, apply_patch,
                                          view_image), trusted in config.toml; and
                                          $CODEX_HOME/rules/agentgate.rules, through which Codex asks you
  gemini   ~/.gemini/settings.json        BeforeTool, AfterTool (run_shell_command and the file tools)
  cursor   ~/.cursor/hooks.json           beforeShellExecution, beforeReadFile

--project writes the project's file instead (.claude/settings.json,
.codex/hooks.json, .gemini/settings.json, .cursor/hooks.json in the current
directory). The entry runs agentgate by its absolute path with a timeout
of ` + hookTimeout.String() + `, so agentgate must live where it stays: a binary in a
temporary directory, Go's build cache or agentgate's source checkout is
copied to agentgate's state directory and the hook runs the copy. A
changed file is backed up beside itself first. Running
install again changes nothing; 'agentgate uninstall HOST' removes exactly
the entries install wrote. Check the result with 'agentgate doctor'.`,
		Example: `  agentgate install claude
  agentgate install codex
  agentgate install gemini --project`,
	})
}

// hostCommand wires install and uninstall alike: one HOST argument and
// the exclusive --user/--project scope; verb says what they do to the
// configuration.
func hostCommand(env *Env, runF, run func(*InstallOptions) error, verb string, c *cobra.Command) *cobra.Command {
	o := &InstallOptions{Env: env, Self: selfPath}
	var user bool
	if runF != nil {
		run = runF
	}
	c.Args = hostArg
	c.RunE = func(c *cobra.Command, args []string) error {
		o.Host = args[0]
		if user && o.Project {
			return usagef("", "--user and --project are exclusive")
		}
		return run(o)
	}
	c.Flags().BoolVar(&user, "user", false, verb+" the user's configuration (the default)")
	c.Flags().BoolVar(&o.Project, "project", false, verb+" the project's configuration in the current directory")
	return c
}

func installRun(o *InstallOptions) error {
	self, err := o.Self()
	if err != nil {
		return &internalError{fmt.Errorf("cannot find agentgate's own path: %w", err)}
	}
	var copied string
	if why := unstablePath(self, o.Env.home(), tempDirs(o.Env.Getenv)); why != "" {
		// The hook runs agentgate by its path, and a host whose hook
		// binary is gone runs commands unchecked: a binary that will not
		// stay is copied to agentgate's state directory (which agentgate
		// protects) and the hook runs the copy.
		dst := filepath.Join(o.Env.StateDir(), "bin", "agentgate")
		if err := copyExecutable(self, dst); err != nil {
			return &internalError{fmt.Errorf("%s is %s, and copying it to %s failed: %w", self, why, dst, err)}
		}
		copied = fmt.Sprintf("%s is %s: the hook runs a copy, %s (run install again after an upgrade)", self, why, dst)
		self = dst
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
	if copied != "" {
		fmt.Fprintf(w, "agentgate: note: %s\n", copied)
	}
	for _, n := range notes {
		fmt.Fprintf(w, "agentgate: hint: %s\n", n)
	}
	fmt.Fprintf(w, "agentgate: hint: check it with 'agentgate doctor'\n")
	return nil
}

// copyExecutable copies src to dst, executable, replacing dst at once
// (a hook running the old copy finishes with it).
func copyExecutable(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".agentgate-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o755); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}

// tempDirs are the directories that are cleaned.
func tempDirs(getenv func(string) string) []string {
	temps := []string{os.TempDir(), "/tmp", "/var/tmp", "/dev/shm"}
	if d := getenv("TMPDIR"); d != "" {
		temps = append(temps, d)
	}
	return temps
}

// unstablePath says why a binary at self should not be what a hook runs
// ("inside a temporary directory", "inside agentgate's source checkout"),
// or "" when its place looks like its own.
func unstablePath(self, home string, temps []string) string {
	for _, t := range temps {
		if t = filepath.Clean(t); t != "/" && strings.HasPrefix(self, t+"/") {
			return "inside a temporary directory (" + t + "), which is cleaned"
		}
	}
	if c := filepath.Join(home, ".cache", "go-build"); strings.HasPrefix(self, c+"/") {
		return "in Go's build cache (go run), which is cleaned"
	}
	for dir := filepath.Dir(self); ; dir = filepath.Dir(dir) {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "module" && f[1] == "github.com/agentgate/agentgate" {
					return "inside agentgate's source checkout (" + dir + "), which a rebuild, a checkout or git clean replaces or removes"
				}
			}
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

func newCmdUninstall(env *Env, runF func(*InstallOptions) error) *cobra.Command {
	return hostCommand(env, runF, uninstallRun, "change", &cobra.Command{
		Use:   "uninstall HOST [--user|--project]",
		Short: "Remove agentgate's hook from an agent's configuration",
		Long: `Remove exactly the entries 'agentgate install HOST' wrote (whatever
agentgate path they name) and, for Codex, their trust; everything else in
the file stays. A changed file is backed up beside itself first.`,
		Example: `  agentgate uninstall claude`,
	})
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
