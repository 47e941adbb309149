package allowlist

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/internal/testenv"
)

// A program's table is built when a command names it, not at start-up
// (issue 16: reading every flag of the catalogue was a third of each
// call's time). In a fresh process, judging "ls -la" and "git log" builds
// those entries and almost nothing else.
func TestTablesBuiltOnFirstUse(t *testing.T) {
	if os.Getenv("AGENTGATE_LAZY_CHILD") == "1" {
		for _, argv := range [][]string{{"ls", "-la"}, {"git", "log", "--oneline"}} {
			for _, e := range builtin {
				if len(e.Words) <= len(argv) && strings.Join(argv[:len(e.Words)], " ") == e.Name() {
					e.Judge(argv)
				}
			}
		}
		os.Stdout.WriteString("built=" + strconv.Itoa(builtCount()) + " of " + strconv.Itoa(len(builtin)) + "\n")
		// What a user's rule allowed is asked about its walks and lists:
		// that builds the tables of the program named, and of no other.
		before := builtCount()
		MayWalk([]string{"no-such-tool", "test"})
		MayList([]string{"no-such-tool", "test"})
		os.Stdout.WriteString("unknown=" + strconv.Itoa(builtCount()-before) + "\n")
		MayWalk([]string{"/usr/bin/grep", "-r", "x"})
		MayList([]string{"grep", "-r", "x"})
		os.Stdout.WriteString("grep=" + strconv.Itoa(builtCount()-before) + "\n")
		return
	}
	testenv.NoRaceExitSleep()
	c := exec.Command(os.Args[0], "-test.run=^TestTablesBuiltOnFirstUse$")
	c.Env = append(os.Environ(), "AGENTGATE_LAZY_CHILD=1")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var built, total int
	unknown, grep := -1, -1
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "built="); ok {
			f := strings.Fields(rest)
			built, _ = strconv.Atoi(f[0])
			total, _ = strconv.Atoi(f[2])
		}
		if rest, ok := strings.CutPrefix(line, "unknown="); ok {
			unknown, _ = strconv.Atoi(rest)
		}
		if rest, ok := strings.CutPrefix(line, "grep="); ok {
			grep, _ = strconv.Atoi(rest)
		}
	}
	if total < 100 || built == 0 || built > 5 {
		t.Errorf("after judging ls and git log, %d of %d tables are built; want the few those name\n%s", built, total, out)
	}
	grepEntries := 0
	for _, e := range builtin {
		if e.Words[0] == "grep" {
			grepEntries++
		}
	}
	if unknown != 0 || grep < 1 || grep > grepEntries {
		t.Errorf("MayWalk and MayList built %d tables for a program the catalogue does not hold and %d with grep's (which has %d entries); want 0 and grep's only\n%s", unknown, grep, grepEntries, out)
	}
}

// builtCount is how many entries, built in and in packs, have their
// table built.
func builtCount() int {
	n := 0
	all := slices.Clone(builtin)
	for _, p := range packs.get() {
		all = append(all, p.Entries...)
	}
	for _, e := range all {
		if e.index != nil {
			n++
		}
	}
	return n
}

// Judging a built-in command's hazards builds no pack: building them all
// was 7% of a hooked "git status".
func TestHazardsOfABuiltInBuildNoPack(t *testing.T) {
	if os.Getenv("AGENTGATE_LAZY_CHILD") == "2" {
		rules := Defaults()
		HasHazards(rules, []string{"git", "status"})
		HasHazards(rules, []string{"ls", "-la"})
		os.Stdout.WriteString("packs=" + strconv.FormatBool(packsBuilt.Load()) + "\n")
		return
	}
	testenv.NoRaceExitSleep()
	c := exec.Command(os.Args[0], "-test.run=^TestHazardsOfABuiltInBuildNoPack$")
	c.Env = append(os.Environ(), "AGENTGATE_LAZY_CHILD=2")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "packs=false") {
		t.Errorf("judging git status's and ls's hazards built the packs:\n%s", out)
	}
}

// The catalogue's tables are laid out by the linker, not built at
// start-up (see the note above builtin): no package variable's
// initialiser calls a function but the flag constructors, which the
// compiler folds into the literal. One call, anywhere in the package,
// made the compiler build every later table that names another variable
// at each start ("Flags: grepFlags"), writing to every page they are on.
func TestCatalogueTablesCallNothing(t *testing.T) {
	folded := map[string]bool{"Use": true, "Refuse": true, "Walks": true, "WalksWhen": true, "help": true, "version": true, "zero": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					ast.Inspect(v, func(n ast.Node) bool {
						if _, ok := n.(*ast.FuncLit); ok {
							return false // runs when called, not at start-up
						}
						c, ok := n.(*ast.CallExpr)
						if !ok {
							return true
						}
						if id, ok := c.Fun.(*ast.Ident); !ok || !folded[id.Name] {
							t.Errorf("%s: a variable's initialiser calls %s: build it on first use (onceValue) or in init", fset.Position(c.Pos()), types.ExprString(c.Fun))
						}
						return true
					})
				}
			}
		}
	}
}

// Start-up allocates little for the catalogue: its tables are in the
// binary (a find table built by a function was 48 kB of every call).
func TestCatalogueInitAllocatesLittle(t *testing.T) {
	if os.Getenv("AGENTGATE_LAZY_CHILD") == "3" {
		return
	}
	testenv.NoRaceExitSleep()
	c := exec.Command(os.Args[0], "-test.run=^TestCatalogueInitAllocatesLittle$")
	c.Env = append(os.Environ(), "AGENTGATE_LAZY_CHILD=3", "GODEBUG=inittrace=1")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 10 || f[0] != "init" || f[1] != "github.com/agentgate/agentgate/allowlist" {
			continue
		}
		bytes, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("cannot read %q", line)
		}
		if bytes > 40000 {
			t.Errorf("the catalogue's start-up allocates %d bytes; want the few tables made in init (about 20 kB)\n%s", bytes, line)
		}
		return
	}
	t.Fatalf("no init trace of the package:\n%s", out)
}
