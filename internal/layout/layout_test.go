// Package layout holds the test of the project's import directions: the
// table in docs/RATIONALE.md ("Project structure") is the rule, and go
// list says what the packages import.
package layout

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/gate-dev/gate/"

// testHelpers are the packages only tests may import.
var testHelpers = []string{"internal/testsvc", "internal/testnet", "internal/mcptest", "internal/nohang", "internal/threadtime", "internal/doctest", "internal/costlywasm", "internal/golden", "internal/jsontest", "internal/logtest", "internal/otlptest"}

// wasmRuntime is the WebAssembly runtime, and wazeroUsers the packages
// that may link it.
const wasmRuntime = "github.com/tetratelabs/wazero"

// testReaders are the internal packages any test may import besides
// the test helpers.
var testReaders = []string{"internal/manifest", "internal/probes"}

var wazeroUsers = []string{"runtime", "internal/host", "internal/meter", "internal/linmem"}

type pkg struct {
	ImportPath   string
	Imports      []string
	Deps         []string
	TestImports  []string
	XTestImports []string
}

// rule is one row of the table: the packages of gate a package may import.
type rule struct {
	may []string
	// any: every package but the test helpers (the CLI); public: every
	// public package (the examples).
	any, public bool
}

func (r rule) allows(imp string) bool {
	switch {
	case slices.Contains(testHelpers, imp):
		return false
	case r.any:
		return true
	case r.public:
		return !isInternal(imp)
	}
	return slices.Contains(r.may, imp)
}

func isInternal(name string) bool { return name == "internal" || strings.HasPrefix(name, "internal/") }

func TestImportDirections(t *testing.T) {
	root := filepath.Join("..", "..")
	rules := readRules(t, filepath.Join(root, "docs", "RATIONALE.md"))
	linksWazero := mayLinkWazero(rules)
	seen := map[string]bool{}
	for _, p := range listPackages(t, root) {
		name := strings.TrimPrefix(p.ImportPath, module)
		if slices.Contains(testHelpers, name) {
			continue
		}
		key := ruleKey(rules, name)
		r, ok := rules[key]
		if !ok {
			t.Errorf("package %s has no row in docs/RATIONALE.md's \"Project structure\": add one, with what it may import", name)
			continue
		}
		seen[key] = true
		for _, imp := range gateImports(p.Imports) {
			if !r.allows(imp) {
				t.Errorf("%s imports %s, which its row in docs/RATIONALE.md's \"Project structure\" does not allow", name, imp)
			}
		}
		// A test may also use the test helpers, what its package's users
		// use (every public package), the manifest's reader and the
		// standard probes, to hold a file to what gate reads in it and to
		// run gate's own modules.
		for _, imp := range gateImports(append(p.TestImports, p.XTestImports...)) {
			if imp != name && !slices.Contains(testReaders, imp) && !slices.Contains(testHelpers, imp) && isInternal(imp) && !r.allows(imp) {
				t.Errorf("the tests of %s import %s, which %s may not", name, imp, name)
			}
		}
		if slices.Contains(p.Deps, wasmRuntime) && !linksWazero[key] {
			t.Errorf("%s links wazero: only %s may, and the packages that may import them", name, strings.Join(wazeroUsers, ", "))
		}
	}
	for key := range rules {
		if !seen[key] {
			t.Errorf("docs/RATIONALE.md's \"Project structure\" has a row for %s, which is no package", key)
		}
	}
}

// mayLinkWazero is the set of rows that may link wazero: its users, and
// every row that may import one of them, directly or not.
func mayLinkWazero(rules map[string]rule) map[string]bool {
	links := map[string]bool{}
	for _, u := range wazeroUsers {
		links[u] = true
	}
	for changed := true; changed; {
		changed = false
		for name, r := range rules {
			if links[name] {
				continue
			}
			for other := range links {
				if r.allows(other) {
					links[name], changed = true, true
					break
				}
			}
		}
	}
	return links
}

// gateImports returns the imports of gate's own packages, relative to the
// module.
func gateImports(imports []string) []string {
	var out []string
	for _, imp := range imports {
		if rel, ok := strings.CutPrefix(imp, module); ok && !slices.Contains(out, rel) {
			out = append(out, rel)
		}
	}
	return out
}

// ruleKey is the row of name: its own, or "examples/..." for an example.
func ruleKey(rules map[string]rule, name string) string {
	if _, ok := rules[name]; ok {
		return name
	}
	if strings.HasPrefix(name, "examples/") {
		return "examples/..."
	}
	return name
}

var code = regexp.MustCompile("`([^`]+)`")

// readRules reads the table of the "Project structure" section.
func readRules(t *testing.T, path string) map[string]rule {
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(doc), "\n## Project structure\n")
	require.True(t, ok, "%s has no \"Project structure\" section", path)
	section, _, _ = strings.Cut(section, "\n## ")
	rules := map[string]rule{}
	for line := range strings.Lines(section) {
		cells := strings.Split(strings.TrimSpace(line), "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		name := code.FindStringSubmatch(cells[1])[1]
		may := strings.TrimSpace(cells[3])
		var r rule
		switch {
		case strings.HasPrefix(may, "any package"):
			r.any = true
		case strings.HasPrefix(may, "only public packages"):
			r.public = true
		case may == "none":
		default:
			for _, m := range code.FindAllStringSubmatch(may, -1) {
				r.may = append(r.may, m[1])
			}
		}
		rules[name] = r
	}
	require.NotEmpty(t, rules, "no table in %s's \"Project structure\"", path)
	return rules
}

// listPackages asks go list for every package of the module.
func listPackages(t *testing.T, root string) []pkg {
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else {
			require.NoError(t, err)
		}
		pkgs = append(pkgs, p)
	}
	require.NotEmpty(t, pkgs)
	return pkgs
}
