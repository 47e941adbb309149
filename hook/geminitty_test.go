package hook

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

func TestGeminiArgsInteractive(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"--yolo", "-m", "gemini-2.5-flash"}, true},
		{[]string{"-i", "fix the build", "--approval-mode", "auto_edit"}, true},
		{[]string{"-p", "run it"}, false},
		{[]string{"--prompt=run it"}, false},
		{[]string{"--yolo", "run it"}, false},    // a query
		{[]string{"-e", "ext", "--yolo"}, false}, // a value this reading does not know
		{[]string{"--experimental-acp"}, false},  // an IDE, not this terminal
		{[]string{"-m", "x", "--", "-p"}, false},
		// The red team's: yargs reads both as a prompt.
		{[]string{"--yolo", "--p=run it"}, false},
		{[]string{"-yp=run it"}, false},
		{[]string{"--model=x"}, false}, // attached values are not read: unknown
	} {
		if got := geminiArgsInteractive(tc.args); got != tc.want {
			t.Errorf("geminiArgsInteractive(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// geminiArgs finds Gemini CLI by its script, not by a name an agent could
// give another program: node running another script is not Gemini.
func TestGeminiArgs(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	link := dir + "/gemini"
	if err := os.Symlink(sleep, link); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(link, "30")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Process.Kill()
	// Start returns as execve begins; the new command line is set a
	// moment later, so wait for it to be there.
	for range 10000 {
		if b, _ := os.ReadFile("/proc/" + strconv.Itoa(c.Process.Pid) + "/cmdline"); len(b) > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	args, ok := geminiArgs(strconv.Itoa(c.Process.Pid))
	if !ok || len(args) != 1 || args[0] != "30" {
		t.Errorf("geminiArgs of %s 30 = %q, %v", link, args, ok)
	}
	// Its standard input is not a terminal: not interactive.
	if geminiInteractive(strconv.Itoa(c.Process.Pid), nil) {
		t.Error("a process without a terminal was taken for an interactive Gemini CLI")
	}
	if _, ok := geminiArgs(strconv.Itoa(os.Getpid())); ok {
		t.Error("the test binary was taken for Gemini CLI")
	}
}
