package gate

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/agentgate/agentgate/internal/glob"
)

// A matcher's case-folded twin is made from its patterns, a pattern
// already in lower case taken as it is: it must be what preparing every
// value in lower case from scratch gives, indexes included.
func TestFoldedIsTheLowerCaseTwin(t *testing.T) {
	p := Paths{Home: "/Users/Ann", Cwd: "/Users/Ann/Src", Vars: map[string]string{"CODEX_HOME": "/Opt/Codex"},
		Self:      append([]string{"/Users/Ann/.config/agentgate", "~/Notes/KEYS", "Build/.Secret"}, DefaultSelf...),
		Sensitive: append([]string{"*.PEM", ".ENV", ".env", "Id_*"}, DefaultSensitive...)}
	for _, patterns := range [][]string{p.Self, p.Sensitive} {
		m := p.matcher(patterns)
		f := m.folded()
		want := matcher{p: p}
		for _, class := range []struct {
			name      string
			got, from []pattern
			to        *[]pattern
		}{{"prefixes", f.prefixes, m.prefixes, &want.prefixes}, {"inner", f.inner, m.inner, &want.inner}, {"names", f.names, m.names, &want.names}} {
			for _, t := range class.from {
				*class.to = append(*class.to, newPattern(t.text, strings.ToLower(t.value)))
			}
			if !slices.EqualFunc(class.got, *class.to, func(a, b pattern) bool {
				return a.text == b.text && a.value == b.value && a.glob == b.glob && a.head == b.head
			}) {
				t.Errorf("folded %s = %v, want %v", class.name, class.got, *class.to)
			}
		}
		want.indexInner()
		want.indexNames()
		if !maps.Equal(f.literalNames, want.literalNames) {
			t.Errorf("folded literalNames = %v, want %v", f.literalNames, want.literalNames)
		}
		if !maps.EqualFunc(f.literalInner, want.literalInner, slices.Equal[[]int]) {
			t.Errorf("folded literalInner = %v, want %v", f.literalInner, want.literalInner)
		}
	}
}

// A pattern's globs are compiled when first needed: matching a path
// before and after they are compiled gives the same answer, and so does
// matching with a matcher whose globs were compiled first.
func TestLazyGlobsMatchAsCompiled(t *testing.T) {
	p := Paths{Home: "/home/u", Cwd: "/home/u/src", Self: DefaultSelf,
		Sensitive: append([]string{"a?c", "x[ab]*", `q\*r*`, "*k*y*"}, DefaultSensitive...)}
	paths := []string{"/home/u/src/main.go", "/home/u/.ssh/id_rsa", "/dev/sda1", "/proc/1/environ", "/etc/ssh/ssh_host_rsa_key",
		"/home/u/src/service-account-1.json", "/home/u/src/abc", "/home/u/src/xa1", "/home/u/src/q*r", "/home/u/src/monkey",
		"/home/u/src/.ENV", "/home/u/src/*.pem", "/home/u/src/id_*", "/home/u/.s?h/x", "/dev/s*", "/home/u/src/[.]env"}
	for _, patterns := range [][]string{p.Self, p.Sensitive} {
		lazy := p.matcher(patterns)
		eager := p.matcher(patterns)
		for c := range nameClass + 1 {
			if len(eager.patterns(c)) > 0 {
				eager.comps(c, 0)
			}
		}
		for _, abs := range paths {
			isGlob := glob.Meta(abs)
			wantPat, want := eager.match(abs, isGlob)
			if gotPat, got := lazy.match(abs, isGlob); gotPat != wantPat || got != want {
				t.Errorf("%s: lazily compiled globs give %q %v, compiled ones %q %v", abs, gotPat, got, wantPat, want)
			}
		}
	}
}

// nameMatch's fast path for one star reads a name pattern as the glob
// engine does.
func TestNameMatchAsGlob(t *testing.T) {
	patterns := []string{"*.pem", "id_rsa*", "service-account*.json", ".env.*", "*", "a*b", "ab*ab", "*.tfstate.backup",
		"x[ab]*", "a?c*", `a\*b*`, "*a*", "**", "é*ü"}
	names := []string{"", "a", "b", "ab", "abab", "aab", "abb", "ba", "key.pem", ".pem", "pem", "id_rsa", "id_rsa.pub", "xid_rsa",
		"service-account.json", "service-account-1.json", "service-account", ".json", ".env", ".env.local", ".env.", "xa", "xb1",
		"abc", "a*b", `a\*b`, "x.tfstate.backup", "éü", "éxü", "é", "ü"}
	p := Paths{Home: "/h", Cwd: "/h", Sensitive: patterns}
	m := p.matcher(patterns)
	for i, pat := range m.names {
		g := glob.Compile(pat.value)
		for _, name := range names {
			if got, want := m.nameMatch(i, name), g.Match(name); got != want {
				t.Errorf("nameMatch(%q, %q) = %v, the glob engine says %v", pat.value, name, got, want)
			}
		}
	}
}
