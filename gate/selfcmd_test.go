package gate_test

import (
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
)

// agentgate's own state-changing subcommands are sticky asks however they
// are reached; the read-only ones are judged like any command.
func TestSelfCommands(t *testing.T) {
	sticky := []string{
		"agentgate trust", "agentgate trust .agentgate.toml", "agentgate init", "agentgate init --project",
		"/usr/local/bin/agentgate trust",
		"agentgate audit suggest --apply", "agentgate audit suggest --ap", "agentgate session revoke --all",
		"agentgate session reset-breaker", "agentgate install claude", "agentgate hook claude",
		"agentgate exec -- ls", "ls && agentgate trust", "sudo agentgate trust", "env X=1 agentgate init",
		"bash -c 'agentgate trust'", "echo $(agentgate trust)", "agentgate frobnicate",
		// A terminal the agent drives is no person (issue 17): the
		// drivers, and an interpreter's pty module, are sticky asks, and
		// agentgate hidden in a runner's string counts.
		"(sleep 1; printf 'allow\r') | script -qc 'agentgate approve ab12cd' /dev/null",
		"script -qc 'agentgate trust' /dev/null", "script -q /dev/null", "tmux new -d 'agentgate approve x'",
		"screen -dm agentgate trust", "expect -c 'spawn agentgate approve x'", "unbuffer agentgate trust",
		"socat - EXEC:'agentgate approve x',pty", `python3 -c 'import pty; pty.spawn(["agentgate","approve","x"])'`,
		"perl -MIO::Pty -e 1", "echo agentgate approve",
	}
	readOnly := []string{
		"agentgate check -- 'rm -rf x'", "agentgate check -- agentgate trust", "agentgate config", "agentgate doctor",
		"agentgate audit log", "agentgate audit stats", "agentgate audit suggest", "agentgate session list",
		"agentgate --help", "agentgate", "agentgate pending",
	}
	for _, mode := range []bool{false, true} {
		for _, text := range []string{"./agentgate approve 3f2a", "agentgate deny 3f2a", "ls && agentgate approve x", "sudo agentgate approve x"} {
			d := gate.Decide(gate.Request{Text: text, Rules: allowlist.Defaults(), Split: mode})
			if d.Verdict() != gate.Deny || d.Primary().Check != gate.CheckSelfProtect {
				t.Errorf("%q (split %v): %s %v; want a self-protection deny", text, mode, d.Verdict(), d.Primary())
			}
		}
		for _, text := range sticky {
			d := gate.Decide(gate.Request{Text: text, Rules: allowlist.Defaults(), Split: mode})
			if d.Verdict() == gate.Allow || (d.Verdict() == gate.Ask && (!d.Sticky() || d.Primary().Check != gate.CheckSelfProtect)) {
				t.Errorf("%q (split %v): %s sticky=%v %v; want a sticky self-protection ask", text, mode, d.Verdict(), d.Sticky(), d.Primary())
			}
		}
		for _, text := range readOnly {
			d := gate.Decide(gate.Request{Text: text, Rules: allowlist.Defaults(), Split: mode})
			if d.Primary().Check == gate.CheckSelfProtect {
				t.Errorf("%q (split %v): self-protection ask for a read-only subcommand", text, mode)
			}
		}
	}
}
