package probes

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
)

// probeCase is one run of a standard probe against the fake gate.
type probeCase struct {
	name       string
	gate       *fakeGate
	wantResult int32
	wantReason string // "" means the probe must set no reason
}

// runCases runs every case against a fresh instance of probe k.
func runCases(t *testing.T, k Kind, cases []probeCase) {
	r := newFakeHost(t)
	compiled := compile(t, r, k)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, r, compiled, tc.gate)
			assert.Equal(t, tc.wantResult, got.result, "result (reason %q)", got.reason)
			if tc.wantReason == "" {
				assert.False(t, got.reasonSet, "reason %q set", got.reason)
			} else {
				assert.Equal(t, tc.wantReason, got.reason)
			}
		})
	}
}

// names returns n distinct variable names of ten characters each.
func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "VAR_" + strings.Repeat("0", 6-len(strconv.Itoa(i))) + strconv.Itoa(i)
	}
	return out
}

func TestEnvProbe(t *testing.T) {
	set := map[string]string{"A": "1", "B": "two", "EMPTY": "", "LONG": strings.Repeat("x", 10000)}
	long := strings.Repeat("V", 4096)
	runCases(t, Env, []probeCase{
		{"all set", &fakeGate{env: set, config: map[string]string{"vars": "A,B,LONG"}}, 0, ""},
		{"one missing", &fakeGate{env: set, config: map[string]string{"vars": "A,MISSING"}}, 1,
			"Missing environment variables: MISSING"},
		{"missing, empty and denied, in order, any separators",
			&fakeGate{env: set, deniedEnv: map[string]bool{"B": true},
				config: map[string]string{"vars": " X ,A\tEMPTY\n\nB,,Y "}}, 1,
			"Missing environment variables: X, EMPTY, B, Y"},
		{"vars not set", &fakeGate{}, 2, `env probe: config "vars" names no variables`},
		{"vars only separators", &fakeGate{config: map[string]string{"vars": " ,\t, "}}, 2,
			`env probe: config "vars" names no variables`},
		{"vars at the limit", &fakeGate{config: map[string]string{"vars": long}}, 1,
			// Cut to leave 24 bytes for ", and N more" after the "...".
			"Missing environment variables: " + long[:1024-len("Missing environment variables: ")-len("...")-24] + "..."},
		{"vars too long", &fakeGate{config: map[string]string{"vars": long + "V"}}, 2,
			`env probe: config "vars" is too long (4097 bytes; the limit is 4096)`},
	})
}

// TestEnvProbeQueriesLengthOnly checks that the env probe asks only for
// lengths (buf_cap 0): it never needs a value, so it never copies one.
func TestEnvProbeQueriesLengthOnly(t *testing.T) {
	r := newFakeHost(t)
	g := &fakeGate{env: map[string]string{"A": "secret"}, config: map[string]string{"vars": "A,B"}}
	got := run(t, r, compile(t, r, Env), g)
	require.Equal(t, int32(1), got.result)
	assert.Equal(t, []uint32{0, 0}, g.envCaps)
}

// TestEnvProbeCutsLongReasons checks the polite cut: the reason fits in
// what the host keeps, lists names in order and counts the rest.
func TestEnvProbeCutsLongReasons(t *testing.T) {
	all := names(300) // 300 * 10 bytes + separators: well over 1 KiB
	r := newFakeHost(t)
	got := run(t, r, compile(t, r, Env), &fakeGate{config: map[string]string{"vars": strings.Join(all, ",")}})
	require.Equal(t, int32(1), got.result)
	assert.LessOrEqual(t, len(got.reason), 1024)
	rest, ok := strings.CutPrefix(got.reason, "Missing environment variables: ")
	require.True(t, ok, got.reason)
	list, more, ok := strings.Cut(rest, ", and ")
	require.True(t, ok, got.reason)
	shown := strings.Split(list, ", ")
	assert.Equal(t, all[:len(shown)], shown)
	assert.Equal(t, strconv.Itoa(len(all)-len(shown))+" more", more)
}

func TestImportProbe(t *testing.T) {
	imports := map[string]int32{"bin:docker": 0, "py:psycopg2": 0, "bin:kubectl": -2, "nix:hello": -6}
	runCases(t, Import, []probeCase{
		{"all importable", &fakeGate{imports: imports, config: map[string]string{"specs": "bin:docker, py:psycopg2"}}, 0, ""},
		{"missing, denied and unknown scheme, in order",
			&fakeGate{imports: imports, config: map[string]string{"specs": "py:missing bin:docker,nix:hello\nbin:kubectl"}}, 1,
			"Missing imports: py:missing, nix:hello (unknown scheme), bin:kubectl"},
		{"specs not set", &fakeGate{}, 2, `import probe: config "specs" names no imports`},
		{"specs empty", &fakeGate{config: map[string]string{"specs": ""}}, 2, `import probe: config "specs" names no imports`},
		{"specs too long", &fakeGate{config: map[string]string{"specs": strings.Repeat("a", 5000)}}, 2,
			`import probe: config "specs" is too long (5000 bytes; the limit is 4096)`},
		{"a long unknown scheme first", &fakeGate{imports: map[string]int32{"x:" + strings.Repeat("y", 2000): -6},
			config: map[string]string{"specs": "x:" + strings.Repeat("y", 2000) + ",bin:nope"}}, 1,
			"Missing imports: x:" + strings.Repeat("y", 1024-len("Missing imports: x:")-len("... (unknown scheme)")-24) + "... (unknown scheme), and 1 more"},
	})
}

func TestTCPProbe(t *testing.T) {
	up := testnet.Listen(t, "tcp", "127.0.0.1:0").Addr().String()
	down := testnet.ClosedAddr(t)
	sock := filepath.Join(t.TempDir(), "s.sock")
	testnet.Listen(t, "unix", sock)

	cfg := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	scripted := map[string]int32{"db:5432": -4, "nowhere:1": -5, "bad": -6, "denied:1": -2, "future:1": -9, "odd:1": 7}
	longAddr := strings.Repeat("h", 4000) + ":1"
	runCases(t, TCP, []probeCase{
		{"connects", &fakeGate{config: cfg("addr", up)}, 0, ""},
		{"connects over a unix socket", &fakeGate{config: cfg("addr", "unix:"+sock)}, 0, ""},
		{"refused", &fakeGate{config: cfg("addr", down)}, 1, down + ": connection refused"},
		{"timed out", &fakeGate{dial: scripted, config: cfg("addr", "db:5432")}, 1, "db:5432: timed out"},
		{"unreachable", &fakeGate{dial: scripted, config: cfg("addr", "nowhere:1")}, 1, "nowhere:1: unreachable or name not resolved"},
		{"bad address", &fakeGate{dial: scripted, config: cfg("addr", "bad")}, 1, "bad: bad address"},
		{"denied: the host has the reason", &fakeGate{dial: scripted, config: cfg("addr", "denied:1")}, 1, ""},
		{"unknown negative status", &fakeGate{dial: scripted, config: cfg("addr", "future:1")}, 1, "future:1: dial failed (status -9)"},
		{"unknown positive status", &fakeGate{dial: scripted, config: cfg("addr", "odd:1")}, 1, "odd:1: dial failed (status 7)"},
		{"long address is cut", &fakeGate{dial: map[string]int32{longAddr: -3}, config: cfg("addr", longAddr)}, 1,
			longAddr[:1024-43] + "...: connection refused"},
		{"addr not set", &fakeGate{}, 2, `tcp probe: config "addr" is not set`},
		{"addr empty", &fakeGate{config: cfg("addr", "")}, 2, `tcp probe: config "addr" is not set`},
		{"addr too long", &fakeGate{config: cfg("addr", strings.Repeat("h", 4097))}, 2,
			`tcp probe: config "addr" is too long (4097 bytes; the limit is 4096)`},
		{"timeout not a number", &fakeGate{config: cfg("addr", up, "timeout_ms", "abc")}, 2,
			`tcp probe: config "timeout_ms" must be a whole number of milliseconds (0 to 2147483647), not "abc"`},
		{"timeout negative", &fakeGate{config: cfg("addr", up, "timeout_ms", "-5")}, 2,
			`tcp probe: config "timeout_ms" must be a whole number of milliseconds (0 to 2147483647), not "-5"`},
		{"timeout empty", &fakeGate{config: cfg("addr", up, "timeout_ms", "")}, 2,
			`tcp probe: config "timeout_ms" must be a whole number of milliseconds (0 to 2147483647), not ""`},
		{"timeout overflows", &fakeGate{config: cfg("addr", up, "timeout_ms", "2147483648")}, 2,
			`tcp probe: config "timeout_ms" must be a whole number of milliseconds (0 to 2147483647), not "2147483648"`},
		{"timeout too long", &fakeGate{config: cfg("addr", up, "timeout_ms", "123456789012345")}, 2,
			`tcp probe: config "timeout_ms" must be a whole number of milliseconds (0 to 2147483647), not "12345678901..."`},
	})
}

// TestTCPProbeTimeout checks that timeout_ms reaches the host as a number.
func TestTCPProbeTimeout(t *testing.T) {
	r := newFakeHost(t)
	compiled := compile(t, r, TCP)
	for _, tc := range []struct {
		value string // "" means not set
		want  int32
	}{{"", 0}, {"0", 0}, {"7", 7}, {"250", 250}, {"2147483647", 2147483647}} {
		g := &fakeGate{dial: map[string]int32{"db:1": 0}, config: map[string]string{"addr": "db:1"}}
		if tc.value != "" {
			g.config["timeout_ms"] = tc.value
		}
		got := run(t, r, compiled, g)
		require.Equal(t, int32(0), got.result, "timeout_ms %q: %s", tc.value, got.reason)
		assert.Equal(t, []dialCall{{"db:1", tc.want}}, g.dialCalls, "timeout_ms %q", tc.value)
	}
}

// TestProbesAreRepeatable calls probe twice on one instance: a host that
// reuses instances must get the same answer, not a reason that grew.
func TestProbesAreRepeatable(t *testing.T) {
	r := newFakeHost(t)
	// Every target refuses; the http kinds' answers differ run to run
	// (mcp's session) only if a probe keeps state it should not.
	want := map[Kind]int32{Env: 1, TCP: 1, Import: 1, HTTP: 1, Docker: 1, MCP: 1, Memcached: 1}
	for _, k := range Kinds() {
		g := &fakeGate{config: map[string]string{"vars": "A,B", "specs": "py:a,py:b", "addr": "x:1",
			"url": "http://x:1/", "socket": "/x.sock"}, dial: map[string]int32{"x:1": -3}}
		ctx := withGate(g)
		mod, err := r.InstantiateModule(ctx, compile(t, r, k), moduleConfig())
		require.NoError(t, err)
		var results []uint64
		var reasons []string
		for range 2 {
			res, err := mod.ExportedFunction("probe").Call(ctx)
			require.NoError(t, err)
			results = append(results, res[0])
			reasons = append(reasons, g.reason)
		}
		if w, ok := want[k]; ok {
			assert.Equal(t, uint64(w), results[0], k)
		}
		assert.Equal(t, results[0], results[1], k)
		assert.Equal(t, reasons[0], reasons[1], k)
		require.NoError(t, mod.Close(ctx))
	}
}
