package cmd

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/gitsafe"
	"github.com/agentgate/agentgate/runner"
)

// requireDash insists the command follows "--", so that no word of it is
// ever read as one of agentgate's flags.
func requireDash(c *cobra.Command, args []string) error {
	if c.ArgsLenAtDash() != 0 {
		return usagef(fmt.Sprintf(`write "--" before the command: %s -- 'git status'`, c.CommandPath()), `the command must follow "--"`)
	}
	return nil
}

// proposal turns the words after "--" into what the gate judges. One word
// is a shell command string, run by bash; several are an argv, run
// directly, whose text is their shell-quoted join.
func proposal(args []string) (gate.Request, error) {
	switch {
	case len(args) == 0:
		return gate.Request{}, usagef(`put the command after "--", e.g. agentgate exec -- 'git status'`, "no command given")
	case len(args) == 1:
		if strings.TrimSpace(args[0]) == "" {
			return gate.Request{}, usagef(`put the command after "--", e.g. agentgate exec -- 'git status'`, "the command is empty")
		}
		return gate.Request{Text: args[0]}, nil
	}
	return gate.Request{Text: quoteArgv(args), Argv: args}, nil
}

// quoteArgv joins argv as bash would need it typed. A word bash cannot
// quote (it holds a NUL byte) is shown Go-quoted; the gate asks about such
// a command anyway.
func quoteArgv(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			q = strconv.Quote(a)
		}
		words[i] = q
	}
	return strings.Join(words, " ")
}

// plan resolves how a command runs, so that what runs is what the gate
// checked: the argv form directly; the shell form directly too when it is
// one simple command whose words are literal (the gate's words are then
// exactly the program's argv, and a shell start is saved); anything else,
// and bash builtins, whose behaviour differs from the programs of the same
// name, with bash. An auto-allowed git command also gets the gitsafe
// environment.
func (e *Env) plan(req gate.Request, d gate.Decision, auto bool) (runner.Plan, error) {
	var p runner.Plan
	var err error
	switch {
	case req.Argv != nil:
		p, err = runner.Resolve(req.Argv, e.Environ())
	case d.Literal() && !bashBuiltins[d.Argv()[0]]:
		p, err = runner.Resolve(d.Argv(), e.Environ())
	default:
		p = e.shellPlan(req.Text)
	}
	if err == nil && auto && isGit(d) {
		p.Env = gitsafe.Environ(p.Env)
	}
	return p, err
}

// isGit reports whether any command the gate judged is git.
func isGit(d gate.Decision) bool {
	for _, argv := range d.Commands() {
		if len(argv) > 0 && argv[0] == "git" {
			return true
		}
	}
	return false
}

// bashBuiltins run inside bash rather than as programs.
var bashBuiltins = map[string]bool{}

func init() {
	for _, b := range strings.Fields(`alias bg bind break builtin caller cd command compgen complete compopt
		continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history
		jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift
		shopt source suspend test times trap true type typeset ulimit umask unalias unset wait . : [`) {
		bashBuiltins[b] = true
	}
}

// shellPlan runs text with "bash --norc --noprofile -c", or "/bin/sh -c"
// when there is no bash. Startup files and exported functions could add
// commands to what the gate checked, so BASH_ENV, ENV and BASH_FUNC_*
// are removed from the environment.
func (e *Env) shellPlan(text string) runner.Plan {
	env := cleanShellEnv(e.Environ())
	if bash, err := exec.LookPath("bash"); err == nil {
		return runner.Plan{Path: bash, Argv: []string{"bash", "--norc", "--noprofile", "-c", text}, Env: env}
	}
	return runner.Plan{Path: "/bin/sh", Argv: []string{"sh", "-c", text}, Env: env}
}

func cleanShellEnv(environ []string) []string {
	out := environ[:0:0]
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if name == "BASH_ENV" || name == "ENV" || strings.HasPrefix(name, "BASH_FUNC_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}
