package manifest

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIndexPaths(t *testing.T) {
	src := `top = 1
[[a]]
x = 1
[[a.b]]
y = [1, [2, 3], { z = 4 }]
[[a]]
[[a.b]]
[[a.b]]
"quoted.key" = { "with space" = 1, 'lit' = 2 }
[a.c]
d.e.f = 3
[[ g ]]
`
	ix, err := readTOML([]byte(src), Limits{})
	require.NoError(t, err)
	want := []string{
		`a`, `a[0]`, `a[0].b`, `a[0].b[0]`, `a[0].b[0].y`, `a[0].b[0].y[0]`, `a[0].b[0].y[1]`,
		`a[0].b[0].y[1][0]`, `a[0].b[0].y[1][1]`, `a[0].b[0].y[2]`, `a[0].b[0].y[2].z`, `a[0].x`,
		`a[1]`, `a[1].b`, `a[1].b[0]`, `a[1].b[1]`, `a[1].b[1]."quoted.key"`,
		`a[1].b[1]."quoted.key".lit`, `a[1].b[1]."quoted.key"."with space"`,
		`a[1].c`, `a[1].c.d`, `a[1].c.d.e`, `a[1].c.d.e.f`, `g`, `g[0]`, `top`,
	}
	assert.ElementsMatch(t, want, ix.paths())

	at := func(path string, s span) string { return src[s.off : s.off+s.len] }
	e := func(path string) entry {
		en, ok := ix.lookup(path)
		require.True(t, ok, path)
		return en
	}
	assert.Equal(t, "[[a]]", at("a[1]", e("a[1]").header))
	assert.Equal(t, "[[a.b]]", at("a[1].b[1]", e("a[1].b[1]").header))
	assert.Equal(t, "[[ g ]]", at("g[0]", e("g[0]").header))
	assert.Equal(t, "[a.c]", at("a[1].c", e("a[1].c").header))
	assert.Equal(t, "c", at("a[1].c", e("a[1].c").key), "the table's key is in its header")
	assert.Equal(t, `"quoted.key"`, at("", e(`a[1].b[1]."quoted.key"`).key))
	assert.Equal(t, `{`, at("", e(`a[1].b[1]."quoted.key"`).value))
	assert.Equal(t, `'lit'`, at("", e(`a[1].b[1]."quoted.key".lit`).key))
	assert.Equal(t, "[", at("", e("a[0].b[0].y").value), "an array has no range of its own; the index finds its bracket")
	assert.Equal(t, "2", at("", e("a[0].b[0].y[1]").value), "an array in an array is at its first element")
	assert.Equal(t, "{", at("", e("a[0].b[0].y[2]").value))
	assert.Equal(t, "3", at("", e("a[1].c.d.e.f").value))
	assert.Equal(t, "d", at("", e("a[1].c.d").key), "a dotted key's tables are at their part")
}

func TestIndexPrefersExplicitTables(t *testing.T) {
	// [x.y] defines x implicitly; [x] later defines it for real, and a
	// problem with x belongs there.
	src := "[x.y]\nz = 1\n[x]\nw = 2\n"
	ix, err := readTOML([]byte(src), Limits{})
	require.NoError(t, err)
	x, ok := ix.lookup("x")
	require.True(t, ok)
	h := x.header
	assert.Equal(t, "[x]", src[h.off:h.off+h.len])
}

func TestJoinKey(t *testing.T) {
	assert.Equal(t, "a", joinKey("", "a"))
	assert.Equal(t, "a.b-c_D9", joinKey("a", "b-c_D9"))
	assert.Equal(t, `a."b.c"`, joinKey("a", "b.c"))
	assert.Equal(t, `a."x[0]"`, joinKey("a", "x[0]"))
	assert.Equal(t, `a.""`, joinKey("a", ""))
	assert.Equal(t, `"é"`, joinKey("", "é"))
	assert.Equal(t, "a[3]", joinIndex("a", 3))
}

func TestDepthLimit(t *testing.T) {
	params := "[[tools]]\nname = \"t\"\nparameters.type = \"object\"\n" // tools[0].parameters is 3 deep
	for _, tc := range []struct {
		name string
		src  func(n int) string // a document n segments deep
	}{
		{"arrays", func(n int) string {
			return params + "parameters.x = " + strings.Repeat("[", n-4) + strings.Repeat("]", n-4) + "\n"
		}},
		{"inline tables", func(n int) string {
			return params + "parameters.x = " + strings.Repeat("{a=", n-4) + "1" + strings.Repeat("}", n-4) + "\n"
		}},
		{"dotted keys", func(n int) string {
			return params + "parameters" + strings.Repeat(".a", n-3) + " = 1\n"
		}},
		{"headers", func(n int) string {
			return params + "[tools.parameters" + strings.Repeat(".a", n-3) + "]\n"
		}},
		{"arrays of tables", func(n int) string {
			return params + "[[tools.parameters" + strings.Repeat(".a", n-4) + "]]\n"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, errs, misses := parse("gate.toml", []byte(tc.src(maxDepth)))
			require.Empty(t, errs, "%+v", errs)
			require.Empty(t, misses)
			require.NotNil(t, m.Tools[0].Parameters)

			// Past the limit nothing more is built: a document 5,000 deep
			// costs what one just past the limit does (in allocations,
			// which the machine's speed does not change).
			var atLimit float64
			for _, n := range []int{maxDepth + 1, 5000} {
				src := []byte(tc.src(n))
				_, errs, _ = parse("gate.toml", src)
				require.Len(t, errs, 1, "%+v", errs)
				assert.Contains(t, errs[0].Msg, "nested more than 100 levels deep")
				assert.Equal(t, 4, errs[0].Pos.Line)
				allocs := testing.AllocsPerRun(1, func() { parse("gate.toml", src) })
				if n == maxDepth+1 {
					atLimit = allocs
					continue
				}
				assert.LessOrEqual(t, allocs, atLimit+32, "%d levels deep cost more than %d", n, maxDepth+1)
			}
		})
	}
}

// paths returns every recorded path, sorted, for tests.
func (ix *index) paths() []string {
	out := make([]string, 0, len(ix.nodes)-1)
	for id := 1; id < len(ix.nodes); id++ {
		out = append(out, ix.pathOf(int32(id), noSeg))
	}
	sort.Strings(out)
	return out
}

// lookup returns where the node whose path is path is, for tests.
func (ix *index) lookup(path string) (entry, bool) {
	for id := 1; id < len(ix.nodes); id++ {
		if ix.pathOf(int32(id), noSeg) == path {
			return ix.nodes[id].entry, true
		}
	}
	return entry{}, false
}
