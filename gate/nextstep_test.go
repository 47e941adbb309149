package gate_test

import (
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/audit"
	"github.com/agentgate/agentgate/gate"
)

// The text sent to the agent never proposes a rule or a setting, for any
// kind of refusal; the suggestion for the person does, narrowly.
func TestNextStepProposesNoRule(t *testing.T) {
	cmds := []string{"rm x", "git stash list", "touch x", "make deploy", "ls; rm x", "find . -delete", "cat ~/.ssh/id_rsa",
		"echo $X", "python3 x.py", "rm -rf /", "git push --force", "curl x | sh", "ls\x1b", "mytool --flag"}
	for _, e := range loadCorpus(t) {
		cmds = append(cmds, e.req.Text)
	}
	rules := append(allowlist.Defaults(), allowlist.Rule{Kind: allowlist.Deny, Prefix: []string{"make", "deploy"}})
	for _, c := range cmds {
		d := gate.Decide(gate.Request{Text: c, Rules: rules, Paths: catPaths})
		if d.Verdict() == gate.Allow {
			continue
		}
		next := gate.NextStep(d)
		for _, bad := range []string{"prefix", "[allow]", "config.toml", "add ", "rule =", "compound =", "split", "mode =", "--mode", "bypass", "--allow", "trust"} {
			if strings.Contains(next, bad) {
				t.Errorf("NextStep(%q) proposes a rule or setting (%q): %s", c, bad, next)
			}
		}
	}
}

func TestSuggestRule(t *testing.T) {
	tests := map[string]string{
		"git lfs ls-files": `add prefix = ["git lfs ls-files"] to [allow] in CFG`,
		"touch x":          `add prefix = ["touch"] to [allow] in CFG`,
		"git stash":        "",
		"python3 x.py":     "",
		"ls; touch x":      "",
		"cat ~/.ssh/x":     "",
		"rm -rf /":         "",
	}
	for c, want := range tests {
		got := gate.SuggestRule(gate.Decide(gate.Request{Text: c, Rules: allowlist.Defaults(), Paths: catPaths}), "CFG")
		if want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("SuggestRule(%q) = %q; want %q", c, got, want)
		}
	}
}

func TestNextStepAfter(t *testing.T) {
	d := gate.Decide(gate.Request{Text: "touch x", Rules: allowlist.Defaults()})
	for _, outcome := range []string{audit.OutcomeDenied, audit.OutcomeDeniedSession, audit.OutcomeDeniedBySession} {
		if got := gate.NextStepAfter(d, outcome); !strings.Contains(got, "the user denied this command: do not retry it") {
			t.Errorf("%s: %s", outcome, got)
		}
	}
	for _, outcome := range []string{audit.OutcomeBreaker, audit.OutcomeTimeout, audit.OutcomeInterrupted, audit.OutcomeDeniedReadonly, audit.OutcomeDeniedNonInteractive} {
		got := gate.NextStepAfter(d, outcome)
		if strings.Contains(got, "prefix") || strings.Contains(got, "the user denied") {
			t.Errorf("%s: %s", outcome, got)
		}
	}
	if got := gate.NextStepAfter(d, audit.OutcomeDeniedNonInteractive); got != gate.NextStep(d) {
		t.Errorf("no one to ask: %s", got)
	}
	cat := gate.Decide(gate.Request{Text: "rm -rf /"})
	if got := gate.NextStepAfter(cat, audit.OutcomeDenied); !strings.Contains(got, "cannot be approved") {
		t.Errorf("catastrophic: %s", got)
	}
}

// A git finding that is not a configuration key (a hook, a variable of
// the text) is not handed to "git config --get-regexp" in the next step.
func TestNextStepRepoConfigNamesOnlyKeys(t *testing.T) {
	base := gate.Decide(gate.Request{Text: "git status", Rules: allowlist.Defaults(), Paths: catPaths})
	for match, want := range map[string]string{
		"core.fsmonitor":          `--get-regexp "core.fsmonitor"`,
		"hooks/post-index-change": "(hooks/post-index-change) needs a person",
		"${d}":                    "(${d}) needs a person",
		"xargs":                   "(xargs) needs a person",
	} {
		d := gate.Escalate(base, gate.Reason{Check: gate.CheckRepoConfig, Match: match, Message: "m"})
		if got := gate.NextStep(d); !strings.Contains(got, want) {
			t.Errorf("NextStep(%s) = %q; want it to contain %q", match, got, want)
		}
	}
}
