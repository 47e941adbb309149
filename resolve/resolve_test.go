package resolve_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
	"github.com/agentgate/agentgate/resolve"
)

// world is a home with secrets and a project an agent can write.
type world struct {
	home, proj, other string
}

func newWorld(t *testing.T) world {
	t.Helper()
	root := t.TempDir()
	w := world{home: filepath.Join(root, "home", "u"), other: filepath.Join(root, "home", "bob")}
	w.proj = filepath.Join(w.home, "proj")
	for _, d := range []string{w.proj + "/src", w.home + "/.ssh", w.other + "/.aws", w.home + "/.local/bin"} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(w.home+"/.ssh/id_ed25519", []byte("SECRET"), 0o600)
	os.WriteFile(w.other+"/.aws/credentials", []byte("SECRET"), 0o600)
	os.WriteFile(w.proj+"/src/main.go", []byte("package main"), 0o644)
	os.Mkdir(w.proj+"/.git", 0o755)
	return w
}

func (w world) opts() resolve.Options {
	return resolve.Options{Cwd: w.proj, Home: w.home, Environ: []string{"PATH=/usr/bin:/bin"},
		Paths: gate.Paths{Home: w.home, Cwd: w.proj, Self: gate.DefaultSelf, Sensitive: gate.DefaultSensitive}}
}

// TestCheck: each case plants what a hostile agent would and names a
// command the text-only gate allows; want is a substring of the first
// reason ("" for none).
func TestCheck(t *testing.T) {
	tests := []struct {
		name  string
		plant func(t *testing.T, w world)
		argv  []string
		then  []string // a second command of a compound
		redir []string
		env   []string
		want  string
		// narrows: what the catalogue's reading narrows (an include
		// filter, no -r, rg's skipping of hidden files) is what a command
		// it cannot read asks for, walked at its widest (want is then the
		// catalogue's, "").
		narrows string
	}{
		{name: "plain file", argv: []string{"cat", "src/main.go"}},
		{name: "symlink to a key", plant: func(t *testing.T, w world) {
			os.Symlink(w.home+"/.ssh/id_ed25519", w.proj+"/notes.txt")
		}, argv: []string{"cat", "notes.txt"}, want: "reaches"},
		{name: "hard link to a key", plant: func(t *testing.T, w world) {
			if err := os.Link(w.home+"/.ssh/id_ed25519", w.proj+"/notes.txt"); err != nil {
				t.Skip(err)
			}
		}, argv: []string{"cat", "notes.txt"}, want: "hard link to a private file"},
		{name: "hard link to a world-readable secret of the home", plant: func(t *testing.T, w world) {
			os.MkdirAll(w.home+"/.aws", 0o755)
			os.WriteFile(w.home+"/.aws/credentials", []byte("aws_secret_access_key=K"), 0o644)
			if err := os.Link(w.home+"/.aws/credentials", w.proj+"/notes.txt"); err != nil {
				t.Skip(err)
			}
		}, argv: []string{"cat", "notes.txt"}, want: "secret in the home directory"},
		{name: "hard link to a world-readable ~/.netrc, read recursively", plant: func(t *testing.T, w world) {
			os.WriteFile(w.home+"/.netrc", []byte("machine x password y"), 0o644)
			if err := os.Link(w.home+"/.netrc", w.proj+"/src/readme"); err != nil {
				t.Skip(err)
			}
		}, argv: []string{"grep", "-r", "x", "src"}, want: "secret in the home directory"},
		{name: "hard link to a readable file", plant: func(t *testing.T, w world) {
			os.Link(w.proj+"/src/main.go", w.proj+"/copy.go")
		}, argv: []string{"cat", "copy.go"}},
		{name: "symlink chain to a key", plant: func(t *testing.T, w world) {
			os.Symlink("b", w.proj+"/a")
			os.Symlink("../.ssh", w.proj+"/b")
		}, argv: []string{"cat", "a/id_ed25519"}, want: "~/.ssh"},
		{name: "symlinked directory then ..", plant: func(t *testing.T, w world) {
			os.Symlink(w.home+"/.ssh", w.proj+"/d")
		}, argv: []string{"cat", "d/../.ssh/id_ed25519"}, want: "~/.ssh"},
		{name: "another user's home", argv: []string{"cat", "../../bob/.aws/credentials"}, want: "~/.aws"},
		{name: "/root's keys", argv: []string{"ls", "/root/.ssh"}, want: "~/.ssh"},
		{name: "a project's own .netrc", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.netrc", []byte("machine x password y"), 0o600)
		}, argv: []string{"cat", "./sub/../.netrc"}, want: ".netrc"},
		{name: "glued flag value", argv: []string{"head", "-n1", "-c.env"}, want: ".env"},
		{name: "glued value to a symlink", plant: func(t *testing.T, w world) {
			os.Symlink(w.home+"/.ssh/id_ed25519", w.proj+"/k")
		}, argv: []string{"sort", "-ok"}, want: "reaches"},
		{name: "--opt=symlink", plant: func(t *testing.T, w world) {
			os.Symlink(w.home+"/.ssh/id_ed25519", w.proj+"/k")
		}, argv: []string{"grep", "--file=k", "x"}, want: "reaches"},
		{name: "/proc/self/root", argv: []string{"cat", "/proc/self/root/HOME/.ssh/id_ed25519"}, want: "~/.ssh"},
		{name: "/proc/self/environ", argv: []string{"cat", "/proc/self/environ"}, want: "/proc/*/environ"},
		{name: "/proc/thread-self/environ", argv: []string{"cat", "/proc/thread-self/environ"}, want: "/proc/*/environ"},
		{name: "/proc/self/cwd to a secret", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K=V"), 0o600)
		}, argv: []string{"cat", "/proc/self/cwd/.env"}, want: ".env"},
		{name: "~user", argv: []string{"ls", "~root/.ssh"}, want: "~/.ssh"},
		{name: "$HOME in a word", argv: []string{"cat", "$HOME/.ssh/id_ed25519"}, want: "~/.ssh"},
		{name: "double slashes", argv: []string{"cat", "//etc//shadow"}, want: "/etc/shadow"},
		{name: "glob reaching a symlinked key", plant: func(t *testing.T, w world) {
			os.Symlink(w.home+"/.ssh/id_ed25519", w.proj+"/notes.txt")
		}, argv: []string{"cat", "*.txt"}, want: "reaches"},
		{name: "file named like a flag, list of files", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/--files0-from=list", nil, 0o644)
		}, argv: []string{"wc", "*"}, want: "reads the names of the files"},
		{name: "--files0-from", argv: []string{"wc", "--files0-from=list"}, want: "reads the names"},
		{name: "--files0-from abbreviated", argv: []string{"wc", "--files0=list"}, want: "reads the names"},
		{name: "--files0-from abbreviated to --f", argv: []string{"wc", "--f", "list"}, want: "reads the names"},
		{name: "file -f", argv: []string{"file", "-bf", "list"}, want: "file -f"[5:]},
		{name: "tar -T", argv: []string{"tar", "-cT", "list"}, want: "-T"},
		{name: "grep -r over a planted key", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/src/server.key", []byte("K"), 0o600)
		}, argv: []string{"grep", "-rn", "x", "."}, want: "server.key"},
		{name: "grep -r with no operand reads the working directory", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/src/.env", []byte("K"), 0o600)
		}, argv: []string{"grep", "-r", "x"}, want: ".env"},
		{name: "grep -r over a symlink leaving the tree", plant: func(t *testing.T, w world) {
			os.Symlink(w.home, w.proj+"/src/up")
		}, argv: []string{"grep", "-R", "x", "src"}, want: "leading out of the tree"},
		{name: "grep -r into .git with a token", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.git/config", []byte("[remote \"o\"]\n\turl = https://tok@example.com/x\n"), 0o644)
		}, argv: []string{"grep", "-r", "x", "."}, want: "holds a credential"},
		{name: "grep -r into .git without one", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.git/config", []byte("[remote \"o\"]\n\turl = https://example.com/x\n"), 0o644)
		}, argv: []string{"grep", "-r", "x", "."}},
		{name: "grep -r over a hard-linked key", plant: func(t *testing.T, w world) {
			if err := os.Link(w.home+"/.ssh/id_ed25519", w.proj+"/src/notes"); err != nil {
				t.Skip(err)
			}
		}, argv: []string{"grep", "-r", "x", "src"}, want: "hard link"},
		// Include filters narrow what a recursive reader reads (issue 18);
		// a glob that selects files makes rg read hidden ones.
		{name: "grep -r --include=*.go past a .env", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"grep", "-rn", "--include=*.go", "func main", "."}, narrows: "may hold secrets"},
		{name: "grep -r --include, abbreviated, past a key", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/src/server.key", []byte("K"), 0o600)
		}, argv: []string{"grep", "-r", "--incl", "*.go", "x", "src"}, narrows: "may hold secrets"},
		{name: "grep -r with an include matching the .env", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"grep", "-r", "--include=*.go", "--include=*.ENV", "x", "."}, want: ".env"},
		{name: "grep -r with --exclude first: unmatched files are read", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"grep", "-r", "--exclude=*.txt", "--include=*.go", "x", "."}, want: ".env"},
		{name: "grep -r with an include pattern not a plain suffix", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"grep", "-r", "--include=*.e?v", "x", "."}, want: ".env"},
		{name: "grep -r --include, a link named like source to a key", plant: func(t *testing.T, w world) {
			os.Symlink(w.home+"/.ssh/id_ed25519", w.proj+"/src/k.go")
		}, argv: []string{"grep", "-R", "--include=*.go", "x", "src"}, want: "~/.ssh"},
		{name: "grep -R --include, a link to a directory outside", plant: func(t *testing.T, w world) {
			os.Symlink(w.home, w.proj+"/src/up")
		}, argv: []string{"grep", "-R", "--include=*.go", "x", "src"}, want: "leading out of the tree"},
		{name: "rg -g selecting .env reads it, hidden or not", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"rg", "K", "-g", "*.env"}, want: ".env"},
		{name: "rg --iglob in another case", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"rg", "K", "--iglob=*.ENV"}, want: ".env"},
		{name: "rg -t selects hidden files of the type", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"rg", "K", "-t", "sh"}, want: ".env"},
		{name: "rg -g *.go past a .env", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"rg", "--hidden", "K", "-g", "*.go"}, narrows: "may hold secrets"},
		{name: "rg -g *.go with a glob that is not a suffix", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"rg", "K", "-g", "*.go", "-g", ".e*"}, want: ".env"},
		// The red team's routes past the first include filters: a
		// value-less --binary read as --binary-files taking the next word
		// (so --include looked first), a glob rg trims, and links to a key
		// under names the filter skips.
		{name: "grep --binary is not --binary-files", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"grep", "-r", "--binary", "--exclude=zzz", "--include=*.go", "K", "."}, want: ".env"},
		{name: "rg -g with a trailing blank rg drops", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"rg", "-g", "*.env ", "K"}, want: ".env"},
		{name: "rg -g *.go past a .key with a trailing tab", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/src/server.key", []byte("K"), 0o600)
		}, argv: []string{"rg", "-g", "*.key\t", "K"}, want: "server.key"},
		{name: "grep --include skips a name, not a hard link to a key", plant: func(t *testing.T, w world) {
			if err := os.Link(w.home+"/.ssh/id_ed25519", w.proj+"/src/notes.txt"); err != nil {
				t.Skip(err)
			}
		}, argv: []string{"grep", "-r", "--include=*.go", "K", "src"}, want: "hard link"},
		{name: "grep -R --include skips a name, not a link to a key", plant: func(t *testing.T, w world) {
			os.Symlink(w.home+"/.ssh/id_ed25519", w.proj+"/src/notes")
		}, argv: []string{"grep", "-R", "--include=*.go", "K", "src"}, want: "~/.ssh"},
		{name: "grep -r over a FIFO", plant: func(t *testing.T, w world) {
			unix.Mkfifo(w.proj+"/src/pipe", 0o600)
		}, argv: []string{"grep", "-r", "x", "src"}, want: "special file"},
		{name: "rg over a FIFO named .gitignore, which rg reads", plant: func(t *testing.T, w world) {
			unix.Mkfifo(w.proj+"/src/.gitignore", 0o600)
		}, argv: []string{"rg", "x", "src"}, want: "special file"},
		{name: "grep -d recurse", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/src/id_rsa", []byte("K"), 0o600)
		}, argv: []string{"grep", "-d", "recurse", "x", "src"}, want: "id_rsa"},
		{name: "grep --rec, abbreviated", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/src/id_rsa", []byte("K"), 0o600)
		}, argv: []string{"grep", "--rec", "x", "src"}, want: "id_rsa"},
		{name: "grep --dir=rec, both abbreviated", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/src/id_rsa", []byte("K"), 0o600)
		}, argv: []string{"grep", "--dir=rec", "x", "src"}, want: "id_rsa"},
		{name: "git diff --no-ind, abbreviated", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/src/id_rsa", []byte("K"), 0o600)
		}, argv: []string{"git", "diff", "--no-ind", "src", "/nonexistent"}, want: "id_rsa"},
		{name: "git -C moves the operands of diff --no-index", plant: func(t *testing.T, w world) {
			os.MkdirAll(w.proj+"/sub/keys", 0o755)
			os.WriteFile(w.proj+"/sub/keys/id_rsa", []byte("K"), 0o600)
		}, argv: []string{"git", "-C", "sub", "diff", "--no-index", "/nonexistent", "keys"}, want: "id_rsa"},
		{name: "grep -e pattern: every operand is a file", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/src/id_rsa", []byte("K"), 0o600)
		}, argv: []string{"grep", "-re", "x", "src"}, want: "id_rsa"},
		{name: "grep without -r is no walk", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/src/id_rsa", []byte("K"), 0o600)
		}, argv: []string{"grep", "x", "src/main.go"}, narrows: "recursively"},
		{name: "rg skips hidden", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"rg", "x"}, narrows: "recursively"},
		{name: "rg --hidden reads it", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"rg", "--hidden", "x"}, want: ".env"},
		{name: "rg -uu reads it", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/.env", []byte("K"), 0o600)
		}, argv: []string{"rg", "-uu", "x"}, want: ".env"},
		{name: "rg over a visible key", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/src/tls.pem", []byte("K"), 0o600)
		}, argv: []string{"rg", "x"}, want: "tls.pem"},
		{name: "diff -r", plant: func(t *testing.T, w world) {
			os.Symlink(w.home+"/.ssh", w.proj+"/src/keys")
		}, argv: []string{"diff", "-r", "src", "/nonexistent"}, want: "src"},
		{name: "git diff --no-index of directories", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/src/prod.tfstate", []byte("K"), 0o600)
		}, argv: []string{"git", "diff", "--no-index", "src", "/nonexistent"}, want: "prod.tfstate"},
		{name: "walk past its bound asks", plant: func(t *testing.T, w world) {
			for i := 0; i < 60; i++ {
				os.WriteFile(filepath.Join(w.proj, "src", strings.Repeat("f", i+1)), nil, 0o644)
			}
		}, argv: []string{"grep", "-r", "x", "src"}, want: "too many"},
		{name: "relative PATH entry", env: []string{"PATH=bin:/usr/bin"}, argv: []string{"ls"}, want: "relative entry bin"},
		{name: "empty PATH entry", env: []string{"PATH=:/usr/bin"}, argv: []string{"ls"}, want: "empty"},
		{name: "program in the project", plant: func(t *testing.T, w world) {
			os.MkdirAll(w.proj+"/bin", 0o755)
			os.WriteFile(w.proj+"/bin/ls", []byte("#!/bin/sh\n"), 0o755)
		}, env: []string{"PATH=PROJ/bin:/usr/bin"}, argv: []string{"ls"}, want: "a directory the agent can write"},
		{name: "program in /tmp", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/../x", nil, 0o644)
		}, argv: []string{"/tmp/ls"}, want: "/tmp"},
		{name: "trusted ~/.local/bin", plant: func(t *testing.T, w world) {
			os.WriteFile(w.home+"/.local/bin/ls", []byte("#!/bin/sh\n"), 0o755)
		}, env: []string{"PATH=HOME/.local/bin:/usr/bin"}, argv: []string{"ls"}},
		{name: "trusted dir linking into the project", plant: func(t *testing.T, w world) {
			os.WriteFile(w.proj+"/evil", []byte("#!/bin/sh\n"), 0o755)
			os.Symlink(w.proj+"/evil", w.home+"/.local/bin/ls")
		}, env: []string{"PATH=HOME/.local/bin:/usr/bin"}, argv: []string{"ls"}, want: "agent can write"},
		{name: "input redirect through a symlink", plant: func(t *testing.T, w world) {
			os.Symlink(w.home+"/.ssh/id_ed25519", w.proj+"/in.txt")
		}, argv: []string{"cat"}, redir: []string{"in.txt"}, want: "reaches"},
		{name: "redirect from /dev/tcp", argv: []string{"cat"}, redir: []string{"/dev/tcp/127.0.0.1/9"}, want: "network"},
		{name: "a FIFO named as an argument", plant: func(t *testing.T, w world) {
			unix.Mkfifo(w.proj+"/data.txt", 0o600)
		}, argv: []string{"cat", "data.txt"}, want: "FIFO"},
		{name: "cd into a directory, then a relative symlink", plant: func(t *testing.T, w world) {
			os.Symlink("../../.ssh/id_ed25519", w.proj+"/src/notes.txt")
		}, argv: []string{"cd", "src"}, then: []string{"cat", "notes.txt"}, want: "reaches"},
		{name: "cd - cannot be followed", argv: []string{"cd", "-"}, then: []string{"cat", "x"}, want: "cannot be followed"},
		{name: "symlink loop", plant: func(t *testing.T, w world) {
			os.Symlink("loop", w.proj+"/loop")
		}, argv: []string{"cat", "loop"}, want: "symlinks"},
	}
	// Each case is judged with the call read by the catalogue (as the
	// engine does) and as a command the catalogue cannot read (a user rule
	// allowed it), which is walked at its widest.
	for _, tt := range tests {
		for _, reading := range []string{"catalogue", "unread"} {
			t.Run(tt.name+"/"+reading, func(t *testing.T) {
				w := newWorld(t)
				if tt.plant != nil {
					tt.plant(t, w)
				}
				o := w.opts()
				if reading == "catalogue" {
					o.Read = func(argv []string) (*allowlist.Call, bool) { return allowlist.Read(allowlist.Defaults(), argv) }
				} else {
					o.Read = func([]string) (*allowlist.Call, bool) { return nil, false }
				}
				o.MaxWalk = 50
				if tt.env != nil {
					o.Environ = nil
					for _, kv := range tt.env {
						o.Environ = append(o.Environ, strings.NewReplacer("PROJ", w.proj, "HOME", w.home).Replace(kv))
					}
				}
				argv := append([]string(nil), tt.argv...)
				for i := range argv {
					argv[i] = strings.ReplaceAll(argv[i], "/HOME/", w.home+"/")
				}
				cmds := [][]string{argv}
				if tt.then != nil {
					cmds = append(cmds, tt.then)
				}
				got := resolve.Check(o, cmds, tt.redir)
				if tt.narrows != "" && reading == "unread" {
					tt.want = tt.narrows
				}
				switch {
				case tt.want == "" && len(got) > 0:
					t.Errorf("Check(%q) = %v; want nothing", argv, got)
				case tt.want != "" && len(got) == 0:
					t.Errorf("Check(%q) found nothing; want %q", argv, tt.want)
				case tt.want != "" && !strings.Contains(got[0].Message+" "+got[0].Rule, tt.want):
					t.Errorf("Check(%q) = %v; want the first to contain %q", argv, got[0], tt.want)
				}
				for _, r := range got {
					if r.Check != gate.CheckSensitive && r.Check != gate.CheckSelfProtect && !strings.Contains(r.Message, "FIFO") {
						t.Errorf("reason %v is neither sensitive nor self-protection: it would not be sticky", r)
					}
				}
			})
		}
	}
}

func TestAgentWritable(t *testing.T) {
	w := newWorld(t)
	o := w.opts()
	o.UntrustedDirs = []string{"~/Downloads", "/srv/shared"}
	o.Environ = append(o.Environ, "TMPDIR=/scratch")
	for dir, want := range map[string]bool{
		w.proj: true, w.proj + "/node_modules/.bin": true, "/tmp": true, "/tmp/x": true, "/var/tmp": true,
		"/dev/shm": true, "/scratch/y": true, w.home + "/Downloads": true, "/srv/shared/bin": true,
		"/usr/bin": false, "/bin": false, w.home + "/.local/bin": false, w.home + "/go/bin": false,
		w.home + "/.cargo/bin": false, "/home/nobody": false, "/etc": false,
	} {
		if _, got := o.AgentWritable(dir); got != want {
			t.Errorf("AgentWritable(%s) = %v; want %v", dir, got, want)
		}
	}
}

// A glob through a FIFO named like a directory never blocks.
func TestGlobThroughFIFO(t *testing.T) {
	w := newWorld(t)
	if err := unix.Mkfifo(w.proj+"/d", 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan []gate.Reason)
	go func() { done <- resolve.Check(w.opts(), [][]string{{"cat", "d/*", "d/x/*"}}, nil) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Check blocks on a FIFO in a glob")
	}
}

// Past the wall-clock guard a walk asks (the guard set to nothing here;
// the entry budget is what bounds work in practice).
func TestWalkTimeout(t *testing.T) {
	w := newWorld(t)
	old := resolve.WalkTimeout
	resolve.WalkTimeout = -time.Second
	defer func() { resolve.WalkTimeout = old }()
	got := resolve.Check(w.opts(), [][]string{{"grep", "-r", "x", "src"}}, nil)
	if len(got) == 0 || !strings.Contains(got[0].Message, "could not be checked within") {
		t.Errorf("Check = %v; want the walk to give up and ask", got)
	}
}

func TestDirs(t *testing.T) {
	root := t.TempDir()
	w, h := filepath.Join(root, "w"), filepath.Join(root, "h")
	for _, d := range []string{filepath.Join(w, "a", "b"), h} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got, complete := resolve.Dirs(w, h, [][]string{{"ls"}, {"cd", "a/b"}, {"git", "status"}, {"cd", ".."}, {"ls"}, {"cd"}, {"ls"},
		{"cd", w + "/nope/.."}, {"ls"}, {"cd", "-Pe", "a"}, {"ls"}})
	// Each command runs where the cds before it go, if they ran in this
	// shell, and where the text started, if they did not ("cd sub |
	// true" changes nothing). A cd that fails (a missing component
	// before "..") leaves the directory as it was. Options come
	// together ("-Pe").
	want := []string{w, w, w + "/a/b", w + "/a/b", w + "/a", w + "/a", h, h, h, h, w + "/a"}
	for i := range want {
		if !slices.Contains(got[i], want[i]) || !slices.Contains(got[i], w) {
			t.Errorf("command %d runs in %q; want %s and %s among them", i, got[i], want[i], w)
		}
	}
	if !complete || slices.Contains(got[8], w+"/nope") {
		t.Errorf("Dirs = %q, complete %v", got, complete)
	}
}

// TestExpandedReading: when bash may expand a glob, the words are also
// read as the program receives them, with the catalogue's reading of
// that argv: a match named like a flag asks, and matches that shift a
// pattern into a file operand are judged as paths.
func TestExpandedReading(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files []string
		argv  []string
		want  string
	}{
		{"a match named like a flag", []string{"-f", "-e"}, []string{"grep", "[-]f", "-e", "k"}, "named like a flag"},
		{"a match shifting the pattern", []string{"="}, []string{"grep", "[=k]", "a.txt"}, "reaches"},
		{"after --, an operand", []string{"-f"}, []string{"grep", "x", "--", "[-]f"}, ""},
		{"one match, a pattern", []string{"=", "a.txt"}, []string{"grep", "[=]", "a.txt"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			os.Symlink(w.home+"/.ssh/id_ed25519", w.proj+"/k")
			for _, f := range tt.files {
				os.WriteFile(w.proj+"/"+f, nil, 0o644)
			}
			o := w.opts()
			o.PathWords = func(argv []string) []string { return allowlist.PathWords(allowlist.Defaults(), argv) }
			o.Read = func(argv []string) (*allowlist.Call, bool) { return allowlist.Read(allowlist.Defaults(), argv) }
			got := resolve.Check(o, [][]string{tt.argv}, nil)
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("Check(%q) = %v; want nothing", tt.argv, got)
			case tt.want != "" && len(got) == 0:
				t.Errorf("Check(%q) found nothing; want %q", tt.argv, tt.want)
			case tt.want != "" && !strings.Contains(got[0].Message, tt.want):
				t.Errorf("Check(%q) = %v; want %q", tt.argv, got[0], tt.want)
			}
		})
	}
}
