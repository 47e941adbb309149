package gitsafe

import (
	"bytes"
	"crypto/sha1"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// gitRun runs git in dir and fails the test when it fails.
func gitRun(t testing.TB, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = dir
	c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// gitlinksByGit is what git itself lists: the reading readGitlinks
// must agree with.
func gitlinksByGit(repo repository) ([]string, error) {
	out, err := lsFiles(repo, repo.top, nil, "the submodules", "--stage", "-z")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		mode, _, _ := bytes.Cut(meta, []byte{' '})
		// S_ISGITLINK, as git tests it: "160011" is a gitlink too.
		if m, err := strconv.ParseUint(string(mode), 8, 32); ok && err == nil && m&0o170000 == 0o160000 {
			paths = append(paths, string(p))
		}
	}
	return paths, nil
}

// TestReadGitlinksAgreesWithGit builds indexes in every form git writes
// and holds the in-process reading to git's own: where it reads one, it
// lists what git lists; the forms it does not know (version 4, a split
// index) are left to git, never read otherwise.
func TestReadGitlinksAgreesWithGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed")
	}
	sha := strings.Repeat("a", 40)
	cases := []struct {
		name  string
		init  []string
		setup [][]string
		known bool
	}{
		{name: "no index", known: true},
		{name: "version 2 with gitlinks", known: true, setup: [][]string{
			{"update-index", "--add", "--cacheinfo", "160000," + sha + ",lib/sm"},
			{"update-index", "--add", "--cacheinfo", "160000," + sha + ",a-very-long-name/" + strings.Repeat("x", 300)},
			{"update-index", "--add", "--cacheinfo", "100644," + sha + ",file"},
		}},
		{name: "version 3, extended flags", known: true, setup: [][]string{
			{"update-index", "--add", "--cacheinfo", "160000," + sha + ",sm"},
			{"update-index", "--add", "--cacheinfo", "100644," + sha + ",f"},
			{"update-index", "--skip-worktree", "f"},
		}},
		{name: "version 2 forced, a tree cache", known: true, setup: [][]string{
			{"update-index", "--add", "--cacheinfo", "160000," + sha + ",x/sm"},
			{"write-tree"},
			{"update-index", "--index-version", "2"},
		}},
		{name: "sha256", init: []string{"--object-format=sha256"}, known: true, setup: [][]string{
			{"update-index", "--add", "--cacheinfo", "160000," + strings.Repeat("b", 64) + ",sm"},
		}},
		{name: "version 4", known: false, setup: [][]string{
			{"update-index", "--add", "--cacheinfo", "160000," + sha + ",sm"},
			{"update-index", "--index-version", "4"},
		}},
		{name: "split index", known: false, setup: [][]string{
			{"update-index", "--add", "--cacheinfo", "160000," + sha + ",sm"},
			{"update-index", "--split-index"},
		}},
		{name: "name of 4095 bytes and more", known: true, setup: [][]string{
			{"update-index", "--add", "--cacheinfo", "160000," + sha + "," + strings.Repeat("n/", 2100) + "sm"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			gitRun(t, dir, append([]string{"init", "-q"}, tc.init...)...)
			for _, a := range tc.setup {
				gitRun(t, dir, a...)
			}
			repo, err := discover(dir, "", "", "")
			if err != nil {
				t.Fatal(err)
			}
			got, known := readGitlinks(repo, nil)
			if known != tc.known {
				t.Fatalf("known = %v, want %v", known, tc.known)
			}
			want, err := gitlinksByGit(repo)
			if err != nil {
				t.Fatal(err)
			}
			if known && !slices.Equal(got, want) {
				t.Fatalf("read %q, git lists %q", got, want)
			}
			if links := strings.Count(strings.Join(slices.Concat(tc.setup...), " "), "160000,"); len(want) != links {
				t.Fatalf("git lists %d gitlinks, the case adds %d", len(want), links)
			}
			if gotAll, err := gitlinks(repo, nil); err != nil || !slices.Equal(gotAll, want) {
				t.Fatalf("gitlinks = %q, %v; git lists %q", gotAll, err, want)
			}
		})
	}
	t.Run("GIT_INDEX_FILE is left to git", func(t *testing.T) {
		dir := t.TempDir()
		gitRun(t, dir, "init", "-q")
		repo, _ := discover(dir, "", "", "")
		if _, known := readGitlinks(repo, []string{"GIT_INDEX_FILE=" + filepath.Join(dir, "other")}); known {
			t.Fatal("an index named by GIT_INDEX_FILE was read in process")
		}
	})
	t.Run("an index whose checksum fails is left to git", func(t *testing.T) {
		dir := t.TempDir()
		gitRun(t, dir, "init", "-q")
		gitRun(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+sha+",sm")
		p := filepath.Join(dir, ".git", "index")
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		data[bytes.Index(data, []byte("sm\x00"))] = 'x' // "xm": git reads it (it checks the sum only in fsck)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		repo, _ := discover(dir, "", "", "")
		if got, known := readGitlinks(repo, nil); known {
			t.Fatalf("a corrupt index was read in process: %q", got)
		}
		want, err := gitlinksByGit(repo)
		if got, err2 := gitlinks(repo, nil); err != nil || err2 != nil || !slices.Equal(got, want) || len(want) != 1 {
			t.Fatalf("gitlinks = %q, %v; git lists %q, %v", got, err2, want, err)
		}
	})
	t.Run("a link or FIFO at the index is left to git", func(t *testing.T) {
		dir := t.TempDir()
		gitRun(t, dir, "init", "-q")
		repo, _ := discover(dir, "", "", "")
		if err := os.Symlink("/nonexistent", filepath.Join(dir, ".git", "index")); err != nil {
			t.Fatal(err)
		}
		if _, known := readGitlinks(repo, nil); known {
			t.Fatal("a dangling link at .git/index was read as no index")
		}
	})
}

// FuzzIndexAgreesWithGit changes indexes git wrote, mends the checksum so
// that the change reaches the entries, and holds the in-process reading
// to git's: whatever it reads, git reads the same way; what git refuses,
// it leaves to git.
func FuzzIndexAgreesWithGit(f *testing.F) {
	dir := f.TempDir()
	gitRun(f, dir, "init", "-q")
	sha := strings.Repeat("c", 40)
	gitRun(f, dir, "update-index", "--add", "--cacheinfo", "160000,"+sha+",sm")
	gitRun(f, dir, "update-index", "--add", "--cacheinfo", "100644,"+sha+",file")
	v2, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		f.Fatal(err)
	}
	gitRun(f, dir, "update-index", "--skip-worktree", "file")
	v3, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
	for _, seed := range [][]byte{v2, v3} {
		f.Add(seed, uint16(24), byte(0))
		f.Add(seed, uint16(12+40+20), byte(0x40)) // the extended flag
		f.Add(seed, uint16(8), byte(9))           // the entry count
		f.Add(seed, uint16(12+62), byte('/'))     // the name
	}
	repo, err := discover(dir, "", "", "")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, at uint16, b byte) {
		if len(data) < 12+sha1.Size || len(data) > 1<<16 {
			return
		}
		data = slices.Clone(data)
		if int(at) < len(data)-sha1.Size {
			data[at] = b
		}
		sum := sha1.Sum(data[:len(data)-sha1.Size])
		copy(data[len(data)-sha1.Size:], sum[:])
		entries, ok := parseIndex(data, sha1.Size)
		if !ok {
			return
		}
		var got []string
		for _, e := range entries {
			if e.gitlink() {
				got = append(got, e.name)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, ".git", "index"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		want, err := gitlinksByGit(repo)
		if err != nil {
			t.Fatalf("read %q where git refuses the index: %v", got, err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("read %q, git lists %q", got, want)
		}
	})
}

// A gitlink is any mode of type 0160000, as git's S_ISGITLINK reads it: a
// planted "160644" hid a submodule from a test of the whole mode.
func TestGitlinkModes(t *testing.T) {
	for mode, want := range map[uint32]bool{0o160000: true, 0o160644: true, 0o160777: true, 0o100644: false, 0o120000: false, 0o040000: false} {
		if got := (indexEntry{mode: mode}).gitlink(); got != want {
			t.Errorf("mode %o: gitlink %v, want %v", mode, got, want)
		}
	}
}

// The index is parsed once for the reads of one judgement, but a file
// that changed is read anew, even at the same size (a rename of a
// tracked file to a name as long): the memory holds only bytes equal to
// the ones parsed.
func TestIndexReadAnewWhenChanged(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "aa"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "add", "aa")
	repo, err := discover(dir, "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		entries, known := readIndex(repo, nil)
		if !known {
			t.Fatal("the index was not read in process")
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.name)
		}
		return out
	}
	before, err := os.Stat(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if got := names(); !slices.Equal(got, []string{"aa"}) {
		t.Fatalf("index names %q, want [aa]", got)
	}
	gitRun(t, dir, "mv", "aa", "bb")
	after, err := os.Stat(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if before.Size() != after.Size() {
		t.Fatalf("the index changed size (%d, %d): the test wants one as long", before.Size(), after.Size())
	}
	if got := names(); !slices.Equal(got, []string{"bb"}) {
		t.Errorf("after git mv, index names %q, want [bb]", got)
	}
}

// A tracked file whose working copy is its object is not a new read; one
// checked out with CRLF line ends (core.autocrlf) is the same object, and
// one that differs otherwise is not.
func TestInIndexCRLF(t *testing.T) {
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q")
	p := filepath.Join(dir, ".env.example")
	if err := os.WriteFile(p, []byte("A=1\nB=2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "add", ".env.example")
	find := func() TrackedPath {
		_, paths, err := TrackedPaths(dir, nil)
		if err != nil || len(paths) != 1 {
			t.Fatalf("TrackedPaths: %v %v", paths, err)
		}
		return paths[0]
	}
	for _, c := range []struct {
		content string
		want    bool
	}{
		{"A=1\nB=2\n", true},
		{"A=1\r\nB=2\r\n", true},
		{"A=1\r\nB=3\r\n", false},
		{"A=1\nB=2\nSECRET=x\n", false},
	} {
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := find().InIndex(dir); got != c.want {
			t.Errorf("working copy %q: InIndex %v, want %v", c.content, got, c.want)
		}
	}
}
