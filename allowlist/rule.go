// Package allowlist holds agentgate's rules: prefix rules that allow, ask
// or deny a command, the argument exceptions that turn an allowed prefix
// back into a question, and the embedded default allowlist of read-only
// programs.
//
// # Matching
//
// A rule's prefix is a list of words. It matches a command whose argv (the
// words after shell quote removal) starts with exactly those words: the
// rule "git log" matches "git log -5" but not "git logs", "git -C x log" or
// "gitlog". Matching never looks inside a word.
//
// # Argument exceptions
//
// An allow rule may list exceptions: flags that make an otherwise read-only
// program write, delete or run another program. Each word after the prefix
// is checked against every exception; see [Exception] for the syntax.
package allowlist

import (
	"fmt"
	"strings"
)

// Kind is what a rule does when it matches.
type Kind int

const (
	// Allow lets a command run without asking, unless an exception hits.
	Allow Kind = iota
	// Ask always escalates a matching command to the human.
	Ask
	// Deny refuses a matching command outright.
	Deny
)

func (k Kind) String() string {
	switch k {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Source says where a rule came from, so every decision can name it.
type Source struct {
	// Name is "default" for the embedded allowlist, "flag" for command-line
	// rules, or a file path.
	Name string
	// Line is the 1-based line in Name, or 0 when there is none.
	Line int
}

func (s Source) String() string {
	if s.Line > 0 {
		return fmt.Sprintf("%s:%d", s.Name, s.Line)
	}
	if s.Name == "" {
		return "unknown"
	}
	return s.Name
}

// DefaultSource marks rules of the embedded default allowlist.
var DefaultSource = Source{Name: "default"}

// Rule is one allow, ask or deny rule.
type Rule struct {
	Kind Kind
	// Prefix is the list of leading words the rule matches. Empty only for
	// a Contains rule.
	Prefix []string
	// Contains, for deny and ask rules, matches when the command text
	// contains it anywhere. Over-matching only costs a question.
	Contains string
	// Except lists the argument exceptions of an allow rule.
	Except []Exception
	// Note says, for the human, why the rule exists or what it allows.
	Note   string
	Source Source
	// Entry, for a rule of the read-only catalogue, is the program's
	// table: its flags are an accept-list, and Except is not used.
	Entry *Entry
	// Sandbox is the confinement a command allowed by this rule runs
	// under: "read-only", "read-only+network", "workspace" or "none".
	// Empty means the default: "read-only" for the built-in rules, "none"
	// for user rules.
	Sandbox string
	// Writable are extra paths a "workspace" rule's command may write.
	Writable []string
}

// String gives the rule as a user would write it in a config file.
func (r Rule) String() string {
	if r.Contains != "" {
		return fmt.Sprintf("contains %q", r.Contains)
	}
	return strings.Join(r.Prefix, " ")
}

// MatchPrefix reports whether argv starts with the rule's prefix words.
func (r Rule) MatchPrefix(argv []string) bool {
	if len(r.Prefix) == 0 || len(argv) < len(r.Prefix) {
		return false
	}
	for i, w := range r.Prefix {
		if argv[i] != w {
			return false
		}
	}
	return true
}

// MatchText reports whether a Contains rule matches the command text.
func (r Rule) MatchText(text string) bool {
	return r.Contains != "" && strings.Contains(text, r.Contains)
}

// Hit is an argument exception found in a command.
type Hit struct {
	Exception Exception
	// Word is the argument that hit, as the program receives it.
	Word string
}

// CheckExceptions returns the first exception that any argument after the
// rule's prefix hits, or false when none does. Every word is checked,
// including those after "--": a false hit costs one question, a missed one
// could run a program.
func (r Rule) CheckExceptions(argv []string) (Hit, bool) {
	for _, w := range argv[min(len(r.Prefix), len(argv)):] {
		for _, e := range r.Except {
			if e.Matches(w) {
				return Hit{Exception: e, Word: w}, true
			}
		}
	}
	return Hit{}, false
}
