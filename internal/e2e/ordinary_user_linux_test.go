//go:build linux

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentgate/agentgate/internal/e2e/harness"
)

// nobody is the user the test runs agentgate as when the tests run as
// root (CI does): the guard and the workspace level take another road for
// a user other than root, a user namespace that maps only that user, and
// that road is what most people run.
const nobody = 65534

// TestConfinementAsOrdinaryUser runs the attacks of guard_own_files.txtar
// and workspace_protect.txtar as a user other than root: a planted script
// in bypass mode tries to turn the gate off and trust a project file, and
// a workspace build tries to plant a git hook. Each write must fail and
// the command's own work must be done; a fallback that ran them
// unguarded would leave the files behind.
func TestConfinementAsOrdinaryUser(t *testing.T) {
	var cred *syscall.Credential
	if os.Getuid() == 0 {
		cred = &syscall.Credential{Uid: nobody, Gid: nobody, NoSetGroups: true}
	}
	// A directory every user can enter: t.TempDir's are the test user's only.
	top, err := os.MkdirTemp("", "agentgate-user")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(top) })
	if err := os.Chmod(top, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(top, "agentgate")
	data, err := os.ReadFile(harness.Binary(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	home, proj := filepath.Join(top, "home"), filepath.Join(top, "proj")
	files := map[string]string{
		"proj/plant.sh": `mkdir -p "$HOME/.config/agentgate" "$HOME/.local/state/agentgate"
echo 'mode = "bypass"' >> "$HOME/.config/agentgate/config.toml"
echo '{}' > "$HOME/.local/state/agentgate/trust.json"
echo x > made-here
echo other work done
`,
		"proj/Makefile": "test:\n\techo ok > build/out\n\techo evil > .git/hooks/pre-commit || echo GIT REFUSED\n",
		"rule.toml":     "[[allow.rule]]\nprefix = \"make\"\nsandbox = \"workspace\"\n",
	}
	for _, d := range []string{home + "/.config/agentgate", home + "/.local/state/agentgate", proj + "/build", proj + "/.git/hooks"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(top, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if cred != nil {
		for _, d := range []string{home, proj} {
			filepath.Walk(d, func(p string, _ os.FileInfo, _ error) error { return os.Lchown(p, nobody, nobody) })
		}
	}
	run := func(args ...string) (string, error) {
		c := exec.Command(bin, args...)
		c.Dir = proj
		c.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "AGENTGATE_TTY=none", "LANG=C"}
		c.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		out, err := c.CombinedOutput()
		return string(out), err
	}
	// The road this test is about must be open to that user here; where
	// the system refuses user namespaces, agentgate runs approved commands
	// unguarded and says so, and that is tested elsewhere.
	probe := exec.Command("unshare", "--user", "--mount", "true")
	probe.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := probe.CombinedOutput(); err != nil {
		t.Skipf("this system refuses a user namespace to an ordinary user (%v: %s): the guard's fallback is what runs", err, out)
	}

	out, err := run("exec", "--mode", "bypass", "--", "sh ./plant.sh")
	if err != nil {
		t.Fatalf("bypassed command: %v\n%s", err, out)
	}
	for _, f := range []string{home + "/.config/agentgate/config.toml", home + "/.local/state/agentgate/trust.json"} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("the bypassed command wrote agentgate's own %s\n%s", f, out)
		}
	}
	if !strings.Contains(out, "other work done") {
		t.Errorf("the bypassed command did not run to its end:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(proj, "made-here")); err != nil {
		t.Errorf("the bypassed command could not write in its project: %v\n%s", err, out)
	}

	out, err = run("exec", "--config", filepath.Join(top, "rule.toml"), "--", "make test")
	if err != nil {
		t.Fatalf("workspace command: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(proj, ".git/hooks/pre-commit")); err == nil {
		t.Errorf("the workspace command planted a git hook\n%s", out)
	}
	if got, _ := os.ReadFile(filepath.Join(proj, "build/out")); string(got) != "ok\n" || !strings.Contains(out, "GIT REFUSED") {
		t.Errorf("the workspace build did not write its own output, or the refusal was not seen (build/out %q):\n%s", got, out)
	}
}
