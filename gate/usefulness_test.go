package gate_test

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
)

// The figures of the read-only catalogue, measured on command corpora
// nobody on this project wrote (../shared, beside the repository; the
// tests skip when it is absent). TestUsefulness prints the figures and
// runs only with -usefulness (bench/usefulness.sh); TestPeerDangerNeverAllowed
// runs whenever the data is there.

var usefulness = flag.Bool("usefulness", false, "measure how many read-only commands of ../shared run without asking")

// sharedFile is a file of the shared data (peer vectors, corpora) that
// .ci/run names with AGENTGATE_SHARED; no test reads outside the
// repository on its own. Without the variable the test is skipped and
// says so; with it, a missing file fails: CI must not pass having checked
// nothing.
func sharedFile(t testing.TB, rel string) string {
	dir := os.Getenv("AGENTGATE_SHARED")
	if dir == "" {
		t.Skipf("AGENTGATE_SHARED is not set: %s not checked (.ci/run sets it to the shared data)", rel)
	}
	p := filepath.Join(dir, rel)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("AGENTGATE_SHARED=%s: %v", dir, err)
	}
	return p
}

// tsvRows reads a TSV file with a header line into maps by column name.
func tsvRows(t testing.TB, path string) []map[string]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var cols []string
	var out []map[string]string
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if cols == nil {
			cols = fields
			continue
		}
		row := map[string]string{}
		for i, c := range cols {
			if i < len(fields) {
				row[c] = fields[i]
			}
		}
		out = append(out, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// allRules are the default rules with every pack on.
func allRules() []allowlist.Rule {
	return append(allowlist.Defaults(), allowlist.PackRules(allowlist.PackNames())...)
}

// noHazards stands for a project with none of the files and variables
// that make a catalogue program run another one (the engine checks them
// with allowlist.Hazards).
func noHazards([]string) []string { return nil }

func decideWith(text string, rules []allowlist.Rule, split bool) gate.Decision {
	return gate.Decide(gate.Request{Text: text, Rules: rules, Paths: defaultPaths, Split: split, Hazards: noHazards})
}

type tally struct {
	n, allowed int
	asks       map[string]int
}

func (t *tally) add(d gate.Decision) {
	t.n++
	if d.Verdict() == gate.Allow {
		t.allowed++
		return
	}
	if t.asks == nil {
		t.asks = map[string]int{}
	}
	p := d.Primary()
	t.asks[string(p.Check)+": "+shorten(p.Message)]++
}

func shorten(s string) string {
	if i := strings.Index(s, ": part "); i >= 0 {
		if j := strings.Index(s[i+7:], "): "); j >= 0 {
			s = s[i+7+j+3:]
		}
	}
	if len(s) > 90 {
		s = s[:90]
	}
	return s
}

func (t *tally) pct() float64 {
	if t.n == 0 {
		return 0
	}
	return 100 * float64(t.allowed) / float64(t.n)
}

func (t *tally) top(k int) string {
	type kv struct {
		k string
		v int
	}
	var all []kv
	for k, v := range t.asks {
		all = append(all, kv{k, v})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v > all[j].v || all[i].v == all[j].v && all[i].k < all[j].k })
	var b strings.Builder
	for i, x := range all {
		if i == k {
			break
		}
		fmt.Fprintf(&b, "      %4d  %s\n", x.v, x.k)
	}
	return b.String()
}

func TestUsefulness(t *testing.T) {
	if !*usefulness {
		t.Skip("run with -usefulness (bench/usefulness.sh)")
	}
	rows := tsvRows(t, sharedFile(t, "corpora/realcorpus-ro.tsv"))
	defaults := allowlist.Defaults()
	simple, compound := &tally{}, &tally{}
	byProg := map[string]*tally{}
	for _, r := range rows {
		cmd := r["command"]
		switch r["kind"] {
		case "ro-simple":
			d := decideWith(cmd, defaults, true)
			simple.add(d)
			prog := strings.Fields(cmd + " ?")[0]
			if byProg[prog] == nil {
				byProg[prog] = &tally{}
			}
			byProg[prog].add(d)
		case "ro-compound":
			compound.add(decideWith(cmd, defaults, true))
		}
	}
	fmt.Printf("real corpora, read-only simple commands, default config: %d/%d allowed (%.1f%%)\n%s", simple.allowed, simple.n, simple.pct(), simple.top(15))
	fmt.Printf("real corpora, read-only compounds, split mode: %d/%d allowed (%.1f%%)\n%s", compound.allowed, compound.n, compound.pct(), compound.top(15))
	var progs []string
	for p := range byProg {
		progs = append(progs, p)
	}
	sort.Slice(progs, func(i, j int) bool {
		return byProg[progs[i]].n > byProg[progs[j]].n || byProg[progs[i]].n == byProg[progs[j]].n && progs[i] < progs[j]
	})
	fmt.Println("per program (simple commands, 5 rows or more):")
	for _, p := range progs {
		if x := byProg[p]; x.n >= 5 {
			fmt.Printf("  %-10s %4d/%-4d %5.1f%%\n", p, x.allowed, x.n, x.pct())
		}
	}
	peers := &tally{}
	all := allRules()
	for _, r := range peerReadOnly(t) {
		peers.add(decideWith(r, all, true))
	}
	fmt.Printf("peers' read-only rows, split mode, all packs: %d/%d allowed (%.1f%%)\n%s", peers.allowed, peers.n, peers.pct(), peers.top(25))
	if os.Getenv("USEFULNESS_LIST") != "" {
		for _, r := range peerReadOnly(t) {
			if d := decideWith(r, all, true); d.Verdict() != gate.Allow {
				fmt.Printf("ASK %q: %s\n", r, d.Primary().Message)
			}
		}
		for _, r := range rows {
			split := r["kind"] == "ro-compound"
			if d := decideWith(r["command"], defaults, split); d.Verdict() != gate.Allow {
				fmt.Printf("ASK-%s %q: %s\n", r["kind"], r["command"], d.Primary().Message)
			}
		}
	}
}

// allowlistTools are the peers whose "allow" means "runs without asking".
var allowlistTools = []string{"ldayton/Dippy", "openai/codex", "tasuku43/cc-bash-guard", "google-gemini/gemini-cli", "canyonroad/agentsh", "tumf/mcp-shell-server"}

// peerReadOnly are the rows peers run without asking: allow rows of the
// allowlist tools in guard_cases.tsv and the safe rows of codex_cases.tsv.
func peerReadOnly(t testing.TB) []string {
	var out []string
	for _, r := range tsvRows(t, sharedFile(t, "peer-vectors/guard_cases.tsv")) {
		if r["expected"] != "allow" {
			continue
		}
		for _, tool := range allowlistTools {
			if strings.HasPrefix(r["source"], tool+":") {
				out = append(out, copyUnescape(r["command"]))
				break
			}
		}
	}
	for _, r := range tsvRows(t, sharedFile(t, "peer-vectors/codex_cases.tsv")) {
		if r["expected"] == "safe" || strings.HasPrefix(r["expected"], "safe ") || r["expected"] == "legacy:safe" {
			out = append(out, r["command"])
		}
	}
	return out
}

// peerDanger are the rows peers block or call dangerous: block rows of
// guard_cases.tsv, not_safe and dangerous rows of codex_cases.tsv, and
// every reported bypass.
func peerDanger(t testing.TB) []string {
	var out []string
	for _, r := range tsvRows(t, sharedFile(t, "peer-vectors/guard_cases.tsv")) {
		if r["expected"] == "block" {
			out = append(out, copyUnescape(r["command"]))
		}
	}
	for _, r := range tsvRows(t, sharedFile(t, "peer-vectors/codex_cases.tsv")) {
		if e := r["expected"]; strings.HasPrefix(e, "not_safe") || strings.HasPrefix(e, "dangerous") {
			out = append(out, r["command"])
		}
	}
	for _, r := range tsvRows(t, sharedFile(t, "peer-vectors/bypass_cases.tsv")) {
		out = append(out, r["command"])
	}
	return out
}

// notDangerHere are peer danger rows whose danger is met elsewhere in
// agentgate, with why; every other row must ask.
var notDangerHere = map[string]string{
	// Codex asks for every git command because repository configuration
	// can name programs git runs (fsmonitor, pager, diff drivers,
	// textconv). agentgate runs an allowed git command with gitsafe's
	// overrides and asks when the repository configures what cannot be
	// overridden (gitsafe.Findings, tested in gitsafe/ and cmd/).
	"git status": "gitsafe", "git log -1": "gitsafe", "git diff": "gitsafe", "git show HEAD": "gitsafe",
	"git branch": "gitsafe", "git branch --show-current": "gitsafe", "git diff -p": "gitsafe",
	"git log -p -1": "gitsafe", "git show -p HEAD": "gitsafe",
	// Reported against tools that matched an allow rule on the first
	// command of a compound; in split mode agentgate judges each command
	// on its own, and these are each read-only (ls, wc -l).
	`echo "test" && ls`:             "split mode judges each part",
	"cat file.txt | wc -l":          "split mode judges each part",
	"cd ../../../etc && cat passwd": "cd anywhere is judged with the rest from its target (issue 18): this is cat /etc/passwd, which runs on its own; /etc/shadow is the sensitive file",
	"sh -c id":                      "a plain shell string is judged as its text (issue 18): id only prints who the user is, and the shell adds nothing",
	"bash -c id":                    "a plain shell string is judged as its text (issue 18): id only prints who the user is, and the shell adds nothing",
	"/bin/sh -c id":                 "a plain shell string is judged as its text (issue 18): id only prints who the user is, and the shell adds nothing",
	"/bin/bash -c id":               "a plain shell string is judged as its text (issue 18): id only prints who the user is, and the shell adds nothing",
	`find /path -name "*.json" -exec grep -l "pattern" {} \;`: "find -exec with a reader of the catalogue (issue 18): the trees find walks are judged on disk by the engine, like xargs input",
}

// No danger vector of a peer, and no command of the adversarial corpus,
// runs without asking: in either compound mode, with or without packs.
func TestPeerDangerNeverAllowed(t *testing.T) {
	var rows []string
	for _, r := range peerDanger(t) {
		if notDangerHere[r] == "" {
			rows = append(rows, r)
		}
	}
	for _, e := range loadCorpus(t) {
		rows = append(rows, e.req.Text)
	}
	for _, rules := range [][]allowlist.Rule{allowlist.Defaults(), allRules()} {
		for _, split := range []bool{false, true} {
			for _, text := range rows {
				if d := decideWith(text, rules, split); d.Verdict() == gate.Allow {
					t.Errorf("split=%v, %d rules: %q allowed (%s)", split, len(rules), text, d.Primary().Message)
				}
			}
		}
	}
}
