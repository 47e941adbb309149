package gitsafe

import (
	"testing"

	"github.com/agentgate/agentgate/allowlist"
)

// TestInertOptionsAreGitGlobals: the options gitsafe takes as inert are
// read as global options by the one list of them (allowlist.ReadGit); a
// name the list does not read would be dead here, and the two lists would
// have drifted apart again.
func TestInertOptionsAreGitGlobals(t *testing.T) {
	for name := range inertOptions {
		argv := []string{"git", name, "status"}
		opts, sub, why := allowlist.ReadGit(argv)
		if why != "" || sub != 2 || len(opts) != 1 || opts[0].Name != name {
			t.Errorf("%s: read as %+v, subcommand at %d (%s)", name, opts, sub, why)
		}
		inv, found := parseInvocation(argv, "/tmp")
		if len(found) > 0 || inv.sub != "status" {
			t.Errorf("%s: findings %v, subcommand %q", name, found, inv.sub)
		}
	}
	// A known option gitsafe does not judge is a finding: --bare makes
	// the working directory the git directory.
	if _, found := parseInvocation([]string{"git", "--bare", "log"}, "/tmp"); len(found) == 0 {
		t.Error("git --bare log: no finding")
	}
}
