// Package glob is the one reading of bash's glob patterns that agentgate
// judges with: whether a word could expand to a name, which names on disk
// it expands to, whether two patterns could meet on one name.
//
// It speaks bash 5's dialect for one path component, as filename expansion
// uses it with the default options (extglob, nocaseglob, dotglob and
// globstar off, globasciiranges on):
//
//   - "*" any run of characters, "?" any one character;
//   - brackets: "[abc]", ranges "[a-z]", negation by "!" or "^" ("[!x]",
//     "[^x]"), "]" first in a bracket is literal ("[]n]"), POSIX classes
//     ("[[:alpha:]]"), equivalence classes ("[[=e=]]") and collating
//     symbols ("[[.e.]]"), backslash escapes;
//   - a leading "." of a name is matched only by a literal "." (see
//     [Pattern.MatchName]).
//
// Where the dialect depends on the locale (classes beyond ASCII,
// equivalence classes) or on what this package does not read (an unknown
// class name, an unterminated bracket), a pattern is read wider than bash
// reads it, never narrower: an unparsed bracket is "*". A gate that asks
// "could this word name .env" must never hear "no" when bash would say yes.
package glob

import (
	"strings"
	"unicode/utf8"
)

// maxRune is the largest character a name can hold.
const maxRune = utf8.MaxRune

// span is a closed range of characters.
type span struct{ lo, hi rune }

// set is a sorted list of disjoint spans: the characters one position of a
// pattern may take.
type set []span

var anyChar = set{{0, maxRune}}

// token is one position of a pattern: a star, or one character from a set.
type token struct {
	star bool
	set  set
	// dot reports whether the token can match a literal "." at the start
	// of a name: only a literal "." can (bash's rule with dotglob off);
	// here a bracket holding "." counts too, which is wider than bash.
	dot bool
}

// Pattern is one path component's glob, parsed.
type Pattern struct {
	toks []token
	// meta is set when the text held any glob character bash would
	// expand; a pattern without one is a literal name.
	meta bool
	lit  string
	// plain is the name a pattern without glob characters matches
	// (its text with escapes removed).
	plain string
}

// Compile parses one path component (no "/") as bash reads it, a
// backslash escaping the character after it.
func Compile(s string) Pattern { return compile(s, true) }

// CompileValue parses a word's value after quote removal, when which of
// its characters were quoted is not known: every glob character counts as
// one, and a backslash is a character (it was quoted, or bash would have
// removed it). This reads the word wider than bash does, never narrower.
func CompileValue(s string) Pattern { return compile(s, false) }

func compile(s string, escapes bool) Pattern {
	if !strings.ContainsAny(s, "*?[\\") {
		// A literal name: matched by its text, no tokens needed (most
		// components of the protected and sensitive paths, compiled on
		// every call).
		return Pattern{lit: s, plain: s}
	}
	p := Pattern{lit: s}
	var plain strings.Builder // the name, bytes as written, escapes removed
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		switch c {
		case '*':
			p.meta = true
			if len(p.toks) == 0 || !p.toks[len(p.toks)-1].star {
				p.toks = append(p.toks, token{star: true})
			}
			i += n
		case '?':
			p.meta = true
			p.toks = append(p.toks, token{set: anyChar})
			i += n
		case '[':
			t, m, ok := bracket(s[i+1:], escapes)
			p.meta = true
			if !ok {
				// bash takes an unterminated bracket literally, and one
				// this package does not read may end anywhere: the rest
				// of the component is "*", which may also start a name
				// with ".".
				p.toks = append(p.toks, token{star: true, dot: true})
				return p
			}
			p.toks = append(p.toks, t)
			i += 1 + m
		case '\\':
			if escapes && i+n < len(s) {
				i += n
				c, n = utf8.DecodeRuneInString(s[i:])
			}
			p.toks = append(p.toks, literal(c))
			plain.WriteString(s[i : i+n])
			i += n
		default:
			p.toks = append(p.toks, literal(c))
			plain.WriteString(s[i : i+n])
			i += n
		}
	}
	p.plain = plain.String()
	return p
}

func literal(c rune) token { return token{set: set{{c, c}}, dot: c == '.'} }

// Meta reports whether s holds a character bash's filename expansion reads
// as a glob: "*", "?" or "[" (a lone "[" counts: see [Compile]).
func Meta(s string) bool { return strings.ContainsAny(s, "*?[") }

// IsLiteral reports whether the pattern matches only its own text.
func (p Pattern) IsLiteral() bool { return !p.meta }

// String is the pattern's text.
func (p Pattern) String() string { return p.lit }

// Match reports whether name matches the pattern, dot files included
// (as with dotglob, and as [[ ]] and case match).
func (p Pattern) Match(name string) bool { return p.match(name, false) }

// MatchName reports whether filename expansion of the pattern yields name:
// a leading "." of name must be matched by a literal ".".
func (p Pattern) MatchName(name string) bool { return p.match(name, true) }

func (p Pattern) match(name string, dotRule bool) bool {
	if !p.meta {
		return p.plain == name
	}
	rs := []rune(name)
	if dotRule && len(rs) > 0 && rs[0] == '.' && (len(p.toks) == 0 || !p.toks[0].dot) {
		return false
	}
	// Classic backtracking over the last star: linear for one star,
	// O(len(p)*len(name)) at worst.
	ti, ri, starT, starR := 0, 0, -1, 0
	for ri < len(rs) {
		if ti < len(p.toks) {
			t := p.toks[ti]
			if t.star {
				starT, starR = ti, ri
				ti++
				continue
			}
			if t.set.has(rs[ri]) {
				ti++
				ri++
				continue
			}
		}
		if starT < 0 {
			return false
		}
		starR++
		ri = starR
		ti = starT + 1
	}
	for ti < len(p.toks) && p.toks[ti].star {
		ti++
	}
	return ti == len(p.toks)
}

// Intersects reports whether some name matches both patterns. With
// dotRule, a's matches are filename expansions (a leading "." only by a
// literal "."), b's are names as they are: "could the word a expand to a
// name that the sensitive pattern b covers".
func Intersects(a, b Pattern, dotRule bool) bool {
	if !a.meta && !b.meta {
		return a.plain == b.plain
	}
	if !a.meta {
		return b.Match(a.plain)
	}
	if !b.meta {
		return a.match(b.plain, dotRule)
	}
	// A search over pairs of positions: (i, j, consumed) where consumed
	// says a character was already produced (the dot rule binds the
	// first one only).
	type state struct {
		i, j     int
		consumed bool
	}
	seen := map[state]bool{}
	stack := []state{{0, 0, false}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		if s.i == len(a.toks) && s.j == len(b.toks) {
			return true
		}
		var ta, tb *token
		if s.i < len(a.toks) {
			ta = &a.toks[s.i]
		}
		if s.j < len(b.toks) {
			tb = &b.toks[s.j]
		}
		if ta != nil && ta.star {
			stack = append(stack, state{s.i + 1, s.j, s.consumed}) // empty
		}
		if tb != nil && tb.star {
			stack = append(stack, state{s.i, s.j + 1, s.consumed})
		}
		if ta == nil || tb == nil {
			continue
		}
		// One character produced by both.
		ca, cb := ta.set, tb.set
		if ta.star {
			ca = anyChar
		}
		if tb.star {
			cb = anyChar
		}
		if dotRule && !s.consumed && !ta.dot {
			ca = ca.without('.')
		}
		if !ca.meets(cb) {
			continue
		}
		ni, nj := s.i+1, s.j+1
		if ta.star {
			ni = s.i
		}
		if tb.star {
			nj = s.j
		}
		stack = append(stack, state{ni, nj, true})
	}
	return false
}

func (s set) has(c rune) bool {
	for _, sp := range s {
		if c < sp.lo {
			return false
		}
		if c <= sp.hi {
			return true
		}
	}
	return false
}

func (s set) meets(t set) bool {
	i, j := 0, 0
	for i < len(s) && j < len(t) {
		switch {
		case s[i].hi < t[j].lo:
			i++
		case t[j].hi < s[i].lo:
			j++
		default:
			return true
		}
	}
	return false
}

func (s set) without(c rune) set {
	if !s.has(c) {
		return s
	}
	var out set
	for _, sp := range s {
		if c < sp.lo || c > sp.hi {
			out = append(out, sp)
			continue
		}
		if sp.lo < c {
			out = append(out, span{sp.lo, c - 1})
		}
		if c < sp.hi {
			out = append(out, span{c + 1, sp.hi})
		}
	}
	return out
}

// Escape quotes the glob characters of a name, so that [Compile] reads it
// as the literal name.
func Escape(name string) string {
	if !strings.ContainsAny(name, "*?[\\") {
		return name
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if strings.IndexByte("*?[\\", name[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(name[i])
	}
	return b.String()
}
