package e2e

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// subSecret is the private key planted in the test's home; a submodule
// filter that prints it proves the plant ran.
const subSecret = "PRIVATE-KEY-7d1f"

// gitIn runs git in dir with a fixed identity and the given home.
func gitIn(t *testing.T, home, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = dir
	c.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@a",
		"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@a")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// filteredRepo makes dir a repository whose tracked file f goes through a
// clean filter that prints the home's key: git status runs it, because f
// is stat-dirty with its size unchanged. It returns the HEAD commit.
func filteredRepo(t *testing.T, home, dir string) string {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	gitIn(t, home, dir, "init", "-q", ".")
	os.WriteFile(filepath.Join(dir, "f"), []byte("f\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("f filter=x\n"), 0o644)
	gitIn(t, home, dir, "add", "f", ".gitattributes")
	gitIn(t, home, dir, "commit", "-qm", "s")
	f, _ := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("[filter \"x\"]\n\tclean = \"echo RAN-BY-FILTER >&2; cat $HOME/.ssh/id_rsa >&2; cat\"\n")
	f.Close()
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	os.Chtimes(filepath.Join(dir, "f"), old, old)
	return gitIn(t, home, dir, "rev-parse", "HEAD")
}

// superWithSub makes a project whose index holds the submodule sub, an
// old-style checkout with its own .git directory and the filter.
func superWithSub(t *testing.T, home string) (proj, subHead string) {
	proj = filepath.Join(t.TempDir(), "proj")
	os.MkdirAll(proj, 0o755)
	gitIn(t, home, proj, "init", "-q", ".")
	os.WriteFile(filepath.Join(proj, "a"), []byte("a\n"), 0o644)
	gitIn(t, home, proj, "add", "a")
	gitIn(t, home, proj, "commit", "-qm", "a")
	subHead = filteredRepo(t, home, filepath.Join(proj, "sub"))
	gitIn(t, home, proj, "update-index", "--add", "--cacheinfo", "160000,"+subHead+",sub")
	return proj, subHead
}

// TestSubmodulesHiddenFromTheVetter: plants a red team made so that git
// status recurses into a submodule whose filter prints the home's key
// while agentgate's vetting of the repository did not see the submodule.
// Each is shown to print the key under plain git, then agentgate must not
// run it unasked.
func TestSubmodulesHiddenFromTheVetter(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed")
	}
	bin := agentgateBinary(t)
	plants := []struct {
		name  string
		plant func(t *testing.T, home string) string // returns the directory git status runs in
		why   string                                 // what the denial must say
	}{
		{"an index read one way as SHA-1 and another as SHA-256", func(t *testing.T, home string) string {
			// git reads "a" and the gitlink "sub"; the same bytes parse
			// as a SHA-256 index of two plain files with a valid sum.
			proj, subHead := superWithSub(t, home)
			blob, _ := hex.DecodeString(gitIn(t, home, proj, "rev-parse", ":a"))
			sub, _ := hex.DecodeString(subHead)
			b := make([]byte, 212)
			put := func(off int, x []byte) { copy(b[off:], x) }
			be32 := func(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }
			be16 := func(v uint16) []byte { return binary.BigEndian.AppendUint16(nil, v) }
			put(0, []byte("DIRC"))
			put(4, be32(2))
			put(8, be32(2))
			put(12+24, be32(0o100644))
			put(12+40, blob)
			put(12+60, be16(1))
			put(74, []byte("a"))
			put(84, []byte{0, 1, 'x', 0, 0, 0, 0, 0})
			put(76+24, be32(0o160000))
			put(116, append(be32(0o100644), sub[4:]...))
			put(136, be16(3))
			put(138, []byte("sub"))
			put(148, append([]byte("ZZZZ"), be32(36)...))
			put(164, be16(1))
			put(166, []byte("y"))
			put(172, append([]byte("ZZZZ"), be32(0)...))
			sum := sha256.Sum256(b[:180])
			put(180, sum[:])
			os.WriteFile(filepath.Join(proj, ".git", "index"), b, 0o644)
			return proj
		}, "filter.x.clean"},
		{"a gitlink whose mode has permission bits (160644)", func(t *testing.T, home string) string {
			proj, _ := superWithSub(t, home)
			p := filepath.Join(proj, ".git", "index")
			b, _ := os.ReadFile(p)
			i := bytes.Index(b, be32Bytes(0o160000))
			if i < 0 {
				t.Fatal("no gitlink in the index")
			}
			copy(b[i:], be32Bytes(0o160644))
			sum := sha1.Sum(b[:len(b)-sha1.Size])
			copy(b[len(b)-sha1.Size:], sum[:])
			os.WriteFile(p, b, 0o644)
			return proj
		}, "filter.x.clean"},
		{"submodules four levels deep", func(t *testing.T, home string) string {
			proj := filepath.Join(t.TempDir(), "proj")
			deepest := filepath.Join(proj, "s1", "s2", "s3", "s4")
			head := filteredRepo(t, home, deepest)
			for d := filepath.Dir(deepest); ; d = filepath.Dir(d) {
				gitIn(t, home, d, "init", "-q", ".")
				child := filepath.Base(deepest)
				gitIn(t, home, d, "update-index", "--add", "--cacheinfo", "160000,"+head+","+child)
				gitIn(t, home, d, "commit", "-qm", "up")
				head = gitIn(t, home, d, "rev-parse", "HEAD")
				deepest = d
				if d == proj {
					return proj
				}
			}
		}, "nested more than"},
		{"a submodule commondir too long to read", func(t *testing.T, home string) string {
			proj, _ := superWithSub(t, home)
			os.WriteFile(filepath.Join(proj, "sub", ".git", "commondir"), []byte("."+strings.Repeat("\n", 5000)), 0o644)
			return proj
		}, "cannot be read as git would"},
	}
	for _, p := range plants {
		t.Run(p.name, func(t *testing.T) {
			home := t.TempDir()
			os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
			os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte(subSecret+"\n"), 0o600)
			// Plain git status rewrites the index it reads: the baseline
			// runs on a plant of its own.
			plain := exec.Command("git", "status")
			plain.Dir = p.plant(t, home)
			plain.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1")
			out, _ := plain.CombinedOutput()
			if !bytes.Contains(out, []byte(subSecret)) {
				t.Fatalf("the plant prints nothing under plain git status, so the test shows nothing:\n%s", out)
			}

			c := exec.Command(bin, "exec", "--non-interactive", "--", "git status")
			c.Dir = p.plant(t, home)
			c.Env = append(os.Environ(), "HOME="+home, "AGENTGATE_TTY=none", "GIT_CONFIG_NOSYSTEM=1",
				"XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_CONFIG_HOME="+filepath.Join(home, "cfg"))
			out, err := c.CombinedOutput()
			if bytes.Contains(out, []byte(subSecret)) || bytes.Contains(out, []byte("RAN-BY-FILTER")) {
				t.Fatalf("agentgate ran the submodule's filter unasked:\n%s", out)
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 126 || !bytes.Contains(out, []byte(p.why)) {
				t.Fatalf("agentgate exec: %v, want a denial (exit 126) that says %q\n%s", err, p.why, out)
			}
		})
	}
}

func be32Bytes(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }

// TestIndexPathsAreJudged: git reads whatever path an index holds, and
// the agent can write the index. An entry ".env" with another file's
// object, or one named "src/../.env", made git diff and git grep print
// the project's secrets (a red team's). Each plant is shown to print the
// secret under plain git, then agentgate must refuse the command.
func TestIndexPathsAreJudged(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed")
	}
	bin := agentgateBinary(t)
	const secret = "SECRET=index-7c2e"
	plant := func(t *testing.T, home, name string, mode uint32) string {
		root := t.TempDir()
		proj := filepath.Join(root, "proj")
		// Outside the project, under a name no pattern calls secret:
		// only the index path's ".." reaches it.
		os.WriteFile(filepath.Join(root, "notes.txt"), []byte(secret+"\n"), 0o644)
		os.MkdirAll(filepath.Join(proj, "src"), 0o755)
		gitIn(t, home, proj, "init", "-q", ".")
		os.WriteFile(filepath.Join(proj, "README"), []byte("hello\n"), 0o644)
		gitIn(t, home, proj, "add", "README")
		gitIn(t, home, proj, "commit", "-qm", "i")
		os.WriteFile(filepath.Join(proj, ".env"), []byte(secret+"\n"), 0o600)
		// A key of the home, and a hard link to it under a plain name
		// (the agent's user owns both; no read of the key is needed).
		os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
		os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte(secret+"\n"), 0o600)
		os.Link(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(proj, "hl"))
		blob := gitIn(t, home, proj, "rev-parse", ":README")
		placeholder := strings.Repeat("q", len(name))
		gitIn(t, home, proj, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+placeholder)
		p := filepath.Join(proj, ".git", "index")
		b, _ := os.ReadFile(p)
		i := bytes.Index(b, []byte(placeholder+"\x00"))
		if i < 0 {
			t.Fatal("no placeholder entry in the index")
		}
		copy(b[i:], name) // git update-index refuses such names; the agent writes the file
		if mode != 0 {
			// The entry's mode: 62 bytes before its name (version 2).
			copy(b[i-62+24:], binary.BigEndian.AppendUint32(nil, mode))
		}
		sum := sha1.Sum(b[:len(b)-sha1.Size])
		copy(b[len(b)-sha1.Size:], sum[:])
		os.WriteFile(p, b, 0o644)
		return proj
	}
	for _, tc := range []struct {
		name, command string
		mode          uint32
	}{
		{".env", "git diff", 0},
		{".env", "git grep -h SECRET", 0},
		{".env", "git status -vv", 0},
		{"src/../.env", "git diff", 0},
		{"src/../.env", "git grep -h SECRET", 0},
		{"../notes.txt", "git diff", 0},
		{"../notes.txt", "git grep -h SECRET", 0},
		// Not a regular file in the index: git diff prints the file
		// it finds there as a type change.
		{".env", "git diff", 0o120000},
		{"../notes.txt", "git diff", 0o160000},
		// A hard link to the home's key, tracked under a plain name.
		{"hl", "git grep -h SECRET", 0},
	} {
		t.Run(fmt.Sprintf("%s %s %o", tc.name, tc.command, tc.mode), func(t *testing.T) {
			home := t.TempDir()
			run := func(argv ...string) (string, error) {
				c := exec.Command(argv[0], argv[1:]...)
				c.Dir = plant(t, home, tc.name, tc.mode)
				c.Env = append(os.Environ(), "HOME="+home, "AGENTGATE_TTY=none", "GIT_CONFIG_NOSYSTEM=1", "GIT_PAGER=cat",
					"XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_CONFIG_HOME="+filepath.Join(home, "cfg"))
				out, err := c.CombinedOutput()
				return string(out), err
			}
			if out, _ := run("sh", "-c", tc.command); !strings.Contains(out, secret) {
				t.Fatalf("the plant prints nothing under plain %s, so the test shows nothing:\n%s", tc.command, out)
			}
			out, err := run(bin, "exec", "--non-interactive", "--", tc.command)
			if strings.Contains(out, secret) {
				t.Fatalf("agentgate ran %s and printed the secret:\n%s", tc.command, out)
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 126 {
				t.Fatalf("agentgate exec %s: %v, want a denial (exit 126)\n%s", tc.command, err, out)
			}
		})
	}
}
