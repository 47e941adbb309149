package gitsafe_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"

	"github.com/agentgate/agentgate/gitsafe"
)

// repo makes a repository with one committed and modified file, and a
// marker program that records each time it runs.
func repo(t *testing.T) (dir, marker, prog string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir = t.TempDir()
	marker = filepath.Join(t.TempDir(), "ran")
	prog = filepath.Join(t.TempDir(), "planted.sh")
	script := "#!/bin/sh\necho \"$0 $*\" >> " + marker + "\n[ -t 0 ] || cat\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, nil, "init", "-q")
	git(t, dir, nil, "config", "user.email", "t@example.com")
	git(t, dir, nil, "config", "user.name", "t")
	git(t, dir, nil, "config", "color.ui", "never")
	// SSH signatures are only checked against an allowed-signers file.
	signers := filepath.Join(t.TempDir(), "allowed_signers")
	os.WriteFile(signers, nil, 0o644)
	git(t, dir, nil, "config", "gpg.ssh.allowedSignersFile", signers)
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("a\n"), 0o644)
	git(t, dir, nil, "add", ".")
	git(t, dir, nil, "commit", "-qm", "first")
	// A commit with a (bogus) signature, so that signature placeholders
	// make git run the gpg program.
	tree := strings.TrimSpace(git(t, dir, nil, "rev-parse", "HEAD^{tree}"))
	parent := strings.TrimSpace(git(t, dir, nil, "rev-parse", "HEAD"))
	obj := "tree " + tree + "\nparent " + parent + "\nauthor t <t@example.com> 1 +0000\ncommitter t <t@example.com> 1 +0000\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n"
	sig := filepath.Join(t.TempDir(), "commit")
	os.WriteFile(sig, []byte(obj), 0o644)
	id := strings.TrimSpace(git(t, dir, nil, "hash-object", "-t", "commit", "-w", sig))
	git(t, dir, nil, "update-ref", "HEAD", id)
	// The same for SSH and X.509 signatures, which git verifies with
	// gpg.ssh.program and gpg.x509.program.
	for ref, header := range map[string]string{"refs/tags/ssh": "SSH SIGNATURE", "refs/tags/x509": "SIGNED MESSAGE"} {
		obj := "tree " + tree + "\nparent " + parent + "\nauthor t <t@example.com> 1 +0000\ncommitter t <t@example.com> 1 +0000\n" +
			"gpgsig -----BEGIN " + header + "-----\n \n AAAA\n -----END " + header + "-----\n\nsigned\n"
		os.WriteFile(sig, []byte(obj), 0o644)
		id := strings.TrimSpace(git(t, dir, nil, "hash-object", "-t", "commit", "-w", sig))
		git(t, dir, nil, "update-ref", ref, id)
	}
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("a\nb\n"), 0o644)
	return dir, marker, prog
}

// gitTTY runs git with its output on a pseudo-terminal, where git starts
// pagers, and returns what it printed.
func gitTTY(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	// Linux may report the end of a pty (EIO) before what a short-lived
	// child wrote was read: an empty read is tried again.
	for try := 0; ; try++ {
		if out := gitTTYOnce(t, dir, env, args...); out != "" || try == 2 {
			return out
		}
	}
}

func gitTTYOnce(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = dir
	c.Env = append(env, "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "PATH="+os.Getenv("PATH"), "TERM=xterm", "LESS=FRX")
	f, err := pty.Start(c)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer f.Close()
	var buf bytes.Buffer
	io.Copy(&buf, f) // ends with EIO when git exits
	c.Wait()
	return buf.String()
}

func git(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = dir
	c.Env = append(env, "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "PATH="+os.Getenv("PATH"))
	out, err := c.CombinedOutput()
	if err != nil && len(args) > 0 && args[0] != "log" && args[0] != "status" && args[0] != "diff" && args[0] != "show" {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// neutralised are the overridable keys, each planted with the command
// that would run it.
var neutralised = []struct {
	key, value string // value "PROG" is the marker program
	args       []string
	want       string // in the output
}{
	{"core.fsmonitor", "PROG", []string{"status", "--porcelain"}, "f.txt"},
	{"core.pager", "PROG", []string{"log", "--oneline"}, "signed"},
	{"pager.log", "PROG", []string{"log", "--oneline"}, "signed"},
	{"pager.diff", "PROG", []string{"diff"}, "+b"},
	{"pager.show", "PROG", []string{"show", "--stat"}, "signed"},
	{"pager.status", "PROG", []string{"status"}, "f.txt"},
	{"pager.branch", "PROG", []string{"branch"}, "master"},
	{"log.showSignature", "true", []string{"log", "--oneline", "-1"}, "signed"},
	{"gpg.program", "PROG", []string{"log", "--format=%h %G?", "-1"}, " "},
	{"gpg.openpgp.program", "PROG", []string{"log", "--format=%h %G?", "-1"}, " "},
	{"gpg.x509.program", "PROG", []string{"log", "--format=%h %G?", "-1", "x509"}, " "},
	{"gpg.ssh.program", "PROG", []string{"log", "--format=%h %G?", "-1", "ssh"}, " "},
	{"core.hooksPath", "HOOKS", []string{"status", "--porcelain"}, "f.txt"},
}

// Each overridable key, planted in the repository, must not run under
// Environ, while the command still prints what it should.
func TestEnvironNeutralises(t *testing.T) {
	tests := neutralised
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			dir, marker, prog := repo(t)
			value := strings.ReplaceAll(tt.value, "PROG", prog)
			if tt.value == "HOOKS" {
				hooks := t.TempDir()
				for _, h := range []string{"post-index-change", "reference-transaction", "post-checkout"} {
					os.Symlink(prog, filepath.Join(hooks, h))
				}
				value = hooks
			}
			git(t, dir, nil, "config", tt.key, value)
			out := gitTTY(t, dir, gitsafe.Environ(nil), tt.args...)
			if !strings.Contains(out, tt.want) {
				t.Errorf("git %v under Environ printed %q; want it to contain %q", tt.args, out, tt.want)
			}
			if b, err := os.ReadFile(marker); err == nil {
				t.Errorf("planted %s ran under Environ: %s", tt.key, b)
			}
		})
	}
}

// Without Environ each planted program does run, so the test above
// proves something.
func TestPlantedProgramsRunWithoutEnviron(t *testing.T) {
	for _, tt := range neutralised {
		if tt.value == "HOOKS" || tt.key == "log.showSignature" {
			continue // hooks run on index writes only; showSignature needs gpg.program planted too
		}
		t.Run(tt.key, func(t *testing.T) {
			dir, marker, prog := repo(t)
			git(t, dir, nil, "config", tt.key, strings.ReplaceAll(tt.value, "PROG", prog))
			gitTTY(t, dir, nil, tt.args...)
			if _, err := os.Stat(marker); err != nil {
				t.Errorf("planted %s did not run without hardening; the neutralisation test proves nothing for it", tt.key)
			}
		})
	}
}

func TestEnvironKeepsCallerOverrides(t *testing.T) {
	env := gitsafe.Environ([]string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=color.ui", "GIT_CONFIG_VALUE_0=never", "GIT_PAGER=less", "GIT_EXTERNAL_DIFF=x"})
	joined := "\n" + strings.Join(env, "\n") + "\n"
	for _, want := range []string{"\nGIT_CONFIG_KEY_0=color.ui\n", "\nGIT_CONFIG_KEY_1=core.fsmonitor\n", "\nGIT_PAGER=cat\n"} {
		if !strings.Contains(joined, want) {
			t.Errorf("Environ lacks %q:%s", want, joined)
		}
	}
	for _, bad := range []string{"GIT_PAGER=less", "GIT_EXTERNAL_DIFF=", "GIT_CONFIG_COUNT=1\n"} {
		if strings.Contains(joined, "\n"+bad) {
			t.Errorf("Environ kept %q:%s", bad, joined)
		}
	}
}
