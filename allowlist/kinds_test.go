package allowlist

import (
	"slices"
	"testing"
)

// every is each entry of the catalogue, built in and in packs.
func every() []*Entry {
	out := slices.Clone(Builtin())
	for _, p := range packs() {
		out = append(out, p.Entries...)
	}
	return out
}

// TestEveryPlaceholderIsTyped: each placeholder an entry writes has a
// kind in placeholderKinds, so that a new flag's author says what its
// value is; one the table lacked would silently be a path.
func TestEveryPlaceholderIsTyped(t *testing.T) {
	for _, e := range every() {
		for _, f := range e.FlagList() {
			for _, p := range append([]string{f.Value}, f.More...) {
				if _, ok := placeholderKinds[p]; p != "" && !ok {
					t.Errorf("%s %s: the placeholder %s has no kind in placeholderKinds", e.Name(), f.Spec(), p)
				}
			}
		}
	}
}

// TestNetworkValuesAreRefused: a flag that takes a URL or a host makes
// its command ask, whichever program has it; which machine a command
// reaches is never the agent's to choose.
func TestNetworkValuesAreRefused(t *testing.T) {
	n := 0
	for _, e := range every() {
		for _, f := range e.FlagList() {
			kinds := []ValueKind{f.Kind()}
			for _, m := range f.More {
				kinds = append(kinds, KindOf(m))
			}
			if !slices.Contains(kinds, URLValue) && !slices.Contains(kinds, HostValue) {
				continue
			}
			n++
			if f.Effect == Reads {
				t.Errorf("%s %s takes %s and only reads: refuse it (Network)", e.Name(), f.Spec(), f.Kind())
			}
		}
	}
	if n < 10 {
		t.Fatalf("only %d flags take a URL or a host: the test lost its subject", n)
	}
}

// A number's value is judged as a path unless it is a number; the other
// kinds as their kind says.
func TestValueKinds(t *testing.T) {
	for _, c := range []struct {
		placeholder, value string
		path               bool
	}{
		{"N", "10", false}, {"N", "-5", false}, {"N", "+3", false},
		{"N", ".env", true}, {"N", "1K", true}, {"N", "", true}, {"N", "~/.ssh/id_rsa", true},
		{"FILE", "10", true}, {"PATTERN", ".env", false}, {"NAME", "id_rsa", false},
		{"URL", "file:///etc/shadow", true}, {"HOST", "example.com", true},
		{"UNTYPED", "x", true},
	} {
		if got := KindOf(c.placeholder).JudgesAsPath(c.value); got != c.path {
			t.Errorf("%s %q judged as a path: %v; want %v", c.placeholder, c.value, got, c.path)
		}
	}
	// Through a call: head -n 10 names no path, head -n .env one.
	i := slices.IndexFunc(Builtin(), func(e *Entry) bool { return e.Name() == "head" })
	if i < 0 {
		t.Fatal("no head entry")
	}
	e := Builtin()[i]
	for _, c := range []struct {
		argv  []string
		paths []string
	}{
		{[]string{"head", "-n", "10", "f"}, []string{"f"}},
		{[]string{"head", "-n", ".env", "f"}, []string{".env", "f"}},
		{[]string{"head", "--lines=-3", "f"}, []string{"f"}},
	} {
		call, r, _ := e.Judge(c.argv)
		if r != nil {
			t.Fatalf("%v: %v", c.argv, r)
		}
		if !slices.Equal(call.Paths, c.paths) {
			t.Errorf("%v: paths %q; want %q", c.argv, call.Paths, c.paths)
		}
	}
}
