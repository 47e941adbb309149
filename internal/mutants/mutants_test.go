// Package mutants checks that the tests guard what the README promises:
// each mutant of .ci/mutants is a small patch that breaks one guarantee,
// applied as an overlay of the file it patches, and its guarding test must then
// fail. It runs with AGENTGATE_MUTANTS=1 (.ci/run sets it); without, it
// says so and checks only that every mutant still applies.
package mutants

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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

// TestMutantsAreKilled applies each mutant and runs its test, which must
// fail. A mutant is an overlay of the one file it patches (go test
// -overlay) on the tree as it is, not a copy of the tree: a package's
// build is cached by its directory too, so in a copy every package of
// the module compiled again for every mutant, and the check took five
// minutes of CI's fifteen; in place only the patched package and those
// that import it compile. Every mutant patches a Go file, which is all an
// overlay replaces; a test that read a patched file from disk, or built
// agentgate without GOFLAGS, would see it unpatched, and the mutant would
// survive, loudly, never pass falsely.
func TestMutantsAreKilled(t *testing.T) {
	if os.Getenv("AGENTGATE_MUTANTS") != "1" {
		t.Skip("set AGENTGATE_MUTANTS=1 to run the mutation check (.ci/run does)")
	}
	dir := root(t)
	for _, m := range load(t, dir) {
		t.Run(fmt.Sprintf("line%d", m.line), func(t *testing.T) {
			// Side by side (go test -parallel, GOMAXPROCS by default).
			t.Parallel()
			if !strings.HasSuffix(m.file, ".go") {
				t.Fatalf("%s: %s is not a Go file, which an overlay cannot patch", m.guarantee, m.file)
			}
			scratch := t.TempDir()
			orig := filepath.Join(dir, m.file)
			data, err := os.ReadFile(orig)
			if err != nil {
				t.Fatal(err)
			}
			patched := strings.Replace(string(data), m.old+"\n", m.new+"\n", 1)
			if patched == string(data) {
				t.Fatalf("%s: the mutant does not apply", m.guarantee)
			}
			file := filepath.Join(scratch, filepath.Base(m.file))
			if err := os.WriteFile(file, []byte(patched), 0o644); err != nil {
				t.Fatal(err)
			}
			overlay, err := json.Marshal(map[string]map[string]string{"Replace": {orig: file}})
			if err != nil {
				t.Fatal(err)
			}
			ov := filepath.Join(scratch, "overlay.json")
			if err := os.WriteFile(ov, overlay, 0o644); err != nil {
				t.Fatal(err)
			}
			// -vet=off: the tree is vetted once by .ci/run; vetting
			// each mutant again was a quarter of its time.
			// The overlay goes in GOFLAGS, so that the end-to-end
			// harness's own "go build" of agentgate builds the mutant
			// too.
			c := exec.Command("go", "test", "-vet=off", "-count=1", "-run", m.run, m.pkg)
			c.Dir = dir
			c.Env = append(os.Environ(), "GOFLAGS=-overlay="+ov)
			out, err := c.CombinedOutput()
			if err == nil {
				t.Errorf("mutant survived: %s\n(%s: %q -> %q; go test -run %q %s passed)\n%s", m.guarantee, m.file, m.old, m.new, m.run, m.pkg, out)
			} else if strings.Contains(string(out), "build failed") || strings.Contains(string(out), "[setup failed]") {
				t.Errorf("%s: the mutant does not build, so it proves nothing:\n%s", m.guarantee, out)
			}
		})
	}
}

// TestReadmeCountsMutants: the README's count of the mutants is the
// number .ci/mutants holds.
func TestReadmeCountsMutants(t *testing.T) {
	dir := root(t)
	data, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`.ci/mutants` now holds (\\d+) mutants").FindSubmatch(data)
	if m == nil {
		t.Fatal("README.md does not say how many mutants .ci/mutants holds")
	}
	if n, want := string(m[1]), strconv.Itoa(len(load(t, dir))); n != want {
		t.Errorf("README.md says .ci/mutants holds %s mutants; it holds %s", n, want)
	}
}
