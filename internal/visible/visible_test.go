package visible_test

import (
	"testing"

	"github.com/agentgate/agentgate/internal/visible"
)

func TestString(t *testing.T) {
	tests := map[string]string{
		"ls -la":            "ls -la",
		"ls\rrm -rf ~":      `ls\rrm -rf ~`,
		"a\nb\tc":           `a\nb\tc`,
		"\x1b[2Jclear":      `\x1b[2Jclear`,
		"x\u202ey":          `x\u202ey`,
		"l\u200bs":          `l\u200bs`,
		"a\u00a0b":          `a\u00a0b`,
		"\ufeffbom":         `\ufeffbom`,
		"bad\xffbyte":       `bad\xffbyte`,
		`literal \n stays`:  `literal \\n stays`,
		`C:\path`:           `C:\path`,
		"café ✓ 日本":         "café ✓ 日本",
		"\u0085next":        `\u0085next`,
		"del\x7f":           `del\x7f`,
		"nul\x00":           `nul\x00`,
		"line\u2028sep":     `line\u2028sep`,
		"private\ue000use":  `private\ue000use`,
		"combining e\u0301": "combining e\u0301",
	}
	for in, want := range tests {
		if got := visible.String(in); got != want {
			t.Errorf("String(%q) = %q; want %q", in, got, want)
		}
	}
}

// FuzzString: the output never holds a character a terminal would hide,
// and different inputs never look the same.
func FuzzString(f *testing.F) {
	f.Add("ls\rrm")
	f.Add(`ls\rrm`)
	f.Add("a\u202eb")
	f.Fuzz(func(t *testing.T, s string) {
		out := visible.String(s)
		for _, r := range out {
			if r < 0x20 || r == 0x7f || visible.Hidden(r) {
				t.Fatalf("String(%q) = %q holds %U", s, out, r)
			}
		}
		if s2 := s + "\r"; visible.String(s2) == out {
			t.Fatalf("%q and %q look the same", s, s2)
		}
	})
}
