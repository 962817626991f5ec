package manifest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSecretNames(t *testing.T) {
	for _, tc := range []struct {
		in    string
		names []string
		err   string
	}{
		{in: "", names: nil},
		{in: "plain $HOME ${HOME} $ { } ${secret}", names: nil},
		{in: "${secret:A}", names: []string{"A"}},
		{in: "Bearer ${secret:TOKEN}", names: []string{"TOKEN"}},
		{in: "${secret:A}-${secret:_b9}${secret:A}", names: []string{"A", "_b9", "A"}},
		{in: "${secret:A", err: `bad placeholder "${secret:A": not closed with }`},
		{in: "${secret:}", err: `bad placeholder "${secret:}": NAME must be`},
		{in: "${secret:9A}", err: `bad placeholder "${secret:9A}"`},
		{in: "${secret:A-B}", err: `bad placeholder "${secret:A-B}"`},
		{in: "${secret:A} ${secret:" + strings.Repeat("x", 100), err: `bad placeholder "${secret:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."`},
		{in: strings.Repeat("${secret:A}", maxSecretRefs), names: strings.Split(strings.Repeat("A ", maxSecretRefs-1)+"A", " ")},
		{in: strings.Repeat("${secret:A}", maxSecretRefs+1), err: "more than 16"},
	} {
		names, err := SecretNames(tc.in)
		if tc.err != "" {
			require.Error(t, err, tc.in)
			assert.Contains(t, err.Error(), tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.names, names, tc.in)
	}
}

func TestExpandSecrets(t *testing.T) {
	env := map[string]string{"TOKEN": "t0k3n", "EMPTY": "", "NESTED": "${secret:TOKEN}"}
	lookup := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	for _, tc := range []struct{ in, out, err string }{
		{in: "Bearer ${secret:TOKEN}", out: "Bearer t0k3n"},
		{in: "${secret:TOKEN}${secret:EMPTY}|${secret:TOKEN}", out: "t0k3n|t0k3n"},
		{in: "$HOME ${HOME}", out: "$HOME ${HOME}"},
		// A value is never expanded twice: a secret may hold the text of a
		// placeholder.
		{in: "${secret:NESTED}", out: "${secret:TOKEN}"},
		{in: "${secret:MISSING} ${secret:TOKEN}", err: "secret MISSING is not set"},
		{in: "${secret:TOKEN} ${secret:", err: `bad placeholder "${secret:": not closed with }; want ${secret:NAME}`},
	} {
		out, err := ExpandSecrets(tc.in, lookup)
		if tc.err != "" {
			require.EqualError(t, err, tc.err, tc.in)
			assert.NotContains(t, err.Error(), "t0k3n")
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.out, out, tc.in)
	}
}

// FuzzSecretNames: the placeholder parser never panics; what it accepts
// expands to the text with each placeholder replaced, and a value with
// none is kept as it is; what it refuses, ExpandSecrets refuses too.
func FuzzSecretNames(f *testing.F) {
	for _, s := range []string{"", "${secret:A}", "x${secret:A}y${secret:B_2}", "${secret:", "${secret:}", "${secret:A", "${secret:${secret:A}}", "$${secret:A}}", "${SECRET:A}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		names, err := SecretNames(s)
		out, xerr := ExpandSecrets(s, func(n string) (string, bool) { return "<" + n + ">", true })
		if err != nil {
			require.Error(t, xerr)
			return
		}
		require.NoError(t, xerr)
		want := s
		for _, n := range names {
			want = strings.Replace(want, secretOpen+n+"}", "<"+n+">", 1)
		}
		require.Equal(t, want, out)
		if len(names) == 0 {
			require.Equal(t, s, out)
		}
	})
}
