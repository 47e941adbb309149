package resolve

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// FuzzGlobBudget: however the pattern is written, glob expansion does at
// most its budget of steps (directory entries looked at), reports when it
// ran out, and finds no more names than steps it took.
func FuzzGlobBudget(f *testing.F) {
	for _, s := range []string{"/*", "/*/*/*", "/usr/*/*", "/usr/lib/*.so", "/[a-z]*/*", "/proc/*/task/*/*", "/**/**/**", "/???/*", "/etc/.*"} {
		f.Add(s, 100)
	}
	f.Fuzz(func(t *testing.T, pattern string, budget int) {
		if len(pattern) > 100 || strings.ContainsRune(pattern, 0) || budget < 0 || budget > 5000 {
			return
		}
		steps := budget
		matches, ok := expandGlob("/"+pattern, &steps)
		used := budget - steps
		if ok && steps < 0 {
			t.Fatalf("%q: ran past its budget (%d steps of %d) without saying so", pattern, used, budget)
		}
		if !ok && matches != nil {
			t.Fatalf("%q: out of budget but returned names", pattern)
		}
		if ok && len(matches) > used+1 {
			t.Fatalf("%q: %d names from %d steps", pattern, len(matches), used)
		}
		if used > budget+strings.Count(pattern, "/")+1 {
			t.Fatalf("%q: %d steps for a budget of %d", pattern, used, budget)
		}
	})
}

// TestGlobDotDotAfterLink: a ".." after a link in a glob is the link
// target's parent, as the kernel opens it, not the link's own directory.
func TestGlobDotDotAfterLink(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{dir + "/far/sub", dir + "/here"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(dir+"/far/hosts.yml", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir+"/far/sub", dir+"/here/lnk"); err != nil {
		t.Fatal(err)
	}
	steps := MaxGlobSteps
	matches, ok := expandGlob(dir+"/here/lnk/../h*.yml", &steps)
	if !ok || len(matches) != 1 || matches[0] != dir+"/here/lnk/../hosts.yml" {
		t.Fatalf("expandGlob(lnk/../h*.yml) = %q, %v; want the target's sibling, as written", matches, ok)
	}
}

// TestGlobstarEveryDepth: a "**" component is walked at every depth, as
// zsh and bash's globstar read it, never narrower.
func TestGlobstarEveryDepth(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(dir+"/src/a/b", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"/src/x.go", "/src/a/b/k.go", "/src/a/b/k.txt"} {
		if err := os.WriteFile(dir+f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	steps := MaxGlobSteps
	matches, ok := expandGlob(dir+"/src/**/*.go", &steps)
	if !ok || !slices.Contains(matches, dir+"/src/a/b/k.go") || !slices.Contains(matches, dir+"/src/x.go") {
		t.Fatalf("expandGlob(src/**/*.go) = %q, %v; want src/x.go and src/a/b/k.go", matches, ok)
	}
}
