package allowlist

import (
	"slices"
	"testing"
)

// Every name of a spec takes the value written after it, and none when
// none is written; the manuals' "-m, --max-count=N" is the one sharing.
func TestSpecNamesTakeTheirOwnValue(t *testing.T) {
	tests := []struct {
		spec string
		// want: each name and whether it takes a value.
		want map[string]bool
	}{
		{"--context-separator=SEP, --no-context-separator", map[string]bool{"--context-separator": true, "--no-context-separator": false}},
		{"-E, --encoding=ENCODING, --no-encoding", map[string]bool{"-E": true, "--encoding": true, "--no-encoding": false}},
		{"-M, --max-columns=N, --max-columns-preview, --no-max-columns-preview", map[string]bool{"-M": true, "--max-columns": true, "--max-columns-preview": false, "--no-max-columns-preview": false}},
		{"-f, --follow, --tail=N, -t, --timestamps", map[string]bool{"-f": false, "--follow": false, "--tail": true, "-t": false, "--timestamps": false}},
		{"-g, --listed-incremental=FILE, -V, --label=TEXT", map[string]bool{"-g": true, "--listed-incremental": true, "-V": true, "--label": true}},
		{"-m, --max-count=N", map[string]bool{"-m": true, "--max-count": true}},
		{"-c, --check[=HOW]", map[string]bool{"-c": false, "--check": true}},
	}
	for _, tt := range tests {
		e := &Entry{Words: []string{"x"}, Flags: []Flag{Use(tt.spec, "note")}}
		idx := e.flagIndex()
		for name, valued := range tt.want {
			f := idx[name]
			if f == nil {
				t.Errorf("%q: no flag %s", tt.spec, name)
				continue
			}
			if got := f.Value != "" && !slices.Contains(f.Bare, name); got != valued {
				t.Errorf("%q: %s takes a value: %v, want %v", tt.spec, name, got, valued)
			}
		}
	}
	// Values of one group keep their own kinds: a FILE is a path even
	// when a TEXT follows it in the spec.
	e := &Entry{Words: []string{"x"}, Flags: []Flag{Use("-g, --listed-incremental=FILE, -V, --label=TEXT", "note")}}
	if !e.flagIndex()["-g"].IsPath() || e.flagIndex()["-V"].IsPath() {
		t.Errorf("-g FILE must be a path and -V TEXT a string")
	}
}

// rg's switch no longer eats the pattern: .env is judged as a path.
func TestSwitchDoesNotEatThePattern(t *testing.T) {
	for _, argv := range [][]string{
		{"--no-context-separator", "SECRET", ".env"},
		{"--no-encoding", "SECRET", ".env"},
		{"--max-columns-preview", "SECRET", ".env"},
	} {
		c, r := rgEntry.Parse(argv)
		if r != nil {
			t.Fatalf("rg %v: %v", argv, r)
		}
		if !slices.Contains(c.Paths, ".env") || !slices.Contains(c.Strings, "SECRET") {
			t.Errorf("rg %v: paths %q, strings %q; want .env a path and SECRET the pattern", argv, c.Paths, c.Strings)
		}
	}
}
