package gate_test

import (
	"fmt"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
)

func ExampleDecide() {
	for _, text := range []string{"git log --oneline -5", "git status && rm -rf build", "find . -delete"} {
		d := gate.Decide(gate.Request{Text: text, Rules: allowlist.Defaults()})
		fmt.Printf("%s: %s (%s)\n", text, d.Verdict(), d.Primary().Message)
	}
	// Output:
	// git log --oneline -5: allow (on the allowlist: git log)
	// git status && rm -rf build: ask (compound or redirected command: && (runs a second command))
	// find . -delete: ask (argument "-delete" of find deletes files (deletes))
}
