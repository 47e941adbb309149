package fsutil

import (
	"path/filepath"
	"strings"
)

// Within reports whether p is dir or lies under it, comparing the paths
// as text once cleaned (no link is followed: see [Resolve] for the path
// the kernel opens). An empty dir holds nothing, and a relative p is
// never within an absolute dir, nor the other way round.
func Within(p, dir string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
