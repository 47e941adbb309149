package gate

import (
	"fmt"
	"strconv"
	"strings"
)

// A Suggestion is the rule offered to the person (the prompt's "Always
// allow", check, audit suggest) for a command that asked because it is
// off the allowlist. A program that deletes, overwrites, runs code or has
// another risk note is never offered as a plain prefix: a build or test
// runner is offered confined to the workspace (writes under the project
// only, no network), and anything else is withheld, with the risk that
// withholds it. The agent is never told of a suggestion.
type Suggestion struct {
	// Prefix is the rule's prefix; "" when no rule is offered.
	Prefix string
	// Sandbox is the level the rule must carry ("" for none).
	Sandbox string
	// Withheld says why no rule is offered for a risky program
	// ("rm deletes files"); "" when none is offered for another reason.
	Withheld string
}

// workspaceRunners are the builds and test runners a workspace sandbox
// fits: they run the project's own code, which writes inside the project.
// Programs whose every subcommand builds (make, just) are named alone.
var workspaceRunners = map[string]bool{
	"make": true, "just": true,
	"go build": true, "go test": true, "go vet": true, "go run": true, "go generate": true,
	"cargo build": true, "cargo test": true, "cargo check": true, "cargo clippy": true, "cargo run": true, "cargo bench": true,
	"npm test": true, "npm run": true, "npm run-script": true, "pnpm test": true, "pnpm run": true, "yarn test": true, "yarn run": true,
}

// Suggest is the rule offered for argv.
func Suggest(argv []string) Suggestion {
	prefix := SuggestPrefix(argv)
	if prefix == "" {
		return Suggestion{}
	}
	words := strings.Fields(prefix)
	sub := ""
	if len(words) > 1 {
		sub = words[1]
	}
	note, risky := RiskNote(words[0], sub)
	if !risky {
		return Suggestion{Prefix: prefix}
	}
	if workspaceRunners[words[0]] || workspaceRunners[words[0]+" "+sub] {
		return Suggestion{Prefix: prefix, Sandbox: "workspace"}
	}
	name := words[0]
	if _, ok := riskNotes[words[0]+" "+sub]; ok && sub != "" {
		name += " " + sub
	}
	return Suggestion{Withheld: name + " " + note}
}

// TOML names the rule as configuration says it.
func (s Suggestion) TOML() string {
	if s.Sandbox == "" {
		return fmt.Sprintf("prefix = [%s] to [allow]", strconv.Quote(s.Prefix))
	}
	return fmt.Sprintf("an [[allow.rule]] with prefix = %s and sandbox = %s", strconv.Quote(s.Prefix), strconv.Quote(s.Sandbox))
}
