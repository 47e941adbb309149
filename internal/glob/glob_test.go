package glob

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestMatchName(t *testing.T) {
	tests := []struct {
		pat, name string
		want      bool
	}{
		{".e[!x]v", ".env", true},
		{".e[^x]v", ".env", true},
		{".e[!n]v", ".env", false},
		{".e[[:alpha:]]v", ".env", true},
		{".e[[:digit:]]v", ".env", false},
		{".e[[=n=]]v", ".env", true},
		{".e[[.n.]]v", ".env", true},
		{"[]n]", "n", true},
		{"[]n]", "]", true},
		{"[!]n]", "n", false},
		{"[!]n]", "x", true},
		{"?env", ".env", false}, // a leading dot only by a literal dot
		{"*", ".env", false},
		{".*", ".env", true},
		{"i[!x]_rsa", "id_rsa", true},
		{"a[-]b", "a-b", true},
		{"[a-c]", "b", true},
		{"[a-c]", "d", false},
		{"[c-a]", "b", false}, // an empty range
		{"x[", "x[", true},    // unterminated: wider than bash (literal), never narrower
		{"*.pem", "key.pem", true},
		{"id_rsa*", "id_rsa.pub", true},
		{`\*`, "*", true},
		{`\*`, "x", false},
		{"[[:foo:]]", "x", true}, // unknown class: any character
		{"[[:alpha:]]", "é", true},
	}
	for _, tt := range tests {
		if got := Compile(tt.pat).MatchName(tt.name); got != tt.want {
			t.Errorf("Compile(%q).MatchName(%q) = %v, want %v", tt.pat, tt.name, got, tt.want)
		}
	}
}

func TestIntersects(t *testing.T) {
	tests := []struct {
		word, pat string
		want      bool
	}{
		{"k[e]y.p?m", "*.pem", true},
		{"*", "*.pem", true},
		{"*", ".env", false}, // bash's * skips dot files
		{".*", ".env", true},
		{"*.go", "*.pem", false},
		{"id_[!x]sa*", "id_rsa*", true},
		{".e[!n]v", ".env", false},
		{"*.[!p]em", "*.pem", false},
		{"s*", "service-account*.json", true},
		{"*.kdb?", "*.kdbx", true},
		{"[.]env", ".env", true}, // wider than bash, which needs a literal dot
		// An unterminated bracket is read wide, though bash would take
		// the "[" literally: the gate may hand over a word cut short
		// before an expansion ("cat .en[v$(echo ])" is ".en[v"), and
		// what follows may be the "]" (a red team's, against a literal
		// reading).
		{".en[v", ".env", true},
		{".en[v$1", ".env", true},
		{".en[v*", ".env", true},
	}
	for _, tt := range tests {
		if got := Intersects(CompileValue(tt.word), Compile(tt.pat), true); got != tt.want {
			t.Errorf("Intersects(%q, %q) = %v, want %v", tt.word, tt.pat, got, tt.want)
		}
	}
}

// TestNeverNarrowerThanBash: for random words over the glob alphabet, what
// bash expands a word to in a tree of names is always matched by the
// word's pattern here, with and without dotglob. This is the promise the
// gate rests on: "could this word name .env" is never answered no when
// bash would expand it to .env.
func TestNeverNarrowerThanBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	dir := t.TempDir()
	names := []string{".env", "id_rsa", "key.pem", "]n", "n", "a-b", ".htpasswd", "é", "E", "x!y", "^", "[", "e", "-", "a", "]", ".e", "env", ":", "="}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	alphabet := []string{"[", "]", "!", "^", "*", "?", "-", ":", "=", ".", "a", "e", "n", "v", "x", "E", "é",
		"[:alpha:]", "[:digit:]", "[=n=]", "[.n.]", "[:punct:]", "[:lower:]", "\\"}
	r := rand.New(rand.NewPCG(1, 2))
	others := []string{"x", "n", "E", ".", "!", "-", "]"}
	// A bracket for character c: one that holds it, or, as often, one that
	// may not ("[!x]" where x may be c).
	bracketFor := func(c string) string {
		o := others[r.IntN(len(others))]
		forms := []string{"[" + c + "]", "[!" + o + "]", "[^" + o + "]", "[!" + c + "]", "[a-z]", "[[:alpha:]]",
			"[[:punct:]]", "[[:lower:]]", "[[=" + c + "=]]", "[[." + c + ".]]", "[]" + c + "]", "[!]" + o + "]", "[" + o + "-" + c + "]", "[[:digit:]]"}
		return forms[r.IntN(len(forms))]
	}
	var words []string
	for len(words) < 4000 {
		var b strings.Builder
		if r.IntN(4) == 0 {
			for k := 1 + r.IntN(3); k > 0; k-- {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			}
		} else {
			// A word aimed at one of the names, each character kept,
			// widened or bracketed.
			for _, c := range names[r.IntN(len(names))] {
				switch r.IntN(5) {
				case 0:
					b.WriteString("?")
				case 1:
					b.WriteString("*")
				case 2, 3:
					b.WriteString(bracketFor(string(c)))
				default:
					if strings.ContainsRune("[]!^*?-\\", c) {
						b.WriteString("\\")
					}
					b.WriteRune(c)
				}
			}
		}
		w := b.String()
		if strings.HasSuffix(w, "\\") {
			continue // a trailing backslash escapes the newline
		}
		words = append(words, w)
	}
	checked := 0
	for _, dotglob := range []bool{false, true} {
		var script strings.Builder
		script.WriteString("shopt -s nullglob\n")
		if dotglob {
			script.WriteString("shopt -s dotglob\n")
		}
		for _, w := range words {
			// Each word unquoted, as an agent would write it: bash expands it.
			script.WriteString("printf '%s\\0' " + w + "; printf '\\1\\0'\n")
		}
		cmd := exec.Command(bash, "--norc", "--noprofile", "-s")
		cmd.Stdin = strings.NewReader(script.String())
		cmd.Dir = dir
		cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bash: %v", err)
		}
		groups := strings.Split(string(out), "\x01\x00")
		if len(groups) != len(words)+1 {
			t.Fatalf("bash printed %d groups for %d words", len(groups)-1, len(words))
		}
		for i, w := range words {
			got := strings.Split(strings.TrimSuffix(groups[i], "\x00"), "\x00")
			// The word unexpanded: bash's own quote removal of w.
			var expanded []string
			for _, g := range got {
				if slices.Contains(names, g) {
					expanded = append(expanded, g)
				}
			}
			// bash prints the word itself when it matched nothing or was
			// no glob: judge only what it expanded to on disk.
			p := Compile(w)
			pv := CompileValue(strings.ReplaceAll(w, "\\", ""))
			for _, name := range expanded {
				if len(got) == 1 && !Meta(w) {
					continue
				}
				checked++
				m := p.MatchName(name)
				if dotglob {
					m = p.Match(name)
				}
				if !m {
					t.Errorf("dotglob=%v: bash expands %q to %q, but the pattern does not match it", dotglob, w, name)
				}
				if mv := pv.Match(name); !mv && !strings.Contains(w, "\\") {
					t.Errorf("dotglob=%v: bash expands %q to %q, but its value's pattern does not match it", dotglob, w, name)
				}
			}
		}
	}
	// The words must reach names, or the test shows nothing.
	if checked < 500 {
		t.Fatalf("only %d expansions checked", checked)
	}
	t.Logf("%d expansions checked", checked)
}
