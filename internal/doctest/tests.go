package doctest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Tests indexes the test functions of the repository at root: for each
// name, the string literals of its body, by which CheckFrom tells
// whether it reads a page.
type Tests map[string][][]string

// FindTests reads every _test.go file under root (but testdata,
// node_modules and hidden directories).
func FindTests(root string) (Tests, error) {
	tests := Tests{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") {
				continue
			}
			var lits []string
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if l, ok := n.(*ast.BasicLit); ok && l.Kind == token.STRING {
					if s, err := strconv.Unquote(l.Value); err == nil {
						lits = append(lits, s)
					}
				}
				return true
			})
			tests[fn.Name.Name] = append(tests[fn.Name.Name], lits)
		}
		return nil
	})
	return tests, err
}

// CheckFrom says why a "from" marker naming test, on the page at page (a
// slash path relative to the repository's root), does not hold: there is
// no such test function, or none of that name reads the page (no string
// in its body names the page's file: "ABI.md", "../../README.md").
func (ts Tests) CheckFrom(test, page string) error {
	bodies, ok := ts[test]
	if !ok {
		return fmt.Errorf("no test function %s in the repository", test)
	}
	for _, lits := range bodies {
		for _, l := range lits {
			l = path.Clean(filepath.ToSlash(l))
			for strings.HasPrefix(l, "../") {
				l = l[3:]
			}
			if strings.HasSuffix(l, ".md") && (l == page || strings.HasSuffix(page, "/"+l)) {
				return nil
			}
		}
	}
	return fmt.Errorf("%s does not read %s: it cannot be what checks its examples", test, page)
}
