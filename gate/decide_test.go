package gate_test

import (
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
)

func decide(text string, rules ...allowlist.Rule) gate.Decision {
	return gate.Decide(gate.Request{Text: text, Rules: append(allowlist.Defaults(), rules...)})
}

func denyRule(prefix string) allowlist.Rule {
	return allowlist.Rule{Kind: allowlist.Deny, Prefix: strings.Fields(prefix), Source: allowlist.Source{Name: "test.toml", Line: 3}}
}

func TestDecideTable(t *testing.T) {
	tests := []struct {
		text  string
		want  gate.Verdict
		check gate.Check // of the deciding reason
		match string     // of the deciding reason, when it matters
	}{
		// The allowlist, with the words as the program gets them.
		{"ls", gate.Allow, gate.CheckAllowlist, "ls"},
		{"ls -la /tmp", gate.Allow, gate.CheckAllowlist, "ls"},
		{"git status", gate.Allow, gate.CheckAllowlist, "git status"},
		{"git log -5", gate.Allow, gate.CheckAllowlist, "git log"},
		{"git log --oneline", gate.Allow, gate.CheckAllowlist, "git log"},
		{"'git' \"log\" -5", gate.Allow, gate.CheckAllowlist, "git log"},
		{`g\it status`, gate.Allow, gate.CheckAllowlist, "git status"},
		{"cat 'a file.txt'", gate.Allow, gate.CheckAllowlist, "cat"},
		{"ls *.go", gate.Allow, gate.CheckAllowlist, "ls"},
		{"ls ~/src", gate.Allow, gate.CheckAllowlist, "ls"},
		{"grep -rn TODO .", gate.Allow, gate.CheckAllowlist, "grep"},
		{"find . -name '*.go' -type f", gate.Allow, gate.CheckAllowlist, "find"},
		{"rg -n foo src/", gate.Allow, gate.CheckAllowlist, "rg"},
		{"sort -n -k2 data.txt", gate.Allow, gate.CheckAllowlist, "sort"},
		// An interpreter's version, and nothing else (issue 18).
		// (With no one to look for a version manager's files, as here,
		// they ask; TestVersionEntriesHazards runs them with the check.)
		{"node --version", gate.Ask, gate.CheckHazard, "node"},
		{"python3 --version", gate.Ask, gate.CheckHazard, "python3"},
		{"git --version", gate.Allow, gate.CheckAllowlist, "git --version"},
		{"python3 --version script.py", gate.Ask, gate.CheckException, ""},
		{"node -e 'require(\"fs\")'", gate.Ask, gate.CheckDefault, ""},
		// echo of a variable that holds no secret (issue 18).
		{"echo $PATH", gate.Allow, gate.CheckAllowlist, "echo"},
		{`echo "$HOME/src"`, gate.Allow, gate.CheckAllowlist, "echo"},
		{"echo $GITHUB_TOKEN", gate.Ask, gate.CheckWords, ""},
		{"echo ${PATH:-$(id)}", gate.Ask, gate.CheckOperator, ""},
		{"cat $PATH", gate.Ask, gate.CheckWords, ""},
		// A plain shell string is judged as its text (issue 18).
		{"bash -c 'ls -la'", gate.Allow, gate.CheckAllowlist, "ls"},
		{"sh -c 'cat f'", gate.Allow, gate.CheckAllowlist, "cat"},
		{"bash -c 'git log | head -3'", gate.Ask, gate.CheckOperator, "|"}, // compound = "ask" holds inside the string too
		{"bash -c 'rm -rf build'", gate.Ask, gate.CheckDefault, ""},
		// find -exec with a reader; the trees are judged by the engine.
		{"find . -name '*.py' -exec wc -l {} +", gate.Allow, gate.CheckAllowlist, "find"},
		{"find . -exec rm {} +", gate.Ask, gate.CheckException, ""},
		{"git branch", gate.Allow, gate.CheckAllowlist, "git branch"},
		{"git branch -a -v", gate.Allow, gate.CheckAllowlist, "git branch"},
		{"git branch --show-current", gate.Allow, gate.CheckAllowlist, "git branch"},
		{"echo hello   world", gate.Allow, gate.CheckAllowlist, "echo"},
		{"ls # a comment", gate.Allow, gate.CheckAllowlist, "ls"},
		{"\tls\t-l", gate.Allow, gate.CheckAllowlist, "ls"},

		// Not on the allowlist.
		{"git logs", gate.Ask, gate.CheckDefault, "git"},
		{"gitlog", gate.Ask, gate.CheckDefault, "gitlog"},
		{"git -C x log", gate.Ask, gate.CheckException, "x"},
		{"git -c core.pager=evil log", gate.Ask, gate.CheckDefault, "git"},
		{"git --no-pager log", gate.Allow, gate.CheckAllowlist, "git log"},
		{"/bin/ls", gate.Ask, gate.CheckDefault, "/bin/ls"},
		{"./ls", gate.Ask, gate.CheckDefault, "./ls"},
		{"rm -rf build", gate.Ask, gate.CheckDefault, "rm"},
		{"make test", gate.Ask, gate.CheckDefault, "make"},
		{"git push", gate.Ask, gate.CheckDefault, "git"},
		{"lsof", gate.Ask, gate.CheckDefault, "lsof"},

		// Operators, each named.
		{"ls; rm x", gate.Ask, gate.CheckOperator, ";"},
		{"ls & rm x", gate.Ask, gate.CheckOperator, "&"},
		{"ls && rm x", gate.Ask, gate.CheckOperator, "&&"},
		{"ls || rm x", gate.Ask, gate.CheckOperator, "||"},
		{"ls | wc", gate.Ask, gate.CheckOperator, "|"},
		// A shell reading what another program prints: a sticky ask.
		{"ls | sh", gate.Ask, gate.CheckCatastrophic, "| sh"},
		{"ls |& wc", gate.Ask, gate.CheckOperator, "|&"},
		{"ls &> out", gate.Ask, gate.CheckOperator, "&>"},
		{"ls `rm x`", gate.Ask, gate.CheckOperator, "`"},
		{"ls $(rm x)", gate.Ask, gate.CheckOperator, "$("},
		{"ls ${HOME}", gate.Ask, gate.CheckOperator, "${"},
		{"cat <(rm x)", gate.Ask, gate.CheckOperator, "<("},
		{"ls >(rm x)", gate.Ask, gate.CheckOperator, ">("},
		{"ls > out", gate.Ask, gate.CheckOperator, ">"},
		{"ls >> out", gate.Ask, gate.CheckOperator, ">>"},
		{"cat < in", gate.Ask, gate.CheckOperator, "<"},
		{"cat <> in", gate.Ask, gate.CheckOperator, "<"},
		{"cat <<EOF", gate.Ask, gate.CheckOperator, "<<"},
		{"ls\nrm x", gate.Ask, gate.CheckOperator, "\n"},
		{"ls\rrm -rf ~", gate.Deny, gate.CheckCatastrophic, "rm -rf ~"}, // shows as "rm -rf ~", and runs it
		{"grep 'a|b' f.txt", gate.Ask, gate.CheckOperator, "|"},
		{"echo '$(x)'", gate.Ask, gate.CheckOperator, "$("},

		// Words the gate cannot know.
		{"cat $HOME/.bashrc", gate.Ask, gate.CheckWords, "$HOME/.bashrc"},
		{"ls $X", gate.Ask, gate.CheckWords, "$X"},
		{`ls "$X"`, gate.Ask, gate.CheckWords, `"$X"`},
		{"ls $((1+1))", gate.Ask, gate.CheckOperator, "$("},
		{"FOO=1 ls", gate.Ask, gate.CheckWords, "FOO="},
		{"PAGER=evil git log", gate.Ask, gate.CheckWords, "PAGER="},
		{"(ls)", gate.Ask, gate.CheckWords, "subshell ( )"},
		{"! ls", gate.Ask, gate.CheckWords, "negation (!)"},
		{"export X=1", gate.Ask, gate.CheckWords, "declaration (export, declare, local ...)"},
		{"time ls", gate.Ask, gate.CheckWords, "time"},
		{"[[ -f x ]]", gate.Ask, gate.CheckWords, "test clause [[ ]]"},
		{"ls 'unterminated", gate.Ask, gate.CheckWords, "parse error"},
		{"ls {a,b}", gate.Ask, gate.CheckWords, "{a,b}"},
		{"ls @(a|b)", gate.Ask, gate.CheckOperator, "|"},

		// Text that cannot be judged.
		{"ls\x00", gate.Ask, gate.CheckText, "U+0000"},
		{"ls \x1b[2J", gate.Ask, gate.CheckText, "U+001B"},
		{"ls \u202e", gate.Ask, gate.CheckText, "U+202E"},
		{"ls \u200b-la", gate.Ask, gate.CheckText, "U+200B"},
		{"ls \xff", gate.Ask, gate.CheckText, "invalid UTF-8"},
		{"ls " + strings.Repeat("a", gate.MaxCommandBytes), gate.Ask, gate.CheckText, ""},
		{"ls \x7f", gate.Ask, gate.CheckText, "U+007F"},
		{"ls \u0085", gate.Ask, gate.CheckText, "U+0085"},
		{"ls $'\\n'", gate.Ask, gate.CheckText, "$'\\n'"},
		{"echo $'\\x1b[2J'", gate.Ask, gate.CheckText, "$'\\x1b[2J'"},
		{"cat $'a\\tb'", gate.Allow, gate.CheckAllowlist, "cat"},

		// Expansions that could produce a flag, for programs with flags to fear.
		{"find *", gate.Ask, gate.CheckException, "*"},
		{"rg foo *", gate.Ask, gate.CheckException, "*"},
		{"sort ?", gate.Ask, gate.CheckException, "?"},
		{"find . [-]delete", gate.Ask, gate.CheckException, "[-]delete"},
		{"find . -del*", gate.Ask, gate.CheckException, "-del*"},
		{"rg foo src/*.go", gate.Allow, gate.CheckAllowlist, "rg"},
		{"find ~- -name x", gate.Ask, gate.CheckText, "~- (the previous directory, $OLDPWD)"},

		// Argument exceptions, as the program would read them.
		{`find . "-del"ete`, gate.Ask, gate.CheckException, "-delete"},
		{`find . -dele\te`, gate.Ask, gate.CheckException, "-delete"},
		{`find . $'-delete'`, gate.Ask, gate.CheckException, "-delete"},
		{"sort --out=x data", gate.Ask, gate.CheckException, "--out=x"},
		{"sort -nox data", gate.Ask, gate.CheckException, "-nox"},
		{"rg -iz foo", gate.Ask, gate.CheckException, "-iz"},
		{"git diff --outp=x", gate.Ask, gate.CheckException, "--outp=x"},
		{"git branch newname", gate.Ask, gate.CheckException, "newname"},
		{"git branch -D main", gate.Ask, gate.CheckException, "-D"},
		{"rg -- --pre", gate.Allow, gate.CheckAllowlist, "rg"},
		{"rg --pre ./x -- y", gate.Ask, gate.CheckException, "--pre"},
	}
	for _, tt := range tests {
		t.Run(strings.ToValidUTF8(tt.text[:min(len(tt.text), 40)], "?"), func(t *testing.T) {
			d := decide(tt.text)
			p := d.Primary()
			if d.Verdict() != tt.want || p.Check != tt.check || (tt.match != "" && p.Match != tt.match) {
				t.Errorf("Decide(%q) = %s [%s] match %q (%s); want %s [%s] match %q",
					tt.text, d.Verdict(), p.Check, p.Match, p.Message, tt.want, tt.check, tt.match)
			}
			if d.Verdict() != gate.Allow && p.Message == "" {
				t.Errorf("Decide(%q): %s without a message", tt.text, d.Verdict())
			}
		})
	}
}

func TestDenyRules(t *testing.T) {
	rm := denyRule("rm")
	tests := []struct {
		text string
		want gate.Verdict
	}{
		{"rm -rf /", gate.Deny},
		{"git status && rm -rf build", gate.Deny},
		{"ls; rm x", gate.Deny},
		{"echo $(rm x)", gate.Deny},
		{"ls `rm x`", gate.Deny},
		{"'r'm x", gate.Deny},
		{`\rm x`, gate.Deny},
		{"/bin/rm x", gate.Deny},
		{"sudo rm -rf /", gate.Deny},
		{"sudo -u root rm x", gate.Deny},
		{"env FOO=1 rm x", gate.Deny},
		{"xargs rm < list", gate.Deny},
		{"timeout 5 rm x", gate.Deny},
		{"bash -c 'rm -rf x'", gate.Deny},
		{"sh -c \"ls; rm x\"", gate.Deny},
		{"rm\x00x", gate.Deny},
		{"ls", gate.Allow},
		{"echo rm", gate.Allow},
		{"rmdir x", gate.Ask},
	}
	for _, tt := range tests {
		d := decide(tt.text, rm)
		if d.Verdict() != tt.want {
			t.Errorf("with deny rm: Decide(%q) = %s (%s); want %s", tt.text, d.Verdict(), d.Primary(), tt.want)
		}
		if tt.want == gate.Deny {
			p := d.Primary()
			if p.Check != gate.CheckDenyRule || p.Source != "test.toml:3" || p.Rule != "rm" {
				t.Errorf("Decide(%q): deciding reason %+v; want the deny rule with its source", tt.text, p)
			}
		}
	}
	contains := allowlist.Rule{Kind: allowlist.Deny, Contains: "rm -rf /", Source: allowlist.Source{Name: "policy.toml", Line: 7}}
	if d := decide("echo 'rm -rf /'", contains); d.Verdict() != gate.Deny || d.Primary().Source != "policy.toml:7" {
		t.Errorf("contains rule: %s %+v", d.Verdict(), d.Primary())
	}
}

func TestDenyBeatsAllow(t *testing.T) {
	d := decide("git log", denyRule("git log"))
	if d.Verdict() != gate.Deny {
		t.Fatalf("deny rule on an allowed prefix: %s", d.Verdict())
	}
}

func TestAskRule(t *testing.T) {
	r := allowlist.Rule{Kind: allowlist.Ask, Prefix: []string{"git", "log"}, Source: allowlist.Source{Name: "p.toml", Line: 2}}
	d := decide("git log -5", r)
	if d.Verdict() != gate.Ask || d.Primary().Check != gate.CheckAskRule || !d.Sticky() {
		t.Fatalf("ask rule: %s %+v sticky=%v", d.Verdict(), d.Primary(), d.Sticky())
	}
	if d := decide("git status", r); d.Verdict() != gate.Allow {
		t.Fatalf("ask rule for git log changed git status: %s", d.Verdict())
	}
	// In a compound, or behind another reason to ask, the ask rule still
	// makes the ask sticky, so bypass mode cannot run it.
	for _, text := range []string{"ls && git log", "git log > out", "FOO=1 git log", "sudo git log"} {
		if d := decide(text, r); d.Verdict() != gate.Ask || !d.Sticky() || d.Primary().Check != gate.CheckAskRule {
			t.Errorf("%q with ask rule git log: %s sticky=%v %+v", text, d.Verdict(), d.Sticky(), d.Primary())
		}
	}
}

// An allow rule without exceptions does not remove the default's: the
// exceptions of every matching rule apply.
func TestExceptionsUnion(t *testing.T) {
	r := allowlist.Rule{Kind: allowlist.Allow, Prefix: []string{"find"}, Source: allowlist.Source{Name: "user.toml", Line: 1}}
	if d := decide("find . -delete", r); d.Verdict() != gate.Ask {
		t.Fatalf("a user allow rule for find dropped the default -delete exception: %s", d.Verdict())
	}
	r = allowlist.Rule{Kind: allowlist.Allow, Prefix: []string{"make", "test"}, Source: allowlist.Source{Name: "user.toml", Line: 4}}
	d := decide("make test -j4", r)
	if d.Verdict() != gate.Allow || d.Primary().Source != "user.toml:4" {
		t.Fatalf("user rule make test: %s %+v", d.Verdict(), d.Primary())
	}
}

func TestArgvForm(t *testing.T) {
	tests := []struct {
		argv []string
		want gate.Verdict
	}{
		{[]string{"ls", "-la"}, gate.Allow},
		{[]string{"ls", ";", "rm"}, gate.Allow}, // no shell sees the ";": ls gets it as a file name
		{[]string{"grep", "a|b", "f.txt"}, gate.Allow},
		{[]string{"find", ".", "-delete"}, gate.Ask},
		{[]string{"rm", "-rf", "x"}, gate.Ask},
		{[]string{"ls", "a\x1bb"}, gate.Ask},
		{[]string{"bash", "-c", "ls"}, gate.Ask},
		{[]string{"git", "log", "--output=x"}, gate.Ask},
		{[]string{"find", "*"}, gate.Allow}, // no shell: "*" is a literal file name
		{[]string{"ls", "a\rb"}, gate.Ask},
		{[]string{"echo", "a\nrm -rf ~"}, gate.Deny}, // reads as rm -rf ~ to a person; the catastrophic check errs to deny
	}
	for _, tt := range tests {
		d := gate.Decide(gate.Request{Text: strings.Join(tt.argv, " "), Argv: tt.argv, Rules: allowlist.Defaults()})
		if d.Verdict() != tt.want {
			t.Errorf("Decide(argv %q) = %s (%s); want %s", tt.argv, d.Verdict(), d.Primary(), tt.want)
		}
	}
	d := gate.Decide(gate.Request{Text: "rm x", Argv: []string{"rm", "x"}, Rules: append(allowlist.Defaults(), denyRule("rm"))})
	if d.Verdict() != gate.Deny {
		t.Errorf("argv form ignores deny rules: %s", d.Verdict())
	}
}

func TestRisksExplainButNeverDecide(t *testing.T) {
	d := decide("git status && rm -rf build && git push")
	var got []string
	for _, r := range d.Risks() {
		got = append(got, r.Program)
	}
	if strings.Join(got, ",") != "rm,git push" {
		t.Errorf("risks = %v; want rm and git push", got)
	}
	if d := decide("find . -name x"); d.Verdict() != gate.Allow || len(d.Risks()) != 0 {
		t.Errorf("an allowed command got risk notes or was escalated: %s %v", d.Verdict(), d.Risks())
	}
}

func TestZeroDecisionNeverAllows(t *testing.T) {
	var d gate.Decision
	if d.Verdict() == gate.Allow {
		t.Fatal("the zero Decision allows")
	}
	if d.Primary().Message == "" {
		t.Fatal("the zero Decision has no reason to show")
	}
}

func TestSuggestPrefix(t *testing.T) {
	tests := map[string]string{
		"make test -j4":     "make test",
		"git stash list":    "git stash list",
		"git stash":         "",
		"git stash drop x":  "git stash drop",
		"git remote -v":     "",
		"git remote show x": "git remote show",
		"gh pr list":        "gh pr list",
		"gh api /x":         "",
		"gh pr":             "",
		"go mod tidy":       "go mod tidy",
		"rm x":              "rm",
		"go test ./...":     "go test",
		"python3 script.py": "",
		"bash -c ls":        "",
		"sudo ls":           "",
		"env X=1 ls":        "",
		"xargs rm":          "",
		"./build.sh":        "",
		"git --version":     "",
	}
	for text, want := range tests {
		if got := gate.SuggestPrefix(strings.Fields(text)); got != want {
			t.Errorf("SuggestPrefix(%q) = %q; want %q", text, got, want)
		}
	}
}

func TestSplitHint(t *testing.T) {
	for text, want := range map[string]bool{
		"git status && git log -3": true, "ls | head": true, "ls | sh": false, "git status": false, "ls > out": false,
		"cat .env | head": false,
	} {
		req := gate.Request{Text: text, Rules: allowlist.Defaults(), Paths: defaultPaths}
		d := gate.Decide(req)
		if got := gate.SplitHint(req, d) != ""; got != want {
			t.Errorf("SplitHint(%q) = %v; want %v", text, got, want)
		}
		req.Split = true
		if gate.SplitHint(req, gate.Decide(req)) != "" {
			t.Errorf("SplitHint(%q) in split mode is not empty", text)
		}
	}
}
