package hook

import (
	"testing"

	"github.com/agentgate/agentgate/internal/shparse"
)

// Only the exact shell form Codex applies as a patch is read as one; a
// form bash would expand, or with anything more, stays a shell command.
func TestShellPatch(t *testing.T) {
	const p = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n"
	for _, tc := range []struct {
		text string
		ok   bool
	}{
		{"apply_patch <<'EOF'\n" + p + "EOF\n", true},
		{"applypatch <<\"PATCH\"\n" + p + "PATCH", true},
		{"apply_patch <<EOF\n" + p + "EOF\n", false},             // unquoted: bash would expand $(...)
		{"apply_patch <<-'EOF'\n\t" + p + "EOF\n", false},        // tab-stripping: another body
		{"apply_patch x <<'EOF'\n" + p + "EOF\n", false},         // another word
		{"apply_patch <<'EOF' > out\n" + p + "EOF\n", false},     // another redirect
		{"X=1 apply_patch <<'EOF'\n" + p + "EOF\n", false},       // an assignment
		{"apply_patch <<'EOF'\n" + p + "EOF\nrm -rf ~\n", false}, // another command
		{"cd sub && apply_patch <<'EOF'\n" + p + "EOF\n", false},
		{"apply_patch <<'EOF'\nno patch\nEOF\n", false},
		{"cat <<'EOF'\n" + p + "EOF\n", false},
	} {
		if _, ok := shellPatch(shparse.Of(tc.text)); ok != tc.ok {
			t.Errorf("shellPatch(%q) = %v, want %v", tc.text, ok, tc.ok)
		}
	}
}
