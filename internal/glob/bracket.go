package glob

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// bracket parses a bracket expression after its "[": it returns the token,
// how many bytes it took up to and including the closing "]", and false
// when there is no closing "]" (bash then reads the "[" literally) or the
// bracket is not read here.
func bracket(s string, escapes bool) (token, int, bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		neg = true
		i++
	}
	var pos set
	fuzzy := false // some characters beyond ASCII may match, which ones depends on the locale
	all := false   // a part this package does not read: any character
	first := true
	for {
		if i >= len(s) {
			return token{}, 0, false
		}
		c, n := utf8.DecodeRuneInString(s[i:])
		if c == ']' && !first {
			i += n
			break
		}
		first = false
		lo := c
		switch {
		case c == '[' && i+1 < len(s) && strings.ContainsRune(":=.", rune(s[i+1])):
			kind := s[i+1]
			end := strings.Index(s[i+2:], string(kind)+"]")
			if end < 0 {
				break // "[:" with no ":]": bash reads "[" as a character
			}
			name := s[i+2 : i+2+end]
			i += 2 + end + 2
			switch kind {
			case ':':
				cs, f, ok := class(name)
				if !ok {
					all = true
				}
				pos = append(pos, cs...)
				fuzzy = fuzzy || f
			case '=', '.':
				// bash 5.2 reads equivalence classes and collating symbols
				// in ways this package does not follow ("[[=.=]][[=e=]]"
				// matches "[" and "]"): where the bracket ends is not
				// known, so the caller reads the rest as "*".
				return token{}, 0, false
			}
			continue
		case c == '\\' && escapes && i+n < len(s):
			i += n
			lo, n = utf8.DecodeRuneInString(s[i:])
		}
		i += n
		hi := lo
		// A range "a-z"; a "-" last or first is literal.
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			h, hn := utf8.DecodeRuneInString(s[i+1:])
			skip := 1 + hn
			if h == '\\' && escapes && i+1+hn < len(s) {
				h, hn = utf8.DecodeRuneInString(s[i+1+hn:])
				skip += hn
			}
			if h == '[' && i+2 < len(s) && strings.ContainsRune(":=.", rune(s[i+2])) {
				all = true // a range ending in a class: not read here
			}
			hi = h
			i += skip
		}
		if lo <= hi {
			pos = append(pos, span{lo, hi})
		}
	}
	pos = normalize(pos)
	out := pos
	if neg {
		out = complement(pos)
	}
	if fuzzy {
		out = normalize(append(out, span{0x80, maxRune}))
	}
	if all {
		out = anyChar
	}
	return token{set: out, dot: out.has('.')}, i, true
}

// class returns the characters of a POSIX class in ASCII, whether
// characters beyond ASCII may belong to it too, and false for a name bash
// does not know.
func class(name string) (set, bool, bool) {
	switch name {
	case "alpha":
		return set{{'A', 'Z'}, {'a', 'z'}}, true, true
	case "digit":
		return set{{'0', '9'}}, false, true
	case "alnum":
		return set{{'0', '9'}, {'A', 'Z'}, {'a', 'z'}}, true, true
	case "word":
		return set{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}, true, true
	case "upper":
		return set{{'A', 'Z'}}, true, true
	case "lower":
		return set{{'a', 'z'}}, true, true
	case "space":
		return set{{'\t', '\r'}, {' ', ' '}}, true, true
	case "blank":
		return set{{'\t', '\t'}, {' ', ' '}}, true, true
	case "punct":
		return set{{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}}, true, true
	case "print":
		return set{{' ', '~'}}, true, true
	case "graph":
		return set{{'!', '~'}}, true, true
	case "cntrl":
		return set{{0, 0x1f}, {0x7f, 0x7f}}, true, true
	case "xdigit":
		return set{{'0', '9'}, {'A', 'F'}, {'a', 'f'}}, false, true
	}
	return nil, true, false
}

func normalize(s set) set {
	if len(s) == 0 {
		return s
	}
	sort.Slice(s, func(i, j int) bool { return s[i].lo < s[j].lo })
	out := s[:1]
	for _, sp := range s[1:] {
		last := &out[len(out)-1]
		if sp.lo <= last.hi+1 {
			if sp.hi > last.hi {
				last.hi = sp.hi
			}
			continue
		}
		out = append(out, sp)
	}
	return out
}

func complement(s set) set {
	var out set
	next := rune(0)
	for _, sp := range s {
		if sp.lo > next {
			out = append(out, span{next, sp.lo - 1})
		}
		next = sp.hi + 1
	}
	if next <= maxRune {
		out = append(out, span{next, maxRune})
	}
	return out
}
