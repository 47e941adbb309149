// Package cmd holds agentgate's cobra commands. Each command only parses
// its flags into an Options struct and calls plain packages (gate,
// allowlist, audit, runner); Main decides every exit code in one place.
package cmd

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/sandbox"
)

// NewRootCmd builds the agentgate command tree on env.
func NewRootCmd(env *Env) *cobra.Command {
	root := newRoot(env)
	root.AddCommand(newCmdExec(env, nil), newCmdCheck(env, nil), newCmdConfig(env), newCmdInit(env), newCmdTrust(env), newCmdAudit(env), newCmdDoctor(env, nil), newCmdSession(env), newCmdCompletion(env))
	root.AddCommand(newCmdHook(env, nil), newCmdInstall(env, nil), newCmdUninstall(env, nil), newCmdPending(env), newCmdApprove(env, nil), newCmdDenyPending(env))
	return root
}

// hotCommands are built alone when the command line names them first:
// every hooked tool call starts "agentgate hook" and every rewritten one
// "agentgate exec", and building the whole tree, every subcommand's
// flags included, was 6% of a hooked call. What they do is the same in
// either tree (TestHotCommandsAloneAsInTheTree).
var hotCommands = map[string]func(*Env) *cobra.Command{
	"hook": func(env *Env) *cobra.Command { return newCmdHook(env, nil) },
	"exec": func(env *Env) *cobra.Command { return newCmdExec(env, nil) },
}

// rootFor is the tree that runs args: the hot command alone under the
// root, or the whole tree.
func rootFor(env *Env, args []string) *cobra.Command {
	if len(args) > 0 {
		if mk, ok := hotCommands[args[0]]; ok {
			root := newRoot(env)
			root.AddCommand(mk(env))
			return root
		}
	}
	return NewRootCmd(env)
}

// newRoot is the root command with no subcommand.
func newRoot(env *Env) *cobra.Command {
	root := &cobra.Command{
		Use:   "agentgate",
		Short: "A gatekeeper for the shell commands AI agents propose",
		Long: `agentgate stands between a proposer of shell commands (an AI agent, a
developer, a CI job) and the shell. Known read-only commands run at once;
anything else asks a person at the terminal, or is denied when no one can
be asked. Every escalation is appended to an audit log.

Give agentgate the command as one unexpanded argument:

  agentgate exec -- 'git status'`,
		Example: `  agentgate exec -- 'git log --oneline -5'     # runs at once: read-only
  agentgate check -- 'rm -rf build'            # explain a decision, run nothing
  agentgate audit log -n 20                    # what was escalated, and the answers`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       version(),
	}
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usagef("run '"+c.CommandPath()+" --help' for usage", "%v", err)
	})
	root.CompletionOptions.DisableDefaultCmd = true
	return root
}

func newCmdCompletion(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish",
		Short: "Print a shell completion script",
		Long: `Print the completion script for bash, zsh or fish on stdout. Load it in
your shell's startup file, or write it where your shell looks for
completions.`,
		Example: `  source <(agentgate completion bash)                                   # in ~/.bashrc
  agentgate completion zsh > "${fpath[1]}/_agentgate"
  agentgate completion fish > ~/.config/fish/completions/agentgate.fish`,
		ValidArgs: []string{"bash", "zsh", "fish"},
		Args:      cobra.MatchAll(cobra.ExactArgs(1), cobra.OnlyValidArgs),
		RunE: func(c *cobra.Command, args []string) error {
			root := c.Root()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(env.Stdout, true)
			case "zsh":
				return root.GenZshCompletion(env.Stdout)
			}
			return root.GenFishCompletion(env.Stdout, true)
		},
	}
}

// Main runs agentgate with the process's arguments and returns its exit
// code. exampleConfig is config.example.toml, which "agentgate init"
// writes (embedded by the root package, where the file lives).
func Main(exampleConfig string) int {
	return Run(Setup{ExampleConfig: exampleConfig})
}

// Setup is what a program that embeds agentgate's command gives it.
type Setup struct {
	// ExampleConfig is the text "agentgate init" writes.
	ExampleConfig string
	// Policy replaces SystemPolicy; the end-to-end tests use it, since
	// the installed binary reads no variable that names the policy.
	Policy string
}

// Run is Main with a Setup.
func Run(s Setup) int {
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg {
		return sandbox.HelperMain(os.Args[2:])
	}
	env := System()
	env.ExampleConfig = s.ExampleConfig
	if s.Policy != "" {
		env.Policy = s.Policy
	}
	root := rootFor(env, os.Args[1:])
	root.SetArgs(os.Args[1:])
	var jsonOut io.Writer
	if jsonRequested(os.Args[1:]) {
		jsonOut = env.Stdout
	}
	return report(root.Execute(), env.Stderr, jsonOut)
}
