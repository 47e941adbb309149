package fsutil

import "testing"

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		p, dir string
		want   bool
	}{
		{"/a/b", "/a", true}, {"/a", "/a", true}, {"/a/", "/a", true}, {"/a/b/../c", "/a", true},
		{"/ab", "/a", false}, {"/a/../b", "/a", false}, {"/", "/a", false}, {"/a/..b", "/a", true},
		{"a/b", "/a", false}, {"/a/b", "", false}, {"/a/b", "/", true},
	} {
		if got := Within(c.p, c.dir); got != c.want {
			t.Errorf("Within(%q, %q) = %v; want %v", c.p, c.dir, got, c.want)
		}
	}
}
