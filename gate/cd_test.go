package gate

import (
	"strings"
	"testing"
)

// TestReadCd is the one reading of a directory change, which the text
// flow, split mode and the resolver all follow.
func TestReadCd(t *testing.T) {
	for _, c := range []struct {
		argv     string
		target   string // "~" for home; "?" for unknown
		physical bool
		why      string
	}{
		{"cd sub", "sub", false, "one operand"},
		{"cd", "~", false, "no operand goes home"},
		{"cd -P sub", "sub", true, "-P follows links first"},
		{"cd -Pe d", "d", true, "options cluster, as bash reads them (a red team's -Pe was once a directory name)"},
		{"cd -PL d", "d", false, "the last of -P and -L wins"},
		{"cd -- -d", "-d", false, "-- ends the options"},
		{"cd -x d", "?", false, "an option agentgate does not read"},
		{"cd -", "?", false, "the previous directory, kept by the shell"},
		{"cd ~-/x", "?", false, "~- is the previous directory"},
		{"cd a b", "?", false, "several operands"},
		{"cd s*", "?", false, "a glob left in the target"},
		{"cd $D", "?", false, "a variable left in the target"},
		{"/usr/bin/cd sub", "sub", false, "by base name"},
		{"pushd sub", "sub", false, "pushd DIR goes to DIR"},
		{"pushd +1", "?", false, "rotates the stack"},
		{"pushd", "?", false, "swaps the stack"},
		{"pushd -n sub", "?", false, "only pushes"},
		{"popd", "?", false, "the stack"},
	} {
		step, ok := ReadCd(strings.Fields(c.argv))
		if !ok {
			t.Errorf("%s: not read as a directory change", c.argv)
			continue
		}
		got := step.Target
		switch {
		case step.Unknown != "":
			got = "?"
		case step.Home:
			got = "~"
		}
		if got != c.target || got != "?" && step.Physical != c.physical {
			t.Errorf("%s: target %q physical %v (%s), want %q physical %v: %s", c.argv, got, step.Physical, step.Unknown, c.target, c.physical, c.why)
		}
	}
	if _, ok := ReadCd([]string{"ls", "sub"}); ok {
		t.Error("ls read as a directory change")
	}
	for argv, want := range map[string]bool{"cd sub": true, "cd ./sub": false, "cd ../x": false, "cd /x": false, "cd ~/x": false, "cd": false, "cd .": false} {
		step, _ := ReadCd(strings.Fields(argv))
		if step.LooksUp() != want {
			t.Errorf("%s: looks up in CDPATH %v, want %v", argv, step.LooksUp(), want)
		}
	}
}
