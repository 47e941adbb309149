// Command agentgate stands between a proposer of shell commands (an AI
// agent, a developer, a CI job) and the shell: read-only commands run at
// once, everything else asks a person, or is denied when no one can be
// asked. See README.md.
package main

import (
	"os"

	"github.com/agentgate/agentgate/cmd"
)

func main() { os.Exit(cmd.Main()) }
