package layout

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDesignListsThePublicAPI: docs/DESIGN.md lists every exported
// identifier of every public package (a type with its constructors and
// constants, a function, each group of constants or variables by one of
// its names), and nothing that is not one, so that an identifier joins
// the API on purpose and the page stays true.
func TestDesignListsThePublicAPI(t *testing.T) {
	root := filepath.Join("..", "..")
	listed := readDesignLists(t, filepath.Join(root, "docs", "DESIGN.md"))
	for _, p := range listPackages(t, root) {
		name := strings.TrimPrefix(p.ImportPath, module)
		if isInternal(name) || strings.HasPrefix(name, "cmd/") || strings.HasPrefix(name, "examples/") {
			continue
		}
		api := exportedAPI(t, filepath.Join(root, name), p.ImportPath)
		got, ok := listed[name]
		if !ok {
			t.Errorf("docs/DESIGN.md has no section \"### `%s`\" listing its API", name)
			continue
		}
		for _, want := range api.required {
			if !slices.ContainsFunc(want, func(n string) bool { return slices.Contains(got, n) }) {
				t.Errorf("%s exports %s, which docs/DESIGN.md does not list", name, strings.Join(want, " or "))
			}
		}
		for _, n := range got {
			if !slices.Contains(api.all, n) {
				t.Errorf("docs/DESIGN.md lists %s.%s, which %s does not export", name, n, name)
			}
		}
		delete(listed, name)
	}
	for name := range listed {
		t.Errorf("docs/DESIGN.md has a section for %s, which is no public package", name)
	}
}

// api is what a package exports: each entry of required is a set of
// names, one of which the page must list; all is every exported name.
type api struct {
	required [][]string
	all      []string
}

func exportedAPI(t *testing.T, dir, importPath string) api {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var files []*ast.File
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, importPath)
	require.NoError(t, err)
	var a api
	values := func(vs []*doc.Value, own bool) {
		for _, v := range vs {
			a.all = append(a.all, v.Names...)
			if own {
				a.required = append(a.required, v.Names)
			}
		}
	}
	values(p.Consts, true)
	values(p.Vars, true)
	for _, f := range p.Funcs {
		a.all = append(a.all, f.Name)
		a.required = append(a.required, []string{f.Name})
	}
	for _, ty := range p.Types {
		a.all = append(a.all, ty.Name)
		a.required = append(a.required, []string{ty.Name})
		for _, f := range ty.Funcs {
			a.all = append(a.all, f.Name)
			a.required = append(a.required, []string{f.Name})
		}
		// A type's constants and variables are listed with it.
		values(ty.Consts, false)
		values(ty.Vars, false)
	}
	return a
}

var (
	sectionHead = regexp.MustCompile("^### `([^`]+)`$")
	identifier  = regexp.MustCompile("`([A-Z][A-Za-z0-9]*)`")
)

// readDesignLists reads, per "### `package`" section of the API part of
// the page, the identifiers its list items name before their first ": ".
func readDesignLists(t *testing.T, path string) map[string][]string {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	_, text, ok := strings.Cut(string(b), "\n## The public packages and their API\n")
	require.True(t, ok, "%s has no section \"The public packages and their API\"", path)
	text, _, _ = strings.Cut(text, "\n## ")
	out := map[string][]string{}
	var pkg, item string
	flush := func() {
		if pkg != "" && item != "" {
			names, _, _ := strings.Cut(item, ": ")
			for _, m := range identifier.FindAllStringSubmatch(names, -1) {
				out[pkg] = append(out[pkg], m[1])
			}
		}
		item = ""
	}
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\n")
		switch {
		case sectionHead.MatchString(line):
			flush()
			pkg = sectionHead.FindStringSubmatch(line)[1]
			out[pkg] = nil
		case strings.HasPrefix(line, "- "):
			flush()
			item = line[2:]
		case strings.HasPrefix(line, "  ") && item != "":
			item += " " + strings.TrimSpace(line)
		default:
			flush()
		}
	}
	flush()
	require.NotEmpty(t, out, "no package sections in %s", path)
	return out
}
