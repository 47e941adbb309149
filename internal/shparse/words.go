package shparse

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// This file is the one reading of a word of the parse: its value after
// quote removal, what bash would still expand in it, and its spelling as
// a template of plain variables. The gate, the resolver, the engine's plan
// and the inspector all read words here, so that no two of them can take
// one word two ways (the inspector once called "--opt=~/x" a literal
// while the gate knew bash expands that "~"). TestOneParser fails when
// another package imports mvdan.cc/sh/v3/expand.

// Static reports whether every part of w is a literal or a quoted
// literal, so that quote removal alone gives its value. Otherwise it names
// the first part that depends on state (a variable, an arithmetic
// expansion, an extended glob).
func Static(w *syntax.Word) (part string, ok bool) {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted:
			if p.Dollar && !plainANSIC(p.Value) {
				return DescribePart(p), false
			}
		case *syntax.Lit:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, lit := q.(*syntax.Lit); !lit {
					return DescribePart(q), false
				}
			}
		default:
			return DescribePart(p), false
		}
	}
	return "", true
}

// DescribePart names a part of a word that depends on state, for a
// reason shown to a person.
func DescribePart(p syntax.WordPart) string {
	switch p.(type) {
	case *syntax.ParamExp:
		return "a variable expansion"
	case *syntax.CmdSubst:
		return "a command substitution"
	case *syntax.ArithmExp:
		return "an arithmetic expansion"
	case *syntax.ProcSubst:
		return "a process substitution"
	case *syntax.ExtGlob:
		return "an extended glob"
	case *syntax.SglQuoted:
		return "an ANSI-C escape ($'...') that bash may read otherwise than agentgate"
	}
	return fmt.Sprintf("an expansion (%T)", p)
}

// UnreadableEscape returns the first $'...' in f whose escapes bash may
// read otherwise than agentgate (see [plainANSIC]), or "" when none: a
// text holding one cannot be read whole, so no mode may run it unasked.
func unreadableEscape(f *syntax.File) string {
	found := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if q, ok := n.(*syntax.SglQuoted); ok && found == "" && q.Dollar && !plainANSIC(q.Value) {
			found = "$'" + q.Value + "'"
		}
		return found == ""
	})
	return found
}

// plainANSIC reports whether every escape in the text of a $'...' word is
// one whose value agentgate and bash agree on, and none makes a NUL
// (where bash ends the word): \a \b \e \E \f \n \r \t \v \\ \' \" \?, \xH[H],
// an octal \N[N[N]] up to 255, \uH... and \UH... of a valid code point.
// bash also reads forms the parser's expander does not (a red team's
// $'\x{2e}env' was ".env" to bash and "\x{2e}env" to agentgate;
// $'.env\400x' is ".env" to bash, cut at the NUL), so anything else is
// not read as static.
func plainANSIC(raw string) bool {
	digits := func(i, max int, ok func(byte) bool, base int) (v, n int) {
		for n < max && i+1+n < len(raw) && ok(raw[i+1+n]) {
			v = v*base + hexValue(raw[i+1+n])
			n++
		}
		return v, n
	}
	isOct := func(c byte) bool { return c >= '0' && c <= '7' }
	isHex := func(c byte) bool { return hexValue(c) >= 0 && hexValue(c) < 16 }
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		if i+1 >= len(raw) {
			return false
		}
		i++
		c := raw[i]
		switch {
		case strings.IndexByte(`abeEfnrtv\'"?`, c) >= 0:
		case c == 'x':
			v, n := digits(i, 2, isHex, 16)
			if n == 0 || v == 0 {
				return false
			}
			i += n
		case isOct(c):
			v, n := digits(i-1, 3, isOct, 8)
			if v == 0 || v > 255 {
				return false
			}
			i += n - 1
		case c == 'u' || c == 'U':
			max := 4
			if c == 'U' {
				max = 8
			}
			v, n := digits(i, max, isHex, 16)
			if n == 0 || v == 0 || v > 0x10ffff || v >= 0xd800 && v <= 0xdfff {
				return false
			}
			i += n
		default:
			return false // \c, and escapes bash leaves as written
		}
	}
	return true
}

func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}

// Fields removes quotes from a static word (see [Static]) and expands its
// braces, which can make several fields; a brace expansion past
// [MaxBraceFields] is a [BudgetError], not expanded. A single plain
// literal with no backslash or brace is its own value, which saves the
// expander's cost in the common case. Globs and tildes are left as
// written.
func Fields(w *syntax.Word) ([]string, error) {
	if len(w.Parts) == 1 {
		if lit, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(lit.Value, "\\{") {
			return []string{lit.Value}, nil
		}
	}
	if _, ok := Static(w); !ok {
		return nil, fmt.Errorf("the word depends on state: its fields are not known from the text")
	}
	if n := BraceFields(w); n > MaxBraceFields {
		return nil, &BudgetError{What: "brace expansion", Limit: MaxBraceFields}
	}
	return expand.Fields(nil, w)
}

// Value is a word's value after quote removal, when no part of it
// depends on state (variables, substitutions) and it is one field; globs,
// braces and tildes are left as written (see [Expansion]).
func Value(w *syntax.Word) (string, bool) {
	if _, static := Static(w); !static {
		return "", false
	}
	fields, err := Fields(w)
	if err != nil || len(fields) != 1 {
		return "", false
	}
	return fields[0], true
}

// Values are the values of words (see [Value]); ok is false when one has
// no static value.
func Values(ws []*syntax.Word) ([]string, bool) {
	var out []string
	for _, w := range ws {
		v, ok := Value(w)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// Expansion names what bash still expands in an unquoted literal part of
// the word: "glob", "brace" or "tilde" ("" when nothing). A character
// escaped with a backslash ("\*.py") is literal; an escaped backslash is
// not an escape of what follows ("\\*" still globs). This is bash's
// exact reading; [Expansions] is the wider one.
func Expansion(w *syntax.Word, first bool) string {
	for i, p := range w.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		v := unescaped(lit.Value)
		switch {
		case strings.ContainsAny(v, "*?["):
			return "glob"
		case braces(v):
			return "brace"
		case i == 0 && strings.HasPrefix(v, "~"):
			return "tilde"
		case strings.Contains(v, "=~") || strings.Contains(v, ":~"):
			// bash expands a tilde after "=" or ":" in assignment-like
			// words (--opt=~/x).
			return "tilde"
		}
	}
	return ""
}

// Expansions are the kinds of expansion bash may still make of w, read
// widely, in the order the word's parts show them: "glob", "brace" and
// "tilde" for any unquoted "*", "?", "[", "{" or "}" (escaped or not, "{}"
// alone excepted: find -exec's placeholder) and a leading "~" or one
// after "=" or ":"; "variable", "substitution" and "arithmetic" for the
// parts that depend on state, quoted or not; "glob" for an extended glob;
// "escape" for a $'...' whose escapes bash may read otherwise (see
// [Static]).
// Split mode allows a word only when this is empty, and the inspector
// shows it.
func Expansions(w *syntax.Word) []string {
	var out []string
	note := func(k string) {
		for _, o := range out {
			if o == k {
				return
			}
		}
		out = append(out, k)
	}
	placeholder := len(w.Parts) == 1 && isLit(w.Parts[0], "{}")
	var visit func(parts []syntax.WordPart, quoted bool)
	visit = func(parts []syntax.WordPart, quoted bool) {
		for i, p := range parts {
			switch p := p.(type) {
			case *syntax.Lit:
				if quoted {
					continue
				}
				if strings.ContainsAny(p.Value, "*?[") {
					note("glob")
				}
				if strings.ContainsAny(p.Value, "{}") && !placeholder {
					note("brace")
				}
				if i == 0 && strings.HasPrefix(p.Value, "~") || strings.Contains(p.Value, "=~") || strings.Contains(p.Value, ":~") {
					note("tilde")
				}
			case *syntax.SglQuoted:
				if p.Dollar && !plainANSIC(p.Value) {
					note("escape")
				}
			case *syntax.DblQuoted:
				visit(p.Parts, true)
			case *syntax.ParamExp:
				note("variable")
			case *syntax.CmdSubst, *syntax.ProcSubst:
				note("substitution")
			case *syntax.ArithmExp:
				note("arithmetic")
			case *syntax.ExtGlob:
				note("glob")
			default:
				note(fmt.Sprintf("%T", p))
			}
		}
	}
	visit(w.Parts, false)
	if e := Expansion(w, false); e != "" {
		note(e) // never narrower than bash's exact reading
	}
	return out
}

// Strict is the first of [Expansions] that an unquoted literal part
// makes ("glob", "brace" or "tilde"), or bash's exact reading when none
// does: how split mode judges a static word.
func Strict(w *syntax.Word) string {
	for _, k := range Expansions(w) {
		switch k {
		case "glob", "brace", "tilde":
			return k
		}
	}
	return ""
}

func isLit(p syntax.WordPart, v string) bool {
	lit, ok := p.(*syntax.Lit)
	return ok && lit.Value == v
}

// braces reports whether bash may brace-expand a literal: a "{" with a
// later "}" and a "," or ".." between them ("{a,b}", "{1..3}"). "{}",
// "{x}" and "repos/{owner}/pulls" stay as written. It errs towards
// yes: the pair need not be matched.
func braces(s string) bool {
	open := strings.IndexByte(s, '{')
	if open < 0 {
		return false
	}
	end := strings.LastIndexByte(s, '}')
	if end < open {
		return false
	}
	inner := s[open+1 : end]
	return strings.ContainsRune(inner, ',') || strings.Contains(inner, "..")
}

// unescaped replaces every backslash and the character it escapes with
// "_", so that only the characters bash reads as special remain.
func unescaped(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' {
			b[i] = '_'
			if i+1 < len(b) {
				i++
				b[i] = '_'
			}
		}
	}
	return string(b)
}

// Template spells a word that holds plain variable expansions with its
// quotes removed and each expansion as ${NAME} ("$XDG_CONFIG_HOME"/x is
// ${XDG_CONFIG_HOME}/x), so that the path check can expand a leading one
// from the environment. Anything else (an operator inside ${...}, a
// command substitution, $'...') is not a template.
func Template(w *syntax.Word) (string, bool) {
	var b strings.Builder
	quoted := false
	var part func(p syntax.WordPart) bool
	part = func(p syntax.WordPart) bool {
		switch p := p.(type) {
		case *syntax.Lit:
			// Quote removal: bash drops the backslash of "\v" ($X\v is
			// ${X}v: a red team's "X=.en; cat $X\v" read .env while the
			// template said .en\v); inside double quotes only before $ ` " \
			// and a newline.
			b.WriteString(unbackslash(p.Value, quoted))
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			quoted = true
			defer func() { quoted = false }()
			for _, q := range p.Parts {
				if !part(q) {
					return false
				}
			}
		case *syntax.ParamExp:
			if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil ||
				p.Repl != nil || p.Names != 0 || p.Exp != nil {
				return false
			}
			b.WriteString("${" + p.Param.Value + "}")
		default:
			return false
		}
		return true
	}
	for _, p := range w.Parts {
		if !part(p) {
			return "", false
		}
	}
	return b.String(), true
}

// unbackslash is bash's quote removal of backslashes in a literal: every
// backslash escapes the character after it, and a backslash-newline is
// removed; inside double quotes only before $ ` " \ and a newline.
func unbackslash(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++ // a line continuation
		case !quoted || strings.IndexByte("$`\"\\", next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// LiteralNames are the names a word spells as "$NAME" or "${NAME}" in
// its literal text, quoted or escaped ('$HOME', "\$D", '$'HOME, $'\x24X'):
// bash leaves them as written, while a reader of the word's value as a
// string may take them for the variable (a red team's planted link named
// "$HOME" was read by "cat '$HOME'/notes" while the home's notes were
// judged). Expansions break the literal runs; none are read inside them.
func (w *Word) LiteralNames() []string {
	var names []string
	var run strings.Builder
	flush := func() {
		s := run.String()
		run.Reset()
		for i := strings.IndexByte(s, '$'); i >= 0; {
			rest := s[i+1:]
			braced := strings.HasPrefix(rest, "{")
			if braced {
				rest = rest[1:]
			}
			n := 0
			for n < len(rest) && (rest[n] == '_' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] >= 'a' && rest[n] <= 'z' || n > 0 && rest[n] >= '0' && rest[n] <= '9') {
				n++
			}
			if n > 0 && (!braced || strings.HasPrefix(rest[n:], "}")) {
				names = append(names, rest[:n])
			}
			next := strings.IndexByte(s[i+1:], '$')
			if next < 0 {
				break
			}
			i += 1 + next
		}
	}
	var walk func(parts []syntax.WordPart, quoted bool)
	walk = func(parts []syntax.WordPart, quoted bool) {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.Lit:
				run.WriteString(unbackslash(p.Value, quoted))
			case *syntax.SglQuoted:
				if v, ok := Value(&syntax.Word{Parts: []syntax.WordPart{p}}); ok {
					run.WriteString(v)
				} else {
					flush()
				}
			case *syntax.DblQuoted:
				walk(p.Parts, true)
			default:
				flush()
			}
		}
	}
	if w.w != nil {
		walk(w.w.Parts, false)
	}
	flush()
	return names
}
