package sandbox

import (
	"os"
	"path/filepath"
)

// protectedNames are the entries of a project's top directory that a
// workspace command may not change: what runs code at the person's next
// git command or the agents' next start, and agentgate's own files. A
// build writes its output elsewhere.
var protectedNames = []string{".git", ".claude", ".codex", ".gemini", ".cursor", ".vscode", ".mcp.json",
	".agentgate.toml", ".agentgate.local.toml", ".envrc", ".direnv",
	// Hook managers, whose files run at the person's next commit.
	".husky", ".githooks", ".pre-commit-config.yaml", ".pre-commit-hooks.yaml", "lefthook.yml", "lefthook.yaml",
	".lefthook.yml", ".lefthook.yaml"}

// Protected are the entries of root to keep read-only for a workspace
// command: those of protectedNames that exist, as directories or files
// (not symbolic links, whose target a bind would follow).
func Protected(root string) []string {
	var out []string
	for _, n := range protectedNames {
		p := filepath.Join(root, n)
		if fi, err := os.Lstat(p); err == nil && (fi.IsDir() || fi.Mode().IsRegular()) {
			out = append(out, p)
		}
	}
	return out
}

// IsProtectedName reports whether name is one of a project's top-level
// entries a workspace command may not change.
func IsProtectedName(name string) bool {
	for _, n := range protectedNames {
		if n == name {
			return true
		}
	}
	return false
}
