package fsutil

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// HardLinked finds the regular files with other names among an index's
// names, as Lstat of each would: a hard link to a key tracked under
// another name is found, a symbolic link, a single-named file, a
// directory and a missing name are not.
func TestHardLinked(t *testing.T) {
	top := t.TempDir()
	outside := t.TempDir()
	key := filepath.Join(outside, "id_rsa")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(key, []byte("KEY"), 0o600))
	must(os.MkdirAll(filepath.Join(top, "src", "deep"), 0o755))
	must(os.WriteFile(filepath.Join(top, "a.txt"), []byte("a"), 0o644))
	must(os.Link(key, filepath.Join(top, "hl")))
	must(os.Link(key, filepath.Join(top, "src", "deep", "notes.md")))
	must(os.WriteFile(filepath.Join(top, "src", "b.go"), []byte("b"), 0o644))
	must(os.Symlink(key, filepath.Join(top, "src", "link")))
	names := []string{"a.txt", "gone", "hl", "src", "src/b.go", "src/deep/notes.md", "src/link", "src/b.go/x", "nodir/y"}
	got := HardLinked(top, names)
	want := []string{filepath.Join(top, "hl"), filepath.Join(top, "src", "deep", "notes.md")}
	if !slices.Equal(got, want) {
		t.Errorf("HardLinked = %q, want %q", got, want)
	}
	// Every name, in many directories, through the workers: the same
	// answer as Lstat's.
	var many []string
	for i := range 200 {
		d := filepath.Join("d", string(rune('a'+i%26)), "x")
		must(os.MkdirAll(filepath.Join(top, d), 0o755))
		n := filepath.Join(d, "f"+string(rune('a'+i/26)))
		must(os.WriteFile(filepath.Join(top, n), nil, 0o644))
		if i%7 == 0 {
			must(os.Remove(filepath.Join(top, n)))
			must(os.Link(key, filepath.Join(top, n)))
		}
		many = append(many, n)
	}
	var byLstat []string
	for _, n := range many {
		if fi, err := os.Lstat(filepath.Join(top, n)); err == nil && fi.Mode().IsRegular() && Links(fi) > 1 {
			byLstat = append(byLstat, filepath.Join(top, n))
		}
	}
	if got := HardLinked(top, many); !slices.Equal(got, byLstat) || len(got) == 0 {
		t.Errorf("HardLinked over %d names found %d, Lstat %d", len(many), len(got), len(byLstat))
	}
}
