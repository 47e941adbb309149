package gate_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
	"github.com/agentgate/agentgate/gate"
)

// corpusEntry is one bypass attempt of testdata/adversarial.tsv.
type corpusEntry struct {
	line int
	req  gate.Request
	why  string
}

func loadCorpus(t testing.TB) []corpusEntry {
	t.Helper()
	f, err := os.Open("testdata/adversarial.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusEntry
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cmd, why, ok := strings.Cut(line, "\t")
		if !ok || why == "" {
			t.Fatalf("adversarial.tsv:%d: want a quoted command, a tab and why it is dangerous", n)
		}
		var req gate.Request
		if rest, isArgv := strings.CutPrefix(cmd, "argv:"); isArgv {
			req.Argv = append(req.Argv, splitQuoted(t, n, rest)...)
			req.Text = strings.Join(req.Argv, " ")
		} else {
			s, err := strconv.Unquote(cmd)
			if err != nil {
				t.Fatalf("adversarial.tsv:%d: command is not a Go-quoted string: %v", n, err)
			}
			req.Text = s
		}
		req.Rules = allowlist.Defaults()
		req.Paths = defaultPaths
		out = append(out, corpusEntry{n, req, why})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// splitQuoted splits a space-separated list of Go-quoted strings.
func splitQuoted(t testing.TB, n int, s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			t.Fatalf("adversarial.tsv:%d: %v", n, err)
		}
		w, _ := strconv.Unquote(q)
		out = append(out, w)
		s = s[len(q):]
	}
	return out
}

// defaultPaths are the protected paths of a default configuration for a
// user /home/u working in /home/u/proj.
var defaultPaths = gate.Paths{Home: "/home/u", Cwd: "/home/u/proj",
	Self:      append([]string{"/home/u/.config/agentgate", "/home/u/.local/state/agentgate", "/etc/agentgate/policy.toml"}, gate.DefaultSelf...),
	Sensitive: gate.DefaultSensitive}

// TestAdversarialCorpus: no bypass attempt may be allowed.
func TestAdversarialCorpus(t *testing.T) {
	corpus := loadCorpus(t)
	if len(corpus) < 100 {
		t.Fatalf("the adversarial corpus has %d entries; keep at least 100", len(corpus))
	}
	for _, e := range corpus {
		d := gate.Decide(e.req)
		if d.Verdict() == gate.Allow {
			t.Errorf("adversarial.tsv:%d: %q was allowed (%s); it must not be: %s", e.line, e.req.Text, d.Primary(), e.why)
		}
		if len(d.Reasons()) == 0 {
			t.Errorf("adversarial.tsv:%d: %q escalated without a reason", e.line, e.req.Text)
		}
	}
}

// TestPeerVectors probes the gate with other tools' public test vectors,
// when the shared folder is beside the checkout. It is not a copy: the
// vectors stay outside this repository.
func TestPeerVectors(t *testing.T) {
	dir := filepath.Dir(sharedFile(t, "peer-vectors/bypass_cases.tsv"))
	n := 0
	// Every reported bypass must escalate.
	forEachRow(t, filepath.Join(dir, "bypass_cases.tsv"), func(cols []string) {
		n++
		if d := gate.Decide(gate.Request{Text: copyUnescape(cols[0]), Rules: allowlist.Defaults()}); d.Verdict() == gate.Allow {
			t.Errorf("peer bypass vector allowed: %q (%s)", copyUnescape(cols[0]), cols[1])
		}
	})
	// What destructive-command guards block must escalate too, except
	// where agentgate disagrees on purpose, for the reason given.
	forEachRow(t, filepath.Join(dir, "guard_cases.tsv"), func(cols []string) {
		if len(cols) < 2 || cols[1] != "block" || peerDisagreements[copyUnescape(cols[0])] != "" {
			return
		}
		n++
		if d := gate.Decide(gate.Request{Text: copyUnescape(cols[0]), Rules: allowlist.Defaults()}); d.Verdict() == gate.Allow {
			t.Errorf("peer guard vector allowed: %q (%s)", copyUnescape(cols[0]), cols[2])
		}
	})
	if n < 50 {
		t.Fatalf("only %d peer vectors checked", n)
	}
	t.Logf("%d peer vectors checked", n)
}

// peerDisagreements are peer "block" vectors that agentgate allows, each
// with the reason.
var peerDisagreements = map[string]string{
	`echo $'\x72\x6d' $'\x2d\x72\x66'`: "echo only prints its arguments; the obfuscated text never runs",
	`echo $'\x72\x6d' -rf /`:           "echo only prints its arguments; the obfuscated text never runs",
	"git status":                       "codex asks because repository configuration can run helpers; agentgate neutralises them (package gitsafe) and asks when it cannot",
	"git diff -p":                      "as git status: repository helpers are neutralised or make it ask",
	"git log -p -1":                    "as git status: repository helpers are neutralised or make it ask",
	"git show -p HEAD":                 "as git status: repository helpers are neutralised or make it ask",
	"git branch --show-current":        "as git status: repository helpers are neutralised or make it ask",
	"sh -c id":                         "a plain shell string is judged as its text (issue 18): id only prints who the user is",
	"bash -c id":                       "a plain shell string is judged as its text (issue 18): id only prints who the user is",
	"/bin/sh -c id":                    "a plain shell string is judged as its text (issue 18): id only prints who the user is",
	"/bin/bash -c id":                  "a plain shell string is judged as its text (issue 18): id only prints who the user is",
}

func forEachRow(t *testing.T, path string, f func(cols []string)) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Logf("skipping %s: %v", path, err)
		return
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	sc.Scan() // header
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		for len(cols) < 3 {
			cols = append(cols, "")
		}
		f(cols)
	}
}

// copyUnescape undoes PostgreSQL COPY text escapes.
func copyUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
