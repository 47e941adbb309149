package gitsafe

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"slices"
	"testing"
)

// listConfigByGit is git's own reading of a configuration file, the one
// parseSimple must agree with.
func listConfigByGit(t testing.TB, data []byte) ([]entry, error) {
	t.Helper()
	c := exec.CommandContext(context.Background(), "git", "config", "--file", "-", "--no-includes", "--list", "-z")
	c.Dir = "/"
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=/nonexistent"}
	c.Stdin = bytes.NewReader(data)
	out, err := c.Output()
	if err != nil {
		return nil, err
	}
	var entries []entry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) > 0 {
			k, v, _ := bytes.Cut(rec, []byte{'\n'})
			entries = append(entries, entry{string(k), string(v)})
		}
	}
	return entries, nil
}

// simpleCases are files in the subset (ok) and just outside it: each
// outside one is a form where a hand-written reader would go wrong.
var simpleCases = []struct {
	text string
	ok   bool
}{
	{"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n", true},
	{"[remote \"origin\"]\n\turl = https://example.com/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n", true},
	{"[a]\nk = \"quoted\"\n", false},
	{"[a \"x\"y\"]\nk = v\n", false},
	{"[a \"\"]\nk = v\n", true},
	{"[a  \"s p]c\"]\nk = v\n", true},
	{"[a]\nk = a\tb\n", false},
	{"[Core]\n\tFileMode\n\tPager = less # comment\n; whole comment\n# another\n\tx-y = a  b\t\n", true},
	{"[diff]\n\texternal = sh -c 'id' ;x\n", true},
	{"[a]\nk=v=w\nk =\nk\n", true},
	{"[a]\nk = v\\\n  continued\n", false},
	{"[a.b]\nk = v\n", false},
	{"[a] k = v\n", false},
	{"k = v\n", false},
	{"[a]\nk # c\n", false},
	{"[a]\r\nk = v\r\n", false},
	{"[a]\nk = caf\xc3\xa9\n", false},
	{"[a]\n1k = v\n", false},
	{"", true},
	{"[a]\nk = v", true},
	{"[]\nk = v\n", false},
}

// TestSimpleAgreesWithGit: every file the in-process reader takes, it
// reads as git does; the forms outside its subset go to git.
func TestSimpleAgreesWithGit(t *testing.T) {
	for _, tc := range simpleCases {
		got, ok := parseSimple([]byte(tc.text))
		if ok != tc.ok {
			t.Errorf("%q: ok = %v, want %v", tc.text, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		want, err := listConfigByGit(t, []byte(tc.text))
		if err != nil {
			t.Errorf("%q: read where git refuses it: %v", tc.text, err)
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q:\nread %q\ngit  %q", tc.text, got, want)
		}
	}
}

// FuzzSimpleAgreesWithGit holds parseSimple to git's reading: whatever
// file it takes, git takes and lists the same entries.
func FuzzSimpleAgreesWithGit(f *testing.F) {
	for _, tc := range simpleCases {
		f.Add(tc.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		got, ok := parseSimple([]byte(text))
		if !ok {
			return
		}
		want, err := listConfigByGit(t, []byte(text))
		if err != nil {
			t.Fatalf("%q: read %q where git refuses it: %v", text, got, err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q:\nread %q\ngit  %q", text, got, want)
		}
	})
}
