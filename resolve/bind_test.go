package resolve_test

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentgate/agentgate/resolve"
)

// An approval's binding changes with every swap a red team made between
// the question and the run, and with nothing else.
func TestBinding(t *testing.T) {
	w := newWorld(t)
	os.MkdirAll(w.proj+"/sub", 0o755)
	note := func(p string) {
		os.Remove(p)
		os.WriteFile(p, []byte("a note"), 0o644)
	}
	for _, tt := range []struct {
		name string
		segs [][]string
		swap func()
	}{
		{"hard link, same name", [][]string{{"cat", "notes.txt"}}, func() {
			os.Remove(w.proj + "/notes.txt")
			os.Link(w.home+"/.ssh/id_ed25519", w.proj+"/notes.txt")
		}},
		{"glob", [][]string{{"cat", "note[s].txt"}}, func() {
			os.Remove(w.proj + "/notes.txt")
			os.Symlink(w.home+"/.ssh/id_ed25519", w.proj+"/notes.txt")
		}},
		{"after cd", [][]string{{"cd", "sub"}, {"cat", "n.txt"}}, func() {
			os.Remove(w.proj + "/sub/n.txt")
			os.Symlink(w.home+"/.ssh/id_ed25519", w.proj+"/sub/n.txt")
		}},
		{"edited script", [][]string{{"sh", "./build.sh"}}, func() {
			os.WriteFile(w.proj+"/build.sh", []byte("touch pwned\n"), 0o644)
		}},
		{"redirect target made", [][]string{{"cat", "notes.txt"}, {"copy.txt"}}, func() {
			os.Symlink(w.home+"/.bashrc", w.proj+"/copy.txt")
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			note(w.proj + "/notes.txt")
			note(w.proj + "/sub/n.txt")
			os.Remove(w.proj + "/copy.txt")
			os.WriteFile(w.proj+"/build.sh", []byte("echo build\n"), 0o644)
			old := time.Now().Add(-time.Hour)
			os.Chtimes(w.proj+"/build.sh", old, old)
			before := resolve.Binding(w.opts(), tt.segs)
			if again := resolve.Binding(w.opts(), tt.segs); !slices.Equal(before, again) {
				t.Fatalf("nothing changed, yet the binding did:\n%q\n%q", before, again)
			}
			tt.swap()
			if after := resolve.Binding(w.opts(), tt.segs); slices.Equal(before, after) {
				t.Errorf("the binding did not change with the swap: %q", after)
			}
		})
	}
}

// What an escalated text does not show is found where each part runs,
// globs expanded.
func TestEscalated(t *testing.T) {
	w := newWorld(t)
	os.MkdirAll(w.proj+"/sub", 0o755)
	os.Symlink(w.home+"/.ssh/id_ed25519", w.proj+"/sub/n.txt")
	os.WriteFile(w.proj+"/plain.txt", []byte("x"), 0o644)
	for _, tt := range []struct {
		segs [][]string
		want string
	}{
		{[][]string{{"cd", "sub"}, {"cat", "n.txt"}, {"touch", "done"}}, "id_ed25519"},
		{[][]string{{"cat", "sub/?.txt"}, {"touch", "done"}}, "id_ed25519"},
		{[][]string{{"cat", "plain.txt"}, {"touch", "done"}}, ""},
	} {
		why := resolve.Escalated(w.opts(), tt.segs)
		switch {
		case tt.want == "" && len(why) > 0:
			t.Errorf("%q: %v, want nothing", tt.segs, why)
		case tt.want != "" && (len(why) == 0 || !strings.Contains(why[0].Message, tt.want)):
			t.Errorf("%q: %v, want a reason naming %s", tt.segs, why, tt.want)
		}
	}
}
