// Package shparse is the one parser of command text: every layer that
// reads a command (the gate, the resolver, the inspector the prompt and
// the audit log show) parses it here, with one dialect and one set of
// options, so that no two of them can read the same text two ways.
// TestOneParser fails when any other package makes a parser.
package shparse

import (
	"fmt"
	"strings"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// Parse parses text as bash, the shell agentgate runs a compound with. A
// panic of the parser is an error: the text then asks. The parser is made
// per call: it is not safe for concurrent use.
func Parse(text string) (f *syntax.File, err error) {
	parses.Add(1)
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("parser failed: %v", r)
		}
	}()
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
}

// parses counts the texts parsed in this process: tests hold a request to
// one parse of its text.
var parses atomic.Int64

// Parses reports how many texts this process has parsed.
func Parses() int64 { return parses.Load() }

// Script is a text and its one parse. A request is parsed once, and every
// layer that reads it (the gate, the resolver, the inspector) is handed
// this value; a reader handed the Script of another text (a nested "bash
// -c" string is judged as a request of its own) parses that text itself,
// so a parse is never read as another text's.
type Script struct {
	Text string
	File *syntax.File
	Err  error
}

// Of parses text once.
func Of(text string) *Script {
	f, err := Parse(text)
	return &Script{Text: text, File: f, Err: err}
}

// For returns the parse of text: s's own when s is text's (s may be nil),
// a new one otherwise.
func (s *Script) For(text string) (*syntax.File, error) {
	if s != nil && s.Text == text {
		return s.File, s.Err
	}
	return Parse(text)
}

// Of returns text's Script: s when s is text's (s may be nil), a new
// parse otherwise.
func (s *Script) Of(text string) *Script {
	if s != nil && s.Text == text {
		return s
	}
	return Of(text)
}
