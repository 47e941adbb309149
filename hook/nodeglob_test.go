package hook

import (
	"slices"
	"testing"
)

// Gemini CLI's read_many_files reads node-glob patterns (dot: true,
// braces, extglobs): each is read as bash globs and walks that together
// name at least what node would read.
func TestNodeGlobReads(t *testing.T) {
	for _, c := range []struct {
		pattern         string
		names           []string // among the names read
		trees, includes []string
	}{
		{"notes.txt", []string{"notes.txt"}, nil, nil},
		{`.\.env`, []string{"./.env"}, nil, nil}, // Gemini reads \ as /
		{`.ssh\id_rsa`, []string{".ssh/id_rsa"}, nil, nil},
		{"?env", []string{"?env", ".env"}, nil, nil},
		{"{.env,x}", []string{".env", "x"}, nil, nil},
		{".e{n,}v", []string{".env", ".ev"}, nil, nil},
		{"+(.env)", []string{".env", "*", ".*"}, nil, nil},
		{"*(.)env", []string{".env", "*env", ".*env"}, nil, nil},
		{"src/*.md", []string{"src/*.md", "src/.*.md"}, nil, nil},
		{"**/*.md", nil, []string{"."}, []string{"*.md"}},
		{"src/**/?env", nil, []string{"src/"}, []string{"?env"}},
		{"a/*/b/{x,y}", nil, []string{"a/", "a/"}, []string{"x", "y"}},
	} {
		trees, includes, names := nodeGlobReads(c.pattern)
		for _, n := range c.names {
			if !slices.Contains(names, n) {
				t.Errorf("%q: names %q, want %q among them", c.pattern, names, n)
			}
		}
		if !slices.Equal(trees, c.trees) || !slices.Equal(includes, c.includes) {
			t.Errorf("%q: walks %q with %q, want %q with %q", c.pattern, trees, includes, c.trees, c.includes)
		}
	}
	// Past the bound: the whole tree from the literal directory.
	trees, includes, _ := nodeGlobReads("d/{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}")
	if !slices.Equal(trees, []string{"d/"}) || !slices.Equal(includes, []string{"*"}) {
		t.Errorf("128 forms: walks %q with %q, want d/ with *", trees, includes)
	}
}
