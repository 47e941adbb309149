// Command agentgate stands between a proposer of shell commands (an AI
// agent, a developer, a CI job) and the shell: read-only commands run at
// once, everything else asks a person, or is denied when no one can be
// asked. See README.md.
package main

import (
	_ "embed"
	"os"

	"github.com/agentgate/agentgate/cmd"
)

// exampleConfig is the starter config "agentgate init" writes: the very
// text of config.example.toml, which documents every default.
//
//go:embed config.example.toml
var exampleConfig string

func main() {
	os.Exit(cmd.Main(exampleConfig))
}
