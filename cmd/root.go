// Package cmd holds agentgate's cobra commands. Each command only parses
// its flags into an Options struct and calls plain packages (gate,
// allowlist, audit, runner); Main decides every exit code in one place.
package cmd

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/agentgate/agentgate/sandbox"
)

// NewRootCmd builds the agentgate command tree on env.
func NewRootCmd(env *Env) *cobra.Command {
	root := &cobra.Command{
		Use:   "agentgate",
		Short: "A gatekeeper for the shell commands AI agents propose",
		Long: `agentgate stands between a proposer of shell commands (an AI agent, a
developer, a CI job) and the shell. Known read-only commands run at once;
anything else asks a person at the terminal, or is denied when no one can
be asked. Every escalation is appended to an audit log.

Give agentgate the command as one unexpanded argument:

  agentgate exec -- 'git status'`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       version(),
	}
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usagef("run '"+c.CommandPath()+" --help' for usage", "%v", err)
	})
	root.AddCommand(newCmdExec(env, nil), newCmdCheck(env, nil), newCmdConfig(env), newCmdInit(env), newCmdTrust(env), newCmdAudit(env), newCmdDoctor(env, nil), newCmdSession(env))
	root.AddCommand(newCmdHook(env, nil), newCmdInstall(env, nil), newCmdUninstall(env, nil), newCmdPending(env), newCmdApprove(env, nil), newCmdDenyPending(env))
	root.CompletionOptions.DisableDefaultCmd = true
	return root
}

// Main runs agentgate with the process's arguments and returns its exit
// code. exampleConfig is config.example.toml, which "agentgate init"
// writes (embedded by the root package, where the file lives).
func Main(exampleConfig string) int {
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg {
		return sandbox.HelperMain(os.Args[2:])
	}
	env := System()
	env.ExampleConfig = exampleConfig
	root := NewRootCmd(env)
	root.SetArgs(os.Args[1:])
	return exitCode(root.Execute(), env.Stderr)
}
