package allowlist_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
)

// judge returns "ok PATHS | STRINGS" or "ask WORD: WHY".
func judge(t *testing.T, cmd string) string {
	t.Helper()
	argv := strings.Fields(cmd)
	var best *allowlist.Entry
	for _, e := range allowlist.Builtin() {
		if _, _, ok := e.Judge(argv); ok && (best == nil || len(e.Words) > len(best.Words)) {
			best = e
		}
	}
	if best == nil {
		return "none"
	}
	c, r, _ := best.Judge(argv)
	if r != nil {
		return "ask " + r.Word
	}
	return fmt.Sprintf("ok %s | %s", strings.Join(c.Paths, " "), strings.Join(c.Strings, " "))
}

func TestParse(t *testing.T) {
	tests := []struct{ cmd, want string }{
		// operands: patterns and strings are not paths
		{"grep x* f", "ok f | x*"},
		{"grep -e x -e y f g", "ok f g | x y"},
		{"grep -f .env f", "ok .env f | "},
		{"grep -rn --include=*.go TODO .", "ok . | *.go TODO"},
		{"echo .env", "ok  | .env"},
		{"find . -name *.o -type f", "ok f . | *.o"},
		{"find . -name x -delete", "ask -delete"},
		{"find . -newermt 2020-01-01", "ok 2020-01-01 . | "},
		{"find . -newer .env", "ok .env . | "},
		// combined short flags, attached and separate values
		{"grep -nri x f", "ok f | x"},
		{"grep -m5 x f", "ok f | 5 x"},
		{"grep -nm 5 x f", "ok f | 5 x"},
		{"sort -nro out f", "ask -nro"},
		{"sort -co f", "ask -co"},
		{"sort -c f", "ok f | "},
		// --flag=value, abbreviations, --
		{"sort --out=f", "ask --out=f"},
		{"sort --o f", "ask --o"},
		{"sort --rev f", "ok f | "},
		{"sort --re f", "ok f | "},
		{"sort --ra f", "ask --ra"},
		{"sort -- -o", "ok -o | "},
		{"rg --pr=./x y", "ask --pr=./x"},
		{"rg -- --pre y", "ok y | --pre"},
		{"ls --colour", "ask --colour"},
		{"ls --color=always --zz", "ask --zz"},
		{"ls --sort", "ask --sort"},
		{"ls -l --size=3", "ask --size=3"},
		// operand counts
		{"uniq a", "ok a | "},
		{"uniq a b", "ask b"},
		{"xxd f", "ok f | "},
		{"xxd f out", "ask out"},
		{"xxd -r f", "ask -r"},
		{"xxd -c12 -g 2 f", "ok f | 12 2"},
		{"hostname", "ok  | "},
		{"hostname evil", "ask evil"},
		{"printf -v x y", "ask -v"},
		{"printf %s x", "ok  | %s x"},
		// operand languages
		{"date +%Y-%m-%d", "ok  | +%Y-%m-%d"},
		{"date 0101000026", "ask 0101000026"},
		{"date -s 1", "ask -s"},
		{"date --se=1", "ask --se=1"},
		{"ps aux", "ok  | aux"},
		{"ps auxe", "ask auxe"},
		{"ps -ef", "ok  | "},
		{"jq .env f.json", "ok f.json | .env"},
		{"jq env f", "ask env"},
		{"jq $ENV.HOME f", "ask $ENV.HOME"},
		{"jq --rawfile a /etc/passwd .", "ask --rawfile"},
		{"jq --arg a b .x f", "ok f | b a .x"},
		{"sed -n 1,5p f", "ok f | 1,5p"},
		{"sed -n $p f", "ok f | $p"},
		{"sed 10q f", "ok f | 10q"},
		{"sed -n /x/p f", "ok f | /x/p"},
		{"sed -e 1p -e 2p f", "ok f | 1p 2p"},
		{"sed -n 1w.out f", "ask 1w.out"},
		{"sed s/a/b/w.out f", "ask s/a/b/w.out"},
		{"sed s/a/b/e f", "ask s/a/b/e"},
		{"sed 1e f", "ask 1e"},
		{"sed -i 1p f", "ask -i"},
		{"sed -f s f", "ask -f"},
		{"sed", "ask sed"},
		// git: globals, subcommands, listing forms
		{"git -C sub log -5 --oneline", "ok sub | "},
		{"git --no-pager -P diff --stat", "ok  | "},
		{"git -c core.pager=x log", "none"},
		{"git log --output=x", "ask --output=x"},
		{"git log --out=x", "ask --out=x"},
		{"git log --show-sig", "ask --show-sig"},
		{"git tag", "ok  | "},
		{"git tag -l v*", "ok  | v*"},
		{"git tag v1", "ask v1"},
		{"git tag -d v1", "ask -d"},
		{"git branch --list feat*", "ok  | feat*"},
		{"git branch new", "ask new"},
		{"git branch -D x", "ask -D"},
		{"git remote -v", "ok  | "},
		{"git remote show origin", "ask show"},
		{"git reflog show", "ok  | "},
		{"git stash list", "ok  | "},
		{"git grep -O x", "ask -O"},
		{"git grep -f pats", "ok pats | "},
		{"git cat-file --textconv HEAD:x", "ask --textconv"},
		{"git cat-file -p HEAD", "ok HEAD | "},
		{"git blame --contents x f", "ask --contents"},
		{"git stash", "none"},
		{"git push", "none"},
		{"tree -o out", "ask -o"},
		{"tree -aL 2 d", "ok d | 2"},
		{"tree -R", "ask -R"},
	}
	for _, tt := range tests {
		if got := judge(t, tt.cmd); got != tt.want {
			t.Errorf("%s: got %q; want %q", tt.cmd, got, tt.want)
		}
	}
}

func TestSedScript(t *testing.T) {
	for script, ok := range map[string]bool{
		"p": true, "1,5p": true, "$=": true, "/re/,/end/!p": true, "0,/x/p": true, "1~2p": true, "2,+3p": true,
		`\,x,p`: true, "/x/Ip": true, "l": true, "l 40": true, "q5": true, "{p;p}": true, "1{/a/p}": true,
		"s/a/b/g": true, "s|a|b|2p": true, `s/a\/b/c/`: true, "y/abc/xyz/": true, ":a;N;$!ba;p": true, "#c\np": true,
		"w x": false, "1W x": false, "r x": false, "R x": false, "e": false, "s/a/b/w x": false, "s/a/b/e": false,
		"s/a/b/gw x": false, "{p": false, "p}": false, "a text": false, "i\\": false, "c x": false, "v": false,
		"s/a/b": false, "y/a/": false, "1,": false, "pq": false, "s/a/b/;w x": false, "1!w x": false,
	} {
		if got := allowlist.SedScriptReadOnly(script) == ""; got != ok {
			t.Errorf("sed script %q read-only = %v; want %v (%s)", script, got, ok, allowlist.SedScriptReadOnly(script))
		}
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"git -C x --no-pager push": "git push", "git push": "", "ls -l": "", "git -c a=b push": "",
	} {
		got := strings.Join(allowlist.Normalize(strings.Fields(in)), " ")
		if got != want {
			t.Errorf("Normalize(%q) = %q; want %q", in, got, want)
		}
	}
}

func ExampleEntry_Parse() {
	var grep *allowlist.Entry
	for _, e := range allowlist.Builtin() {
		if e.Name() == "grep" {
			grep = e
		}
	}
	c, _ := grep.Parse([]string{"-rn", "--include=*.go", "TODO", "src"})
	fmt.Println("paths:", c.Paths, "strings:", c.Strings)
	_, r := grep.Parse([]string{"-r", "--frobnicate", "x"})
	fmt.Println(r.Why)
	// Output:
	// paths: [src] strings: [*.go TODO]
	// is not a flag grep is known to only read with
}

// XargsCommand is the catalogue's reading of xargs, refused options
// included: the rules that judge what xargs runs read its layout here.
func TestXargsCommand(t *testing.T) {
	for _, tt := range []struct {
		argv  string
		start int
		repl  string
		ok    bool
	}{
		{"xargs rm -rf", 1, "", true},
		{"xargs -0 -n1 rm -rf", 3, "", true},
		{"xargs -I{} echo rm -rf {}", 2, "{}", true},
		{"xargs -I % rm -rf %", 3, "%", true},
		{"xargs -i rm {}", 2, "{}", true},
		{"xargs -iX rm X", 2, "X", true},
		{"xargs --replace=@ rm @", 2, "@", true},
		{"xargs --repl rm {}", 2, "{}", true},          // an abbreviation, as getopt_long takes it
		{"xargs -p rm -rf", 2, "", true},               // refused by the catalogue, still read
		{"xargs -o -P 4 rm -rf", 4, "", true},          // likewise
		{"xargs --process-slot-var=V rm", 2, "", true}, // likewise
		{"xargs -J % rm -rf % x", 3, "", true},         // BSD
		{"xargs -E EOF -- rm -rf", 4, "", true},
		{"xargs -n1 --", 0, "", false},     // no command: xargs runs echo
		{"xargs --bogus rm", 0, "", false}, // not an option xargs is known to take
		{"xargs -I", 0, "", false},
		// GNU xargs takes --max-lines' value only after "=" (a red
		// team's "xargs --max-lines sh cat" ran sh where cat was judged).
		{"xargs --max-lines sh cat", 2, "", true},
		{"xargs --max-lines=1 cat", 2, "", true},
		{"xargs -L 1 cat", 3, "", true},
	} {
		argv := strings.Fields(tt.argv)
		start, repl, ok := allowlist.XargsCommand(argv)
		if start != tt.start || repl != tt.repl || ok != tt.ok {
			t.Errorf("XargsCommand(%q) = %d, %q, %v; want %d, %q, %v", tt.argv, start, repl, ok, tt.start, tt.repl, tt.ok)
		}
	}
}
