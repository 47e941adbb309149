// Package mutants checks that the tests guard what the README promises:
// each mutant of .ci/mutants is a small patch that breaks one guarantee,
// applied to a scratch copy of the tree, and its guarding test must then
// fail. It runs with AGENTGATE_MUTANTS=1 (.ci/run sets it); without, it
// says so and checks only that every mutant still applies.
package mutants

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

type mutant struct {
	guarantee, file, old, new, pkg, run string
	line                                int
}

func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func load(t *testing.T, dir string) []mutant {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, ".ci", "mutants"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []mutant
	var m mutant
	n := 0
	flush := func() {
		if m.guarantee != "" || m.file != "" {
			if m.guarantee == "" || m.file == "" || m.old == "" || m.pkg == "" || m.run == "" {
				t.Fatalf(".ci/mutants:%d: a mutant needs guarantee, file, old, new and test", m.line)
			}
			out = append(out, m)
		}
		m = mutant{}
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		key, val, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf(".ci/mutants:%d: want \"key: value\"", n)
		}
		if m.line == 0 {
			m.line = n
		}
		switch key {
		case "guarantee":
			m.guarantee = val
		case "file":
			m.file = val
		case "old":
			m.old = val
		case "new":
			m.new = val
		case "test":
			m.pkg, m.run, _ = strings.Cut(val, " ")
		default:
			t.Fatalf(".ci/mutants:%d: unknown key %q", n, key)
		}
	}
	flush()
	if len(out) < 10 {
		t.Fatalf(".ci/mutants holds %d mutants; keep at least 10", len(out))
	}
	return out
}

// TestMutantsApply: every mutant's line is in its file exactly once, so
// that a refactoring that moves it makes the list fail here, loudly.
func TestMutantsApply(t *testing.T) {
	dir := root(t)
	for _, m := range load(t, dir) {
		data, err := os.ReadFile(filepath.Join(dir, m.file))
		if err != nil {
			t.Errorf(".ci/mutants:%d: %v", m.line, err)
			continue
		}
		if c := strings.Count(string(data), m.old+"\n"); c != 1 {
			t.Errorf(".ci/mutants:%d (%s): the line occurs %d times in %s; want once", m.line, m.guarantee, c, m.file)
		}
	}
}

// TestMutantsAreKilled applies each mutant to a scratch copy and runs its
// test, which must fail.
func TestMutantsAreKilled(t *testing.T) {
	if os.Getenv("AGENTGATE_MUTANTS") != "1" {
		t.Skip("set AGENTGATE_MUTANTS=1 to run the mutation check (.ci/run does)")
	}
	dir := root(t)
	for _, m := range load(t, dir) {
		t.Run(fmt.Sprintf("line%d", m.line), func(t *testing.T) {
			// Each mutant has its own copy: they run side by side
			// (go test -parallel, GOMAXPROCS by default), which on CI's
			// two cores takes about two thirds of the time one by one.
			t.Parallel()
			scratch := t.TempDir()
			if err := copyTree(dir, scratch); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(scratch, m.file)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			patched := strings.Replace(string(data), m.old+"\n", m.new+"\n", 1)
			if patched == string(data) {
				t.Fatalf("%s: the mutant does not apply", m.guarantee)
			}
			if err := os.WriteFile(p, []byte(patched), 0o644); err != nil {
				t.Fatal(err)
			}
			// -vet=off: the tree is vetted once by .ci/run; vetting
			// each mutant's copy again was a quarter of its time.
			c := exec.Command("go", "test", "-vet=off", "-count=1", "-run", m.run, m.pkg)
			c.Dir = scratch
			out, err := c.CombinedOutput()
			if err == nil {
				t.Errorf("mutant survived: %s\n(%s: %q -> %q; go test -run %q %s passed)\n%s", m.guarantee, m.file, m.old, m.new, m.run, m.pkg, out)
			} else if strings.Contains(string(out), "build failed") || strings.Contains(string(out), "[setup failed]") {
				t.Errorf("%s: the mutant does not build, so it proves nothing:\n%s", m.guarantee, out)
			}
		})
	}
}

// copyTree copies the module's source, without .git and installed
// clients.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() && (rel == ".git" || filepath.Base(rel) == "node_modules") {
			return filepath.SkipDir
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
