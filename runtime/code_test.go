package runtime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/golden"
	"github.com/gate-dev/gate/internal/host"
)

// TestCodeTable checks that the set of codes is complete and closed:
// every code has a meaning and an action, no code is listed twice, every
// failure the host records and every ErrorKind has exactly one code, and
// a string outside the set has no action and is not retryable.
func TestCodeTable(t *testing.T) {
	seen := map[Code]bool{}
	for _, r := range codeTable {
		t.Run(string(r.code), func(t *testing.T) {
			assert.False(t, seen[r.code], "listed twice")
			seen[r.code] = true
			assert.Regexp(t, `^[a-z][a-z_]*[a-z]$`, string(r.code), "a code is a lower-case word or words joined by _")
			assert.NotEmpty(t, r.meaning)
			assert.NotContains(t, r.meaning, "\n", "the meaning is one line")
			assert.NotContains(t, r.meaning, "|", "the meaning goes in a Markdown table")
			assert.True(t, strings.HasSuffix(r.action, "."), "the action is a sentence: %q", r.action)
			assert.NotContains(t, r.action, "|", "the action goes in a Markdown table")
			assert.Equal(t, r.retryable, r.code.Retryable())
			assert.Equal(t, r.action, r.code.Action())
			assert.Equal(t, r.meaning, r.code.Meaning())
		})
	}
	assert.Equal(t, len(codeTable), len(Codes()))
	assert.Equal(t, CodeEnvMissing, Codes()[0])

	for f := host.FailNone + 1; f < host.FailuresEnd; f++ {
		n := 0
		for _, r := range codeTable {
			if r.failure == f {
				n++
			}
		}
		assert.Equal(t, 1, n, "host failure %d has %d codes", f, n)
		assert.NotEqual(t, CodeUnavailable, codeOfFailure(f), "host failure %d", f)
	}
	assert.Equal(t, CodeUnavailable, codeOfFailure(host.FailNone))

	for k := KindTrap; k <= KindStatus; k++ {
		n := 0
		for _, r := range codeTable {
			for _, rk := range r.kinds {
				if rk == k {
					n++
				}
			}
		}
		assert.Equal(t, 1, n, "error kind %v has %d codes", k, n)
	}

	for _, c := range []Code{"", "no_such_code"} {
		assert.False(t, c.Retryable(), "%q", c)
		assert.Empty(t, c.Action(), "%q", c)
		assert.Empty(t, c.Meaning(), "%q", c)
	}
}

// codesDoc is the page that documents the set, and the markers around
// its generated table.
var (
	codesDoc   = filepath.Join("..", "docs", "CODES.md")
	codesBegin = "<!-- codes: begin (generated from runtime/code.go by TestCodesDoc) -->\n"
	codesEnd   = "<!-- codes: end -->\n"
)

// codesTable renders the set as docs/CODES.md shows it.
func codesTable() string {
	var b strings.Builder
	b.WriteString("| code | retryable | meaning | action |\n|---|---|---|---|\n")
	for _, r := range codeTable {
		retry := "no"
		if r.retryable {
			retry = "yes"
		}
		b.WriteString("| `" + string(r.code) + "` | " + retry + " | " + r.meaning + " | " + r.action + " |\n")
	}
	return b.String()
}

// TestCodesDoc keeps docs/CODES.md's table the same as the code table;
// -update rewrites it.
func TestCodesDoc(t *testing.T) {
	page, err := os.ReadFile(codesDoc)
	require.NoError(t, err)
	before, rest, ok := strings.Cut(string(page), codesBegin)
	require.True(t, ok, "%s has no line %q", codesDoc, codesBegin)
	_, after, ok := strings.Cut(rest, codesEnd)
	require.True(t, ok, "%s has no line %q after the begin marker", codesDoc, codesEnd)
	want := before + codesBegin + codesTable() + codesEnd + after
	if golden.Update() {
		require.NoError(t, os.WriteFile(codesDoc, []byte(want), 0o644))
		return
	}
	assert.Equal(t, want, string(page), "%s's table differs from runtime/code.go: go test ./runtime -run TestCodesDoc -update", codesDoc)
}
