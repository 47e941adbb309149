package allowlist_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentgate/agentgate/allowlist"
)

var update = flag.Bool("update", false, "rewrite docs/catalogue.md")

// docs/catalogue.md is the catalogue as it is.
func TestReference(t *testing.T) {
	var b bytes.Buffer
	allowlist.Reference(&b)
	path := filepath.Join("..", "docs", "catalogue.md")
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, b.Bytes()) {
		t.Fatalf("docs/catalogue.md is not the catalogue as it is (%v); run: go test ./allowlist -run TestReference -update", err)
	}
}
