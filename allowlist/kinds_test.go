package allowlist

import (
	"slices"
	"strings"
	"testing"
)

// every is each entry of the catalogue, built in and in packs.
func every() []*Entry {
	out := slices.Clone(Builtin())
	for _, p := range packs.get() {
		out = append(out, p.Entries...)
	}
	return out
}

// TestEveryPlaceholderIsTyped: each placeholder an entry writes has a
// kind in placeholderKinds, so that a new flag's author says what its
// value is; one the table lacked would silently be a path.
func TestEveryPlaceholderIsTyped(t *testing.T) {
	for _, e := range every() {
		for _, f := range e.FlagList() {
			for _, p := range append([]string{f.Value}, f.More...) {
				if _, ok := placeholderKinds[p]; p != "" && !ok {
					t.Errorf("%s %s: the placeholder %s has no kind in placeholderKinds", e.Name(), f.Spec(), p)
				}
			}
		}
	}
}

// TestNetworkValuesAreRefused: a flag that takes a URL or a host makes
// its command ask, whichever program has it; which machine a command
// reaches is never the agent's to choose.
func TestNetworkValuesAreRefused(t *testing.T) {
	n := 0
	for _, e := range every() {
		for _, f := range e.FlagList() {
			kinds := []ValueKind{f.Kind()}
			for _, m := range f.More {
				kinds = append(kinds, KindOf(m))
			}
			if !slices.Contains(kinds, URLValue) && !slices.Contains(kinds, HostValue) {
				continue
			}
			n++
			if f.Effect == Reads {
				t.Errorf("%s %s takes %s and only reads: refuse it (Network)", e.Name(), f.Spec(), f.Kind())
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d flags take a URL or a host: the test lost its subject", n)
	}
}

// A number's value is judged as a path unless it is a number; the other
// kinds as their kind says.
func TestValueKinds(t *testing.T) {
	for _, c := range []struct {
		placeholder, value string
		path               bool
	}{
		{"N", "10", false}, {"N", "-5", false}, {"N", "+3", false},
		{"N", ".env", true}, {"N", "1K", true}, {"N", "", true}, {"N", "~/.ssh/id_rsa", true},
		{"FILE", "10", true}, {"PATTERN", ".env", false}, {"NAME", "id_rsa", false},
		{"URL", "file:///etc/shadow", true}, {"HOST", "example.com", true},
		{"UNTYPED", "x", true},
	} {
		if got := KindOf(c.placeholder).JudgesAsPath(c.value); got != c.path {
			t.Errorf("%s %q judged as a path: %v; want %v", c.placeholder, c.value, got, c.path)
		}
	}
	// Through a call: head -n 10 names no path, head -n .env one.
	i := slices.IndexFunc(Builtin(), func(e *Entry) bool { return e.Name() == "head" })
	if i < 0 {
		t.Fatal("no head entry")
	}
	e := Builtin()[i]
	for _, c := range []struct {
		argv  []string
		paths []string
	}{
		{[]string{"head", "-n", "10", "f"}, []string{"f"}},
		{[]string{"head", "-n", ".env", "f"}, []string{".env", "f"}},
		{[]string{"head", "--lines=-3", "f"}, []string{"f"}},
	} {
		call, r, _ := e.Judge(c.argv)
		if r != nil {
			t.Fatalf("%v: %v", c.argv, r)
		}
		if !slices.Equal(call.Paths, c.paths) {
			t.Errorf("%v: paths %q; want %q", c.argv, call.Paths, c.paths)
		}
	}
}

// notAWalk are reading flags that speak of recursion but read no tree of
// files from the disk, each with why; any other such flag must declare
// its walk, so that the resolver, which walks only what the call
// declares, sees it.
var notAWalk = map[string]string{
	"-r|recursive":                                         "git's -r recurses into tree objects of the repository, not the disk",
	"-R, --recursive|recursive":                            "ls -R prints names, never contents (a names-only entry)",
	"--recursive|recursive":                                "kubectl explain recurses into a schema",
	"-r, --recursive|workspaces":                           "a package manager's workspaces, read from its own manifests",
	"-r, --recursive, --no-recursive|recursion":            "git grep reads what the index names, judged by gitsafe",
	"-q, --quiet, --short, --no-recurse, --recurse|output": "git symbolic-ref follows symbolic refs",
	"--recurse-submodules|submodules":                      "git reads submodules' indexes, judged by gitsafe",
}

func TestWalkersDeclareTheirWalk(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range every() {
		for _, f := range e.FlagList() {
			key := strings.Join(f.Names, ", ") + "|" + f.Note
			if f.Effect != Reads || f.Walk != 0 {
				continue
			}
			rec := strings.Contains(strings.ToLower(f.Note), "recurs")
			for _, n := range f.Names {
				rec = rec || n == "--recursive" || n == "--dereference-recursive" || strings.HasPrefix(n, "--recurse")
			}
			if !rec {
				continue
			}
			if _, ok := notAWalk[key]; !ok {
				t.Errorf("%s %s (%s) speaks of recursion but declares no walk: write it Walks(Tree, ...), or say in notAWalk why it reads no tree", e.Name(), f.Spec(), f.Note)
			}
			seen[key] = true
		}
	}
	for k := range notAWalk {
		if !seen[k] {
			t.Errorf("notAWalk holds %q, which no flag has any more", k)
		}
	}
	// A flag that opens the files a list names says so: the gate cannot
	// see the list ("sha256sum -c LIST" opened the .env LIST named).
	for _, e := range every() {
		for _, f := range e.FlagList() {
			note := strings.ToLower(f.Note)
			lists := strings.Contains(note, "listed in") || strings.Contains(note, "list of files")
			for _, n := range f.Names {
				lists = lists || strings.HasSuffix(n, "files-from") || strings.HasSuffix(n, "files0-from")
			}
			if lists && f.Effect == Reads && f.Walk&Lists == 0 {
				t.Errorf("%s %s (%s) reads files a list names but does not declare it: write it Walks(Lists, ...)", e.Name(), f.Spec(), f.Note)
			}
		}
	}
	// The programs that read trees say so.
	for _, argv := range [][]string{{"grep", "-r", "x"}, {"egrep", "-R", "x", "d"}, {"fgrep", "--directories=recurse", "x"},
		{"rg", "x"}, {"diff", "a", "b"}, {"zcat", "-r", "d"}, {"git", "diff", "--no-index", "a", "b"}} {
		c, ok := Read(Defaults(), argv)
		if !ok {
			t.Fatalf("%q is not read by the catalogue", argv)
		}
		if w, roots := c.Walk(); w&(Tree|Outside) == 0 || len(roots) == 0 {
			t.Errorf("%q declares no walk (%v %q)", argv, w, roots)
		}
		if MayWalk(argv) == 0 {
			t.Errorf("MayWalk(%q) is false", argv)
		}
	}
	for _, argv := range [][]string{{"cat", "f"}, {"grep", "x", "f"}, {"zcat", "f.gz"}, {"git", "log"}} {
		c, ok := Read(Defaults(), argv)
		if !ok {
			t.Fatalf("%q is not read by the catalogue", argv)
		}
		if w, roots := c.Walk(); w != 0 || roots != nil {
			t.Errorf("%q walks (%v %q)", argv, w, roots)
		}
	}
}

// Call.Walk's roots: operands after the pattern, the values of Root
// flags, "." for Dot with no operand.
func TestWalkRoots(t *testing.T) {
	for _, c := range []struct {
		cmd   string
		walk  Walk
		roots []string
	}{
		{"grep -r x", Tree | Dot, []string{"."}},
		{"grep -rn x src lib", Tree | Dot, []string{"src", "lib"}},
		{"grep -r -e x src", Tree | Dot, []string{"src"}},
		{"grep -R x d", Tree | Dot | Follows, []string{"d"}},
		{"grep -d read x d", 0, nil},
		{"grep -d rec x d", Tree | Dot, []string{"d"}},
		{"rg x", Tree | Dot, []string{"."}},
		{"rg -L x d", Tree | Dot | Follows, []string{"d"}},
		{"rg --files", Tree | Dot, []string{"."}},
		{"diff -N --to-file=/home a", Tree | Root, []string{"a", "/home"}},
		{"diff a b", Tree, []string{"a", "b"}},
		{"git diff a b", Outside, []string{"a", "b"}},
		{"git diff --no-index a b", Tree | Outside, []string{"a", "b"}},
		{"zcat -r d", Tree, []string{"d"}},
	} {
		call, ok := Read(Defaults(), strings.Fields(c.cmd))
		if !ok {
			t.Fatalf("%s: not read", c.cmd)
		}
		w, roots := call.Walk()
		if w != c.walk || !slices.Equal(roots, c.roots) {
			t.Errorf("%s: walk %b %q; want %b %q", c.cmd, w, roots, c.walk, c.roots)
		}
	}
}

// MayList, for a command the catalogue cannot read, finds any spelling
// of a flag that names the files to read in a file, and takes a flag's
// exact name for that flag (getopt_long does).
func TestMayList(t *testing.T) {
	for _, c := range []struct {
		cmd, want string
	}{
		{"tar -cT list", "-T"}, {"tar cTf list x.tar", "-T"}, {"tar --files-from=list -c", "--files-from"},
		{"tar --files=list -c", "--files"}, {"xargs -ra list cat", "-a"}, {"xargs --arg=list cat", "--arg"},
		{"find . -files0-from x -delete", "-files0-from"}, {"wc --files0=x -l", "--files0"},
		{"cpio --files-from=x", "--files-from"}, {"file -zf list", "-f"},
		{"grep --file=k x", ""}, {"grep -f k x", ""}, {"tar -cf x.tar d", ""}, {"xargs -n1 cat", ""},
	} {
		got, _ := MayList(strings.Fields(c.cmd))
		if got != c.want {
			t.Errorf("MayList(%s) = %q; want %q", c.cmd, got, c.want)
		}
	}
}
