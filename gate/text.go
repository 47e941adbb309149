package gate

import (
	"fmt"
	"unicode/utf8"

	"github.com/agentgate/agentgate/internal/visible"
)

// MaxCommandBytes is the longest command text the gate judges. Anything
// longer is asked about: no agent needs 64 KiB in one command, and a human
// cannot review it at a glance.
const MaxCommandBytes = 64 << 10

// judgeText returns a reason to ask when the text cannot be judged: it is
// too long, is not UTF-8, or holds a byte or character that a terminal
// would hide or reinterpret. Tab, newline and carriage return are left to
// the operator check, which names them as command separators.
func judgeText(text string) (Reason, bool) {
	if len(text) > MaxCommandBytes {
		return Reason{Check: CheckText, Match: fmt.Sprintf("%d bytes", len(text)),
			Message: fmt.Sprintf("command is %d bytes, longer than the %d bytes the gate judges", len(text), MaxCommandBytes)}, true
	}
	if !utf8.ValidString(text) {
		return Reason{Check: CheckText, Match: "invalid UTF-8",
			Message: "command is not valid UTF-8"}, true
	}
	for i, r := range text {
		if r == '\t' || r == '\n' || r == '\r' {
			continue
		}
		if odd(r) {
			return Reason{Check: CheckText, Match: fmt.Sprintf("%U", r),
				Message: fmt.Sprintf("command holds an invisible or control character %U at byte %d", r, i)}, true
		}
	}
	return Reason{}, false
}

// odd reports whether r is a character a human reviewing the command
// might not see for what it is: C0 controls, DEL, and everything
// [visible.Hidden] reports (C1 controls, bidirectional and zero-width
// characters, unusual spaces, unassigned code points). The prompt escapes
// exactly these, so what the gate calls odd is what the human sees escaped.
func odd(r rune) bool {
	return r < 0x20 || r == 0x7f || visible.Hidden(r)
}
