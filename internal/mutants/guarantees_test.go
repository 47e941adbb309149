package mutants

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGuarantees: every test docs/guarantees.md names exists, so the
// table cannot promise a guard that was renamed or deleted.
func TestGuarantees(t *testing.T) {
	dir := root(t)
	data, err := os.ReadFile(filepath.Join(dir, "docs", "guarantees.md"))
	if err != nil {
		t.Fatal(err)
	}
	ref := regexp.MustCompile("`([^`]+)`")
	rows := 0
	for n, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| promise") {
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			continue
		}
		rows++
		refs := ref.FindAllStringSubmatch(cells[2], -1)
		if len(refs) == 0 {
			t.Errorf("guarantees.md:%d: a promise with no guard", n+1)
		}
		for _, r := range refs {
			name := r[1]
			switch {
			case strings.HasSuffix(name, ".txtar") || name == ".ci/run":
				if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
					t.Errorf("guarantees.md:%d: %s does not exist", n+1, name)
				}
			default:
				i := strings.LastIndex(name, ".")
				if i < 0 {
					t.Errorf("guarantees.md:%d: %s names neither a script nor a test (write pkg/dir.TestName)", n+1, name)
					continue
				}
				pkg, test := name[:i], name[i+1:]
				if !hasTest(t, filepath.Join(dir, pkg), test) {
					t.Errorf("guarantees.md:%d: no func %s in %s", n+1, test, pkg)
				}
			}
		}
	}
	if rows < 20 {
		t.Fatalf("guarantees.md lists %d promises; it lost its table", rows)
	}
}

func hasTest(t *testing.T, dir, name string) bool {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "func "+name+"(") {
			return true
		}
	}
	return false
}
