package allowlist

import (
	"strings"
	"testing"
)

// TestReadGit: git's global options are read as git's handle_options
// reads them, from the catalogue's one list: whole words, a value in the
// next word or after "=", never bundled or abbreviated.
func TestReadGit(t *testing.T) {
	for _, c := range []struct {
		argv string
		sub  string // the subcommand; "!" when the reading stops at an unknown word
		opts string // names and values read, "name=value" joined by spaces
	}{
		{"git status", "status", ""},
		{"git -C sub -c a.b=c --no-pager log", "log", "-C=sub -c=a.b=c --no-pager"},
		{"git --git-dir=x --work-tree y diff", "diff", "--git-dir=x --work-tree=y"},
		{"git --config-env k=V config", "config", "--config-env=k=V"},
		{"git -Csub log", "!", ""},
		{"git --no-pag log", "!", ""},
		{"git -Pp log", "!", ""},
		{"git --attr-source HEAD log", "!", ""},
		{"git --no-pager=1 log", "!", ""},
		{"git -C", "!", ""},
		{"git --version", "", "--version"},
	} {
		argv := strings.Fields(c.argv)
		opts, sub, why := ReadGit(argv)
		got := ""
		switch {
		case why != "":
			got = "!"
		case sub < len(argv):
			got = argv[sub]
		}
		var read []string
		for _, o := range opts {
			if o.HasValue {
				read = append(read, o.Name+"="+o.Value)
			} else {
				read = append(read, o.Name)
			}
		}
		if got != c.sub || why == "" && strings.Join(read, " ") != c.opts {
			t.Errorf("%s: subcommand %q, options %q (%s); want %q, %q", c.argv, got, read, why, c.sub, c.opts)
		}
	}
	// Every global option of the catalogue's list is read as one.
	for _, f := range gitGlobals.FlagList() {
		for _, n := range f.Names {
			argv := []string{"git", n}
			if f.Value != "" && !f.Optional {
				argv = append(argv, "VALUE")
			}
			argv = append(argv, "status")
			if _, sub, why := ReadGit(argv); why != "" || argv[sub] != "status" {
				t.Errorf("%q: not read as a global option: %s", argv, why)
			}
		}
	}
}
