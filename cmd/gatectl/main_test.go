package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/golden"
)

// gatectl runs the command in-process with a private compilation cache.
func gatectl(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func hostile(name string) string {
	return filepath.Join("..", "..", "runtime", "testdata", "hostile", name+".wasm")
}

func TestProbeRun(t *testing.T) {
	t.Setenv("GATECTL_TEST_KEY", "k")
	open, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer open.Close()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closedAddr := closed.Addr().String()
	closed.Close()

	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // a regexp over stdout
		stderr string // a substring of stderr
	}{
		{"env set", []string{"probe", "run", "env:GATECTL_TEST_KEY"}, exitOK,
			`^env:GATECTL_TEST_KEY: available \([0-9.]+(µs|ms), reused instance\)\n$`, ""},
		{"env set, fresh", []string{"probe", "run", "--fresh", "env:GATECTL_TEST_KEY"}, exitOK,
			`^env:GATECTL_TEST_KEY: available \([0-9.]+(µs|ms), fresh instance\)\n$`, ""},
		{"env unset", []string{"probe", "run", "env:GATECTL_TEST_UNSET"}, exitUnavailable,
			`^env:GATECTL_TEST_UNSET: unavailable: Missing environment variables: GATECTL_TEST_UNSET \(`, ""},
		{"tcp open", []string{"probe", "run", "tcp:" + open.Addr().String()}, exitOK, `: available \(`, ""},
		{"tcp closed", []string{"probe", "run", "tcp:" + closedAddr}, exitUnavailable,
			regexp.QuoteMeta(closedAddr + ": connection refused"), ""},
		{"import", []string{"probe", "run", "import:bin:sh"}, exitOK, `available`, ""},
		{"module with grants from flags", []string{"probe", "run", hostile("ask"), "--config", "op=env", "--config", "arg=GATECTL_TEST_KEY", "--env", "GATECTL_TEST_KEY"},
			exitOK, `available`, ""},
		{"module denied", []string{"probe", "run", "--name", "asker", hostile("ask"), "--config", "op=env", "--config", "arg=GATECTL_TEST_KEY"},
			exitUnavailable, `(?s)^asker: unavailable: status -2 .*\n  denied: env "GATECTL_TEST_KEY" not granted to probe "asker"\n$`, ""},
		{"overrun", []string{"probe", "run", "--name", "spin", hostile("loop_probe")}, exitProbeError,
			`^spin: error: probe "spin" ran past its 100ms budget in probe \(`, ""},
		{"lower budget", []string{"probe", "run", "--budget", "20ms", "--name", "spin", hostile("loop_probe")}, exitProbeError,
			`ran past its 20ms budget`, ""},
		{"trap", []string{"probe", "run", "--name", "u", hostile("unreachable"), "-v"}, exitProbeError,
			`(?s)u: error: probe "u" trapped in probe: wasm error: unreachable .*  detail:\n    wasm error: unreachable\n    wasm stack trace:`, ""},

		{"no target", []string{"probe", "run"}, exitUsage, `^$`, "want one TARGET, got 0"},
		{"budget over the maximum", []string{"probe", "run", "--budget", "200ms", "env:HOME"}, exitUsage, `^$`, "budget 200ms: want more than 0 and at most 100ms"},
		{"config on a standard probe", []string{"probe", "run", "env:HOME", "--config", "a=b"}, exitUsage, `^$`, "--config does not apply to a standard probe"},
		{"bad config", []string{"probe", "run", hostile("ask"), "--config", "novalue"}, exitUsage, `^$`, `--config "novalue": want KEY=VALUE`},
		{"bad shorthand", []string{"probe", "run", "tcp:nowhere"}, exitUsage, `^$`, `tcp:nowhere`},
		{"missing file", []string{"probe", "run", "nope.wasm"}, exitUsage, `^$`, "nope.wasm"},
		{"not wasm", []string{"probe", "run", hostile("notwasm")}, exitUsage, `^$`, "notwasm.wasm: wasm: "},
		{"breaks the ABI", []string{"probe", "run", hostile("unknown_import")}, exitUsage, `^$`, "3 problems:\n  - imports gate.exec"},
		{"bad memory flag", []string{"probe", "run", "--memory", "lots", "env:HOME"}, exitUsage, `^$`, `--memory: "lots"`},
		{"unknown flag", []string{"probe", "run", "--frobnicate", "env:HOME"}, exitUsage, `^$`, "gatectl probe run: unknown flag --frobnicate"},
		{"unknown command", []string{"frob"}, exitUsage, `^$`, `unknown command "frob"`},
		{"no command", nil, exitOK, `^gatectl: decide which agent tools can run right now\n\nUsage:\n`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := gatectl(t, tt.args...)
			assert.Equal(t, tt.code, code, "stdout: %s\nstderr: %s", stdout, stderr)
			assert.Regexp(t, tt.stdout, stdout)
			assert.Contains(t, stderr, tt.stderr)
		})
	}
}

// TestProbeRunJSON pins the documented --json shape with a golden file;
// timings are masked.
func TestProbeRunJSON(t *testing.T) {
	code, stdout, _ := gatectl(t, "probe", "run", "--json", "--name", "asker", hostile("ask"),
		"--config", "op=env", "--config", "arg=GATECTL_TEST_UNSET", "--env", "GATECTL_*")
	assert.Equal(t, exitUnavailable, code)
	assertGolden(t, "probe_run.json", maskTimings(stdout))
}

func TestProbeInspect(t *testing.T) {
	code, stdout, _ := gatectl(t, "probe", "inspect", hostile("ask"))
	assert.Equal(t, exitOK, code)
	assertGolden(t, "probe_inspect.txt", stdout)

	// AssemblyScript's env.abort is part of the ABI, as any gate function.
	code, stdout, _ = gatectl(t, "probe", "inspect", hostile("abort"))
	assert.Equal(t, exitOK, code, stdout)
	assert.Contains(t, stdout, "\n  env.abort  func (i32, i32, i32, i32) -> ()\n")
	assert.Contains(t, stdout, "\nABI v1:  conforms\n")

	code, stdout, _ = gatectl(t, "probe", "inspect", "--json", hostile("unknown_import"))
	assert.Equal(t, exitUnavailable, code)
	assertGolden(t, "probe_inspect_violations.json", stdout)

	code, _, stderr := gatectl(t, "probe", "inspect", hostile("truncated"))
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "truncated.wasm: wasm: ")
}

var timing = regexp.MustCompile(`"(elapsed_ms|queued_ms|latency_ms|age_seconds)": [0-9.e+-]+`)

var checkedAt = regexp.MustCompile(`"checked_at": "[^"]+"`)

// maskTimings replaces what differs from run to run: timings and times.
func maskTimings(s string) string {
	return checkedAt.ReplaceAllString(timing.ReplaceAllString(s, `"$1": 0`), `"checked_at": "<time>"`)
}

// assertGolden compares got with testdata/name, or rewrites it with -update.
func assertGolden(t *testing.T, name, got string) {
	t.Helper()
	// The hostile modules' paths differ by OS separator; keep goldens portable.
	got = strings.ReplaceAll(got, string(filepath.Separator), "/")
	golden.Check(t, filepath.Join("testdata", name), []byte(got))
}

// readGolden returns the golden file testdata/name.
func readGolden(t *testing.T, name string) string {
	t.Helper()
	return golden.Read(t, filepath.Join("testdata", name))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}
