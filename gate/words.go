package gate

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentgate/agentgate/internal/shparse"
)

// Arg is one word of a command as the program will receive it.
type Arg struct {
	// Value is the word after shell quote removal.
	Value string
	// Expands says, when non-empty, that bash will still expand the word
	// before the program sees it (glob, brace or tilde), so Value is not
	// exactly what runs.
	Expands string
}

// mayBeFlag reports whether bash's expansion of the word could start with
// "-" even though its literal text does not: a glob or brace at its start
// can expand to a file named "--pre=./x". A word that starts with "-"
// counts too, for rules with argument exceptions, which match words.
func (a Arg) mayBeFlag() bool {
	return a.mayStartFlag() || a.Expands != "" && strings.HasPrefix(a.Value, "-")
}

// mayStartFlag reports whether the expansion of a word that does not
// start with "-" could: a glob or brace at its start, or "~+" and "~-"
// (the working and previous directories, which the environment sets).
// "~", "~/x" and "~user" expand to a home directory, "./*" and "/x*" to
// paths, and "--include=*.go" stays a value of the flag it starts with.
func (a Arg) mayStartFlag() bool {
	if a.Expands == "" || a.Value == "" {
		return false
	}
	if a.Value[0] == '~' {
		return strings.HasPrefix(a.Value, "~+") || strings.HasPrefix(a.Value, "~-")
	}
	return strings.ContainsRune("*?[{", rune(a.Value[0]))
}

// globbed reports whether bash may expand the word into several words.
func (a Arg) globbed() bool { return a.Expands == "glob" || a.Expands == "brace" }

// literalFile reports whether every word of the parsed text is one word
// after expansion: no variable, substitution, glob or brace (a tilde
// expands to one word). Only then are the catalogue's pattern and string
// operands sure to be in the positions the program receives them.
func literalFile(f *syntax.File) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if f == nil {
		return false
	}
	ok = true
	for n := range syntax.Preorder(f) {
		w, isWord := n.(*syntax.Word)
		if !isWord {
			continue
		}
		if _, static := shparse.Static(w); !static {
			return false
		}
		if e := shparse.Expansion(w, false); e == "glob" || e == "brace" {
			return false
		}
	}
	return ok
}

// ShellWords parses text, which must already be free of operators, as one
// bash simple command and returns its words after quote removal. It
// returns a reason to ask when the text is anything else: a parse error,
// an assignment prefix, a keyword construct, or a word bash would expand
// from variables.
func ShellWords(text string) (args []Arg, why Reason, ok bool) {
	f, err := parse(text)
	return shellWords(text, f, err)
}

// parse parses text as bash, with the one parser (shparse).
func parse(text string) (*syntax.File, error) { return shparse.Parse(text) }

func shellWords(text string, f *syntax.File, err error) (args []Arg, why Reason, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			args, ok = nil, false
			why = Reason{Check: CheckInternal, Message: fmt.Sprintf("internal error while reading the words: %v", r)}
		}
	}()
	if err != nil {
		return nil, Reason{Check: CheckWords, Match: "parse error", Message: "bash cannot parse it: " + err.Error()}, false
	}
	if len(f.Stmts) != 1 {
		return nil, Reason{Check: CheckWords, Match: "empty", Message: "not exactly one command"}, false
	}
	st := f.Stmts[0]
	call, isCall := st.Cmd.(*syntax.CallExpr)
	switch {
	case st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || !isCall:
		return nil, Reason{Check: CheckWords, Match: construct(st),
			Message: "not a simple command: " + construct(st)}, false
	case len(call.Assigns) > 0:
		return nil, Reason{Check: CheckWords, Match: call.Assigns[0].Name.Value + "=",
			Message: "sets an environment variable for the command (" + call.Assigns[0].Name.Value + "=...)"}, false
	}
	for i, w := range call.Args {
		a, why, ok := wordArg(text, w, i)
		if !ok && i > 0 && printsOnly(args[0].Value) && plainVariables(w) {
			// "echo $PATH": a variable of no secret, printed.
			a, ok = Arg{Value: text[w.Pos().Offset():w.End().Offset()], Expands: "variable"}, true
		}
		if !ok {
			return nil, why, false
		}
		args = append(args, a)
	}
	return args, Reason{}, true
}

// wordArg turns word i of a simple command into the argument the program
// receives, or says why the gate cannot know it: a part that depends on
// state, an expansion into several words, or a control character made by
// quoting such as $'\n'.
func wordArg(text string, w *syntax.Word, i int) (Arg, Reason, bool) {
	src := text[w.Pos().Offset():w.End().Offset()]
	if part, static := shparse.Static(w); !static {
		return Arg{}, Reason{Check: CheckWords, Match: src,
			Message: fmt.Sprintf("word %d (%s) contains %s, whose value the gate cannot know", i+1, src, part)}, false
	}
	fields, err := shparse.Fields(w)
	if be := (*BudgetError)(nil); errors.As(err, &be) {
		return Arg{}, Reason{Check: CheckWords, Match: src,
			Message: fmt.Sprintf("word %d (%s): %v", i+1, src, be)}, false
	}
	if err != nil || len(fields) != 1 {
		return Arg{}, Reason{Check: CheckWords, Match: src,
			Message: fmt.Sprintf("word %d (%s) expands to %d words", i+1, src, len(fields))}, false
	}
	// $'\n', $'\x1b' and the like are written plainly but make control
	// characters: judge the value, not just the text.
	for _, r := range fields[0] {
		if r != '\t' && (r == '\n' || r == '\r' || odd(r)) {
			return Arg{}, Reason{Check: CheckText, Match: src,
				Message: fmt.Sprintf("word %d (%s) holds a control or invisible character (%U)", i+1, src, r)}, false
		}
	}
	return Arg{Value: fields[0], Expands: shparse.Expansion(w, i == 0)}, Reason{}, true
}

// construct names the kind of statement for a reason.
func construct(st *syntax.Stmt) string {
	switch {
	case st.Negated:
		return "negation (!)"
	case st.Background:
		return "background job (&)"
	case st.Coprocess:
		return "coprocess"
	case len(st.Redirs) > 0:
		return "redirection"
	}
	switch st.Cmd.(type) {
	case *syntax.Subshell:
		return "subshell ( )"
	case *syntax.Block:
		return "block { }"
	case *syntax.IfClause:
		return "if clause"
	case *syntax.WhileClause:
		return "while loop"
	case *syntax.ForClause:
		return "for loop"
	case *syntax.CaseClause:
		return "case clause"
	case *syntax.FuncDecl:
		return "function definition"
	case *syntax.ArithmCmd:
		return "arithmetic command (( ))"
	case *syntax.TestClause:
		return "test clause [[ ]]"
	case *syntax.DeclClause:
		return "declaration (export, declare, local ...)"
	case *syntax.LetClause:
		return "let"
	case *syntax.TimeClause:
		return "time"
	case *syntax.CoprocClause:
		return "coproc"
	case nil:
		return "empty statement"
	}
	return fmt.Sprintf("%T", st.Cmd)
}

// printsOnly are the programs whose operands are only printed: a variable
// there is shown, not run or opened.
func printsOnly(prog string) bool { return prog == "echo" || prog == "printf" }

// publicVariables hold no secret by their nature: where things are and
// how the shell is set up. Anything else may hold a token (echo
// $GITHUB_TOKEN prints it to the model).
var publicVariables = map[string]bool{
	"PATH": true, "HOME": true, "PWD": true, "OLDPWD": true, "SHELL": true, "USER": true, "LOGNAME": true,
	"LANG": true, "LANGUAGE": true, "LC_ALL": true, "LC_CTYPE": true, "TERM": true, "TMPDIR": true,
	"HOSTNAME": true, "EDITOR": true, "VISUAL": true, "PAGER": true, "GOPATH": true, "GOROOT": true,
	"GOBIN": true, "JAVA_HOME": true, "NODE_ENV": true, "VIRTUAL_ENV": true, "CONDA_PREFIX": true,
	"PYTHONPATH": true, "XDG_CONFIG_HOME": true, "XDG_DATA_HOME": true, "XDG_STATE_HOME": true,
	"XDG_CACHE_HOME": true, "XDG_RUNTIME_DIR": true, "SHLVL": true, "COLUMNS": true, "LINES": true,
	"BASH_VERSION": true, "OSTYPE": true, "MACHTYPE": true, "HOSTTYPE": true,
}

// plainVariables reports whether w holds, beside literal text, only
// plain expansions of public variables ($PATH, ${HOME}, "$SHELL"): no
// operator (${X:-...}, ${#X}, ${!X}), index or substitution.
func plainVariables(w *syntax.Word) bool {
	seen := false
	var ok func(parts []syntax.WordPart) bool
	ok = func(parts []syntax.WordPart) bool {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.Lit, *syntax.SglQuoted:
			case *syntax.DblQuoted:
				if !ok(p.Parts) {
					return false
				}
			case *syntax.ParamExp:
				if p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil ||
					p.Names != 0 || p.Param == nil || !publicVariables[p.Param.Value] {
					return false
				}
				seen = true
			default:
				return false
			}
		}
		return true
	}
	return ok(w.Parts) && seen
}
