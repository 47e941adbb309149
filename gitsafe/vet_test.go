package gitsafe_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/agentgate/agentgate/gitsafe"
)

// plain makes a fresh repository as git init writes it, with one commit.
func plain(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git(t, dir, nil, "init", "-q")
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("a\n"), 0o644)
	git(t, dir, nil, "add", ".")
	git(t, dir, nil, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "first")
	return dir
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(text)
	f.Close()
}

// TestVet: what a hostile agent can plant in the repository, and what a
// clean repository holds. want is a substring of the first finding ("" for
// none), wantErr whether Vet cannot judge at all.
func TestVet(t *testing.T) {
	tests := []struct {
		name    string
		plant   func(t *testing.T, dir string) // dir is the working tree
		argv    []string
		in      string // subdirectory to run in
		want    string
		wantErr bool
	}{
		{name: "clean repository", plant: func(*testing.T, string) {}, argv: []string{"git", "status"}},
		{name: "what git clone writes", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "remote", "add", "origin", "https://example.com/x.git")
			git(t, dir, nil, "config", "branch.master.remote", "origin")
			git(t, dir, nil, "config", "branch.master.merge", "refs/heads/master")
			git(t, dir, nil, "config", "user.name", "t")
			git(t, dir, nil, "config", "color.ui", "auto")
		}, argv: []string{"git", "log"}},
		{name: "what VS Code, gh and commit signing set", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "remote", "add", "origin", "https://example.com/x.git")
			git(t, dir, nil, "config", "remote.origin.gh-resolved", "base")
			git(t, dir, nil, "config", "branch.feat/x.vscode-merge-base", "origin/main")
			git(t, dir, nil, "config", "user.signingkey", "ABCD")
			git(t, dir, nil, "config", "commit.gpgsign", "true")
		}, argv: []string{"git", "status"}},
		{name: "core.fsmonitor, file and line named", plant: func(t *testing.T, dir string) {
			appendFile(t, dir+"/.git/config", "[core]\n\tfsmonitor = ./x.sh\n")
		}, argv: []string{"git", "status"}, want: "core.fsmonitor (DIR/.git/config:7): names a program git runs"},
		{name: "a key nobody listed (man.viewer)", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "config", "man.viewer", "x")
		}, argv: []string{"git", "log"}, want: "man.viewer"},
		{name: "remote uploadpack", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "config", "remote.origin.uploadpack", "touch /tmp/x")
		}, argv: []string{"git", "status"}, want: "remote.origin.uploadpack"},
		{name: "partial clone promisor", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "config", "extensions.partialClone", "origin")
		}, argv: []string{"git", "log"}, want: "extensions.partialclone"},
		{name: "url insteadOf", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "config", "url.ext::sh -c touch% /tmp/x.insteadOf", "https://")
		}, argv: []string{"git", "status"}, want: "insteadof"},
		{name: "sequence editor", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "config", "sequence.editor", "x")
		}, argv: []string{"git", "status"}, want: "sequence.editor"},
		{name: "diff.submodule", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "config", "diff.submodule", "log")
		}, argv: []string{"git", "diff"}, want: "diff.submodule"},
		{name: "mixed case section", plant: func(t *testing.T, dir string) {
			appendFile(t, dir+"/.git/config", "[CORE]\n\tPager = x\n")
		}, argv: []string{"git", "log"}, want: "core.pager"},
		{name: "one-line section and key", plant: func(t *testing.T, dir string) {
			appendFile(t, dir+"/.git/config", "[core] sshCommand = x\n")
		}, argv: []string{"git", "log"}, want: "core.sshcommand (DIR/.git/config:6)"},
		{name: "include.path is not inert", plant: func(t *testing.T, dir string) {
			appendFile(t, dir+"/inc.cfg", "[user]\n\tname = x\n")
			git(t, dir, nil, "config", "include.path", "../inc.cfg")
		}, argv: []string{"git", "log"}, want: "include.path"},
		{name: "what an include holds is found in the included file", plant: func(t *testing.T, dir string) {
			appendFile(t, dir+"/inc.cfg", "[user]\n\tname = x\n[diff \"x\"]\n\ttextconv = ./x.sh\n")
			git(t, dir, nil, "config", "include.path", "../inc.cfg")
		}, argv: []string{"git", "log"}, want: "include.path"},
		{name: "the user's global config includes a file inside the project", plant: func(t *testing.T, dir string) {
			os.WriteFile(dir+"/.gitconfig", []byte("[includeIf \"gitdir:"+dir+"/\"]\n\tpath = "+dir+"/proj.gitconfig\n"), 0o644)
			os.WriteFile(dir+"/proj.gitconfig", []byte("[core]\n\tpager = x\n"), 0o644)
		}, argv: []string{"git", "log"}, want: "core.pager (DIR/proj.gitconfig:2)"},
		{name: "the user's global config includes a project file through a symlink", plant: func(t *testing.T, dir string) {
			other := t.TempDir()
			os.Symlink(dir, other+"/proj")
			os.WriteFile(dir+"/.gitconfig", []byte("[include]\n\tpath = "+other+"/proj/proj.gitconfig\n"), 0o644)
			os.WriteFile(dir+"/proj.gitconfig", []byte("[core]\n\tpager = x\n"), 0o644)
		}, argv: []string{"git", "log"}, want: "core.pager"},
		{name: "the user's global config including a file of the user's own", plant: func(t *testing.T, dir string) {
			other := t.TempDir()
			os.WriteFile(dir+"/.gitconfig", []byte("[include]\n\tpath = "+other+"/mine\n"), 0o644)
			os.WriteFile(other+"/mine", []byte("[core]\n\tpager = less\n"), 0o644)
		}, argv: []string{"git", "log"}},
		{name: "includeIf", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "config", "includeIf.gitdir:/.path", "../inc.cfg")
		}, argv: []string{"git", "log"}, want: "includeif.gitdir:/.path"},
		{name: "config.worktree", plant: func(t *testing.T, dir string) {
			appendFile(t, dir+"/.git/config.worktree", "[core]\n\tpager = x\n")
		}, argv: []string{"git", "log"}, want: "core.pager (DIR/.git/config.worktree:2)"},
		{name: "a submodule's own configuration", plant: func(t *testing.T, dir string) {
			appendFile(t, dir+"/.git/modules/lib/config", "[core]\n\tfsmonitor = x\n")
		}, argv: []string{"git", "status"}, want: "DIR/.git/modules/lib/config:2"},
		{name: "a nested submodule's", plant: func(t *testing.T, dir string) {
			appendFile(t, dir+"/.git/modules/a/modules/b/config", "[diff]\n\texternal = x\n")
		}, argv: []string{"git", "diff"}, want: "diff.external"},
		{name: "submodule worktree inside the project is inert", plant: func(t *testing.T, dir string) {
			appendFile(t, dir+"/.git/modules/lib/config", "[core]\n\tworktree = ../../../lib\n")
		}, argv: []string{"git", "status"}},
		{name: "an old-style submodule with its own .git directory", plant: func(t *testing.T, dir string) {
			sub := filepath.Join(dir, "sub")
			git(t, dir, nil, "init", "-q", "sub")
			git(t, sub, nil, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "x")
			git(t, dir, nil, "add", "sub")
			git(t, sub, nil, "config", "filter.x.clean", "./x.sh")
		}, argv: []string{"git", "status"}, want: "filter.x.clean (DIR/sub/.git/config"},
		{name: "a submodule whose .git file points elsewhere", plant: func(t *testing.T, dir string) {
			sub := filepath.Join(dir, "sub")
			git(t, dir, nil, "init", "-q", "sub")
			git(t, sub, nil, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "x")
			git(t, dir, nil, "add", "sub")
			os.Rename(filepath.Join(sub, ".git"), filepath.Join(dir, "hidden.git"))
			os.WriteFile(filepath.Join(sub, ".git"), []byte("gitdir: ../hidden.git\n"), 0o644)
			git(t, dir, nil, "--git-dir=hidden.git", "config", "core.pager", "x")
		}, argv: []string{"git", "diff"}, want: "DIR/hidden.git/config"},
		{name: "a clean submodule", plant: func(t *testing.T, dir string) {
			sub := filepath.Join(dir, "sub")
			git(t, dir, nil, "init", "-q", "sub")
			git(t, sub, nil, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "x")
			git(t, dir, nil, "add", "sub")
		}, argv: []string{"git", "status"}},
		{name: "objects borrowed from another repository", plant: func(t *testing.T, dir string) {
			appendFile(t, dir+"/.git/objects/info/alternates", "/home/bob/private/.git/objects\n")
		}, argv: []string{"git", "log"}, want: "info/alternates (DIR/.git/objects/info/alternates:1)"},
		{name: "objects borrowed from inside the project", plant: func(t *testing.T, dir string) {
			os.MkdirAll(dir+"/vendor/objects", 0o755)
			appendFile(t, dir+"/.git/objects/info/alternates", "../../vendor/objects\n")
		}, argv: []string{"git", "log"}},
		{name: "worktree elsewhere in the project", plant: func(t *testing.T, dir string) {
			os.MkdirAll(dir+"/sub", 0o755)
			git(t, dir, nil, "config", "core.worktree", "../sub")
		}, argv: []string{"git", "grep", "x"}, want: "core.worktree"},
		{name: "worktree at the top itself", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "config", "core.worktree", dir)
		}, argv: []string{"git", "grep", "x"}},
		{name: "worktree outside the project", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "config", "core.worktree", "/etc")
		}, argv: []string{"git", "diff"}, want: "core.worktree"},
		{name: "token in a remote URL, git remote -v", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "remote", "add", "origin", "https://ghp_secret@github.com/x/y")
		}, argv: []string{"git", "remote", "-v"}, want: "user name or password"},
		{name: "user:password in a remote URL, ls-remote", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "remote", "add", "origin", "https://u:p@example.com/y")
		}, argv: []string{"git", "ls-remote"}, want: "remote.origin.url"},
		{name: "a token does not stop git log", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "remote", "add", "origin", "https://u:p@example.com/y")
		}, argv: []string{"git", "log"}},
		{name: "ssh user is no secret", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "remote", "add", "origin", "git@github.com:x/y.git")
		}, argv: []string{"git", "remote", "-v"}},
		{name: "ext:: remote", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "remote", "add", "origin", "ext::sh -c touch% /tmp/x")
		}, argv: []string{"git", "log"}, want: "runs a program"},
		{name: "git -C into a hostile repository", plant: func(t *testing.T, dir string) {
			sub := filepath.Join(dir, "sub")
			git(t, dir, nil, "init", "-q", "sub")
			git(t, sub, nil, "config", "core.pager", "x")
		}, argv: []string{"git", "-C", "sub", "log"}, want: "DIR/sub/.git/config"},
		{name: "run from a subdirectory", plant: func(t *testing.T, dir string) {
			os.MkdirAll(dir+"/a/b", 0o755)
			git(t, dir, nil, "config", "core.pager", "x")
		}, in: "a/b", argv: []string{"git", "log"}, want: "core.pager"},
		{name: ".git file with gitdir:", plant: func(t *testing.T, dir string) {
			other := filepath.Join(dir, "elsewhere")
			os.Rename(filepath.Join(dir, ".git"), other)
			os.WriteFile(filepath.Join(dir, ".git"), []byte("gitdir: elsewhere\n"), 0o644)
			git(t, dir, nil, "config", "core.pager", "x")
		}, argv: []string{"git", "log"}, want: "DIR/elsewhere/config"},
		{name: "linked worktree: commondir's config", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "worktree", "add", "-q", "wt")
			git(t, dir, nil, "config", "core.pager", "x")
		}, in: "wt", argv: []string{"git", "log"}, want: "DIR/.git/config"},
		{name: "a bare-repository-shaped directory", plant: func(t *testing.T, dir string) {
			os.RemoveAll(filepath.Join(dir, ".git"))
			git(t, dir, nil, "init", "-q", "--bare", "b")
			git(t, dir+"/b", nil, "config", "core.fsmonitor", "x")
		}, in: "b", argv: []string{"git", "log"}, want: "core.fsmonitor"},
		{name: "a fake bare repository (garbage HEAD) does not hide the real one (F1)", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "config", "diff.external", "./x.sh")
			os.MkdirAll(dir+"/sub/objects", 0o755)
			os.MkdirAll(dir+"/sub/refs", 0o755)
			os.WriteFile(dir+"/sub/HEAD", []byte("garbage\n"), 0o644)
		}, in: "sub", argv: []string{"git", "diff"}, want: "diff.external (DIR/.git/config"},
		{name: "a fake .git directory (garbage HEAD) does not hide the real one", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "config", "diff.external", "./x.sh")
			os.MkdirAll(dir+"/sub/.git/objects", 0o755)
			os.MkdirAll(dir+"/sub/.git/refs", 0o755)
			os.WriteFile(dir+"/sub/.git/HEAD", []byte("ref: heads/main\n"), 0o644)
		}, in: "sub", argv: []string{"git", "diff"}, want: "diff.external (DIR/.git/config"},
		{name: "a candidate discovery cannot decide on is judged too", plant: func(t *testing.T, dir string) {
			os.MkdirAll(dir+"/sub/objects", 0o755)
			os.MkdirAll(dir+"/sub/refs", 0o755)
			os.WriteFile(dir+"/sub/HEAD", []byte("ref: refs/heads/main\n"), 0o644)
			os.WriteFile(dir+"/sub/commondir", []byte(strings.Repeat("x", 5000)), 0o644) // too large to read
			appendFile(t, dir+"/sub/config", "[core]\n\tfsmonitor = ./x.sh\n")
		}, in: "sub", argv: []string{"git", "status"}, want: "core.fsmonitor (DIR/sub/config:2)"},
		{name: "git -C through a symlink into a planted repository", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "init", "-q", "x/evil")
			git(t, dir+"/x/evil", nil, "config", "diff.external", "./x.sh")
			os.MkdirAll(dir+"/x/evil/sub", 0o755)
			os.Symlink("x/evil/sub", dir+"/link")
		}, argv: []string{"git", "-C", "link", "diff"}, want: "diff.external (DIR/x/evil/.git/config"},
		{name: "core.worktree through a symlink to $HOME (F6)", plant: func(t *testing.T, dir string) {
			os.Symlink(t.TempDir(), dir+"/link")
			git(t, dir, nil, "config", "core.worktree", "../link")
		}, argv: []string{"git", "diff"}, want: "core.worktree"},
		{name: "core.worktree through a symlink inside the project is inert", plant: func(t *testing.T, dir string) {
			os.Symlink(".", dir+"/here")
			git(t, dir, nil, "config", "core.worktree", "../here")
		}, argv: []string{"git", "status"}},
		{name: "objects borrowed through a symlink out of the project", plant: func(t *testing.T, dir string) {
			os.Symlink(t.TempDir(), dir+"/vendor")
			appendFile(t, dir+"/.git/objects/info/alternates", "../../vendor/objects\n")
		}, argv: []string{"git", "log"}, want: "info/alternates"},
		{name: "$GIT_DIR", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "init", "-q", "--bare", "b")
			git(t, dir+"/b", nil, "config", "core.pager", "x")
		}, argv: []string{"git", "--git-dir=b", "log"}, want: "DIR/b/config"},
		{name: "-c on the command line", plant: func(*testing.T, string) {}, argv: []string{"git", "-c", "core.pager=x", "log"}, want: "core.pager"},
		{name: "--help opens a manual", plant: func(*testing.T, string) {}, argv: []string{"git", "log", "--help"}, want: "--help"},
		{name: "git help", plant: func(*testing.T, string) {}, argv: []string{"git", "help", "log"}, want: "git help"},
		{name: "--help after -- is a path", plant: func(*testing.T, string) {}, argv: []string{"git", "log", "--", "--help"}},
		{name: "unknown global option", plant: func(*testing.T, string) {}, argv: []string{"git", "--exec-path=/tmp", "log"}, want: "--exec-path"},
		{name: "config is a FIFO", plant: func(t *testing.T, dir string) {
			os.Remove(dir + "/.git/config")
			unix.Mkfifo(dir+"/.git/config", 0o600)
		}, argv: []string{"git", "log"}, wantErr: true},
		{name: ".git is a FIFO", plant: func(t *testing.T, dir string) {
			os.RemoveAll(dir + "/.git")
			unix.Mkfifo(dir+"/.git", 0o600)
		}, argv: []string{"git", "log"}, wantErr: true},
		{name: "the index is a FIFO", plant: func(t *testing.T, dir string) {
			os.Remove(dir + "/.git/index")
			unix.Mkfifo(dir+"/.git/index", 0o600)
		}, argv: []string{"git", "status"}, want: "git would block"},
		{name: "the top .gitignore is a FIFO", plant: func(t *testing.T, dir string) {
			unix.Mkfifo(dir+"/.gitignore", 0o600)
		}, argv: []string{"git", "status"}, want: ".gitignore"},
		{name: "an include that is a FIFO", plant: func(t *testing.T, dir string) {
			unix.Mkfifo(dir+"/fifo", 0o600)
			git(t, dir, nil, "config", "include.path", "../fifo")
		}, argv: []string{"git", "log"}, wantErr: true},
		{name: "a huge config", plant: func(t *testing.T, dir string) {
			appendFile(t, dir+"/.git/config", "#"+strings.Repeat("x", 2<<20)+"\n")
		}, argv: []string{"git", "log"}, wantErr: true},
		{name: "config git cannot parse", plant: func(t *testing.T, dir string) {
			appendFile(t, dir+"/.git/config", "[core\n")
		}, argv: []string{"git", "log"}, wantErr: true},
		{name: "include loop", plant: func(t *testing.T, dir string) {
			git(t, dir, nil, "config", "include.path", "config")
		}, argv: []string{"git", "log"}, want: "include.path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := plain(t)
			tt.plant(t, dir)
			got, err := gitsafe.Vet(tt.argv, filepath.Join(dir, tt.in), []string{"HOME=" + dir})
			if (err != nil) != tt.wantErr {
				t.Fatalf("Vet(%q) error = %v; want error %v (findings %v)", tt.argv, err, tt.wantErr, got)
			}
			switch {
			case tt.want == "" && !tt.wantErr && len(got) > 0:
				t.Errorf("Vet(%q) = %v; want nothing", tt.argv, got)
			case tt.want != "" && len(got) == 0:
				t.Errorf("Vet(%q) found nothing; want %q", tt.argv, tt.want)
			case tt.want != "" && !strings.Contains(got[0].String(), strings.ReplaceAll(tt.want, "DIR", dir)):
				t.Errorf("Vet(%q) = %v; want the first to contain %q", tt.argv, got, strings.ReplaceAll(tt.want, "DIR", dir))
			}
			for _, f := range got {
				if strings.Contains(f.String(), "ghp_secret") || strings.Contains(f.String(), "u:p@") {
					t.Errorf("a finding shows the secret: %v", f)
				}
			}
		})
	}
}

func TestHasCredential(t *testing.T) {
	for raw, want := range map[string]bool{
		"https://ghp_x@github.com/a/b":     true,
		"https://u:p@example.com/a":        true,
		"http://oauth2:tok@gitlab.com/a":   true,
		"ssh://git:pw@host/x":              true,
		"https://github.com/a/b":           false,
		"git@github.com:a/b.git":           false,
		"ssh://git@github.com/a/b":         false,
		"/srv/git/x.git":                   false,
		"https://u:p@exa mple.com/%zz":     true,
		"file:///home/u/x":                 false,
		"https://x-access-token:t@h/x.git": true,
		"https://h/x.git?access_token=abc": true,
	} {
		if got := gitsafe.HasCredential(raw); got != want {
			t.Errorf("HasCredential(%q) = %v; want %v", raw, got, want)
		}
	}
}

// The second layer: under Environ git refuses a planted bare repository
// it would otherwise use from inside it.
func TestEnvironRefusesBareRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git(t, dir, nil, "init", "-q", "--bare", "b")
	bare := filepath.Join(dir, "b")
	if out := git(t, bare, nil, "rev-parse", "--git-dir"); strings.TrimSpace(out) != "." {
		t.Fatalf("without Environ git does not use the bare repository (%q); the test proves nothing", out)
	}
	c := exec.Command("git", "rev-parse", "--git-dir")
	c.Dir = bare
	c.Env = gitsafe.Environ([]string{"HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "PATH=" + os.Getenv("PATH")})
	out, err := c.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "bare repository") {
		t.Errorf("under Environ git used the bare repository: %v %s", err, out)
	}
}
