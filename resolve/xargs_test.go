package resolve_test

import (
	"strings"
	"testing"

	"github.com/agentgate/agentgate/internal/shparse"
	"github.com/agentgate/agentgate/resolve"
)

// What feeds xargs decides what it reads: a file lister's trees are judged
// like a recursive read, anything else cannot be (red team finding F14).
func TestXargsInputs(t *testing.T) {
	for _, tt := range []struct {
		text  string
		roots string
		blind bool
		found bool
	}{
		{"ls -la", "", false, false},
		{"find src -name '*.go' | xargs grep x", "src", false, true},
		{`find . -name "*.go" -type f | xargs wc -l`, ".", false, true},
		{"find -L a b -type f | xargs grep x", "a b", false, true},
		{"git ls-files | xargs wc -l", ".", false, true},
		{"rg --files src | xargs grep x", "src", false, true},
		{"ls | grep go | xargs wc -l", "", true, true},
		{"echo .env | xargs cat", "", true, true},
		{"cat list | xargs grep x", "", true, true},
		{"xargs grep x", "", true, true},
		{"ls; xargs grep x", "", true, true},
		{"find $HOME -type f | xargs grep x", "", true, true},
		{"find ~ -type f | xargs grep x", "", true, true},
		{"find src > /tmp/l | xargs grep x", "", true, true},
		{"find src | sudo xargs grep x", "", true, true},
		{"find -files0-from list -type f | xargs cat", "", true, true},
		// Every word as bash reads it: an escape, quotes or a path in
		// the program's name are still xargs; the roots are the values.
		{`find keys -type f | xarg\s cat`, "keys", false, true},
		{`find keys -type f | "/usr/bin/xargs" cat`, "keys", false, true},
		{`find ke\ys -type f | xargs cat`, "keys", false, true},
		{`find $'keys' -type f | xargs cat`, "keys", false, true},
		{`find k{e,}ys | xargs cat`, "", true, true},
		// The program's reading, not a guess: find's options before its
		// starting points, a shell string, xargs building paths.
		{"find -O3 /h -type f | xargs cat", "", true, true},
		{"find -- /h -type f | xargs cat", "", true, true},
		{"bash -c 'find src -type f | xargs cat'", "src", false, true},
		{"ls -d | xargs -I Q cat ../Qenv", "", true, true},
		{"find . | xargs cat < list", "", true, true},
		// Every text a command runs as a script is read, as the gate
		// reads it: eval's and trap's too (eval's text fed an xargs this
		// judge never saw, and bypass printed a secret).
		{"eval 'find src -type f | xargs cat'", "src", false, true},
		{"eval 'find . -type f -exec cat {} +'", ".", false, true},
		{"trap 'find src | xargs cat' EXIT", "src", false, true},
		{"find src | xargs sh -c 'find lib | xargs cat'", "lib src", false, true},
		// What the form cannot say may feed an xargs: asked.
		{strings.Repeat("( ", 30) + "ls" + strings.Repeat(" )", 30), "", true, true},
	} {
		roots, blind, found, _ := resolve.XargsInputs(shparse.Of(tt.text))
		if strings.Join(roots, " ") != tt.roots || blind != tt.blind || found != tt.found {
			t.Errorf("%q: roots %q blind %v found %v; want %q %v %v", tt.text, roots, blind, found, tt.roots, tt.blind, tt.found)
		}
	}
}
