package probes

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
)

// TestKindTable checks that every entry of the kinds table is complete,
// so that adding a kind is adding an entry and its C file, and anything
// left out fails here: its module is built and embedded and compiles,
// its help text and example are there and the example parses and
// round-trips, it is either an ABI v1 kind (a config key and a value
// parser) or a v2 one (a target parser and options, timeout_ms among
// them), and probes/README.md describes it. Every src/*.c and every
// .wasm here is a kind of the table: build.sh builds and the package
// embeds whatever is there.
func TestKindTable(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "probes", "README.md"))
	require.NoError(t, err)
	sections := readmeSections(string(readme))
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)

	words := map[string]bool{}
	for _, k := range kinds {
		t.Run(string(k.name), func(t *testing.T) {
			require.NotEmpty(t, k.name)
			for _, w := range append([]string{string(k.name)}, k.also...) {
				assert.False(t, words[w], "%q starts the shorthands of two kinds", w)
				words[w] = true
				assert.NotContains(t, w, ":", "a shorthand's kind ends at its first colon")
			}
			assert.Same(t, k, lookup(k.name))

			// Help texts.
			assert.NotEmpty(t, k.form, "form")
			assert.True(t, strings.HasPrefix(k.form, string(k.name)), "form %q does not start with the kind", k.form)
			assert.NotEmpty(t, k.summary, "summary")
			assert.NotContains(t, k.summary, "\n", "summary is one line")
			assert.Equal(t, k.form, k.name.Form())
			assert.Equal(t, k.summary, k.name.Summary())
			assert.Equal(t, k.example, k.name.Example())

			// The module: built from src/NAME.c, embedded as NAME.wasm.
			_, err := os.Stat(filepath.Join("src", string(k.name)+".c"))
			assert.NoError(t, err, "the kind's C source")
			wasm, ok := Wasm(k.name)
			require.True(t, ok, "no embedded %s.wasm", k.name)
			assert.True(t, bytes.HasPrefix(wasm, []byte("\x00asm\x01\x00\x00\x00")), "not a wasm 1.0 module")
			cm, err := r.CompileModule(ctx, wasm)
			require.NoError(t, err)
			assert.Contains(t, cm.ExportedFunctions(), "probe")

			// The example parses to this kind and round-trips.
			sh, err := ParseShorthand(k.example)
			require.NoError(t, err, "example %q", k.example)
			assert.Equal(t, k.name, sh.Kind, "example %q", k.example)
			again, err := ParseShorthand(sh.String())
			require.NoError(t, err, "%q, the example written back", sh.String())
			assert.Equal(t, sh, again, "the example round-trips")

			// ABI v1 or v2, and the parts each needs.
			if k.v2() {
				assert.Empty(t, k.key, "a v2 kind has options, not a config key")
				assert.Nil(t, k.value)
				var names []string
				for _, o := range k.options {
					require.NotNil(t, o.parse, "option %s has no parse", o.name)
					assert.NotContains(t, names, o.name, "option %s listed twice", o.name)
					names = append(names, o.name)
				}
				assert.Contains(t, names, "timeout_ms", "every v2 kind takes timeout_ms")
			} else {
				assert.NotEmpty(t, k.key, "a v1 kind needs its config key")
				assert.NotNil(t, k.value, "a v1 kind needs its value parser")
				assert.Empty(t, k.options)
				assert.Nil(t, k.writeTarget)
			}

			// probes/README.md: a row in the standard probes' table, its
			// cost (the module's size, as built), and for a v2 kind a
			// shorthand row.
			assert.NotEmpty(t, rowsOf(sections["Standard probes"], "| "+string(k.name)+" |"),
				"probes/README.md's \"Standard probes\" table has no row for %s", k.name)
			cost := rowsOf(sections["Costs"], "| "+string(k.name)+" |")
			if assert.Len(t, cost, 1, "probes/README.md's \"Costs\" table has no row for %s", k.name) {
				cells := strings.Split(cost[0], "|")
				assert.Equal(t, strconv.Itoa(len(wasm)), strings.TrimSpace(cells[2]),
					"probes/README.md's \"Costs\" gives the wrong size for %s.wasm", k.name)
			}
			if k.v2() {
				assert.NotEmpty(t, rowsOf(sections["Shorthands"], "| `"+string(k.name)),
					"probes/README.md's \"Shorthands\" table has no row for %s", k.name)
			}
		})
	}

	// Nothing is built or embedded that is not in the table.
	srcs, err := filepath.Glob("src/*.c")
	require.NoError(t, err)
	mods, err := filepath.Glob("*.wasm")
	require.NoError(t, err)
	for _, f := range append(srcs, mods...) {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".c"), ".wasm")
		assert.NotNil(t, lookup(Kind(name)), "%s is no kind of the table in kinds.go", f)
	}

	// A name no kind has.
	for _, k := range []Kind{"", "nope", "https"} {
		assert.Nil(t, lookup(k), k)
		assert.Empty(t, k.Form(), k)
		assert.Empty(t, k.Summary(), k)
		assert.Empty(t, k.Example(), k)
		_, ok := Wasm(k)
		assert.False(t, ok, k)
	}
	assert.Same(t, lookup(HTTP), lookupShorthand("https"))
}

// readmeSections splits a markdown text at its headings: each heading's
// text (without the #s) and the lines under it, up to the next heading.
func readmeSections(md string) map[string][]string {
	out := map[string][]string{}
	heading := ""
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "#") {
			heading = strings.TrimSpace(strings.TrimLeft(line, "#"))
			continue
		}
		out[heading] = append(out[heading], line)
	}
	return out
}

// rowsOf returns the lines that start with prefix.
func rowsOf(lines []string, prefix string) []string {
	return slices.DeleteFunc(slices.Clone(lines), func(l string) bool { return !strings.HasPrefix(l, prefix) })
}
