// Package visible makes command text safe to show on a terminal: every
// character that a terminal would hide, move the cursor for, or reorder is
// replaced by a visible escape, so that "ls\rrm -rf ~" can never display as
// "rm -rf ~", nor the reverse.
package visible

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s with control characters, escape sequences, invisible
// and bidirectional Unicode characters and invalid UTF-8 bytes written as
// escapes: "\r", "\n", "\t", "\x1b", "\u202e", "\xff". A backslash is left
// as it is unless it could be mistaken for one of these escapes, in which
// case it is doubled.
func String(s string) string {
	if plain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\' && i+1 < len(s) && strings.IndexByte(`nrtxu\`, s[i+1]) >= 0:
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case Hidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// Hidden reports whether r, outside ASCII, is a character a terminal does
// not show for what it is: C1 controls, format characters (bidirectional
// overrides and isolates, zero-width spaces and joiners, the byte-order
// mark), line and paragraph separators, private-use, surrogate and
// unassigned code points, and spaces other than the ASCII space.
func Hidden(r rune) bool {
	if r < 0x80 {
		return false
	}
	if unicode.Is(unicode.Zs, r) {
		return true
	}
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S)
}

func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return false
		}
	}
	return true
}
