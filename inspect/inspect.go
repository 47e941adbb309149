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

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentgate/agentgate/internal/shparse"
)

// MaxDepth bounds how deep the description goes; deeper nesting is
// reported, not described.
const MaxDepth = 24

// MaxNodes bounds the size of a description.
const MaxNodes = 2000

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

// Describe describes a request's text from its one parse (see
// [shparse.Script]), so that what the prompt and the record show is the
// parse the gate judged. It is made once per Script: the description is
// read, never changed.
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
	text := sc.Text
	f, err := sc.File, sc.Err
	if err != nil {
		return Script{Error: err.Error()}
	}
	w := walker{src: text}
	s.Nodes = w.stmts(f.Stmts, 0)
	s.Error = w.err
	if s.Error == "" && strings.ContainsRune(text, '\r') {
		// bash reads a carriage return as part of a word; this parser
		// reads it as a blank. Say so rather than describe it wrongly.
		s.Error = "the text holds a carriage return, which bash reads as part of a word and this parser as a blank: the words shown may differ from what bash runs"
	}
	return s
}

type walker struct {
	src   string
	nodes int
	err   string
}

func (w *walker) text(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(w.src) || start > end {
		return ""
	}
	return w.src[start:end]
}

func (w *walker) bound(depth int) bool {
	w.nodes++
	if depth > MaxDepth {
		w.fail(fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
		return true
	}
	if w.nodes > MaxNodes {
		w.fail(fmt.Sprintf("more than %d nodes", MaxNodes))
		return true
	}
	return false
}

func (w *walker) fail(msg string) {
	if w.err == "" {
		w.err = msg
	}
}

func (w *walker) stmts(list []*syntax.Stmt, depth int) []Node {
	var out []Node
	for _, st := range list {
		out = append(out, w.stmt(st, depth))
	}
	return out
}

func (w *walker) stmt(st *syntax.Stmt, depth int) Node {
	if w.bound(depth) {
		return Node{Kind: "unknown", Text: w.text(st)}
	}
	n := w.command(st.Cmd, depth)
	n.Text = w.text(st)
	n.Background = st.Background || st.Coprocess
	n.Negated = st.Negated
	for _, r := range st.Redirs {
		n.Redirs = append(n.Redirs, w.redir(r, depth))
	}
	return n
}

func (w *walker) redir(r *syntax.Redirect, depth int) Redir {
	out := Redir{Op: r.Op.String()}
	if r.N != nil {
		out.Fd = r.N.Value
	}
	if r.Word != nil {
		out.Target = w.word(r.Word, depth)
	}
	if r.Hdoc != nil {
		out.Heredoc = w.text(r.Hdoc)
		// An unquoted here-document expands $(...) in its body.
		out.Substs = w.word(r.Hdoc, depth).Substs
	}
	return out
}

var binKinds = map[syntax.BinCmdOperator]string{
	syntax.AndStmt: "and", syntax.OrStmt: "or", syntax.Pipe: "pipe", syntax.PipeAll: "pipe-all",
}

func (w *walker) command(c syntax.Command, depth int) Node {
	switch c := c.(type) {
	case nil:
		return Node{Kind: "command"}
	case *syntax.CallExpr:
		n := Node{Kind: "command"}
		for _, a := range c.Assigns {
			n.Assigns = append(n.Assigns, w.assign(a, depth))
		}
		for _, word := range c.Args {
			n.Words = append(n.Words, w.word(word, depth))
		}
		return n
	case *syntax.BinaryCmd:
		kind, ok := binKinds[c.Op]
		if !ok {
			kind = "unknown"
		}
		return Node{Kind: kind, Op: c.Op.String(), Children: []Node{w.stmt(c.X, depth+1), w.stmt(c.Y, depth+1)}}
	case *syntax.Subshell:
		return Node{Kind: "subshell", Children: w.stmts(c.Stmts, depth+1)}
	case *syntax.Block:
		return Node{Kind: "block", Children: w.stmts(c.Stmts, depth+1)}
	case *syntax.IfClause:
		n := Node{Kind: "if"}
		for cl := c; cl != nil; cl = cl.Else {
			n.Children = append(n.Children, w.stmts(cl.Cond, depth+1)...)
			n.Children = append(n.Children, w.stmts(cl.Then, depth+1)...)
		}
		return n
	case *syntax.WhileClause:
		kind := "while"
		if c.Until {
			kind = "until"
		}
		return Node{Kind: kind, Children: append(w.stmts(c.Cond, depth+1), w.stmts(c.Do, depth+1)...)}
	case *syntax.ForClause:
		n := Node{Kind: "for"}
		if wi, ok := c.Loop.(*syntax.WordIter); ok {
			n.Name = wi.Name.Value
			for _, word := range wi.Items {
				n.Words = append(n.Words, w.word(word, depth))
			}
		}
		n.Children = w.stmts(c.Do, depth+1)
		return n
	case *syntax.CaseClause:
		n := Node{Kind: "case", Words: []Word{w.word(c.Word, depth)}}
		for _, item := range c.Items {
			for _, p := range item.Patterns {
				n.Substs = append(n.Substs, w.nested(p, depth)...)
			}
			n.Children = append(n.Children, w.stmts(item.Stmts, depth+1)...)
		}
		return n
	case *syntax.FuncDecl:
		n := Node{Kind: "function", Name: c.Name.Value}
		if c.Body != nil {
			n.Children = []Node{w.stmt(c.Body, depth+1)}
		}
		return n
	case *syntax.ArithmCmd:
		return Node{Kind: "arithmetic", Substs: w.nested(c, depth)}
	case *syntax.TestClause:
		return Node{Kind: "test", Substs: w.nested(c, depth)}
	case *syntax.DeclClause:
		n := Node{Kind: "declare", Name: c.Variant.Value}
		for _, a := range c.Args {
			n.Assigns = append(n.Assigns, w.assign(a, depth))
		}
		return n
	case *syntax.LetClause:
		return Node{Kind: "let", Substs: w.nested(c, depth)}
	case *syntax.TimeClause:
		n := Node{Kind: "time"}
		if c.Stmt != nil {
			n.Children = []Node{w.stmt(c.Stmt, depth+1)}
		}
		return n
	case *syntax.CoprocClause:
		n := Node{Kind: "coproc"}
		if c.Stmt != nil {
			n.Children = []Node{w.stmt(c.Stmt, depth+1)}
		}
		return n
	}
	return Node{Kind: "unknown", Op: fmt.Sprintf("%T", c)}
}

func (w *walker) assign(a *syntax.Assign, depth int) Assign {
	out := Assign{}
	if a.Name != nil {
		out.Name = a.Name.Value
	}
	if a.Value != nil {
		out.Value = w.word(a.Value, depth)
	} else if a.Array != nil || a.Index != nil {
		out.Value = Word{Text: w.text(a), Expands: []string{"array"}}
	} else {
		out.Value = Word{Literal: true}
	}
	return out
}

// word describes a word: its literal value, or what it expands, as the
// one reading of a word ([shparse.Expansions], [shparse.Value]) says.
func (w *walker) word(word *syntax.Word, depth int) Word {
	out := Word{Text: w.text(word), Expands: shparse.Expansions(word)}
	var visit func(parts []syntax.WordPart)
	visit = func(parts []syntax.WordPart) {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.DblQuoted:
				visit(p.Parts)
			case *syntax.ParamExp:
				out.Substs = append(out.Substs, w.nested(p, depth)...)
			case *syntax.CmdSubst:
				kind := "$(...)"
				if p.Backquotes {
					kind = "`...`"
				}
				out.Substs = append(out.Substs, Subst{Kind: kind, Text: w.text(p), Nodes: w.stmts(p.Stmts, depth+1)})
			case *syntax.ProcSubst:
				out.Substs = append(out.Substs, Subst{Kind: p.Op.String() + "...)", Text: w.text(p), Nodes: w.stmts(p.Stmts, depth+1)})
			case *syntax.ArithmExp:
				out.Substs = append(out.Substs, Subst{Kind: "$((...))", Text: w.text(p)})
				out.Substs = append(out.Substs, w.nested(p, depth)...)
			}
		}
	}
	visit(word.Parts)
	if len(out.Expands) == 0 {
		if v, ok := shparse.Value(word); ok {
			out.Literal, out.Value = true, v
		} else {
			out.Expands = []string{"brace"}
		}
	}
	return out
}

// nested finds the command and process substitutions inside a parameter
// or arithmetic expansion (${x:-$(id)}, $(( $(id) + 1 ))).
func (w *walker) nested(n syntax.Node, depth int) []Subst {
	var out []Subst
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			kind := "$(...)"
			if n.Backquotes {
				kind = "`...`"
			}
			out = append(out, Subst{Kind: kind, Text: w.text(n), Nodes: w.stmts(n.Stmts, depth+1)})
			return false
		case *syntax.ProcSubst:
			out = append(out, Subst{Kind: n.Op.String() + "...)", Text: w.text(n), Nodes: w.stmts(n.Stmts, depth+1)})
			return false
		}
		return true
	})
	return out
}
