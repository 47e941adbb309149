package prompt

import "unicode/utf8"

type keyKind int

const (
	keyNone keyKind = iota
	keyRune
	keyEnter
	keyUp
	keyDown
	keyPgUp
	keyPgDn
	keyHome
	keyEnd
	keyBackspace
	keyEsc
	keyCtrlC
	keyCtrlD
	keyCtrlU
	keyOther // a sequence or control byte that means nothing here
)

type key struct {
	kind keyKind
	r    rune
}

// decodeKey reads one key from the start of b and returns it with the
// number of bytes it used. n == 0 means b holds only the start of a key:
// more bytes are needed, unless none come (a lone ESC is the Esc key;
// the caller decides that after a short wait, with final set).
func decodeKey(b []byte, final bool) (key, int) {
	if len(b) == 0 {
		return key{}, 0
	}
	switch c := b[0]; {
	case c == 0x1b:
		return decodeEscape(b, final)
	case c == '\r' || c == '\n':
		return key{kind: keyEnter}, 1
	case c == 0x03:
		return key{kind: keyCtrlC}, 1
	case c == 0x04:
		return key{kind: keyCtrlD}, 1
	case c == 0x15:
		return key{kind: keyCtrlU}, 1
	case c == 0x7f || c == 0x08:
		return key{kind: keyBackspace}, 1
	case c < 0x20:
		return key{kind: keyOther}, 1
	case c < utf8.RuneSelf:
		return key{kind: keyRune, r: rune(c)}, 1
	}
	if !utf8.FullRune(b) && !final {
		return key{}, 0
	}
	r, n := utf8.DecodeRune(b)
	if r == utf8.RuneError {
		return key{kind: keyOther}, n
	}
	return key{kind: keyRune, r: r}, n
}

// decodeEscape reads ESC, or a CSI (ESC [) or SS3 (ESC O) sequence.
func decodeEscape(b []byte, final bool) (key, int) {
	if len(b) == 1 {
		if final {
			return key{kind: keyEsc}, 1
		}
		return key{}, 0
	}
	if b[1] != '[' && b[1] != 'O' {
		return key{kind: keyEsc}, 1 // Alt+key or a lone Esc followed by typing
	}
	// Parameters and intermediates, then one final byte in 0x40-0x7e.
	for i := 2; i < len(b); i++ {
		c := b[i]
		if c >= 0x40 && c <= 0x7e {
			return csiKey(string(b[2:i]), c), i + 1
		}
		if c < 0x20 || c > 0x3f && c < 0x40 || i > 32 {
			return key{kind: keyOther}, i
		}
	}
	if final {
		return key{kind: keyOther}, len(b)
	}
	return key{}, 0
}

func csiKey(params string, final byte) key {
	switch final {
	case 'A':
		return key{kind: keyUp}
	case 'B':
		return key{kind: keyDown}
	case 'H':
		return key{kind: keyHome}
	case 'F':
		return key{kind: keyEnd}
	case '~':
		switch params {
		case "5":
			return key{kind: keyPgUp}
		case "6":
			return key{kind: keyPgDn}
		case "1", "7":
			return key{kind: keyHome}
		case "4", "8":
			return key{kind: keyEnd}
		}
	}
	return key{kind: keyOther}
}
