package fsutil

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/agentgate/agentgate/internal/testenv"
)

// TestOneWalker: no package but this one follows symbolic links through a
// path (filepath.EvalSymlinks); they read paths with Walk or Resolve, so
// that no two layers follow links with other bounds, or read a missing
// component two ways (issue 16: three walkers once did). Reading one
// link's own text (os.Readlink) is not a walk.
func TestOneWalker(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	walkers := 0
	testenv.GoSources(t, func(path string, f *ast.File, fset *token.FileSet) {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "EvalSymlinks" {
				t.Errorf("%s follows links with filepath.EvalSymlinks; use fsutil.Walk or Resolve", fset.Position(sel.Pos()))
			}
			if fn, ok := n.(*ast.FuncDecl); ok && fn.Name.Name == "Walk" && filepath.Dir(path) == filepath.Dir(file) {
				walkers++
			}
			return true
		})
	})
	if walkers != 1 {
		t.Fatalf("found %d Walk functions in fsutil: the test reads the wrong tree", walkers)
	}
}
