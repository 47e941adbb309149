package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What a workspace command made at a watched path is moved aside and a
// replaced link put back; what it left alone is not touched.
func TestSnapshotRestore(t *testing.T) {
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "conf", "claude"), 0o755))
	must(os.Symlink("conf/claude", filepath.Join(root, ".claude")))
	must(os.Symlink("conf/gone", filepath.Join(root, ".codex")))
	must(os.Mkdir(filepath.Join(root, ".git"), 0o755))
	must(os.WriteFile(filepath.Join(root, ".mcp.json"), []byte("{}"), 0o644))
	snap := Take(Watched(root, filepath.Join(root, "tools", "hooks")))

	if moved, err := snap.Restore(); err != nil || len(moved) != 0 {
		t.Fatalf("nothing changed: moved %v, %v", moved, err)
	}

	must(os.WriteFile(filepath.Join(root, ".envrc"), []byte("evil"), 0o644))
	must(os.Remove(filepath.Join(root, ".claude")))
	must(os.Mkdir(filepath.Join(root, ".claude"), 0o755))
	must(os.Remove(filepath.Join(root, ".codex")))
	must(os.MkdirAll(filepath.Join(root, "tools", "hooks"), 0o755))
	moved, err := snap.Restore()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Moved{}
	for _, m := range moved {
		got[strings.TrimPrefix(m.Path, root+"/")] = m
	}
	for name, was := range map[string]string{".envrc": "absent", ".claude": "link to conf/claude", "tools/hooks": "absent", ".codex": "link to conf/gone"} {
		m, ok := got[name]
		if !ok || m.Was != was {
			t.Errorf("%s: %+v; want it reported, was %q", name, m, was)
		}
	}
	if len(got) != 4 {
		t.Errorf("moved %v; want exactly the four changed", moved)
	}
	if _, err := os.Lstat(filepath.Join(root, ".envrc")); !os.IsNotExist(err) {
		t.Errorf(".envrc is still there: %v", err)
	}
	for name, target := range map[string]string{".claude": "conf/claude", ".codex": "conf/gone"} {
		if l, err := os.Readlink(filepath.Join(root, name)); err != nil || l != target {
			t.Errorf("%s: link %q, %v; want it put back to %s", name, l, err, target)
		}
	}
	if data, err := os.ReadFile(got[".envrc"].To); err != nil || string(data) != "evil" {
		t.Errorf("the moved .envrc holds %q, %v; want what the command wrote, kept for the person", data, err)
	}
	if fi, err := os.Stat(filepath.Join(root, ".git")); err != nil || !fi.IsDir() {
		t.Errorf(".git was touched: %v", err)
	}
}

// A link to a directory in the project is kept by binding what it points
// to; a link out of the project, or a missing name, binds nothing.
func TestBindable(t *testing.T) {
	root := t.TempDir()
	out := t.TempDir()
	_ = os.MkdirAll(filepath.Join(root, "conf", "claude"), 0o755)
	_ = os.Symlink("conf/claude", filepath.Join(root, ".claude"))
	_ = os.Symlink(out, filepath.Join(root, ".codex"))
	real, _ := filepath.EvalSymlinks(filepath.Join(root, "conf", "claude"))
	for name, want := range map[string]string{".claude": real, ".codex": "", ".envrc": ""} {
		got, ok := Bindable(root, filepath.Join(root, name))
		if got != want || ok != (want != "") {
			t.Errorf("Bindable(%s) = %q, %v; want %q", name, got, ok, want)
		}
	}
}

// A project entered through a link to it: what its .claude link points to
// is under the real directory, and is still bound.
func TestBindableThroughLinkedRoot(t *testing.T) {
	dir := t.TempDir()
	realRoot := filepath.Join(dir, "data", "p")
	_ = os.MkdirAll(filepath.Join(realRoot, "conf"), 0o755)
	_ = os.Symlink(filepath.Join(dir, "data"), filepath.Join(dir, "work"))
	_ = os.Symlink("conf", filepath.Join(realRoot, ".claude"))
	root := filepath.Join(dir, "work", "p")
	want, _ := filepath.EvalSymlinks(filepath.Join(realRoot, "conf"))
	if got, ok := Bindable(root, filepath.Join(root, ".claude")); !ok || got != want {
		t.Fatalf("Bindable through %s = %q, %v; want %q", root, got, ok, want)
	}
}

// The directories between the root and a protected path are what must be
// mount points; none inside a protected path (a writable bind there would
// be copied, writable, into the read-only one).
func TestAncestors(t *testing.T) {
	got := ancestors("/p", []string{"/p/.git", "/p/lib/sm/.git", "/p/.git/modules/lib/sm", "/p/a/b/c/.git", "/p/lib/other/.git", "/q/x"})
	want := []string{"/p/lib", "/p/a", "/p/lib/sm", "/p/a/b", "/p/lib/other", "/p/a/b/c"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("ancestors = %v; want %v", got, want)
	}
}
