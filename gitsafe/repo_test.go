package gitsafe

import (
	"errors"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/agentgate/agentgate/internal/fsutil"
)

// TestGitDirVerdict: what a hostile agent can plant to look like a git
// directory, judged by gitDirVerdict and by git itself, which must agree:
// a directory git passes by while agentgate stops there hides the
// repository git really uses (red team F1).
func TestGitDirVerdict(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	oid := strings.Repeat("0123456789", 4)
	tests := []struct {
		name  string
		plant func(d string) // d has objects/ and refs/ unless plant removes them
		want  verdict
	}{
		{"symbolic ref", func(d string) { write(d+"/HEAD", "ref: refs/heads/main\n") }, isRepo},
		{"symbolic ref with a tab", func(d string) { write(d+"/HEAD", "ref:\trefs/heads/main") }, isRepo},
		{"symbolic ref with a vertical tab (not git's space)", func(d string) { write(d+"/HEAD", "ref:\vrefs/heads/main") }, notRepo},
		{"ref outside refs/", func(d string) { write(d+"/HEAD", "ref: heads/main\n") }, notRepo},
		{"detached object id", func(d string) { write(d+"/HEAD", oid+"\n") }, isRepo},
		{"object id in capitals", func(d string) { write(d+"/HEAD", strings.ToUpper("abcdefabcd")+oid[10:]) }, isRepo},
		{"39 hex digits", func(d string) { write(d+"/HEAD", oid[:39]+"\n") }, notRepo},
		{"object id then garbage", func(d string) { write(d+"/HEAD", oid+"zz") }, isRepo},
		{"garbage (F1)", func(d string) { write(d+"/HEAD", "garbage\n") }, notRepo},
		{"empty HEAD", func(d string) { write(d+"/HEAD", "") }, notRepo},
		{"ref after 255 bytes", func(d string) { write(d+"/HEAD", strings.Repeat(" ", 300)+"ref: refs/x") }, notRepo},
		{"HEAD a symlink into refs/", func(d string) { os.Symlink("refs/heads/main", d+"/HEAD") }, isRepo},
		{"HEAD a symlink elsewhere", func(d string) {
			write(d+"/real", "ref: refs/heads/main\n")
			os.Symlink("real", d+"/HEAD")
		}, notRepo},
		{"HEAD a directory", func(d string) { os.Mkdir(d+"/HEAD", 0o755) }, notRepo},
		{"no HEAD", func(string) {}, notRepo},
		{"no refs", func(d string) { write(d+"/HEAD", oid); os.Remove(d + "/refs") }, notRepo},
		{"no objects", func(d string) { write(d+"/HEAD", oid); os.Remove(d + "/objects") }, notRepo},
		{"objects an executable file", func(d string) {
			write(d+"/HEAD", oid)
			os.Remove(d + "/objects")
			os.WriteFile(d+"/objects", nil, 0o755)
		}, isRepo},
		{"objects and refs in the commondir", func(d string) {
			write(d+"/HEAD", oid)
			os.Remove(d + "/objects")
			os.Remove(d + "/refs")
			os.MkdirAll(d+"/../common/objects", 0o755)
			os.MkdirAll(d+"/../common/refs", 0o755)
			write(d+"/commondir", "../common\n")
		}, isRepo},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			d := filepath.Join(root, "c")
			os.MkdirAll(d+"/objects", 0o755)
			os.MkdirAll(d+"/refs", 0o755)
			tt.plant(d)
			got, err := gitDirVerdict(d, "", "")
			if err != nil || got != tt.want {
				t.Errorf("gitDirVerdict = %v, %v; want %v", got, err, tt.want)
			}
			// git itself, stopped from walking above the candidate.
			c := exec.Command("git", "rev-parse", "--absolute-git-dir")
			c.Dir = d
			c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "GIT_CONFIG_NOSYSTEM=1", "GIT_CEILING_DIRECTORIES=" + root}
			out, err := c.Output()
			gitTakes := err == nil && strings.TrimSpace(string(out)) == d
			if gitTakes != (tt.want == isRepo) {
				t.Errorf("git takes it: %v (%q, %v); the table says %v", gitTakes, out, err, tt.want)
			}
		})
	}
}

// A HEAD git would block on is an error, never read.
func TestGitDirVerdictFIFO(t *testing.T) {
	d := t.TempDir()
	os.Mkdir(d+"/objects", 0o755)
	os.Mkdir(d+"/refs", 0o755)
	if err := unix.Mkfifo(d+"/HEAD", 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := gitDirVerdict(d, "", ""); !errors.Is(err, fsutil.ErrNotRegular) {
		t.Errorf("gitDirVerdict with a FIFO HEAD: %v; want ErrNotRegular", err)
	}
}

// Union: a candidate discovery cannot decide on is judged as well, and
// the walk goes on to the repository git may use instead.
func TestDiscoverUndecided(t *testing.T) {
	root := t.TempDir()
	top := filepath.Join(root, "p")
	for _, d := range []string{top + "/.git/objects", top + "/.git/refs", top + "/sub/objects", top + "/sub/refs"} {
		os.MkdirAll(d, 0o755)
	}
	write(top+"/.git/HEAD", "ref: refs/heads/main\n")
	write(top+"/sub/HEAD", "ref: refs/heads/main\n")
	// A commondir too large to read: where git would look is not known.
	write(top+"/sub/commondir", strings.Repeat("x", 5000))
	r, err := discover(top+"/sub", "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if r.gitDir != top+"/.git" || len(r.undecided) != 1 || r.undecided[0] != top+"/sub" {
		t.Errorf("discover = %+v; want %s/.git with %s/sub undecided", r, top, top)
	}
	os.RemoveAll(top + "/.git")
	r, err = discover(top+"/sub", "", "", "")
	if err != nil || r.gitDir != top+"/sub" {
		t.Errorf("discover with no repository above = %+v, %v; want the undecided %s/sub judged", r, err, top)
	}
}

// F6: core.worktree is inside the project only if it stays there once
// symbolic links are followed.
func TestInside(t *testing.T) {
	root := t.TempDir()
	top := filepath.Join(root, "p")
	home := filepath.Join(root, "home")
	os.MkdirAll(top+"/src", 0o755)
	os.MkdirAll(top+"/.git", 0o755)
	os.MkdirAll(home, 0o755)
	os.Symlink(home, top+"/link")
	os.Symlink("src", top+"/in")
	os.Symlink(top+"/src", top+"/abs")
	for p, want := range map[string]bool{
		top + "/.git/../src":    true,
		top + "/.git/../in":     true,
		top + "/.git/../abs":    true,
		top + "/not-yet":        true,
		top + "/.git/../link":   false, // the red team's core.worktree = ../link
		top + "/link/..":        false, // the link's parent, not p
		top + "/in/../link/x":   false,
		top + "/link/../p/src":  true, // the kernel lands in root/p/src
		root + "/home":          false,
		top + "/../home":        false,
		top + "/src/../../home": false,
	} {
		if got := inside(p, top); got != want {
			t.Errorf("inside(%q) = %v; want %v (resolved %q)", p, got, want, resolve(p))
		}
	}
}

func write(p, s string) {
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(s), 0o644)
}

// TestTrustedLists: what an approval's git binding must hold, each named
// by a red team's planted program that ran after an approval because
// Trusted did not list it (round 9).
func TestTrustedLists(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	home, proj, other := root+"/home", root+"/proj", root+"/other"
	git := func(dir string, args ...string) {
		t.Helper()
		c := exec.Command("git", args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "XDG_CONFIG_HOME="+home+"/.config")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	for _, d := range []string{home, proj, other} {
		os.MkdirAll(d, 0o755)
	}
	git(proj, "init", "-q")
	git(other, "init", "-q")
	git(proj, "init", "-q", "sub")
	git(proj+"/sub", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "s")
	git(proj, "add", "sub")
	git(proj, "config", "core.fsmonitor", root+"/tools/fsm")
	write(home+"/.gitconfig", "[include]\n\tpath = ~/.gitconfig.local\n")
	env := []string{"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1"}

	got, err := Trusted([]string{"git", "-C", "../other", "-c", "core.hooksPath=" + root + "/hk", "commit"}, proj, env)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		home + "/.gitconfig",         // every git reads it
		home + "/.config/git/config", // absent: the agent may create it
		home + "/.gitconfig.local",   // included, absent
		other + "/.git/config",       // git -C ../other
		other + "/.git/hooks",        // its hooks
		root + "/hk",                 // -c core.hooksPath
	} {
		if !slices.Contains(got, want) {
			t.Errorf("Trusted(git -C ../other -c core.hooksPath=...) lacks %s:\n%s", want, strings.Join(got, "\n"))
		}
	}
	got, err = Trusted(nil, proj, env)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		proj + "/.git/config",
		proj + "/sub/.git/config", // a submodule checked out, git status enters it
		proj + "/sub/.git/hooks",
		root + "/tools/fsm", // a program the configuration names
	} {
		if !slices.Contains(got, want) {
			t.Errorf("Trusted(nil) lacks %s:\n%s", want, strings.Join(got, "\n"))
		}
	}
	// "~NAME/" is NAME's home, as git expands it (the file is only
	// listed: planting one in a real home is not for a test).
	if me, err := user.Current(); err == nil && me.HomeDir != "" {
		write(proj+"/.git/config", "[include]\n\tpath = ~"+me.Username+"/agentgate-test-absent.cfg\n")
		got, err := Trusted(nil, proj, env)
		if want := filepath.Join(me.HomeDir, "agentgate-test-absent.cfg"); err != nil || !slices.Contains(got, want) {
			t.Errorf("Trusted with include.path ~%s/... = %v, %v; want it to list %s", me.Username, got, err, want)
		}
		write(proj+"/.git/config", "[include]\n\tpath = ~agentgate-no-such-user/x.cfg\n")
		if _, err := Trusted(nil, proj, env); err == nil {
			t.Error("Trusted listed an include under the home of a user that does not exist")
		}
		if f, err := Vet([]string{"git", "status"}, proj, env); err == nil && len(f) == 1 {
			t.Errorf("Vet judged an include under the home of a user that does not exist as a file it read: %v", f)
		}
	}
	// A configuration in a form only git reads: a program's path is
	// bound through every word that may be one; an include cannot be
	// followed without git.
	write(proj+"/.git/config", "[core]\n\tfsmonitor = \"sh '"+root+"/tools/fsm2' --x\"\n")
	if got, err := Trusted(nil, proj, env); err != nil || !slices.Contains(got, root+"/tools/fsm2") {
		t.Errorf("Trusted with a quoted core.fsmonitor = %v, %v; want it to list %s", got, err, root+"/tools/fsm2")
	}
	write(proj+"/.git/config", "[include]\n\tpath = \"x.cfg\"\n")
	if _, err := Trusted(nil, proj, env); err == nil {
		t.Error("Trusted read a configuration only git reads as including no file")
	}
	// Nor is git run to learn the index's object format from such a
	// configuration: judging must not run a git found on PATH (one the
	// agent planted there ran).
	bin := root + "/bin"
	os.MkdirAll(bin, 0o755)
	os.WriteFile(bin+"/git", []byte("#!/bin/sh\n/usr/bin/touch "+root+"/ran\n"), 0o755)
	t.Setenv("PATH", bin)
	write(proj+"/.git/config", "[user]\n\tname = \"A B\"\n")
	if got, err := Trusted(nil, proj, env); err != nil || !slices.Contains(got, proj+"/sub/.git/config") {
		t.Errorf("Trusted(nil) with a quoted user.name = %v, %v; want the submodule's files", got, err)
	}
	write(proj+"/.git/config", "[extensions]\n\tobjectFormat = \"sha1\"\n")
	if _, err := Trusted(nil, proj, env); err == nil {
		t.Error("Trusted listed the submodules of an index whose format only git could tell")
	}
	if _, err := os.Stat(root + "/ran"); err == nil {
		t.Error("Trusted ran the git found on PATH")
	}
}
