package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// backwards are the packages a reader of the runtime's answers must not go
// back to: the manifest was the runtime's input, and what a reader prints
// comes with the answers (runtime.Status names each probe and what its run
// was denied).
var backwards = []string{module + "internal/manifest", module + "internal/hooks"}

// TestReadersWalkOneWay: `gatectl check` and the HTTP API's /v1/status and
// /v1/refresh go runtime → answers → printed output, never back to the
// manifest. Every declaration of their package that their code may reach
// (by name, so more than it calls, never less) is held to not naming
// internal/manifest or internal/hooks. The exempt declarations read the
// manifest that runtime.Open would (from standard input, for -m -) or
// print why a manifest could not be opened: those paths end before the
// runtime answers.
func TestReadersWalkOneWay(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, tc := range []struct {
		dir    string
		roots  []string
		exempt []string
	}{
		{"cmd/gatectl", []string{"check"}, []string{"openManifestGate", "reportManifestError"}},
		{"internal/server", []string{"status", "refresh"}, nil},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			decls := packageDecls(t, filepath.Join(root, tc.dir))
			for _, r := range tc.roots {
				require.Contains(t, decls, r, "%s has no declaration named %s: name the walk's new start here", tc.dir, r)
			}
			for _, d := range reached(decls, tc.roots, tc.exempt) {
				for _, imp := range d.names(backwards) {
					t.Errorf("%s: %s, reached from %s, uses %s: what it needs must come with the runtime's answers",
						d.pos, d.name, strings.Join(tc.roots, ", "), imp)
				}
			}
		})
	}
}

// decl is one top-level declaration (a function, a method, a type, a
// variable or a constant) of a package, with the imports of its file.
type decl struct {
	name    string
	pos     token.Position
	node    ast.Node
	imports map[string]string // local name → import path
}

// names returns which of paths the declaration refers to (pkg.Name).
func (d decl) names(paths []string) []string {
	var out []string
	ast.Inspect(d.node, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok {
			if p, ok := d.imports[x.Name]; ok && slices.Contains(paths, p) && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
		return true
	})
	return out
}

// packageDecls parses the package in dir (its non-test files) and returns
// its declarations by name; methods of different types with one name
// share it.
func packageDecls(t *testing.T, dir string) map[string][]decl {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	decls := map[string][]decl{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		imports := map[string]string{}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			require.NoError(t, err)
			local := path[strings.LastIndex(path, "/")+1:]
			if imp.Name != nil {
				local = imp.Name.Name
			}
			imports[local] = path
		}
		add := func(name string, node ast.Node) {
			decls[name] = append(decls[name], decl{name: name, pos: fset.Position(node.Pos()), node: node, imports: imports})
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				add(d.Name.Name, d)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						add(s.Name.Name, s)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							add(n.Name, s)
						}
					}
				}
			}
		}
	}
	return decls
}

// reached returns the declarations that the roots may reach: every one
// named in a declaration reached, from the roots on, but the exempt ones.
func reached(decls map[string][]decl, roots, exempt []string) []decl {
	seen := map[string]bool{}
	queue := slices.Clone(roots)
	var out []decl
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] || slices.Contains(exempt, name) {
			continue
		}
		seen[name] = true
		for _, d := range decls[name] {
			out = append(out, d)
			ast.Inspect(d.node, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && !seen[id.Name] {
					if _, ok := decls[id.Name]; ok {
						queue = append(queue, id.Name)
					}
				}
				return true
			})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pos.String() < out[j].pos.String() })
	return out
}
