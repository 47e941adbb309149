package cmd

import (
	"os/exec"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/runner"
)

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

// plan resolves how an allowed or approved command runs: the argv form
// directly, the shell form with bash.
func (e *Env) plan(req gate.Request) (runner.Plan, error) {
	if req.Argv != nil {
		return runner.Resolve(req.Argv, e.Environ())
	}
	return e.shellPlan(req.Text), nil
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
