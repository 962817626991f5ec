package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// readmeImports are the packages the README's Go snippets may name.
var readmeImports = map[string]string{
	"context": "context",
	"fmt":     "fmt",
	"time":    "time",
	"runtime": "github.com/gate-dev/gate/runtime",
	"schema":  "github.com/gate-dev/gate/runtime/schema",
	"skills":  "github.com/gate-dev/gate/skills",
}

// TestReadmeEmbedSnippetCompiles compiles the Go block of README's
// "Embed it" as the body of a function of (ctx context.Context) error,
// with the imports it names and its variables marked used, against the
// code as it is: a snippet that calls what no longer exists, or calls it
// wrongly, fails here.
func TestReadmeEmbedSnippetCompiles(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	snippet, line, err := goBlockAfter(string(readme), "### Embed it")
	require.NoError(t, err)
	src, err := snippetFile(snippet, line)
	require.NoError(t, err, "README.md's \"Embed it\" snippet:\n%s", snippet)

	// The file is laid over the module (go build -overlay), in a package
	// of its own that exists only for this build.
	dir := t.TempDir()
	file := filepath.Join(dir, "snippet.go")
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	pkg := filepath.Join(root, "examples", "embed", "readmesnippet")
	overlay, err := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(pkg, "snippet.go"): file}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644))
	cmd := exec.Command("go", "build", "-overlay", filepath.Join(dir, "overlay.json"), "./examples/embed/readmesnippet")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "README.md's \"Embed it\" snippet does not compile:\n%s\nas\n%s", out, src)
}

// goBlockAfter returns the first ```go block after the line heading, and
// the line of doc it starts on.
func goBlockAfter(doc, heading string) (block string, line int, err error) {
	i := strings.Index(doc, "\n"+heading+"\n")
	if i < 0 {
		return "", 0, &missingError{"heading " + heading}
	}
	start := strings.Index(doc[i:], "\n```go\n")
	if start < 0 {
		return "", 0, &missingError{"```go block after " + heading}
	}
	start += i + len("\n```go\n")
	end := strings.Index(doc[start:], "\n```")
	if end < 0 {
		return "", 0, &missingError{"end of the ```go block after " + heading}
	}
	return doc[start : start+end+1], strings.Count(doc[:start], "\n") + 1, nil
}

type missingError struct{ what string }

func (e *missingError) Error() string { return "README.md has no " + e.what }

// snippetFile makes a Go file of a snippet of statements that starts at
// line of README.md: a function body with the imports the snippet names
// and every variable it declares marked used, as a reader would when
// pasting it. A line directive makes the compiler's errors name
// README.md's lines.
func snippetFile(snippet string, line int) (string, error) {
	body := "func snippet(ctx context.Context) error {\n" + snippet + "\treturn nil\n}\n"
	f, err := parser.ParseFile(token.NewFileSet(), "snippet.go", "package readmesnippet\n\n"+body, 0)
	if err != nil {
		return "", err
	}
	imports := map[string]bool{"context": true}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if _, known := readmeImports[id.Name]; known {
					imports[id.Name] = true
				}
			}
		}
		return true
	})
	// The snippet's own variables, at the top of the body (the function
	// ends in their scope).
	var declared []string
	for _, stmt := range f.Decls[0].(*ast.FuncDecl).Body.List {
		if as, ok := stmt.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					declared = append(declared, id.Name)
				}
			}
		}
	}
	var src strings.Builder
	src.WriteString("package readmesnippet\n\nimport (\n")
	names := make([]string, 0, len(imports))
	for name := range imports {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		src.WriteString("\t" + name + " \"" + readmeImports[name] + "\"\n")
	}
	src.WriteString(")\n\nfunc snippet(ctx context.Context) error {\n")
	fmt.Fprintf(&src, "//line README.md:%d\n%s", line, snippet)
	for _, name := range declared {
		src.WriteString("\t_ = " + name + "\n")
	}
	src.WriteString("\treturn nil\n}\n")
	return src.String(), nil
}
