package manifest

import (
	"math"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/probes"
)

// TestFastMetaValidIsJSONClean checks what quickTool relies on to skip
// jsonClean: fastMetaValid never says valid for a schema holding a value
// JSON cannot carry, wherever it is.
func TestFastMetaValidIsJSONClean(t *testing.T) {
	bad := []any{math.NaN(), math.Inf(1), math.Inf(-1), time.Time{}, toml.LocalDate{}, toml.LocalTime{},
		toml.LocalDateTime{}, nil, int32(1), []any{math.NaN()}, map[string]any{"x": math.Inf(1)},
		map[string]any{"type": "string", "default": time.Time{}}}
	checked := 0
	for _, k := range append(append([]string{}, genKeywords...), "x-custom", "default", "const", "enum") {
		for _, v := range bad {
			for _, params := range []map[string]any{
				{"type": "object", k: v},
				{"type": "object", "properties": map[string]any{"p": map[string]any{k: v}}},
				{"type": "object", "items": []any{map[string]any{k: v}}},
				{"type": "object", "allOf": []any{map[string]any{k: []any{v}}}},
			} {
				if fastMetaValid(params) {
					require.True(t, jsonClean(params), "%#v", params)
				}
				checked++
			}
		}
	}
	assert.Greater(t, checked, 100)
}

// TestCanonicalEnv checks that every shorthand canonicalEnv takes is one
// probes.ParseShorthand accepts and writes back unchanged, which quickTool
// relies on.
func TestCanonicalEnv(t *testing.T) {
	for _, s := range []string{"env:A", "env:_", "env:a_1", "env:GATE_BENCH_9999", "env:A,B", "env: A", "env:1A", "env:",
		"env:A ", "ENV:A", "env:A-B", "env:é", "tcp:localhost:1", "env:A\n", "env::A", "env:A:B"} {
		checkCanonicalEnv(t, s)
	}
}

func checkCanonicalEnv(t testing.TB, s string) {
	if !canonicalEnv(s) {
		return
	}
	sh, err := probes.ParseShorthand(s)
	require.NoError(t, err, s)
	require.Equal(t, s, sh.String())
}

// FuzzCanonicalEnv is TestCanonicalEnv on any string.
func FuzzCanonicalEnv(f *testing.F) {
	for _, s := range []string{"env:A", "env:a_1", "env:A,B", "env:1", "tcp:x:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		defer checkNoBugs(t)
		checkCanonicalEnv(t, s)
	})
}
