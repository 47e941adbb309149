// Package shparse is the one parser of command text: every layer that
// reads a command (the gate, the resolver, the inspector the prompt and
// the audit log show) parses it here, with one dialect and one set of
// options, so that no two of them can read the same text two ways.
// TestOneParser fails when any other package makes a parser.
package shparse

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Parse parses text as bash, the shell agentgate runs a compound with. A
// panic of the parser is an error: the text then asks. The parser is made
// per call: it is not safe for concurrent use.
func Parse(text string) (f *syntax.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("parser failed: %v", r)
		}
	}()
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
}
