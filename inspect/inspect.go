// Package inspect parses a command as bash and describes what it would
// run, as plain data: each simple command with its words, the operators
// joining commands, redirects with their targets, substitutions with their
// own inner structure, subshells, blocks, functions, loops, conditionals,
// assignments and here-documents.
//
// The description explains a command to a person and to the audit log,
// and feeds the opt-in piecewise judgement of compounds. It never panics:
// a parse error, a node kind it does not know, or nesting deeper than
// [MaxDepth] is reported in [Script.Error] or as a node of kind "unknown".
package inspect

import (
	"fmt"
	"strings"

	"github.com/agentgate/agentgate/internal/shparse"
)

// MaxDepth bounds how deep the description goes; deeper nesting is
// reported, not described.
const MaxDepth = shparse.MaxFormDepth

// MaxNodes bounds the size of a description.
const MaxNodes = shparse.MaxFormNodes

// Script is the description of a whole command text.
type Script struct {
	// Nodes are the top-level statements, run one after the other.
	Nodes []Node `json:"nodes"`
	// Error is the parse error, the bound that was reached, or why the
	// description may not be what bash does.
	Error string `json:"error,omitempty"`
}

// Node is a statement or command. Kind is one of: "command" (a simple
// command: Words, Assigns), "and" (&&), "or" (||), "pipe" (|), "pipe-all"
// (|&) with two Children, "subshell", "block", "if", "while", "until",
// "for", "case", "function", "arithmetic", "test", "declare", "let",
// "time", "coproc", or "unknown".
type Node struct {
	Kind       string   `json:"kind"`
	Op         string   `json:"op,omitempty"`
	Name       string   `json:"name,omitempty"`
	Words      []Word   `json:"words,omitempty"`
	Assigns    []Assign `json:"assigns,omitempty"`
	Redirs     []Redir  `json:"redirects,omitempty"`
	Background bool     `json:"background,omitempty"`
	Negated    bool     `json:"negated,omitempty"`
	Children   []Node   `json:"children,omitempty"`
	// Substs are substitutions in parts that are not words: a test
	// clause, an arithmetic command, a let, case patterns.
	Substs []Subst `json:"substitutions,omitempty"`
	// Text is the exact source of the node.
	Text string `json:"text"`
}

// Word is one word of a command.
type Word struct {
	Text string `json:"text"`
	// Value is the word after quote removal, when Literal.
	Value string `json:"value,omitempty"`
	// Literal is true when quote removal alone gives the value: no
	// variable, substitution, unquoted glob, brace or tilde.
	Literal bool `json:"literal"`
	// Expands names what bash would still expand: "variable",
	// "substitution", "glob", "brace", "tilde", "arithmetic".
	Expands []string `json:"expands,omitempty"`
	Substs  []Subst  `json:"substitutions,omitempty"`
}

// Subst is a command, process or arithmetic substitution inside a word.
type Subst struct {
	Kind  string `json:"kind"` // "$(...)", "`...`", "<(...)", ">(...)", "$((...))", "${...}"
	Text  string `json:"text"`
	Nodes []Node `json:"nodes,omitempty"`
}

// Redir is a redirect: operator, file descriptor, target.
type Redir struct {
	Op     string `json:"op"`
	Fd     string `json:"fd,omitempty"`
	Target Word   `json:"target"`
	// Heredoc is the body of a here-document; Substs are the
	// substitutions bash would run in it.
	Heredoc string  `json:"heredoc,omitempty"`
	Substs  []Subst `json:"substitutions,omitempty"`
}

// Assign is a variable assignment, as a prefix of a command or in a
// declaration.
type Assign struct {
	Name  string `json:"name"`
	Value Word   `json:"value"`
}

// Parse describes text.
func Parse(text string) Script { return Describe(shparse.Of(text)) }

// Describe describes a request's text from its one form (see
// [shparse.Script.Form]), so that what the prompt and the record show is
// the reading the gate judged. It is made once per Script: the
// description is read, never changed.
func Describe(sc *shparse.Script) Script {
	return sc.Memo(describeKey{}, func() any { return describe(sc) }).(Script)
}

type describeKey struct{}

func describe(sc *shparse.Script) (s Script) {
	defer func() {
		if r := recover(); r != nil {
			s = Script{Error: fmt.Sprintf("internal error while inspecting: %v", r)}
		}
	}()
	f := sc.Form()
	if sc.Err != nil {
		return Script{Error: f.Err}
	}
	s.Nodes = nodes(f.Stmts)
	s.Error = f.Err
	if s.Error == "" && strings.ContainsRune(sc.Text, '\r') {
		// bash reads a carriage return as part of a word; this parser
		// reads it as a blank. Say so rather than describe it wrongly.
		s.Error = "the text holds a carriage return, which bash reads as part of a word and this parser as a blank: the words shown may differ from what bash runs"
	}
	return s
}

func nodes(list []*shparse.Stmt) []Node {
	var out []Node
	for _, st := range list {
		out = append(out, node(st))
	}
	return out
}

var binOps = map[shparse.Kind]string{
	shparse.KindAnd: "&&", shparse.KindOr: "||", shparse.KindPipe: "|", shparse.KindPipeAll: "|&",
}

// node is a statement of the form as the description shows it.
func node(st *shparse.Stmt) Node {
	n := Node{Kind: st.Kind.String(), Text: st.Text, Background: st.Background, Negated: st.Negated,
		Op: binOps[st.Kind], Children: nodes(st.Children), Substs: substs(st.Substs)}
	switch st.Kind {
	case shparse.KindUnknown:
		n.Op = st.Unknown
	case shparse.KindFunc, shparse.KindFor, shparse.KindDecl:
		n.Name = st.Name
	}
	for _, a := range st.Assigns {
		n.Assigns = append(n.Assigns, assign(a))
	}
	for _, w := range st.Args {
		n.Words = append(n.Words, word(w))
	}
	for _, r := range st.Redirs {
		n.Redirs = append(n.Redirs, redir(r))
	}
	return n
}

func redir(r *shparse.Redir) Redir {
	out := Redir{Op: r.Op, Fd: r.Fd}
	if r.Target != nil {
		out.Target = word(r.Target)
	}
	if r.Heredoc != nil {
		out.Heredoc = r.Heredoc.Text
		// An unquoted here-document expands $(...) in its body.
		out.Substs = substs(r.Heredoc.Substs)
	}
	return out
}

func assign(a *shparse.Assign) Assign {
	out := Assign{Name: a.Name}
	switch {
	case a.Value != nil:
		out.Value = word(a.Value)
	case a.Array:
		out.Value = Word{Text: a.Text, Expands: []string{"array"}}
	default:
		out.Value = Word{Literal: true}
	}
	// An array's elements and an index run their substitutions too.
	out.Value.Substs = append(out.Value.Substs, substs(a.Substs)...)
	return out
}

// word describes a word by the form's one reading of it: its literal
// value, or what it expands.
func word(w *shparse.Word) Word {
	out := Word{Text: w.Text, Expands: w.Expands, Substs: substs(w.Substs)}
	if w.Literal() {
		out.Literal, out.Value = true, w.Value
	}
	return out
}

func substs(list []*shparse.Subst) []Subst {
	var out []Subst
	for _, s := range list {
		out = append(out, Subst{Kind: s.Kind, Text: s.Text, Nodes: nodes(s.Stmts)})
	}
	return out
}
