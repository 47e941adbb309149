package fsutil

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestOneWalker: no package but this one follows symbolic links through a
// path (filepath.EvalSymlinks); they read paths with Walk or Resolve, so
// that no two layers follow links with other bounds, or read a missing
// component two ways (issue 16: three walkers once did). Reading one
// link's own text (os.Readlink) is not a walk.
func TestOneWalker(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	fset := token.NewFileSet()
	walkers := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "EvalSymlinks" {
				t.Errorf("%s follows links with filepath.EvalSymlinks; use fsutil.Walk or Resolve", fset.Position(sel.Pos()))
			}
			if fn, ok := n.(*ast.FuncDecl); ok && fn.Name.Name == "Walk" && filepath.Dir(path) == filepath.Dir(file) {
				walkers++
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if walkers != 1 {
		t.Fatalf("found %d Walk functions in fsutil: the test reads the wrong tree", walkers)
	}
}
