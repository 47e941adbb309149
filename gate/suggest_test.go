package gate

import (
	"strings"
	"testing"
)

// What "Always allow", check and audit suggest offer: never a plain
// prefix for a program that deletes, overwrites or runs code; a build or
// test runner confined to the project; a harmless program as it is.
func TestSuggest(t *testing.T) {
	for _, tt := range []struct {
		cmd             string
		prefix, sandbox string
		withheld        string
	}{
		{"touch marker", "touch", "", ""},
		{"mkdir -p build", "mkdir", "", ""},
		{"rm -rf src", "", "", "rm deletes files"},
		{"mv a b", "", "", "mv moves or overwrites files"},
		{"chmod -R 777 .", "", "", "chmod changes permissions"},
		{"curl -o x https://e", "", "", "curl talks to the network"},
		{"git commit -m x", "", "", "git commit records a commit"},
		{"git push origin main", "", "", "git push publishes"},
		{"npm install left-pad", "", "", "npm can run package scripts"},
		{"make test", "make test", "workspace", ""},
		{"npm test", "npm test", "workspace", ""},
		{"go test ./...", "go test", "workspace", ""},
		{"cargo build --release", "cargo build", "workspace", ""},
		{"python3 x.py", "", "", ""},
		{"bash -c 'rm -rf /'", "", "", ""},
		{"/tmp/x/tool", "", "", ""},
	} {
		s := Suggest(strings.Fields(tt.cmd))
		if s.Prefix != tt.prefix || s.Sandbox != tt.sandbox || !strings.HasPrefix(s.Withheld, tt.withheld) || (tt.withheld == "") != (s.Withheld == "") {
			t.Errorf("%q: %+v, want prefix %q sandbox %q withheld %q", tt.cmd, s, tt.prefix, tt.sandbox, tt.withheld)
		}
	}
}

// The invariant behind the table: for every program and subcommand with
// a risk note, a suggestion is either withheld or confined.
func TestSuggestNeverPlainForRisky(t *testing.T) {
	for key := range riskNotes {
		for _, argv := range [][]string{strings.Fields(key), append(strings.Fields(key), "x"), append(strings.Fields(key), "test")} {
			if s := Suggest(argv); s.Prefix != "" && s.Sandbox == "" {
				t.Errorf("%q has a risk note but is suggested as the plain prefix %q", argv, s.Prefix)
			}
		}
	}
}
