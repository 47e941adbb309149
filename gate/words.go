package gate

import (
	"errors"
	"fmt"
	"strings"

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

// literalFile reports whether every word of the text's form is one word
// after expansion: no variable, substitution, glob or brace (a tilde
// expands to one word). Only then are the catalogue's pattern and string
// operands sure to be in the positions the program receives them. A form
// that leaves out a statement the parse holds is not literal; one of a
// text that does not parse is read as far as it parsed.
func literalFile(f *shparse.Form) bool {
	if f.Unknown || len(f.Stmts) == 0 && f.Err != "" {
		return false
	}
	for w := range f.Words() {
		if !w.Static {
			return false
		}
		if e := w.Expansion(false); e == "glob" || e == "brace" {
			return false
		}
	}
	return true
}

// ShellWords parses text, which must already be free of operators, as one
// bash simple command and returns its words after quote removal. It
// returns a reason to ask when the text is anything else: a parse error,
// an assignment prefix, a keyword construct, or a word bash would expand
// from variables.
func ShellWords(text string) (args []Arg, why Reason, ok bool) {
	return shellWords(shparse.Of(text))
}

// shellWords reads the text's form as one simple command.
func shellWords(sc *shparse.Script) (args []Arg, why Reason, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			args, ok = nil, false
			why = Reason{Check: CheckInternal, Message: fmt.Sprintf("internal error while reading the words: %v", r)}
		}
	}()
	if sc.Err != nil {
		return nil, Reason{Check: CheckWords, Match: "parse error", Message: "bash cannot parse it: " + sc.Err.Error()}, false
	}
	f := sc.Form()
	if len(f.Stmts) != 1 {
		return nil, Reason{Check: CheckWords, Match: "empty", Message: "not exactly one command"}, false
	}
	st := f.Stmts[0]
	switch {
	case st.Negated || st.Background || len(st.Redirs) > 0 || st.Kind != shparse.KindCall || !f.Complete():
		return nil, Reason{Check: CheckWords, Match: construct(st),
			Message: "not a simple command: " + construct(st)}, false
	case len(st.Assigns) > 0:
		return nil, Reason{Check: CheckWords, Match: st.Assigns[0].Name + "=",
			Message: "sets an environment variable for the command (" + st.Assigns[0].Name + "=...)"}, false
	}
	for i, w := range st.Args {
		a, why, ok := wordArg(w, i)
		if !ok && i > 0 && printsOnly(args[0].Value) && plainVariables(w) {
			// "echo $PATH": a variable of no secret, printed.
			a, ok = Arg{Value: w.Text, Expands: "variable"}, true
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
func wordArg(w *shparse.Word, i int) (Arg, Reason, bool) {
	src := w.Text
	if part := w.Dynamic(); part != "" {
		return Arg{}, Reason{Check: CheckWords, Match: src,
			Message: fmt.Sprintf("word %d (%s) contains %s, whose value the gate cannot know", i+1, src, part)}, false
	}
	fields, err := w.Fields()
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
	return Arg{Value: fields[0], Expands: w.Expansion(i == 0)}, Reason{}, true
}

// constructs name the kinds of statement for a reason.
var constructs = map[shparse.Kind]string{
	shparse.KindSubshell: "subshell ( )", shparse.KindBlock: "block { }", shparse.KindIf: "if clause",
	shparse.KindWhile: "while loop", shparse.KindUntil: "while loop", shparse.KindFor: "for loop",
	shparse.KindCase: "case clause", shparse.KindFunc: "function definition",
	shparse.KindArith: "arithmetic command (( ))", shparse.KindTest: "test clause [[ ]]",
	shparse.KindDecl: "declaration (export, declare, local ...)", shparse.KindLet: "let",
	shparse.KindTime: "time", shparse.KindCoproc: "coproc",
	shparse.KindAnd: "*syntax.BinaryCmd", shparse.KindOr: "*syntax.BinaryCmd",
	shparse.KindPipe: "*syntax.BinaryCmd", shparse.KindPipeAll: "*syntax.BinaryCmd",
	shparse.KindCall: "*syntax.CallExpr",
}

// construct names the kind of statement for a reason.
func construct(st *shparse.Stmt) string {
	switch {
	case st.Negated:
		return "negation (!)"
	case st.Background:
		return "background job (&)"
	case len(st.Redirs) > 0:
		return "redirection"
	case st.Kind == shparse.KindCall && len(st.Args) == 0 && len(st.Assigns) == 0:
		return "empty statement"
	case st.Kind == shparse.KindUnknown:
		if st.Unknown == "" {
			return "a statement past what agentgate reads"
		}
		return st.Unknown
	}
	return constructs[st.Kind]
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
func plainVariables(w *shparse.Word) bool {
	names, ok := w.PlainVars()
	for _, n := range names {
		if !publicVariables[n] {
			return false
		}
	}
	return ok
}
