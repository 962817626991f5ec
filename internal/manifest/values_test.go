package manifest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		err  string // a part of the error; "" for none
	}{
		{"0", 0, ""},
		{"65536", 65536, ""},
		{"512B", 512, ""},
		{"64KiB", 64 << 10, ""},
		{"32MiB", 32 << 20, ""},
		{"4GiB", 4 << 30, ""},
		{" 32 MiB ", 32 << 20, ""},
		{"17179869183GiB", 17179869183 << 30, ""},
		{"", 0, "want a whole number of bytes"},
		{"MiB", 0, "want a whole number of bytes"},
		{"-1", 0, "want a whole number of bytes"},
		{"+1", 0, "want a whole number of bytes"},
		{"32MB", 0, `"MB" is ambiguous; write "32MiB"`},
		{"32mb", 0, `"mb" is ambiguous; write "32MiB"`},
		{"64K", 0, `"K" is ambiguous; write "64KiB"`},
		{"1G", 0, `write "1GiB"`},
		{"32mib", 0, `units are case-sensitive; write "32MiB"`},
		{"32b", 0, `units are case-sensitive; write "32B"`},
		{"1TiB", 0, `unknown unit "TiB"`},
		{"1.5GiB", 0, `want a whole number (write "1536MiB")`},
		{"0.5MiB", 0, `(write "512KiB")`},
		{"1.0001KiB", 0, "want a whole number"},
		{"1.5", 0, "want a whole number"},
		{"1,5MiB", 0, `unknown unit ",5MiB"`},
		{"18446744073709551616", 0, "too large"},
		{"17179869184GiB1", 0, "unknown unit"},
		{"17179869184GiB", 0, "too large"},
		{"1_000", 0, "unknown unit"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseSize(tc.in)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				assert.Contains(t, err.Error(), fmt.Sprintf("%q", tc.in), "the message quotes the input")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[uint64]string{0: "0B", 1: "1B", 1023: "1023B", 1024: "1KiB", 1536: "1536B", 32 << 20: "32MiB", 5 << 30: "5GiB", 1<<30 + 1<<20: "1025MiB"} {
		assert.Equal(t, want, formatSize(n), "%d", n)
	}
}

func TestParseEnforcement(t *testing.T) {
	for in, want := range map[string]string{
		"disabled": EnforcementDisabled, "off": EnforcementDisabled, "OFF": EnforcementDisabled,
		"telemetry": EnforcementTelemetry, "log": EnforcementTelemetry, " Log\t": EnforcementTelemetry,
		"warn": EnforcementWarn, "warning": EnforcementWarn, "Warning": EnforcementWarn,
		"strict": EnforcementStrict, "hard": EnforcementStrict, "fail": EnforcementStrict, "STRICT ": EnforcementStrict,
	} {
		got, err := ParseEnforcement(in)
		require.NoError(t, err, "%q", in)
		assert.Equal(t, want, got, "%q", in)
	}
	for _, in := range []string{"", "loud", "warnings", "on", "true", "strictly", "dis abled"} {
		_, err := ParseEnforcement(in)
		require.Error(t, err, "%q", in)
		assert.Contains(t, err.Error(), "(accepted: disabled, off, telemetry, log, warn, warning, strict, hard, fail)")
	}
}

func TestNames(t *testing.T) {
	long := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a'
		}
		return string(b)
	}
	for _, tc := range []struct {
		name         string
		tool, server bool
	}{
		{"search_web", true, true},
		{"Search-Web-2", true, true},
		{"a", true, true},
		{"_", true, true},
		{long(64), true, true},
		{long(65), false, true},
		{long(128), false, true},
		{long(129), false, false},
		{"", false, false},
		{"mcp:filesystem", false, true},
		{"@acme/search.v2", false, true},
		{"search web", false, false},
		{"café", false, false},
		{"tab\t", false, false},
		{"new\nline", false, false},
		{"semi;colon", false, false},
	} {
		assert.Equal(t, tc.tool, checkToolName(tc.name) == nil, "tool %q", tc.name)
		assert.Equal(t, tc.server, checkServerName(tc.name) == nil, "server %q", tc.name)
	}
}

func TestDurations(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"30s", 30 * time.Second, true},
		{"0", 0, true},
		{"0s", 0, true},
		{"1m30s", 90 * time.Second, true},
		{"100ms", 100 * time.Millisecond, true},
		{"1.5s", 1500 * time.Millisecond, true},
		{"250us", 250 * time.Microsecond, true},
		{"250µs", 250 * time.Microsecond, true},
		{" 5s ", 5 * time.Second, true},
		{"-5s", -5 * time.Second, true}, // parsed; ttl and grace then refuse it
		{"30", 0, false},
		{"30 s", 0, false},
		{"30 seconds", 0, false},
		{"1d", 0, false},
		{"", 0, false},
	} {
		got, err := parseDuration(tc.in)
		if !tc.ok {
			require.Error(t, err, "%q", tc.in)
			assert.Contains(t, err.Error(), `like "30s"`)
			continue
		}
		require.NoError(t, err, "%q", tc.in)
		assert.Equal(t, tc.want, got, "%q", tc.in)
	}
}

func TestCheckBudget(t *testing.T) {
	for d, ok := range map[time.Duration]bool{
		time.Nanosecond: true, 50 * time.Millisecond: true, 100 * time.Millisecond: true,
		0: false, -time.Millisecond: false, 100*time.Millisecond + 1: false, time.Second: false,
	} {
		assert.Equal(t, ok, checkBudget(d) == nil, "%v", d)
	}
}

func TestRuntimeBudgetBoundsProbeBudget(t *testing.T) {
	src := `
[runtime]
budget = "40ms"
[[tools]]
name = "equal"
probe = { module = "a.wasm", budget = "40ms" }
[[tools]]
name = "over"
probe = { module = "b.wasm", budget = "41ms" }
`
	_, err := Parse("gate.toml", []byte(src))
	var errs Errors
	require.ErrorAs(t, err, &errs)
	require.Len(t, errs, 1)
	assert.Equal(t, "tools[1].probe.budget", errs[0].Key)

	// An invalid runtime budget does not bound anything: it is reported
	// once, where it is wrong.
	_, err = Parse("gate.toml", []byte(`
[runtime]
budget = "1s"
[[tools]]
name = "t"
probe = { module = "b.wasm", budget = "50ms" }
`))
	require.ErrorAs(t, err, &errs)
	require.Len(t, errs, 1)
	assert.Equal(t, "runtime.budget", errs[0].Key)
}

func TestRuntimeMemory(t *testing.T) {
	for _, tc := range []struct {
		in   string // the TOML value
		want uint64
		err  string
	}{
		{`65536`, 65536, ""},
		{`"64 KiB"`, 64 << 10, ""},
		{`4294967296`, 4 << 30, ""},
		{`"4GiB"`, 4 << 30, ""},
		{`65535`, 0, "memory 65535B: want at least 64KiB"},
		{`"0"`, 0, "memory 0B: want at least 64KiB"},
		{`4294967297`, 0, "memory 4294967297B: want at most 4GiB"},
		{`5368709120`, 0, "memory 5GiB: want at most 4GiB"},
		{`-1`, 0, "memory -1: want a size from 64KiB to 4GiB"},
		{`true`, 0, `want a size like "32MiB" or a number of bytes, got boolean true`},
		{`32.0`, 0, `want a size like "32MiB" or a number of bytes, got float 32.0`},
		{`"32 MB"`, 0, `bad size "32 MB": "MB" is ambiguous`},
	} {
		m, err := Parse("gate.toml", []byte("[runtime]\nmemory = "+tc.in+"\n"))
		if tc.err != "" {
			require.Error(t, err, tc.in)
			assert.Contains(t, err.Error(), "gate.toml:2:10: runtime.memory: "+tc.err)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, *m.Runtime.Memory, tc.in)
	}
}

func TestRuntimeConcurrency(t *testing.T) {
	m, err := Parse("gate.toml", []byte("[runtime]\nconcurrency = 1\n"))
	require.NoError(t, err)
	assert.Equal(t, 1, m.Runtime.Concurrency)
	for in, msg := range map[string]string{
		"0":          "concurrency 0: want at least 1",
		"-3":         "concurrency -3: want at least 1",
		"2147483648": "concurrency 2147483648: want at most 2147483647",
		"1.5":        "want an integer, got float 1.5",
	} {
		_, err := Parse("gate.toml", []byte("[runtime]\nconcurrency = "+in+"\n"))
		assert.EqualError(t, err, "gate.toml:2:15: runtime.concurrency: "+msg)
	}
}

// TestNamesAsTheirRegexps checks the name checks against the regular
// expressions they replace (and the documentation states).
func TestNamesAsTheirRegexps(t *testing.T) {
	toolRE := regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	serverRE := regexp.MustCompile(`^[A-Za-z0-9_.:/@-]{1,128}$`)
	names := []string{
		"", "a", "Z9", "a_b-c", "a.b", "a b", "a\n", "\na", "é", "aé", "x:y/@z", "@org/server", "mcp:fs",
		"a\x00", "[x]", "a+b", "ü", strings.Repeat("a", 64), strings.Repeat("a", 65),
		strings.Repeat("b", 128), strings.Repeat("b", 129), strings.Repeat("é", 32),
	}
	for i := range 256 {
		names = append(names, "x"+string(rune(i)), string([]byte{byte(i)}))
	}
	for _, n := range names {
		assert.Equal(t, toolRE.MatchString(n), checkToolName(n) == nil, "tool %q", n)
		assert.Equal(t, serverRE.MatchString(n), checkServerName(n) == nil, "server %q", n)
	}
}
