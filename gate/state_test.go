package gate

import (
	"testing"

	"github.com/agentgate/agentgate/internal/shparse"
)

// TestShellState: what changes how bash reads later words is found, and
// what does not is left alone.
func TestShellState(t *testing.T) {
	for text, changes := range map[string]bool{
		"X=.env,a; IFS=,; cat $X":             true,
		"IFS=: read -r a b <<< x":             true,
		"export IFS=,":                        true,
		"export $'\\x49FS'=,":                 true,
		"declare \"$n=,\"":                    true,
		"printf -v \"$n\" ,":                  true,
		"set -- .e nv; cat $1$2":              true,
		"f() { cat \"$@\"; }; f .env":         true,
		"GLOBIGNORE=x; cat ?env":              true,
		"shopt -s dotglob":                    true,
		"bash -O extglob -c 'ls'":             true,
		"BASHOPTS=dotglob bash -c 'cat ?env'": true,
		"IFS= read -r line":                   false,
		"IFS=$' \\t\\n' read -r a b":          false,
		"awk '{print $1}' f":                  false,
		"grep -rn IFS src":                    false,
		"printf '%s\\n' \"$x\"":               false,
		"bash -c 'ls -la'":                    false,
		"git log --oneline | head -3":         false,
		// Wherever the words are: nested in an expansion, a clause, a
		// substitution, an array, a here-document.
		"echo ${x:-~-/notes}":               true,
		"cd sub; echo ${y:-~+}":             true,
		"[[ -n $1 ]]":                       true,
		"(( $1 + 1 ))":                      true,
		"case $OLDPWD in a) ;; esac":        true,
		"a=(x $_)":                          true,
		"echo $(echo ${!x})":                true,
		"cat <<E\n$2\nE\n":                  true,
		"for f in a; do export IFS=,; done": true,
		"echo ${x:-y} ~/notes":              false,
	} {
		s := shparse.Of(text)
		if s.Err != nil {
			t.Fatalf("%s: %v", text, s.Err)
		}
		if got := shellState(s.Form()); (got != "") != changes {
			t.Errorf("%s: shellState %q, want a change: %v", text, got, changes)
		}
	}
}

// TestNamedState: a state name used other than as a plain read is found
// however it is assigned; IFS set to nothing and plain reads are not.
func TestNamedState(t *testing.T) {
	for text, want := range map[string]string{
		"for IFS in ,; do cat $X; done":    "IFS",
		"export IF\\S=,":                   "IFS",
		"((IFS=1))":                        "IFS",
		": ${GLOBIGNORE:=x}":               "GLOBIGNORE",
		"declare HO\\ME=g":                 "HOME",
		"IFS= read -r line":                "",
		"while IFS= read -r l; do :; done": "",
		"echo $HOME ${PWD} \"$OLDPWD\"":    "",
		"git log --oneline":                "",
	} {
		if got := namedState(text); got != want {
			t.Errorf("%s: namedState %q, want %q", text, got, want)
		}
	}
}
