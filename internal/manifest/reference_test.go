package manifest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// referencePath is the reference of every manifest key.
var referencePath = filepath.Join("..", "..", "docs", "MANIFEST.md")

// keyList is one of this package's lists of known keys, by its name.
type keyList struct {
	name string
	keys []string
}

// referenceTables are the sections of docs/MANIFEST.md, by heading, and
// the lists of known keys whose keys each must have a row for: the very
// lists the checks give unknownKeys, so that the keys a message calls
// known are the keys documented.
var referenceTables = map[string][]keyList{
	"Top level":           {{"topKeys", topKeys}},
	"`[runtime]`":         {{"runtimeKeys", runtimeKeys}},
	"`[skills]`":          {{"skillsKeys", skillsKeys}},
	"`[[tools]]`":         {{"toolKeys", toolKeys}},
	"`[[servers]]`":       {{"serverKeys", serverKeys}, {"upstreamKeys", upstreamKeys}},
	"`[[servers.tools]]`": {{"ruleKeys", ruleKeys}},
	"`[servers.breaker]`": {{"breakerKeys", breakerKeys}},
	"`[servers.oauth]`":   {{"oauthKeys", oauthKeys}},
	"`probe`":             {{"probeKeys", probeKeys}},
	"`grants`":            {{"grantKeys", grantKeys}},
	"Availability policy": {{"policyKeys", policyKeys}},
}

// ReferenceRow is one key's row in docs/MANIFEST.md: its cells as
// written, and the line it is on.
type ReferenceRow struct {
	Type, Default, Meaning string
	Line                   int
}

// referenceRowRule is a table row whose first cell is a key in backticks.
var referenceRowRule = regexp.MustCompile("^\\| `([^`]+)` \\|(.*)\\|$")

// ReadReference returns the rows of docs/MANIFEST.md by section heading
// (the text after "## ") and key; a key with two rows in a section fails
// the test. Exported for the external tests of the defaults
// (reference_defaults_test.go).
func ReadReference(t testing.TB) map[string]map[string]ReferenceRow {
	t.Helper()
	src, err := os.ReadFile(referencePath)
	require.NoError(t, err)
	out := map[string]map[string]ReferenceRow{}
	section := ""
	for i, line := range strings.Split(string(src), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			section = strings.TrimSpace(h)
			continue
		}
		m := referenceRowRule.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		cells := strings.Split(m[2], " | ")
		require.Len(t, cells, 3, "%s:%d: want | `key` | type | default | meaning |", referencePath, i+1)
		if out[section] == nil {
			out[section] = map[string]ReferenceRow{}
		}
		if prev, dup := out[section][m[1]]; dup {
			t.Fatalf("%s:%d: ## %s: key %q has a row already, at line %d", referencePath, i+1, section, m[1], prev.Line)
		}
		out[section][m[1]] = ReferenceRow{
			Type: strings.TrimSpace(cells[0]), Default: strings.TrimSpace(cells[1]), Meaning: strings.TrimSpace(cells[2]),
			Line: i + 1,
		}
	}
	return out
}

// TestManifestReferenceListsEveryKey: every key the loader knows has its
// row in docs/MANIFEST.md, under its table's heading, and every row is a
// key the loader knows; so no key is added or renamed without its line.
func TestManifestReferenceListsEveryKey(t *testing.T) {
	rows := ReadReference(t)
	for _, heading := range slices.Sorted(maps.Keys(referenceTables)) {
		known := map[string]string{} // key -> the list that knows it
		for _, l := range referenceTables[heading] {
			for _, k := range l.keys {
				known[k] = l.name
			}
		}
		documented := rows[heading]
		if documented == nil {
			t.Errorf("%s has no section \"## %s\" with a row per key", referencePath, heading)
		}
		for _, k := range slices.Sorted(maps.Keys(known)) {
			if _, ok := documented[k]; !ok {
				t.Errorf("%s, ## %s: the loader knows key %q (%s) but it has no row: add | `%s` | type | default | meaning |", referencePath, heading, k, known[k], k)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(documented)) {
			if _, ok := known[k]; !ok {
				t.Errorf("%s:%d: ## %s: key %q is documented but the loader does not know it", referencePath, documented[k].Line, heading, k)
			}
		}
	}
	for _, heading := range slices.Sorted(maps.Keys(rows)) {
		if _, ok := referenceTables[heading]; !ok {
			t.Errorf("%s: ## %s has key rows, but no list of known keys is tied to it in referenceTables", referencePath, heading)
		}
	}
}

// TestManifestReferenceExamplesParse: every example of docs/MANIFEST.md
// (a ```toml block) is a manifest the loader accepts as it is.
func TestManifestReferenceExamplesParse(t *testing.T) {
	src, err := os.ReadFile(referencePath)
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```toml\n(.*?)```").FindAllStringSubmatch(string(src), -1)
	require.NotEmpty(t, blocks)
	for i, b := range blocks {
		_, err := Parse(filepath.Join(t.TempDir(), "gate.toml"), []byte(b[1]))
		require.NoError(t, err, "example %d of %s:\n%s", i+1, referencePath, b[1])
	}
}

// TestReferenceTablesCoverEveryKeyList: every list of known keys this
// package declares (a package-level variable named ...Keys) is tied to a
// section of docs/MANIFEST.md, so that a new table's keys cannot go
// undocumented either.
func TestReferenceTablesCoverEveryKeyList(t *testing.T) {
	tied := map[string]bool{}
	for _, lists := range referenceTables {
		for _, l := range lists {
			tied[l.name] = true
		}
	}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	declared := 0
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if strings.HasSuffix(n.Name, "Keys") {
						declared++
						if !tied[n.Name] {
							t.Errorf("%s: %s lists known keys, and no section of %s is tied to it: add it to referenceTables", fset.Position(n.Pos()), n.Name, referencePath)
						}
					}
				}
			}
		}
	}
	require.Equal(t, len(tied), declared, "referenceTables names a list this package does not declare")
}
