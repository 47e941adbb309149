package cmd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentgate/agentgate/gate"
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
