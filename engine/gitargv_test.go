package engine

import (
	"slices"
	"testing"
)

// TestGitArgv: the git checks read argv as git receives it from bash (a
// leading ~ or ~+ expanded), and a glob in git's global options or
// subcommand leaves the repository unknown.
func TestGitArgv(t *testing.T) {
	for _, tt := range []struct {
		argv     []string
		globless bool
		want     []string
		why      bool
	}{
		{[]string{"git", "-C", "~/repo", "diff"}, false, []string{"git", "-C", "/home/u/repo", "diff"}, false},
		{[]string{"git", "-C", "~", "status"}, true, []string{"git", "-C", "/home/u", "status"}, false},
		{[]string{"git", "-C", "~+/sub", "diff"}, false, []string{"git", "-C", "/p/sub", "diff"}, false},
		{[]string{"git", "-C", "su?", "diff"}, false, nil, true},
		{[]string{"git", "--git-dir=*/.git", "log"}, false, nil, true},
		{[]string{"git", "-C", "su?", "diff"}, true, []string{"git", "-C", "su?", "diff"}, false}, // quoted: literal
		{[]string{"git", "diff", "--", "*.go"}, false, []string{"git", "diff", "--", "*.go"}, false},
	} {
		got, why := gitArgv(tt.argv, "/home/u", "/p", tt.globless)
		if (why != "") != tt.why {
			t.Errorf("gitArgv(%q) why = %q; want one: %v", tt.argv, why, tt.why)
		}
		if tt.want != nil && !slices.Equal(got, tt.want) {
			t.Errorf("gitArgv(%q) = %q; want %q", tt.argv, got, tt.want)
		}
	}
}
