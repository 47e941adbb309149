package resolve_test

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/agentgate/agentgate/resolve"
)

// Cases a red team used to read secrets through readers the first
// resolver judged as not reading them (findings F5, F7, F8 of
// /work/notes/redteam-gate.md): each must now ask.
func TestRedTeamReaders(t *testing.T) {
	tests := []struct {
		name  string
		plant func(w world)
		argv  []string
	}{
		{"grep --dir recurse, the value in the next word", nil, []string{"grep", "--dir", "recurse", "SECRET", "~"}},
		// The command xargs runs reads its own operands, whatever xargs
		// is fed (GNU xargs runs it even with no input).
		{"xargs runs a recursive reader of the home", nil, []string{"xargs", "grep", "-r", "SECRET", "~"}},
		// BSD's cat (macOS) ends its options at the first operand: -v
		// after one is a file, here a planted link to a key.
		{"a flag word after an operand that names a planted link", func(w world) {
			os.WriteFile(w.home+"/.ssh/id_rsa", []byte("KEY"), 0o600)
			os.Symlink(w.home+"/.ssh/id_rsa", w.proj+"/-v")
		}, []string{"cat", "notes.txt", "-v"}},
		{"grep --directories recurse", nil, []string{"grep", "--directories", "recurse", "SECRET", "~"}},
		{"grep -d recurse", nil, []string{"grep", "-d", "recurse", "SECRET", "~"}},
		{"rg --unrestricted --unrestricted", func(w world) { os.WriteFile(w.proj+"/.env", []byte("SECRET"), 0o600) },
			[]string{"rg", "--unrestricted", "--unrestricted", "SECRET"}},
		{"rg -uu", func(w world) { os.WriteFile(w.proj+"/.env", []byte("SECRET"), 0o600) },
			[]string{"rg", "-uu", "SECRET"}},
		{"rg --ignore-file", func(w world) { os.WriteFile(w.proj+"/.env", []byte("SECRET"), 0o600) },
			[]string{"rg", "--ignore-file", "x", "SECRET"}},
		{"rg with a planted .ignore that un-ignores .env", func(w world) {
			os.WriteFile(w.proj+"/.env", []byte("SECRET"), 0o600)
			os.WriteFile(w.proj+"/.ignore", []byte("!.env\n"), 0o644)
		}, []string{"rg", "SECRET"}},
		{"rg with a whitelist in a parent's .gitignore", func(w world) {
			os.WriteFile(w.proj+"/.env", []byte("SECRET"), 0o600)
			os.WriteFile(w.home+"/.gitignore", []byte("!.env\n"), 0o644)
		}, []string{"rg", "SECRET"}},
		{"rg with a whitelist in .git/info/exclude", func(w world) {
			os.WriteFile(w.proj+"/.env", []byte("SECRET"), 0o600)
			os.MkdirAll(w.proj+"/.git/info", 0o755)
			os.WriteFile(w.proj+"/.git/info/exclude", []byte("!.env\n"), 0o644)
		}, []string{"rg", "SECRET"}},
		{"diff -N of a file and a directory", func(w world) {
			os.WriteFile(w.proj+"/empty", nil, 0o644)
			os.WriteFile(w.proj+"/.env", []byte("SECRET"), 0o600)
		}, []string{"diff", "-N", "empty", "."}},
		{"diff of two directories without -r", func(w world) {
			os.Mkdir(w.proj+"/d", 0o755)
			os.WriteFile(w.proj+"/.env", []byte("SECRET"), 0o600)
		}, []string{"diff", "d", "."}},
	}
	tests = append(tests, struct {
		name  string
		plant func(w world)
		argv  []string
	}{"find -files0-from", nil, []string{"find", "-files0-from", "list", "-type", "f"}})
	// Readers that recurse by a flag or by git's own rule (issue 16): the
	// tree they read holds a key.
	key := func(w world) {
		os.MkdirAll(w.home+"/.ssh", 0o700)
		os.WriteFile(w.home+"/.ssh/id_rsa", []byte("SECRET"), 0o600)
		os.WriteFile(w.proj+"/EMPTY", nil, 0o644)
	}
	for _, tc := range []struct {
		name string
		argv []string
	}{
		{"zcat -rf ~", []string{"zcat", "-rf", "~"}},
		{"gzip -rc ~", []string{"gzip", "-r", "-c", "~"}},
		{"diff -rN --to-file=~ EMPTY", []string{"diff", "-rN", "--to-file=~", "EMPTY"}},
		{"diff -r --from-file ~ EMPTY", []string{"diff", "-r", "--from-file", "~", "EMPTY"}},
		{"git diff EMPTY ~ (outside a repository: --no-index)", []string{"git", "diff", "EMPTY", "~"}},
	} {
		tests = append(tests, struct {
			name  string
			plant func(w world)
			argv  []string
		}{tc.name, key, tc.argv})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			if tt.plant != nil {
				tt.plant(w)
			}
			got := resolve.Check(w.opts(), [][]string{tt.argv}, nil)
			if len(got) == 0 || !strings.Contains(got[0].Message, "secrets") && !strings.Contains(got[0].Message, "cannot see") {
				t.Errorf("%v: %v; want an ask for the secret it reads", tt.argv, got)
			}
		})
	}
	// rg without anything that un-ignores hidden files still runs in a
	// project holding a .env: it does not read it.
	w := newWorld(t)
	os.WriteFile(w.proj+"/.env", []byte("SECRET"), 0o600)
	os.WriteFile(w.proj+"/.gitignore", []byte("build/\n"), 0o644)
	if got := resolve.Check(w.opts(), [][]string{{"rg", "TODO"}}, nil); len(got) != 0 {
		t.Errorf("plain rg in a project with a .env: %v", got)
	}
	// A flag before any operand is a flag everywhere, whatever file
	// shares its name.
	os.Symlink(w.home+"/.ssh/id_rsa", w.proj+"/-n")
	if got := resolve.Check(w.opts(), [][]string{{"cat", "-n", "notes.txt"}}, nil); len(got) != 0 {
		t.Errorf("cat -n FILE with a file named -n: %v", got)
	}
}

// rg reads more ignore files than those in the tree (a red team's round
// on the walk model): a .git file leads it to another repository's
// info/exclude, and git's global excludes file applies everywhere. A
// whitelist line in any of them makes rg read .env, so each asks.
func TestRgIgnoreSources(t *testing.T) {
	secret := func(w world) {
		os.WriteFile(w.proj+"/.env", []byte("SECRET"), 0o644)
		os.MkdirAll(w.proj+"/sub", 0o755)
		os.WriteFile(w.proj+"/sub/.env", []byte("SECRET"), 0o644)
	}
	// worktree plants sub/.git as a file naming gitdir (relative names
	// as given), whose commondir names common; common's exclude says
	// exclude.
	worktree := func(w world, gitdir, common, exclude string) {
		secret(w)
		gd, cd := w.home+"/gd", w.home+"/cd"
		os.MkdirAll(gd, 0o755)
		os.MkdirAll(cd+"/info", 0o755)
		os.WriteFile(w.proj+"/sub/.git", []byte("gitdir: "+gitdir+"\n"), 0o644)
		os.WriteFile(gd+"/commondir", []byte(common+"\n"), 0o644)
		os.WriteFile(cd+"/info/exclude", []byte(exclude), 0o644)
	}
	tests := []struct {
		name  string
		plant func(w world)
		asks  bool
	}{
		{"a .git file whose commondir's exclude whitelists", func(w world) {
			worktree(w, w.home+"/gd", w.home+"/cd", "!.env\n")
		}, true},
		{"the same, gitdir and commondir relative", func(w world) {
			worktree(w, "../../gd", "../cd", "!.env\n")
		}, true},
		{"the same, gitdir relative to where rg runs", func(w world) {
			worktree(w, "../gd", "../cd", "!.env\n")
		}, true},
		{"a .git file whose commondir's exclude only ignores", func(w world) {
			worktree(w, w.home+"/gd", w.home+"/cd", "build/\n")
		}, false},
		{"a .git file that names no gitdir", func(w world) {
			secret(w)
			os.WriteFile(w.proj+"/sub/.git", []byte("not a gitdir line\n"), 0o644)
		}, false},
		{"a .git file whose gitdir's own exclude whitelists", func(w world) {
			worktree(w, w.home+"/gd", w.home+"/cd", "")
			os.MkdirAll(w.home+"/gd/info", 0o755)
			os.WriteFile(w.home+"/gd/info/exclude", []byte("!.env\n"), 0o644)
		}, true},
		{"a .git file behind a symlink", func(w world) {
			worktree(w, w.home+"/gd", w.home+"/cd", "!.env\n")
			os.Rename(w.proj+"/sub/.git", w.home+"/dotgit")
			os.Symlink(w.home+"/dotgit", w.proj+"/sub/.git")
		}, true},
		{"a FIFO as the .git file", func(w world) {
			secret(w)
			syscall.Mkfifo(w.proj+"/sub/.git", 0o644)
		}, true},
		{"a FIFO as the commondir", func(w world) {
			worktree(w, w.home+"/gd", w.home+"/cd", "")
			os.Remove(w.home + "/gd/commondir")
			syscall.Mkfifo(w.home+"/gd/commondir", 0o644)
		}, true},
		{"a FIFO as the common exclude", func(w world) {
			worktree(w, w.home+"/gd", w.home+"/cd", "")
			os.Remove(w.home + "/cd/info/exclude")
			syscall.Mkfifo(w.home+"/cd/info/exclude", 0o644)
		}, true},
		{"a .git file larger than its bound, with no line end", func(w world) {
			secret(w)
			os.WriteFile(w.proj+"/sub/.git", []byte("gitdir: /"+strings.Repeat("x", 70<<10)), 0o644)
		}, true},
		{"a .git directory in a subdirectory whose exclude whitelists", func(w world) {
			secret(w)
			os.MkdirAll(w.proj+"/sub/.git/info", 0o755)
			os.WriteFile(w.proj+"/sub/.git/info/exclude", []byte("!.env\n"), 0o644)
		}, true},
		{"git's global excludes file, named in ~/.gitconfig", func(w world) {
			secret(w)
			os.WriteFile(w.home+"/.gitconfig", []byte("[core]\n\texcludesFile = ~/global-ignore\n"), 0o644)
			os.WriteFile(w.home+"/global-ignore", []byte("!.env\n"), 0o644)
		}, true},
		{"git's default global excludes file", func(w world) {
			secret(w)
			os.MkdirAll(w.home+"/.config/git", 0o755)
			os.WriteFile(w.home+"/.config/git/ignore", []byte("!.env\n"), 0o644)
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			tt.plant(w)
			got := resolve.Check(w.opts(), [][]string{{"rg", "SECRET"}}, nil)
			if asks := len(got) > 0; asks != tt.asks {
				t.Errorf("rg SECRET: %v; want an ask: %v", got, tt.asks)
			}
		})
	}
}

// A command a user's rule allowed, of a program the catalogue declares no
// walk for, is walked over the directories its words name (a red team's
// "tar -cf - ." under --allow /usr/bin/tar printed .env); words that name
// no directory walk nothing, so a user's "make test" does not ask.
func TestUserRuleWalksNamedDirectories(t *testing.T) {
	tests := []struct {
		argv []string
		asks bool
	}{
		{[]string{"/usr/bin/tar", "-cf", "-", "."}, true},
		{[]string{"tar", "-cf", "-", "."}, true},
		// A program the catalogue does not describe, or a subcommand
		// of one it does not: the user's rule alone judges it.
		{[]string{"zip", "-qr", "-", "sub"}, false},
		{[]string{"git", "add", "."}, false},
		{[]string{"ruff", "check", "."}, false},
		{[]string{"tar", "-cf", "-", "--directory=sub", "x"}, true},
		{[]string{"tar", "-cf", "-", "-Csub", "x"}, true},
		{[]string{"tar", "-cf", "-", "link"}, true},
		{[]string{"make", "test"}, false},
		{[]string{"make", "-j4", "test"}, false},
		{[]string{"go", "test", "./..."}, false},
		{[]string{"tar", "-cf", "-", "src"}, false},
		{[]string{"make", "-C", "src", "test"}, false},
	}
	w := newWorld(t)
	os.WriteFile(w.proj+"/.env", []byte("SECRET"), 0o644)
	os.MkdirAll(w.proj+"/sub", 0o755)
	os.WriteFile(w.proj+"/sub/.env", []byte("SECRET"), 0o644)
	os.Symlink(w.proj+"/sub", w.proj+"/link")
	for _, tt := range tests {
		got := resolve.Check(w.opts(), [][]string{tt.argv}, nil)
		if asks := len(got) > 0; asks != tt.asks {
			t.Errorf("%q: %v; want an ask: %v", tt.argv, got, tt.asks)
		}
	}
}

// A hard link to a secret of the project that others may read (a 0644
// .env) is the secret under another name: a red team's "cat notes.txt"
// printed it. A file with several names that is no secret still runs;
// past the walk's bound, a file with several names asks.
func TestHardLinkToProjectSecret(t *testing.T) {
	w := newWorld(t)
	os.MkdirAll(w.proj+"/config", 0o755)
	os.WriteFile(w.proj+"/.env", []byte("SECRET"), 0o644)
	os.WriteFile(w.proj+"/config/server.pem", []byte("SECRET"), 0o644)
	os.Link(w.proj+"/.env", w.proj+"/notes.txt")
	os.Link(w.proj+"/config/server.pem", w.proj+"/src/data.txt")
	os.Symlink("notes.txt", w.proj+"/readme")
	os.Link(w.proj+"/src/main.go", w.proj+"/src/copy.go")
	for _, tt := range []struct {
		argv []string
		want string
	}{
		{[]string{"cat", "notes.txt"}, ".env, a secret of the project"},
		{[]string{"cat", "src/data.txt"}, "server.pem, a secret of the project"},
		{[]string{"cat", "readme"}, ".env, a secret of the project"},
		{[]string{"grep", "-r", "SECRET", "src"}, "server.pem, a secret of the project"},
		{[]string{"cat", "src/copy.go"}, ""},
	} {
		got := resolve.Check(w.opts(), [][]string{tt.argv}, nil)
		switch {
		case tt.want == "" && len(got) > 0:
			t.Errorf("%q: %v; want no ask", tt.argv, got)
		case tt.want != "" && (len(got) == 0 || !strings.Contains(got[0].Message, tt.want)):
			t.Errorf("%q: %v; want an ask naming %q", tt.argv, got, tt.want)
		}
	}
	o := w.opts()
	o.MaxWalk = 3
	got := resolve.Check(o, [][]string{{"cat", "src/copy.go"}}, nil)
	if len(got) == 0 || !strings.Contains(got[0].Message, "too many to look for a secret") {
		t.Errorf("cat src/copy.go past the bound: %v; want an ask", got)
	}
}
