// Package shparse is the one parser of command text: every layer that
// reads a command (the gate, the resolver, the inspector the prompt and
// the audit log show) parses it here, with one dialect and one set of
// options, so that no two of them can read the same text two ways.
// TestOneParser fails when any other package makes a parser.
package shparse

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// Parse parses text as bash, the shell agentgate runs a compound with. A
// panic of the parser is an error: the text then asks. The parser is made
// per call: it is not safe for concurrent use.
func Parse(text string) (f *syntax.File, err error) {
	parses.Add(1)
	if f := trace.Load(); f != nil {
		(*f)(text)
	}
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
// this value. A reader that meets another text inside it (a nested "bash
// -c" string, judged as a text of its own) asks the Script for that
// text's parse: the request parses each such text once, however many
// layers read it, and a parse is never read as another text's.
type Script struct {
	Text string
	File *syntax.File
	Err  error
	// nested are the parses of other texts asked for through this Script
	// or the ones made from it: one table per request.
	nested *nestedParses

	memoMu sync.Mutex
	memo   map[any]*memoEntry
}

// Memo returns what build makes of s, built once per Script and key: a
// reading that depends on the parse alone (the form, the inspector's
// description, which the prompt, the record and check all show) is made
// once per request, however many layers read it. build may call Memo on
// s for another key (the description reads the form), never for its own.
func (s *Script) Memo(key any, build func() any) any {
	s.memoMu.Lock()
	e, ok := s.memo[key]
	if !ok {
		if s.memo == nil {
			s.memo = map[any]*memoEntry{}
		}
		e = &memoEntry{}
		s.memo[key] = e
	}
	s.memoMu.Unlock()
	e.once.Do(func() { e.v = build() })
	return e.v
}

type memoEntry struct {
	once sync.Once
	v    any
}

type nestedParses struct {
	mu sync.Mutex
	m  map[string]*Script
}

// maxNested bounds the texts one request keeps parses of; past it a text
// is parsed on every ask (each layer bounds its own nesting).
const maxNested = 64

// Of parses text once.
func Of(text string) *Script {
	f, err := Parse(text)
	return &Script{Text: text, File: f, Err: err, nested: &nestedParses{}}
}

// For returns the parse of text: s's own when s is text's (s may be nil),
// otherwise that of [Script.Of].
func (s *Script) For(text string) (*syntax.File, error) {
	if s != nil && s.Text == text {
		return s.File, s.Err
	}
	o := s.Of(text)
	return o.File, o.Err
}

// Of returns text's Script: s when s is text's (s may be nil), the
// request's parse of text when it has one, a new parse otherwise (kept
// for the request's next ask).
func (s *Script) Of(text string) *Script {
	if s != nil && s.Text == text {
		return s
	}
	if s == nil || s.nested == nil {
		return Of(text)
	}
	n := s.nested
	n.mu.Lock()
	defer n.mu.Unlock()
	if o, ok := n.m[text]; ok {
		return o
	}
	f, err := Parse(text)
	o := &Script{Text: text, File: f, Err: err, nested: n}
	if len(n.m) < maxNested {
		if n.m == nil {
			n.m = map[string]*Script{}
		}
		n.m[text] = o
	}
	return o
}

// Trace calls f with every text parsed until stop is called: a test's
// view of which texts a request parses (one call each, or a layer read a
// text a second way). Not for concurrent tests.
func Trace(f func(text string)) (stop func()) {
	trace.Store(&f)
	return func() { trace.Store(nil) }
}

var trace atomic.Pointer[func(string)]
