package e2e

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// A command denied because no one could be asked names an id; a person
// at a terminal approves it with "agentgate approve ID" (Deny preset,
// the command shown as the prompt shows it), and the exact retry then
// runs once.
func TestApproveOutOfBand(t *testing.T) {
	h := newHome(t)
	deny := func() (string, int) {
		c := exec.Command(agentgateBinary(t), "exec", "--", "touch marker")
		c.Dir = h.work
		c.Env = h.env("AGENTGATE_TTY=none")
		out, _ := c.CombinedOutput()
		id := regexp.MustCompile(`agentgate approve ([a-z2-9]{6})`).FindStringSubmatch(string(out))
		if id == nil {
			return "", c.ProcessState.ExitCode()
		}
		return id[1], c.ProcessState.ExitCode()
	}
	id, status := deny()
	if id == "" || status != 126 {
		t.Fatalf("denial without an id (status %d)", status)
	}
	// Enter takes the preset: Deny.
	r := h.start(h.env(), "approve", id)
	r.WaitFor("run this command?")
	r.WaitFor("touch marker")
	r.Send("\r")
	if got := r.Wait(); got != 126 {
		t.Errorf("approve with Enter: status %d\n%s", got, r.Screen())
	}
	if next, _ := deny(); next == "" {
		t.Fatalf("the retry after a refused approval was not denied")
	}
	if _, err := os.Stat(h.mark); err == nil {
		t.Fatal("the command ran without approval")
	}

	id, _ = deny()
	r = h.start(h.env(), "approve", id)
	r.WaitFor("run this command?")
	r.Send("allow\r") // allowing needs the whole word (or Down, Enter)
	if got := r.Wait(); got != 0 {
		t.Fatalf("approve: status %d\n%s", got, r.Screen())
	}
	c := exec.Command(agentgateBinary(t), "exec", "--", "touch marker")
	c.Dir = h.work
	c.Env = h.env("AGENTGATE_TTY=none")
	if err := c.Run(); err != nil {
		t.Fatalf("the approved retry: %v", err)
	}
	if _, err := os.Stat(h.mark); err != nil {
		t.Fatal("the approved retry did not run")
	}
	if got := h.lastRecord()["outcome"]; got != "approved_out_of_band" {
		t.Errorf("outcome %v", got)
	}
	os.Remove(h.mark)
	if _, status := deny(); status != 126 {
		t.Errorf("the approval was used twice: status %d", status)
	}
	if _, err := os.Stat(h.mark); err == nil {
		t.Error("the second retry ran")
	}
}
