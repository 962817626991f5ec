package probetest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/probes"
	"github.com/gate-dev/gate/probes/probetest"
	"github.com/gate-dev/gate/runtime"
)

func standard(t *testing.T, k probes.Kind) []byte {
	b, ok := probes.Wasm(k)
	require.True(t, ok)
	return b
}

func hostile(t *testing.T, name string) []byte {
	b, err := os.ReadFile(filepath.Join("..", "..", "runtime", "testdata", "hostile", name+".wasm"))
	require.NoError(t, err)
	return b
}

// The standard env probe conforms, in the situations it is made for.
func TestStandardEnvProbeConforms(t *testing.T) {
	probetest.Test(t, standard(t, probes.Env), probetest.Options{
		Grants: hostfuncs.Grants{Env: []string{"API_KEY", "OTHER"}},
		Config: map[string]string{"vars": "API_KEY,OTHER"},
		Cases: []probetest.Case{
			{Name: "both set", Env: map[string]string{"API_KEY": "k", "OTHER": "o"}, Want: runtime.Available},
			{Name: "one empty", Env: map[string]string{"API_KEY": "", "OTHER": "o"}, Want: runtime.Unavailable},
			{Name: "none set", Want: runtime.Unavailable},
		},
	})
}

func TestStandardImportProbeConforms(t *testing.T) {
	probetest.Test(t, standard(t, probes.Import), probetest.Options{
		Grants: hostfuncs.Grants{Import: []string{"bin:*"}},
		Cases: []probetest.Case{
			{Name: "sh", Config: map[string]string{"specs": "bin:sh"}, Want: runtime.Available},
			{Name: "missing", Config: map[string]string{"specs": "bin:no-such-binary-xyz"}, Want: runtime.Unavailable},
		},
	})
}

// Check reports every broken rule at once, each naming its case.
func TestCheckReportsEveryViolation(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		wasm   []byte
		opts   probetest.Options
		want   []string // each Violation.Error(), in order
		budget time.Duration
	}{
		{
			name: "wrong outcome, denial and no reason",
			wasm: standard(t, probes.Env),
			opts: probetest.Options{
				Config: map[string]string{"vars": "API_KEY"},
				Cases:  []probetest.Case{{Name: "ungranted", Env: map[string]string{"API_KEY": "k"}, Want: runtime.Available}},
			},
			want: []string{
				`case "ungranted": answers unavailable ("Missing environment variables: API_KEY"), want available`,
				`case "ungranted": env "API_KEY" not granted to probe "probe" (add it to the grants if the probe needs it)`,
			},
		},
		{
			name: "static rules",
			wasm: hostile(t, "unknown_import"),
			want: []string{
				"imports gate.exec, which the probe ABI does not have (it has env, dial, import, config, reason, log, connect, send, recv, close, http, http_status, http_header, http_body, tls, last_error)",
				`imports func "env"."system": probes may import only from "gate" and "wasi_snapshot_preview1"`,
			},
		},
		{
			name: "overrun",
			wasm: hostile(t, "loop_probe"),
			opts: probetest.Options{Budget: 10 * time.Millisecond},
			want: []string{`case "default": probe "probe" ran past its 10ms budget in probe`},
		},
		{
			name: "status",
			wasm: hostile(t, "bad_status"),
			want: []string{`case "default": probe "probe" returned 7 (want 0 available or 1 unavailable)`},
		},
		{
			name: "state kept between runs",
			wasm: hostile(t, "stateful"),
			want: []string{`case "default": answers unavailable ("seen before") on a reused instance but available ("") on a fresh one`},
		},
		{
			name: "not wasm",
			wasm: hostile(t, "notwasm"),
			want: []string{"not a WebAssembly module: wasm: "},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := probetest.Check(ctx, tt.wasm, tt.opts)
			require.Len(t, got, len(tt.want), "%v", got)
			for i, w := range tt.want {
				assert.Contains(t, got[i].Error(), w)
			}
		})
	}
}
