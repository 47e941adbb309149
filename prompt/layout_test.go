package prompt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
)

// Whatever the size of the terminal and the command, the frame fits the
// width, keeps the choices, the reasons and the severity warning, and
// shows the command's first and last lines.
func TestFrameFits(t *testing.T) {
	for _, n := range []int{1, 5, 30, 65, 200} {
		var lines []string
		for i := range n {
			lines = append(lines, fmt.Sprintf("echo %d %s", i, strings.Repeat("long ", i%40)))
		}
		lines[n-1] = "rm -rf ~/TAIL"
		q := Question{Command: strings.Join(lines, `\n`), Cwd: "/w", Why: []string{"REASON"}, Severity: "SEVERE", Shell: strings.Repeat("command: x\n", n), AlwaysPrefix: "echo"}
		for _, size := range [][2]int{{80, 24}, {120, 40}, {40, 20}, {200, 60}} {
			v := &view{title: "agentgate: run this command?", q: &q, p: newPicker(approvalOptions(q)), scroll: 1 << 30}
			rows := v.frame(size[0], size[1])
			all := strings.Join(rows, "\n")
			if len(rows) > size[1]-1 && n > 5 {
				t.Errorf("%d lines at %v: %d rows", n, size, len(rows))
			}
			for _, r := range rows {
				if w := runewidth.StringWidth(r); w > size[0]-1 {
					t.Errorf("%d lines at %v: row of width %d: %q", n, size, w, r)
				}
			}
			for _, want := range []string{"TAIL", "REASON", "SEVERE", "Deny for this session", "Always allow"} {
				if !strings.Contains(all, want) {
					t.Errorf("%d lines at %v: no %q in\n%s", n, size, want, all)
				}
			}
			if n > 1 && !strings.Contains(all, fmt.Sprintf("command (%d lines", n)) {
				t.Errorf("%d lines at %v: no line count", n, size)
			}
			if n > 1 && !strings.Contains(all, "echo 0") {
				t.Errorf("%d lines at %v: first line not shown", n, size)
			}
		}
	}
}

// Only options that deny have single keys, and Deny comes first.
func TestOptionsKeys(t *testing.T) {
	for _, opts := range [][]option{approvalOptions(Question{AlwaysPrefix: "x"}), alwaysOptions("x")} {
		if opts[0].choice != Deny {
			t.Errorf("first option %v", opts[0].choice)
		}
		for _, o := range opts {
			if o.choice.Allows() && (o.key != 0 || o.word == "") {
				t.Errorf("%q allows: it needs a word and no key", o.label)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("an allowing option with a key was accepted")
		}
	}()
	newPicker([]option{{choice: Deny}, {choice: AllowOnce, key: 'a'}})
}

func TestDecodeKey(t *testing.T) {
	tests := []struct {
		in    string
		final bool
		kind  keyKind
		n     int
	}{
		{"\x1b[A", false, keyUp, 3},
		{"\x1bOB", false, keyDown, 3},
		{"\x1b[5~", false, keyPgUp, 4},
		{"\x1b[6~x", false, keyPgDn, 4},
		{"\x1b", false, keyNone, 0},
		{"\x1b", true, keyEsc, 1},
		{"\x1b[", false, keyNone, 0},
		{"\x1bx", false, keyEsc, 1},
		{"\r", false, keyEnter, 1},
		{"\x03", false, keyCtrlC, 1},
		{"é", false, keyRune, 2},
		{"\xc3", false, keyNone, 0},
		{"\xff", false, keyOther, 1},
	}
	for _, tt := range tests {
		k, n := decodeKey([]byte(tt.in), tt.final)
		if k.kind != tt.kind || n != tt.n {
			t.Errorf("%q: %v,%d; want %v,%d", tt.in, k.kind, n, tt.kind, tt.n)
		}
	}
}

func TestTTYNr(t *testing.T) {
	nr, ok := ttyNr("123 (a b) c) S 1 123 123 34816 123 4194560")
	if !ok || nr != 34816 {
		t.Errorf("got %d %v", nr, ok)
	}
	if _, ok := ttyNr("garbage"); ok {
		t.Error("garbage parsed")
	}
}

// FuzzFrame: whatever the command, reasons and terminal size, laying out
// the prompt never panics, every row fits the width, and the choices are
// on screen.
func FuzzFrame(f *testing.F) {
	f.Add(`rm -rf /\necho x`, "why", 80, 24)
	f.Add(strings.Repeat(`a\n`, 300), strings.Repeat("r", 500), 20, 5)
	f.Add(`\\n\\\n`, "", 1, 1)
	f.Fuzz(func(t *testing.T, cmd, why string, w, h int) {
		w, h = 1+abs(w)%400, 1+abs(h)%200
		q := Question{Command: cmd, Cwd: "/w", Why: []string{why}, Shell: cmd, Severity: why}
		v := &view{title: "t", q: &q, p: newPicker(approvalOptions(q)), scroll: abs(h)}
		rows := v.frame(w, h)
		for _, r := range rows {
			if runewidth.StringWidth(r) > max(w-1, 20) {
				t.Fatalf("row %q wider than %d", r, w)
			}
		}
		if all := strings.Join(rows, "\n"); !strings.Contains(all, "> Deny") || !strings.Contains(all, "  Allow once") {
			t.Fatal("no choices")
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
