package gate_test

import (
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
)

func decideSplit(text string) gate.Decision {
	return gate.Decide(gate.Request{Text: text, Rules: allowlist.Defaults(), Split: true, Paths: gate.Paths{
		Home: "/home/u", Cwd: "/home/u/proj", Self: gate.DefaultSelf, Sensitive: gate.DefaultSensitive}})
}

// splitRuns are compounds split mode allows: every part allowed, joined
// by && || ; |, literal words (or a glob or tilde in a program's operands,
// judged as in a lone command), harmless redirects.
var splitRuns = []string{
	"ls *.go | head",
	"ls ~ | head",
	"cat src/*.go | grep func",
	"git status && ls ~/proj",
	"git log --oneline | head -5",
	"grep -c 'a|b' f.txt",
	"cat a.txt 2>/dev/null",
	"git status && git diff",
	"git status; git log -1",
	"ls || pwd",
	"ls -la | wc -l",
	"cat a.txt | sort | cut -c1-3",
	"cat a.txt | sort -n | head -20",
	"git diff --stat | tail -1",
	"find . -name '*.go' | wc -l",
	"rg -n TODO src | head",
	"grep -rn 'x;y' .",
	"echo 'a && b'",
	"echo \"a > b\"",
	"ls > /dev/null",
	"ls >> /dev/null",
	"ls 2> /dev/null",
	"ls &> /dev/null",
	"ls 2>&1 | head",
	"ls >&2",
	"ls 1>&2",
	"cat < a.txt",
	"wc -l < a.txt",
	"sort < data.txt | head",
	"git log -5 2>&1 | cat",
	"git branch | grep main",
	"git show HEAD --stat | head -50",
	"ls src && ls test",
	"cat a b c | wc -c",
	"head -1 a.txt; tail -1 a.txt",
	"ls\npwd",
	"git status --short\ngit log -3 --oneline",
	"echo start && ls && echo end",
	"pwd && ls -a",
	"stat a.txt || echo missing",
	"file a.bin | cut -d: -f2",
	"sha256sum a.txt | cut -c1-8",
	"basename /a/b/c | wc -c",
	"dirname /a/b/c && realpath .",
	"which go || which gofmt",
	"du -sh . 2>/dev/null",
	"uname -a; whoami",
	"nl a.txt | tail -3",
	"git rev-parse HEAD && git ls-files | wc -l",
	"diff a b | head",
	"grep -v '^#' config.ini | sort",
	"cat 'my file.txt' | head",
	"echo one; echo two; echo three",
	"ls | grep -c x",
	"true && true",
	"true || true",
	"git log --format=%H -1 | cut -c1-7",
	"git diff HEAD~1 -- src/ | wc -l",
	"rg -l foo | sort",
	"find . -type f -name x.go 2>/dev/null | head -1",
	"cat a.txt 2>/dev/null || echo none",
	"ls -1 | sort -r | head -3",
	"tail -n 100 log.txt | grep ERROR",
	"grep -n func main.go | head -20",
	"echo 'x' \"y\" z | cat",
}

// splitAsks are compounds split mode must still ask about.
var splitAsks = []string{
	"ls; rm x",
	"ls $(rm x)",
	"cat a > b",
	"git status && rm -rf build",
	"ls | sh",
	"ls | bash",
	"ls & rm x",
	"sleep 1 &",
	"ls |& cat",
	"! ls",
	"(ls; pwd)",
	"{ ls; pwd; }",
	"if true; then ls; fi",
	"for f in a b; do cat $f; done",
	"while true; do ls; done",
	"f() { ls; }; f",
	"ls `id`",
	"cat <(ls)",
	"ls >(cat)",
	"ls > out.txt",
	"ls >> out.txt",
	"ls 2> err.txt",
	"ls &> all.txt",
	"ls >| x",
	"cat <<EOF\nx\nEOF",
	"cat <<< x",
	"cat <> f",
	"ls <&3",
	"ls >&-",
	"ls > /dev/null2",
	"ls > /dev/nul",
	"ls > '/dev/null'x",
	"ls > $OUT",
	"ls 2>&$FD",
	"cat < $IN",
	"cat < *.txt",
	"cat < ~/x",
	"FOO=1 ls | head",
	"ls $HOME | head",
	"ls {a,b} | head",
	// A glob or tilde stays out of a program's name and a cd's target
	// (where the later parts would run), and a glob that may name a
	// secret asks as it does alone.
	"l* && ls",
	"ls && ~/bin/tool",
	"cd * && ls",
	"ls && cd ~/s* && cat x",
	"pushd ~/x* && ls",
	"cd ~ && cat .s*/id_rsa",
	"cd /etc && cat shad*",
	"ls && cat ~/.ssh/id_*",
	"git log | grep x && cat *.pem",
	"ls ${X} && pwd",
	"echo $((1+1)) | cat",
	"find . -delete | head",
	"find . -exec rm {} + ; ls",
	"sort -o out in && ls",
	"git log --output=x | cat",
	"rg --pre sh x | head",
	"git branch new && git log",
	"ls && make",
	"ls || curl evil.example",
	"cat a.txt | xargs rm",
	"cat a.txt | tee b.txt",
	"git status && git push",
	"ls; git reset --hard",
	"cat ~/.ssh/id_rsa | head",
	"cat .env | grep KEY",
	"ls && cat ~/.bashrc",
	"ls | cat > ~/.bashrc",
	"ls\rrm -rf ~",
	"ls &&",
	"ls ||",
	"| ls",
	"ls 'unterminated | cat",
	"time ls | head",
	"[[ -f x ]] && ls",
	"export X=1; ls",
	"ls\n(rm x)",
	"git config core.pager x && git log",
	"echo \"$(id)\" | cat",
	"cat < /etc/shadow | head",
	"cat < /dev/sda | head",
}

func TestSplitMode(t *testing.T) {
	if len(splitRuns) < 60 || len(splitAsks) < 60 {
		t.Fatalf("keep at least 60 of each: %d runs, %d asks", len(splitRuns), len(splitAsks))
	}
	for _, text := range splitRuns {
		if d := decideSplit(text); d.Verdict() != gate.Allow {
			t.Errorf("split: %q = %s (%s); want allow", text, d.Verdict(), d.Primary())
		}
	}
	for _, text := range splitAsks {
		if d := decideSplit(text); d.Verdict() == gate.Allow {
			t.Errorf("split: %q allowed; want ask", text)
		}
	}
	// The default mode still asks about every compound.
	for _, text := range splitRuns {
		d := gate.Decide(gate.Request{Text: text, Rules: allowlist.Defaults()})
		if d.Verdict() == gate.Allow && containsOperator(text) {
			t.Errorf("default mode allowed compound %q", text)
		}
	}
}

func containsOperator(s string) bool {
	for _, c := range ";&|<>\n`" {
		for _, r := range s {
			if r == c {
				return true
			}
		}
	}
	return false
}

func TestSplitModeCommands(t *testing.T) {
	d := decideSplit("git log --oneline | head -5")
	cmds := d.Commands()
	if len(cmds) != 2 || cmds[0][0] != "git" || cmds[1][0] != "head" {
		t.Errorf("Commands = %q", cmds)
	}
	if d.Literal() {
		t.Error("a compound is not one literal command")
	}
	// A deny rule still denies any part.
	deny := allowlist.Rule{Kind: allowlist.Deny, Prefix: []string{"head"}, Source: allowlist.Source{Name: "t"}}
	if d := gate.Decide(gate.Request{Text: "git log | head", Rules: append(allowlist.Defaults(), deny), Split: true}); d.Verdict() != gate.Deny {
		t.Errorf("deny rule in split mode: %s", d.Verdict())
	}
}

// Every bypass attempt of the corpus still escalates in split mode.
func TestSplitModeAdversarialCorpus(t *testing.T) {
	for _, e := range loadCorpus(t) {
		req := e.req
		req.Split = true
		if d := gate.Decide(req); d.Verdict() == gate.Allow {
			t.Errorf("adversarial.tsv:%d: %q allowed in split mode: %s", e.line, req.Text, e.why)
		}
	}
}

// TestSplitGlobFromCd: a glob after a compound's cd is judged from the cd's
// target, as a lone command's is from the working directory.
func TestSplitGlobFromCd(t *testing.T) {
	for text, want := range map[string]gate.Verdict{
		"cd /tmp && ls *.log":    gate.Allow,
		"cd /etc && cat pass*":   gate.Allow,
		"cd /etc && cat shad*":   gate.Ask,
		"cd ~ && cat .s*/id_rsa": gate.Ask,
		"cd ~ && cat .aws/c*":    gate.Ask,
		"cd ~/.ssh && cat *":     gate.Ask,
	} {
		if d := decideSplit(text); d.Verdict() != want {
			t.Errorf("split: %q = %s (%s); want %s", text, d.Verdict(), d.Primary(), want)
		}
	}
}

// TestSplitGlobIsNotGlobless: a compound split mode allows with a glob or
// tilde in an operand is not globless, so the disk walk also reads each
// glob's matches in its place ("true && grep -e x [-]R sub" with a file
// named -R is grep -R).
func TestSplitGlobIsNotGlobless(t *testing.T) {
	for text, want := range map[string]bool{
		"ls | head":              true,
		"ls *.go | head":         false,
		"true && grep x [-]R s":  false,
		"git status && ls ~/pro": false,
	} {
		d := decideSplit(text)
		if d.Verdict() != gate.Allow {
			t.Fatalf("split: %q = %s (%s); want allow", text, d.Verdict(), d.Primary())
		}
		if d.Globless() != want {
			t.Errorf("split: %q Globless() = %v; want %v", text, d.Globless(), want)
		}
	}
}
