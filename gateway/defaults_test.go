package gateway_test

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The Default consts documented here are the values the gateway uses: each
// is written as the implementation writes it, and every one of its
// defaults has one here.
func TestDefaultsAreTheImplementations(t *testing.T) {
	public := defaults(t, ".")
	internal := defaults(t, filepath.Join("..", "internal", "mcpgw"))
	require.NotEmpty(t, internal)
	require.Equal(t, internal, public)
}

// defaults maps each Default const declared in the non-test files of dir
// to its value, as written.
func defaults(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		require.NoError(t, err, name)
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.CONST {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if strings.HasPrefix(id.Name, "Default") && i < len(vs.Values) {
						out[id.Name] = exprText(t, fset, vs.Values[i])
					}
				}
			}
		}
	}
	return out
}

func exprText(t *testing.T, fset *token.FileSet, e ast.Expr) string {
	t.Helper()
	var b strings.Builder
	require.NoError(t, format.Node(&b, fset, e))
	return b.String()
}
