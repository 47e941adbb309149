package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A literal simple command runs its argv directly, without bash: its
// stdout and exit status must be what bash -c gives for the same text.
func TestDirectExecMatchesBash(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a file.txt"), []byte("one\ntwo\nthree\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("x;y\n"), 0o644)
	bin := agentgateBinary(t)
	env := []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "AGENTGATE_TTY=none", "LC_ALL=C",
		"XDG_STATE_HOME=" + filepath.Join(dir, "state")}
	for _, text := range []string{
		"cat 'a file.txt'",
		`cat "a file.txt"`,
		`cat a\ file.txt`,
		"head -n 2 'a file.txt'",
		"wc -l 'a file.txt' b.txt",
		"grep -c o 'a file.txt'",
		"grep nomatch b.txt",
		"ls -1 missing",
		"sort -r 'a file.txt'",
		"cut -c1-2 b.txt",
		"nl b.txt",
		"tail -1 'a file.txt'",
		"stat -c %s b.txt",
		"realpath b.txt",
		"basename /x/y/z.txt .txt",
		"dirname /x/y/z",
		"sha256sum b.txt",
		"echo $'tab\\there'",
		"echo 'single' \"double\" plain",
		"pwd",
		"true",
		"ls -1",
		"ls *.txt",
	} {
		gotOut, gotCode := run(t, dir, env, bin, "exec", "--", text)
		wantOut, wantCode := run(t, dir, env, "bash", "-c", text)
		if !bytes.Equal(gotOut, wantOut) || gotCode != wantCode {
			t.Errorf("%q:\nagentgate: %d %q\nbash -c:   %d %q", text, gotCode, gotOut, wantCode, wantOut)
		}
	}
}

func run(t *testing.T, dir string, env []string, prog string, args ...string) ([]byte, int) {
	t.Helper()
	c := exec.Command(prog, args...)
	c.Dir, c.Env = dir, env
	out, err := c.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out, ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("%s %q: %v", prog, args, err)
	}
	return out, 0
}
