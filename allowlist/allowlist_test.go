package allowlist_test

import (
	"fmt"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
)

func TestExceptionMatches(t *testing.T) {
	tests := []struct {
		exception string
		word      string
		want      bool
	}{
		{"--output", "--output", true},
		{"--output", "--output=x", true},
		{"--output", "--out=x", true},
		{"--output", "--o", true},
		{"--output", "--output-format=x", false},
		{"--output", "--", false},
		{"--output", "-o", false},
		{"--output", "output", false},
		{"-o", "-o", true},
		{"-o", "-ofile", true},
		{"-o", "-nro", true},
		{"-o", "--o", false},
		{"-o", "-", false},
		{"-o", "o", false},
		{"-delete", "-delete", true},
		{"-delete", "-deletex", false},
		{"-delete", "--delete", false},
		{"-fprint", "-fprint0", false},
		{allowlist.Positional, "name", true},
		{allowlist.Positional, "-v", false},
		{"ext", "ext", true},
		{"ext", "ext=1", true},
		{"ext", "extra", false},
	}
	for _, tt := range tests {
		e, err := allowlist.ParseException(tt.exception, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Matches(tt.word); got != tt.want {
			t.Errorf("exception %q on %q = %v; want %v", tt.exception, tt.word, got, tt.want)
		}
	}
	for _, bad := range []string{"", "-", "--", "-o x"} {
		if _, err := allowlist.ParseException(bad, ""); err == nil {
			t.Errorf("ParseException(%q) accepted", bad)
		}
	}
}

func TestMatchPrefix(t *testing.T) {
	r := allowlist.Rule{Prefix: []string{"git", "log"}}
	for argv, want := range map[string]bool{"git log": true, "git log -5": true, "git logs": false, "git": false, "gitlog": false, "git -C x log": false} {
		if got := r.MatchPrefix(splitWords(argv)); got != want {
			t.Errorf("git log matches %q = %v; want %v", argv, got, want)
		}
	}
	if (allowlist.Rule{}).MatchPrefix([]string{"ls"}) {
		t.Error("an empty prefix matched")
	}
}

func splitWords(s string) []string {
	var out []string
	word := ""
	for _, c := range s + " " {
		if c == ' ' {
			if word != "" {
				out = append(out, word)
			}
			word = ""
			continue
		}
		word += string(c)
	}
	return out
}

// Defaults are documented and consistent: every rule has a note, every
// exception parses and says why.
func TestDefaultsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range allowlist.Defaults() {
		if r.Kind != allowlist.Allow || r.Source != allowlist.DefaultSource || r.Note == "" || len(r.Prefix) == 0 {
			t.Errorf("default rule %v is malformed", r)
		}
		if seen[r.String()] {
			t.Errorf("default rule %s twice", r)
		}
		seen[r.String()] = true
		if r.Entry == nil || len(r.Except) > 0 {
			t.Errorf("default rule %s is not a catalogue entry with an accept-list", r)
		}
	}
}

func ExampleRule_CheckExceptions() {
	plan := allowlist.Rule{Prefix: []string{"terraform", "plan"}, Except: []allowlist.Exception{{Text: "-out", Why: "writes a plan file"}}}
	hit, ok := plan.CheckExceptions([]string{"terraform", "plan", "-out"})
	fmt.Println(ok, hit.Word, hit.Exception.Why)
	// Output: true -out writes a plan file
}
