package probes

import (
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzShorthandPairs: ParseShorthandPairs is ParseShorthand with the config
// as a sorted list of keys and values instead of a map: the same error, the
// same kind and grants, the same config.
func FuzzShorthandPairs(f *testing.F) {
	for _, s := range []string{
		"env:A", "env:B,A,A", "env:", "env:,", "tcp:localhost:5432", "tcp:unix:/run/x.sock",
		"import:py:x,bin:y", "https://h/v1/x bearer=K status=200", "redis:h:6379 password=P",
		"postgres:h:5432 user=app", "docker:", "docker: timeout_ms=50", "tls:h:443 days=14",
		"mcp:http://127.0.0.1:8080/mcp bearer=T", "nope:x", "env:1A",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, wantErr := ParseShorthand(s)
		got, pairs, err := ParseShorthandPairs(s)
		if wantErr != nil {
			require.EqualError(t, err, wantErr.Error())
			require.Zero(t, got)
			require.Nil(t, pairs)
			return
		}
		require.NoError(t, err)
		require.Nil(t, got.Config)
		keys := slices.Sorted(maps.Keys(want.Config))
		var wantPairs []string
		for _, k := range keys {
			wantPairs = append(wantPairs, k, want.Config[k])
		}
		require.Equal(t, wantPairs, pairs)
		want.Config = nil
		require.Equal(t, want, got)
	})
}
