package shparse

import (
	"fmt"
	"iter"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file is the intermediate form of a command text: what the parse
// says, read once into plain values, so that the layers that judge,
// explain and record a command read one set of facts instead of each
// walking the syntax tree its own way (issue 16: where two readings of
// one text differ, the gate leaks). A consumer that meets a statement of
// [KindUnknown], or a [Form] whose Err is set, has met something the form
// cannot say: it asks, it does not skip it.

// MaxFormDepth bounds how deep the form goes; a statement nested deeper
// is of [KindUnknown] and the form's Err says so.
const MaxFormDepth = 24

// MaxFormNodes bounds how many statements one form holds; past it a
// statement is of [KindUnknown] and the form's Err says so.
const MaxFormNodes = 2000

// Form is a Script's intermediate form: its statements in order, each a
// simple command with its words, redirects and assignments, or a
// compound joining or holding others. Built once per Script ([Script.Form])
// and only read after.
type Form struct {
	// Stmts are the top-level statements, run one after the other.
	Stmts []*Stmt
	// Err is the parse error or the bound that was reached; "" when the
	// form holds the whole text. A text that does not parse has the
	// statements the parser read before the error.
	Err string
	// Unknown is true when a statement the parse holds is not in the
	// form: one of [KindUnknown], or past a bound.
	Unknown bool
	// Sets are the names the text assigns other than by an assignment
	// ([Assign]): in arithmetic ("let X=0", "(( X++ ))", "$((X=1))") and
	// by an expansion's default ("${X:=/}", "${X=/}"). Their values are
	// computed when it runs.
	Sets []string
	// Parsed is set when the parser read the text, or the part of it
	// before an error (Err): a form that is not Parsed holds nothing,
	// and its readers read the text by its plain split instead.
	Parsed bool
	// Escape is where the text leaves what the form can say of its
	// words: a $'...' holding an escape bash reads otherwise than the
	// parser ($'\x{2e}env' is .env to bash), "" when none.
	Escape string
}

// Complete reports whether the form says all of the text: it parsed, no
// bound was reached and no node is of a kind the form does not know.
func (f *Form) Complete() bool { return f.Err == "" && !f.Unknown }

// Kind is what a statement is.
type Kind uint8

// The kinds of statement. [KindCall] is a simple command (its Args may be
// empty: "x=1", "> f"); the joins [KindAnd], [KindOr], [KindPipe] and
// [KindPipeAll] have two Children, the first feeding the second for the
// pipes; the others hold their bodies in Children.
const (
	KindUnknown  Kind = iota // a node the form does not know: ask
	KindCall                 // a simple command: Assigns, Args
	KindAnd                  // X && Y
	KindOr                   // X || Y
	KindPipe                 // X | Y: X's output is Y's input
	KindPipeAll              // X |& Y: X's output and errors are Y's input
	KindSubshell             // ( ... )
	KindBlock                // { ...; }
	KindIf                   // if/elif/else: conditions and bodies in order
	KindWhile                // while COND; do BODY; done
	KindUntil                // until COND; do BODY; done
	KindFor                  // for NAME in Args; do ...; done (also select, and the C-style loop with Substs)
	KindCase                 // case Args[0] in PATTERNS) ...;; esac
	KindFunc                 // NAME() BODY: Children holds the body, which runs only when called
	KindArith                // (( ... )): Substs only
	KindTest                 // [[ ... ]]: Substs only
	KindDecl                 // export/declare/local/readonly/typeset/nameref: Name, Assigns
	KindLet                  // let ...: Substs only
	KindTime                 // time STMT
	KindCoproc               // coproc [NAME] STMT
)

var kindNames = [...]string{
	KindUnknown: "unknown", KindCall: "command", KindAnd: "and", KindOr: "or", KindPipe: "pipe",
	KindPipeAll: "pipe-all", KindSubshell: "subshell", KindBlock: "block", KindIf: "if",
	KindWhile: "while", KindUntil: "until", KindFor: "for", KindCase: "case", KindFunc: "function",
	KindArith: "arithmetic", KindTest: "test", KindDecl: "declare", KindLet: "let", KindTime: "time",
	KindCoproc: "coproc",
}

// String is the kind's name as the inspector shows it ("command", "and",
// "pipe-all" ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Joins reports a kind that joins two statements (&&, ||, |, |&).
func (k Kind) Joins() bool { return k >= KindAnd && k <= KindPipeAll }

// Span is a byte range of the text.
type Span struct{ Start, End int }

// Stmt is one statement: a simple command or a compound, with what
// applies to it as a whole (redirects, &, !).
type Stmt struct {
	Kind Kind
	Span Span
	// Text is the statement's exact source.
	Text string
	// Background is "&" (or mksh's "|&" coprocess); Negated is "!".
	Background, Negated bool
	// Redirs apply to the whole statement, in order.
	Redirs []*Redir
	// Assigns are a simple command's prefix assignments ("A=1 cmd"), or a
	// declaration's operands ("export A=1 -x b").
	Assigns []*Assign
	// Args are a simple command's words, a for loop's items, or a case
	// clause's subject.
	Args []*Word
	// Name is a function's, a for loop's variable, a declaration's
	// builtin (export, local ...), a coproc's name.
	Name string
	// Children are the joined statements (two, for a join) or the bodies
	// a compound runs, in source order.
	Children []*Stmt
	// Substs are substitutions outside words: in a test clause, an
	// arithmetic command or loop, a let, case patterns.
	Substs []*Subst
	// Inner are the words of a clause that are not a command's words:
	// a test clause's operands, arithmetic operands, case patterns, a
	// coproc's name. Their substitutions are in Substs.
	Inner []*Word
	// Unknown names the syntax node of a [KindUnknown] statement ("" for
	// one past a bound: the form's Err names the bound).
	Unknown string
	// inside are the statements directly inside this one, in the
	// tree's order: see [Form.Events].
	inside []*Stmt
	// Nested is the shell text a simple command runs as a script of its
	// own ("bash -c TEXT", "eval WORDS", "env bash -c TEXT", "xargs sh -c
	// TEXT"), nil when none is seen. It is read widely: a reader follows
	// it as a text that may run.
	Nested *Nested
	// Scope is how far what the statement does to the shell's own state
	// (its assignments, a cd) reaches, as bash scopes it: see [Reach].
	Scope Reach
	// Cd is the directory change a simple command makes (cd, pushd,
	// popd, behind "builtin" or "command [-p]"), read once ([ReadCd]);
	// nil for any other statement.
	Cd *Cd
}

// Argv is a simple command's words by their static values; ok is false
// when some word has none (see [Word.Static]).
func (s *Stmt) Argv() (argv []string, ok bool) {
	for _, w := range s.Args {
		if !w.Static {
			return nil, false
		}
		argv = append(argv, w.Value)
	}
	return argv, true
}

// Word is one word of the text.
type Word struct {
	Span Span
	// Text is the word's exact source.
	Text string
	// Static is true when quote removal alone gives the word's value
	// and it is one field ([Value]); Value is that value. Globs and
	// tildes are left as written: see Expands.
	Static bool
	Value  string
	// Expands names what bash may still expand in the word, in order
	// ([Expansions]): "glob", "brace", "tilde", "variable",
	// "substitution", "arithmetic", "escape"; and "brace" when none of
	// these is seen but the word is still not one static field.
	Expands []string
	// Substs are the command, process and arithmetic substitutions the
	// word runs, nested ones in parameter expansions included.
	Substs []*Subst

	w *syntax.Word
}

// Dynamic names the first part of a word that is not static ("a
// variable expansion", "a command substitution" ...), "" when Static
// parts only ([Static]).
func (w *Word) Dynamic() string {
	part, _ := Static(w.w)
	return part
}

// Fields are the word's fields after quote removal and brace expansion
// ([Fields]): an error when it is not static or its braces pass the
// budget ([BudgetError]).
func (w *Word) Fields() ([]string, error) { return Fields(w.w) }

// Expansion is bash's exact reading of what it still expands in the
// word's unquoted literal parts ([Expansion]).
func (w *Word) Expansion(first bool) string { return Expansion(w.w, first) }

// Strict is how split mode judges a static word ([Strict]).
func (w *Word) Strict() string { return Strict(w.w) }

// PlainVars are the variables of a word that holds, beside quoted and
// literal text, only plain expansions ($PATH, ${HOME}, "$SHELL"): no
// operator (${X:-...}, ${#X}, ${!X}), index or substitution. ok is false
// for any other word, and for one with no variable.
func (w *Word) PlainVars() (names []string, ok bool) {
	var walk func(parts []syntax.WordPart) bool
	walk = func(parts []syntax.WordPart) bool {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.Lit, *syntax.SglQuoted:
			case *syntax.DblQuoted:
				if !walk(p.Parts) {
					return false
				}
			case *syntax.ParamExp:
				if p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil ||
					p.Names != 0 || p.Param == nil {
					return false
				}
				names = append(names, p.Param.Value)
			default:
				return false
			}
		}
		return true
	}
	if !walk(w.w.Parts) || len(names) == 0 {
		return nil, false
	}
	return names, true
}

// Lit is the word's text when every part of it is an unquoted literal,
// backslashes kept; "" otherwise.
func (w *Word) Lit() string { return w.w.Lit() }

// Quoted reports a word that is exactly one quoted string ('...' or
// "..."): as a here-document's delimiter, bash expands nothing in the
// body.
func (w *Word) Quoted() bool {
	if len(w.w.Parts) != 1 {
		return false
	}
	switch w.w.Parts[0].(type) {
	case *syntax.SglQuoted, *syntax.DblQuoted:
		return true
	}
	return false
}

// Param is a parameter expansion in a word: $NAME, ${NAME...}, ${!NAME}.
type Param struct {
	// Name is the parameter's ("HOME", "1", "@", "_"), "" when it has
	// none.
	Name string
	// Excl is ${!...}: a variable named by another.
	Excl bool
}

// Params are the parameter expansions of a word, those nested in its
// expansions included ("${x:-$HOME}"), in order; not those of its
// substitutions' statements, which are statements of the form.
func (w *Word) Params() []Param {
	var out []Param
	syntax.Walk(w.w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			p := Param{Excl: n.Excl}
			if n.Param != nil {
				p.Name = n.Param.Value
			}
			out = append(out, p)
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		}
		return true
	})
	return out
}

// HomeTilde reports whether bash expands the word's leading tilde to the
// home or the working directory: the word starts with an unquoted "~" or
// "~+" that ends it or is followed by an unquoted "/" (gate.unreadTilde
// asks about every other "~" a path may start with).
func (w *Word) HomeTilde() bool {
	if w.w == nil || len(w.w.Parts) == 0 {
		return false
	}
	lit, ok := w.w.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	prefix, _, slash := strings.Cut(lit.Value, "/")
	return (prefix == "~" || prefix == "~+") && (slash || len(w.w.Parts) == 1)
}

// Starts are the unquoted literal texts the word and the words nested in
// its expansions start with ("~-/x" for "~-/x", "~+" in "${x:-~+}"), in
// order: where bash may expand a tilde.
func (w *Word) Starts() []string {
	var out []string
	syntax.Walk(w.w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			if len(n.Parts) > 0 {
				if lit, ok := n.Parts[0].(*syntax.Lit); ok {
					out = append(out, lit.Value)
				}
			}
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		}
		return true
	})
	return out
}

// Literal reports a word whose value is its Value as bash runs it:
// static, and nothing in it expands.
func (w *Word) Literal() bool { return w.Static && len(w.Expands) == 0 }

// Template is the word spelled with plain variables as ${NAME} ([Template]).
func (w *Word) Template() (string, bool) { return Template(w.w) }

// SelfName reports a word that names the running function: $FUNCNAME,
// ${FUNCNAME}, ${FUNCNAME[0]}.
func (w *Word) SelfName() bool {
	if len(w.w.Parts) != 1 {
		return false
	}
	p, ok := w.w.Parts[0].(*syntax.ParamExp)
	return ok && p.Param != nil && p.Param.Value == "FUNCNAME" && p.Exp == nil && p.Repl == nil && p.Slice == nil && !p.Length
}

// QuotedWhole reports a word with no unquoted literal part ("'*.go'",
// "$x"): its glob characters are not bash's to expand.
func (w *Word) QuotedWhole() bool {
	for _, p := range w.w.Parts {
		if _, lit := p.(*syntax.Lit); lit {
			return false
		}
	}
	return true
}

// Redir is a redirect of a statement.
type Redir struct {
	Span Span
	// Text is the redirect's exact source ("2>&1", "> out").
	Text string
	// Op is the operator as written: ">", ">>", "<", "<>", "<&", ">&",
	// ">|", "<<", "<<-", "<<<", "&>", "&>>".
	Op string
	// Fd is the descriptor as written before the operator ("2", or
	// "{fd}" for a descriptor bash allocates into a variable), "" for the
	// operator's default.
	Fd string
	// Target is the file, descriptor or here-document delimiter, or the
	// here-string.
	Target *Word
	// Heredoc is a here-document's body; nil for other redirects. Its
	// Text may run on to the delimiter, and its Value is a word's, not
	// the body's (bash removes no quotes there): read [Redir.Body].
	Heredoc *Word

	op syntax.RedirOperator
	// at is how many of its statement's inside statements come before
	// it: see [Form.Events].
	at int
}

// Writes reports a redirect that opens its target for writing: >, >>,
// >|, &>, &>>, <> (a descriptor duplication ">&" is not).
func (r *Redir) Writes() bool {
	switch r.op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.RdrInOut,
		syntax.AppClob, syntax.RdrAllClob, syntax.AppAllClob:
		return true
	}
	return false
}

// Body is a here-document's body as written, when no part of it is an
// expansion ("" and false otherwise, and for other redirects).
func (r *Redir) Body() (string, bool) {
	if r.Heredoc == nil {
		return "", false
	}
	for _, p := range r.Heredoc.w.Parts {
		if _, ok := p.(*syntax.Lit); !ok {
			return "", false
		}
	}
	return r.Heredoc.w.Lit(), true
}

// Stdin reports a redirect that gives standard input from a file, a
// here-document or a here-string rather than what a pipe feeds.
func (r *Redir) Stdin() bool {
	switch r.op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return r.Fd == "" || r.Fd == "0"
	}
	return false
}

// Assign is an assignment: a command's prefix, a statement of its own
// ("x=1"), or a declaration's operand.
type Assign struct {
	Span Span
	// Name is the variable; "" for a declaration's option ("-x").
	Name string
	// Value is the assigned word; nil for "x=" and a bare name
	// ("export x"), or an array.
	Value *Word
	// Append is "+="; Array is "x=(...)" or "x[i]=": Text holds it.
	Append, Array bool
	// Naked is a declaration's operand without "=" ("export x", "-x").
	Naked bool
	Text  string
	// Substs are the substitutions of an array's elements or an index
	// ("x=($(id))", "x[$(id)]=1").
	Substs []*Subst
	// Elems are an array's element and index words; their substitutions
	// are in Substs.
	Elems []*Word
	// Reach is how far the value reaches: a prefix's only into its
	// command's environment ([ReachCommand]), another as far as its
	// statement's [Stmt.Scope].
	Reach Reach
}

// Reach is how far a change to the shell's state (an assignment, a cd)
// reaches in the text, as bash scopes it. Readers that keep one value of
// a variable for the whole text take it as known only when it reaches
// the rest of the text ([ReachRest]): any other makes the variable
// unknown after it, so that what it names is judged on the ask side
// ("(X=/); rm -rf /usr$X" and "true | X=x; rm -rf /usr$X" remove /usr).
type Reach uint8

// The reaches, from widest to narrowest. Their order is that of
// [Reach.Within].
const (
	// ReachRest: run in the text's own shell, unconditionally, so it
	// holds for the rest of the text ("X=1; ...", "cd d && ...": the
	// first of && and ||, a { } block).
	ReachRest Reach = iota
	// ReachMaybe: run in the text's own shell or not, by a condition: the
	// second of && or ||, the bodies and conditions of if, while, until,
	// for and case, a function's body (it runs when called).
	ReachMaybe
	// ReachInside: run in a shell of its own, so nothing after it sees
	// it: a subshell, an element of a pipeline, a background job, a
	// coprocess, a substitution.
	ReachInside
	// ReachCommand: an assignment before a command ("X=1 cmd"), in that
	// command's environment only: not in its own words, not after it.
	ReachCommand
)

// Within is r as seen from inside a statement of scope outer: the
// narrower of the two ([ReachCommand] stays itself).
func (r Reach) Within(outer Reach) Reach {
	if r == ReachCommand || outer <= r {
		return r
	}
	if outer == ReachCommand {
		return ReachInside
	}
	return outer
}

// Subst is a command, process or arithmetic substitution.
type Subst struct {
	// Kind is "$(...)", "`...`", "<(...)", ">(...)" or "$((...))".
	Kind string
	Span Span
	Text string
	// Stmts are what it runs; none for arithmetic.
	Stmts []*Stmt
}

// Nested is a shell text a command runs as a script of its own.
type Nested struct {
	// Via says how: "-c" (a shell's -c string, also behind xargs), or
	// the program that runs it ("eval": its words joined by blanks,
	// "trap", "su", "git" ...: see [RunsText]).
	Via  string
	Text string

	owner *Script
}

// Script is the nested text's own Script, parsed once per request.
func (n *Nested) Script() *Script { return n.owner.Of(n.Text) }

// Form is the intermediate form of s, built once and memoized.
func (s *Script) Form() *Form {
	return s.Memo(formKey{}, func() any { return buildForm(s) }).(*Form)
}

type formKey struct{}

func buildForm(s *Script) (out *Form) {
	defer func() {
		if r := recover(); r != nil {
			out = &Form{Err: fmt.Sprintf("internal error while reading the parse: %v", r), Unknown: true, Parsed: s.File != nil}
		}
	}()
	if s.File == nil {
		msg := "no parse"
		if s.Err != nil {
			msg = s.Err.Error()
		}
		return &Form{Err: msg}
	}
	// A text that does not parse keeps what the parser read of it: the
	// readers that judged the partial tree (the deny rules, the
	// catastrophic scan) judge the same statements; Err says the parse
	// failed, so no reader takes the form for the whole text.
	b := &builder{src: s.Text, owner: s}
	out = &Form{Stmts: b.stmts(s.File.Stmts, 0), Parsed: true}
	for _, st := range out.Stmts {
		st.scope(ReachRest)
	}
	out.Sets = setsOf(s.File)
	out.Escape = unreadableEscape(s.File)
	out.Err, out.Unknown = b.err, b.unknown
	if s.Err != nil {
		out.Err = s.Err.Error()
	}
	return out
}

type builder struct {
	// inside gathers the statements of the one being built.
	inside  *insideList
	src     string
	owner   *Script
	nodes   int
	err     string
	unknown bool
}

func (b *builder) span(n syntax.Node) (Span, string) {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(b.src) || start > end {
		return Span{}, ""
	}
	return Span{start, end}, b.src[start:end]
}

func (b *builder) fail(msg string) {
	b.unknown = true
	if b.err == "" {
		b.err = msg
	}
}

func (b *builder) stmts(list []*syntax.Stmt, depth int) []*Stmt {
	var out []*Stmt
	for _, st := range list {
		out = append(out, b.stmt(st, depth))
	}
	return out
}

func (b *builder) stmt(st *syntax.Stmt, depth int) *Stmt {
	b.nodes++
	span, text := b.span(st)
	outer := b.inside
	defer func() { b.inside = outer }()
	switch {
	case depth > MaxFormDepth:
		msg := fmt.Sprintf("nesting deeper than %d levels", MaxFormDepth)
		b.fail(msg)
		n := &Stmt{Kind: KindUnknown, Span: span, Text: text}
		outer.add(n)
		return n
	case b.nodes > MaxFormNodes:
		msg := fmt.Sprintf("more than %d nodes", MaxFormNodes)
		b.fail(msg)
		n := &Stmt{Kind: KindUnknown, Span: span, Text: text}
		outer.add(n)
		return n
	}
	in := &insideList{}
	b.inside = in
	n := b.command(st.Cmd, depth)
	n.Span, n.Text = span, text
	n.Background = st.Background || st.Coprocess
	n.Negated = st.Negated
	if st.Disown {
		b.unknown = true
		n.Kind, n.Unknown = KindUnknown, "zsh's &!"
	}
	for _, r := range st.Redirs {
		at := len(in.stmts)
		rd := b.redir(r, depth)
		rd.at = at
		n.Redirs = append(n.Redirs, rd)
	}
	n.inside = in.stmts
	outer.add(n)
	return n
}

// insideList gathers the statements built directly inside one, in the
// order they are built, which is the tree's.
type insideList struct{ stmts []*Stmt }

func (l *insideList) add(s *Stmt) {
	if l != nil {
		l.stmts = append(l.stmts, s)
	}
}

func (b *builder) redir(r *syntax.Redirect, depth int) *Redir {
	out := &Redir{Op: r.Op.String(), op: r.Op}
	out.Span, out.Text = b.span(r)
	if r.N != nil {
		out.Fd = r.N.Value
	}
	if r.Word != nil {
		out.Target = b.word(r.Word, depth)
	}
	if r.Hdoc != nil {
		// An unquoted here-document expands $(...) in its body.
		out.Heredoc = b.word(r.Hdoc, depth)
	}
	return out
}

var binKinds = map[syntax.BinCmdOperator]Kind{
	syntax.AndStmt: KindAnd, syntax.OrStmt: KindOr, syntax.Pipe: KindPipe, syntax.PipeAll: KindPipeAll,
}

func (b *builder) command(c syntax.Command, depth int) *Stmt {
	switch c := c.(type) {
	case nil:
		return &Stmt{Kind: KindCall}
	case *syntax.CallExpr:
		n := &Stmt{Kind: KindCall}
		for _, a := range c.Assigns {
			n.Assigns = append(n.Assigns, b.assign(a, depth))
		}
		for _, word := range c.Args {
			n.Args = append(n.Args, b.word(word, depth))
		}
		n.Nested = b.nested(n)
		n.Cd = cdOf(n)
		return n
	case *syntax.BinaryCmd:
		kind, ok := binKinds[c.Op]
		n := &Stmt{Kind: kind, Children: []*Stmt{b.stmt(c.X, depth+1), b.stmt(c.Y, depth+1)}}
		if !ok {
			b.unknown = true
			n.Kind, n.Unknown = KindUnknown, "operator "+c.Op.String()
		}
		return n
	case *syntax.Subshell:
		return &Stmt{Kind: KindSubshell, Children: b.stmts(c.Stmts, depth+1)}
	case *syntax.Block:
		return &Stmt{Kind: KindBlock, Children: b.stmts(c.Stmts, depth+1)}
	case *syntax.IfClause:
		n := &Stmt{Kind: KindIf}
		for cl := c; cl != nil; cl = cl.Else {
			n.Children = append(n.Children, b.stmts(cl.Cond, depth+1)...)
			n.Children = append(n.Children, b.stmts(cl.Then, depth+1)...)
		}
		return n
	case *syntax.WhileClause:
		kind := KindWhile
		if c.Until {
			kind = KindUntil
		}
		return &Stmt{Kind: kind, Children: append(b.stmts(c.Cond, depth+1), b.stmts(c.Do, depth+1)...)}
	case *syntax.ForClause:
		n := &Stmt{Kind: KindFor}
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			n.Name = l.Name.Value
			for _, word := range l.Items {
				n.Args = append(n.Args, b.word(word, depth))
			}
		case *syntax.CStyleLoop:
			// for ((i=$(id); ...)): its arithmetic runs substitutions.
			n.Substs, n.Inner = b.insideOf(l, depth), b.inner(l)
		default:
			b.unknown = true
			n.Kind, n.Unknown = KindUnknown, fmt.Sprintf("%T", l)
		}
		n.Children = b.stmts(c.Do, depth+1)
		return n
	case *syntax.CaseClause:
		n := &Stmt{Kind: KindCase, Args: []*Word{b.word(c.Word, depth)}}
		for _, item := range c.Items {
			for _, p := range item.Patterns {
				n.Substs = append(n.Substs, b.insideOf(p, depth)...)
				n.Inner = append(n.Inner, b.bare(p))
			}
			n.Children = append(n.Children, b.stmts(item.Stmts, depth+1)...)
		}
		return n
	case *syntax.FuncDecl:
		n := &Stmt{Kind: KindFunc, Name: c.Name.Value}
		if c.Body != nil {
			n.Children = []*Stmt{b.stmt(c.Body, depth+1)}
		}
		return n
	case *syntax.ArithmCmd:
		return &Stmt{Kind: KindArith, Substs: b.insideOf(c, depth), Inner: b.inner(c)}
	case *syntax.TestClause:
		return &Stmt{Kind: KindTest, Substs: b.insideOf(c, depth), Inner: b.inner(c)}
	case *syntax.DeclClause:
		n := &Stmt{Kind: KindDecl, Name: c.Variant.Value}
		for _, a := range c.Args {
			n.Assigns = append(n.Assigns, b.assign(a, depth))
		}
		return n
	case *syntax.LetClause:
		return &Stmt{Kind: KindLet, Substs: b.insideOf(c, depth), Inner: b.inner(c)}
	case *syntax.TimeClause:
		n := &Stmt{Kind: KindTime}
		if c.Stmt != nil {
			n.Children = []*Stmt{b.stmt(c.Stmt, depth+1)}
		}
		return n
	case *syntax.CoprocClause:
		n := &Stmt{Kind: KindCoproc}
		if c.Name != nil {
			n.Name = c.Name.Lit()
			n.Inner = []*Word{b.bare(c.Name)}
		}
		if c.Stmt != nil {
			n.Children = []*Stmt{b.stmt(c.Stmt, depth+1)}
		}
		return n
	}
	b.unknown = true
	return &Stmt{Kind: KindUnknown, Unknown: fmt.Sprintf("%T", c)}
}

func (b *builder) assign(a *syntax.Assign, depth int) *Assign {
	out := &Assign{Append: a.Append, Naked: a.Naked}
	out.Span, out.Text = b.span(a)
	if a.Name != nil {
		out.Name = a.Name.Value
	}
	switch {
	case a.Array != nil || a.Index != nil:
		out.Array = true
		// In the tree's order: the value, the index, the elements.
		if a.Value != nil {
			out.Value = b.word(a.Value, depth)
		}
		if a.Index != nil {
			out.Substs, out.Elems = b.insideOf(a.Index, depth), b.inner(a.Index)
		}
		if a.Array != nil {
			out.Substs = append(out.Substs, b.insideOf(a.Array, depth)...)
			out.Elems = append(out.Elems, b.inner(a.Array)...)
		}
	case a.Value != nil:
		out.Value = b.word(a.Value, depth)
	}
	return out
}

// word reads a word as the one reading of words in this package says.
func (b *builder) word(word *syntax.Word, depth int) *Word {
	out := &Word{Expands: Expansions(word), w: word}
	out.Span, out.Text = b.span(word)
	out.Value, out.Static = Value(word)
	var visit func(parts []syntax.WordPart)
	visit = func(parts []syntax.WordPart) {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.DblQuoted:
				visit(p.Parts)
			case *syntax.ParamExp:
				out.Substs = append(out.Substs, b.insideOf(p, depth)...)
			case *syntax.CmdSubst, *syntax.ProcSubst:
				out.Substs = append(out.Substs, b.subst(p, depth))
			case *syntax.ArithmExp:
				span, text := b.span(p)
				out.Substs = append(out.Substs, &Subst{Kind: "$((...))", Span: span, Text: text})
				out.Substs = append(out.Substs, b.insideOf(p, depth)...)
			}
		}
	}
	visit(word.Parts)
	if len(out.Expands) == 0 && !out.Static {
		out.Expands = []string{"brace"}
	}
	return out
}

// bare reads a word that is not a command's (a clause's operand): its
// facts without its substitutions, which the clause holds.
func (b *builder) bare(word *syntax.Word) *Word {
	out := &Word{Expands: Expansions(word), w: word}
	out.Span, out.Text = b.span(word)
	out.Value, out.Static = Value(word)
	if len(out.Expands) == 0 && !out.Static {
		out.Expands = []string{"brace"}
	}
	return out
}

// inner are the outermost words inside a clause (not those inside a
// word's own parts or a substitution's statements).
func (b *builder) inner(n syntax.Node) []*Word {
	var out []*Word
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			out = append(out, b.bare(n))
			return false
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		}
		return true
	})
	return out
}

func (b *builder) subst(n syntax.Node, depth int) *Subst {
	span, text := b.span(n)
	switch n := n.(type) {
	case *syntax.CmdSubst:
		kind := "$(...)"
		if n.Backquotes {
			kind = "`...`"
		}
		return &Subst{Kind: kind, Span: span, Text: text, Stmts: b.stmts(n.Stmts, depth+1)}
	case *syntax.ProcSubst:
		return &Subst{Kind: n.Op.String() + "...)", Span: span, Text: text, Stmts: b.stmts(n.Stmts, depth+1)}
	}
	panic(fmt.Sprintf("not a substitution: %T", n))
}

// inside finds the command and process substitutions inside a node that
// is not a word (a parameter or arithmetic expansion, a test clause, a
// case pattern: ${x:-$(id)}, $(( $(id) + 1 ))).
func (b *builder) insideOf(n syntax.Node, depth int) []*Subst {
	var out []*Subst
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			out = append(out, b.subst(n, depth))
			return false
		}
		return true
	})
	return out
}

// nested is the text a simple command runs as a script: a shell's -c
// string ([ShellText]), what [RunsText] reads (eval's words joined,
// trap's action, su -c's text ...), or, read widely, the -c string of a
// shell word further on ("env bash -c T", "xargs sh -c T", "nice bash -lc
// T"). The words must be static up to the text; eval's, all of them.
func (b *builder) nested(n *Stmt) *Nested {
	var argv []string
	for _, w := range n.Args {
		if !w.Static {
			break
		}
		argv = append(argv, w.Value)
	}
	if len(argv) == 0 {
		return nil
	}
	if t, ok := ShellText(argv); ok {
		return &Nested{Via: "-c", Text: t, owner: b.owner}
	}
	if len(argv) == len(n.Args) {
		if t, ok := RunsText(argv); ok {
			return &Nested{Via: path.Base(argv[0]), Text: t, owner: b.owner}
		}
	}
	for i := 1; i < len(argv); i++ {
		if IsShell(argv[i]) {
			if t, ok := ShellCText(argv[i:]); ok {
				return &Nested{Via: "-c", Text: t, owner: b.owner}
			}
		}
	}
	return nil
}

// setsOf are the names a tree assigns in arithmetic or by an
// expansion's default, in order, once each.
func setsOf(f *syntax.File) []string {
	var out []string
	add := func(name string) {
		name, _, _ = strings.Cut(name, "[")
		if name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	target := func(x syntax.ArithmExpr) {
		name := "?" // an assignment to a name spelled otherwise: any
		if w, ok := x.(*syntax.Word); ok {
			if lit := w.Lit(); lit != "" {
				name = lit
			} else if len(w.Parts) == 1 {
				if p, ok := w.Parts[0].(*syntax.ParamExp); ok && p.Param != nil && !p.Excl {
					name = p.Param.Value // "a[1]" in arithmetic
				}
			}
		}
		add(name)
	}
	for n := range syntax.Preorder(f) {
		switch n := n.(type) {
		case *syntax.BinaryArithm:
			switch op := n.Op.String(); {
			case op == "==" || op == "!=" || op == "<=" || op == ">=":
			case strings.HasSuffix(op, "="):
				target(n.X)
			}
		case *syntax.UnaryArithm:
			if n.Op == syntax.Inc || n.Op == syntax.Dec {
				target(n.X)
			}
		case *syntax.ParamExp:
			if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) && n.Param != nil {
				add(n.Param.Value)
			}
		}
	}
	return out
}

// scope sets the reach of the statement's changes to the shell's state,
// and those of the statements inside it, as bash scopes them.
func (s *Stmt) scope(r Reach) {
	if s.Background || s.Kind == KindCoproc || s.Kind == KindSubshell {
		r = ReachInside.Within(r)
	}
	s.Scope = r
	inside := func(ss []*Subst) {
		for _, sub := range ss {
			for _, c := range sub.Stmts {
				c.scope(ReachInside)
			}
		}
	}
	word := func(w *Word) {
		if w != nil {
			inside(w.Substs)
		}
	}
	for _, a := range s.Assigns {
		a.Reach = r
		if s.Kind == KindCall && len(s.Args) > 0 {
			a.Reach = ReachCommand
		}
		word(a.Value)
		inside(a.Substs)
	}
	for _, w := range s.Args {
		word(w)
	}
	inside(s.Substs)
	for _, rd := range s.Redirs {
		word(rd.Target)
		word(rd.Heredoc)
	}
	switch s.Kind {
	case KindAnd, KindOr:
		s.Children[0].scope(r)
		s.Children[1].scope(ReachMaybe.Within(r))
	case KindPipe, KindPipeAll:
		// bash runs each element of a pipeline in a subshell (lastpipe,
		// which runs the last in this shell, is a shell option the
		// text's readers ask about).
		for _, c := range s.Children {
			c.scope(ReachInside)
		}
	case KindBlock, KindTime, KindSubshell, KindCoproc:
		for _, c := range s.Children {
			c.scope(r)
		}
	default:
		for _, c := range s.Children {
			c.scope(ReachMaybe.Within(r))
		}
	}
}

// All visits every statement of the form in source order, parents before
// their children: joined and nested statements, function bodies, and the
// statements of every substitution (in words, redirects, assignments,
// here-documents and clauses). Nested shell texts are not entered: they
// are Scripts of their own ([Nested.Script]).
func (f *Form) All() iter.Seq[*Stmt] {
	return func(yield func(*Stmt) bool) {
		for _, s := range f.Stmts {
			if !s.all(yield) {
				return
			}
		}
	}
}

// All visits s and every statement inside it, as [Form.All] does.
func (s *Stmt) All() iter.Seq[*Stmt] {
	return func(yield func(*Stmt) bool) { s.all(yield) }
}

func (s *Stmt) all(yield func(*Stmt) bool) bool {
	if !yield(s) {
		return false
	}
	substs := func(ss []*Subst) bool {
		for _, sub := range ss {
			for _, c := range sub.Stmts {
				if !c.all(yield) {
					return false
				}
			}
		}
		return true
	}
	word := func(w *Word) bool { return w == nil || substs(w.Substs) }
	for _, a := range s.Assigns {
		if !word(a.Value) || !substs(a.Substs) {
			return false
		}
	}
	for _, w := range s.Args {
		if !word(w) {
			return false
		}
	}
	if !substs(s.Substs) {
		return false
	}
	for _, c := range s.Children {
		if !c.all(yield) {
			return false
		}
	}
	for _, r := range s.Redirs {
		if !word(r.Target) || !word(r.Heredoc) {
			return false
		}
	}
	return true
}

// Events visits the form's statements and redirects in the order the
// syntax tree holds them, which is the order a walk of the tree meets
// them: a statement (r nil), then the statements inside it (those of
// its words' substitutions, its bodies), then each of its redirects (s
// its statement) followed by the statements of that redirect's own
// substitutions. A reader whose result depends on the order (the
// collector's list of commands) reads it here.
func (f *Form) Events() iter.Seq2[*Stmt, *Redir] {
	return func(yield func(*Stmt, *Redir) bool) {
		for _, s := range f.Stmts {
			if !s.events(yield) {
				return
			}
		}
	}
}

func (s *Stmt) events(yield func(*Stmt, *Redir) bool) bool {
	if !yield(s, nil) {
		return false
	}
	r := 0
	for i, c := range s.inside {
		for ; r < len(s.Redirs) && s.Redirs[r].at <= i; r++ {
			if !yield(s, s.Redirs[r]) {
				return false
			}
		}
		if !c.events(yield) {
			return false
		}
	}
	for ; r < len(s.Redirs); r++ {
		if !yield(s, s.Redirs[r]) {
			return false
		}
	}
	return true
}

// Words visits every word of the form, in the statements [Form.All]
// visits: assignment values and array elements, a command's words, a
// clause's words, redirect targets and here-document bodies.
func (f *Form) Words() iter.Seq[*Word] {
	return func(yield func(*Word) bool) {
		for s := range f.All() {
			var ws []*Word
			for _, a := range s.Assigns {
				if a.Value != nil {
					ws = append(ws, a.Value)
				}
				ws = append(ws, a.Elems...)
			}
			ws = append(ws, s.Args...)
			ws = append(ws, s.Inner...)
			for _, r := range s.Redirs {
				if r.Target != nil {
					ws = append(ws, r.Target)
				}
				if r.Heredoc != nil {
					ws = append(ws, r.Heredoc)
				}
			}
			for _, w := range ws {
				if !yield(w) {
					return
				}
			}
		}
	}
}

// Redirs visits every redirect of the form, with its statement.
func (f *Form) Redirs() iter.Seq2[*Stmt, *Redir] {
	return func(yield func(*Stmt, *Redir) bool) {
		for s := range f.All() {
			for _, r := range s.Redirs {
				if !yield(s, r) {
					return
				}
			}
		}
	}
}
