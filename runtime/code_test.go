package runtime

import (
	"encoding/json"
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
			assert.Equal(t, &CodeInfo{Code: r.code, Retryable: r.retryable, Action: r.action}, r.code.Info())
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
	assert.Nil(t, Code("").Info(), "an available answer has no code")
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

// TestEventJSONCode checks that an event carries its code as three fields
// when it is not available, and none when it is.
func TestEventJSONCode(t *testing.T) {
	b, err := json.Marshal(Event{Type: "tool", Name: "db", State: "unavailable", Reason: "127.0.0.1:1: connection refused", Code: CodeRefused})
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"tool","name":"db","state":"unavailable","available":false,"reason":"127.0.0.1:1: connection refused","at":"0001-01-01T00:00:00Z",
		"code":"refused","retryable":true,"action":"Start the service, or correct its address in the manifest."}`, string(b))

	var back Event
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, Event{Type: "tool", Name: "db", State: "unavailable", Reason: "127.0.0.1:1: connection refused", Code: CodeRefused,
		At: back.At}, back, "an event read back has its code")

	b, err = json.Marshal(Event{Type: "tool", Name: "db", State: "available", Available: true})
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"tool","name":"db","state":"available","available":true,"at":"0001-01-01T00:00:00Z"}`, string(b))
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, Code(""), back.Code)
	assert.Error(t, json.Unmarshal([]byte(`{"type": 1}`), &back), "a bad event is an error, not a panic")
}

// FuzzEventJSON: any bytes read as an event either fail or give an event
// that writes and reads back the same.
func FuzzEventJSON(f *testing.F) {
	f.Add([]byte(`{"type":"tool","name":"db","state":"unavailable","available":false,"at":"2026-12-02T06:00:00Z","code":"refused","retryable":true,"action":"x"}`))
	f.Add([]byte(`{"type":"reload","name":"gate.toml","state":"ok","available":true,"at":"2026-12-02T06:00:00Z","trigger":"watch"}`))
	f.Add([]byte(`{"code": 7}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var e Event
		if json.Unmarshal(b, &e) != nil {
			return
		}
		out, err := json.Marshal(e)
		if err != nil {
			return // a time json cannot write (a year past 9999)
		}
		var back Event
		require.NoError(t, json.Unmarshal(out, &back), "%s", out)
		assert.Equal(t, e.Code, back.Code)
		assert.Equal(t, e.Name, back.Name)
		assert.Equal(t, e.Reason, back.Reason)
	})
}
