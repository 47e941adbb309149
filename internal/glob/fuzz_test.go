package glob

import (
	"strings"
	"testing"
	"time"
)

// FuzzGlob holds the engine's readings to one another: a name escaped is
// its own pattern; a filename expansion's match is a match; a literal met
// with a pattern is the pattern's match; and no pattern takes long.
func FuzzGlob(f *testing.F) {
	for _, s := range []string{".e[!x]v", "[]n]", "[[:alpha:]]", "*.pem", "id_rsa*", "[a-", `\*`, "[[=e=]]x", "?*?"} {
		f.Add(s, ".env")
	}
	f.Fuzz(func(t *testing.T, pat, name string) {
		if len(pat) > 256 || len(name) > 256 || strings.Contains(name, "/") {
			return
		}
		start := time.Now()
		p := Compile(pat)
		if !Compile(Escape(name)).Match(name) {
			t.Fatalf("Escape(%q) does not match itself", name)
		}
		if p.MatchName(name) && !p.Match(name) {
			t.Fatalf("%q: MatchName(%q) but not Match", pat, name)
		}
		lit := Compile(Escape(name))
		if Intersects(lit, p, false) != p.Match(name) {
			t.Fatalf("Intersects(literal %q, %q) disagrees with Match", name, pat)
		}
		if p.Match(name) && !Intersects(CompileValue(pat), Compile(Escape(name)), false) && !strings.Contains(pat, `\`) {
			t.Fatalf("%q matches %q but its value's pattern does not meet it", pat, name)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("%q against %q took %v", pat, name, d)
		}
	})
}
