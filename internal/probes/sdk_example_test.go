package probes

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
)

// TestSDKExample builds sdk/example with the Go toolchain, as a probe
// author would, and runs it against the fake gate: this checks the Go SDK's
// imports, buffers and status mapping end to end. It takes a few seconds
// (building, then compiling ~2 MB of wasm).
func TestSDKExample(t *testing.T) {
	out := filepath.Join(t.TempDir(), "example.wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-o", out, "../../probes/sdk/example")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	output, err := cmd.CombinedOutput()
	require.NoError(t, err, "GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared ./probes/sdk/example:\n%s", output)
	wasm, err := os.ReadFile(out)
	require.NoError(t, err)

	r := newFakeHost(t)
	compiled, err := r.CompileModule(context.Background(), wasm)
	require.NoError(t, err)

	up := testnet.Listen(t, "tcp", "127.0.0.1:0").Addr().String()
	down := testnet.ClosedAddr(t)

	// Longer than the SDK's first 256-byte buffer, so Env must ask again.
	token := strings.Repeat("t", 5000)
	for _, tc := range []struct {
		name       string
		gate       *fakeGate
		wantResult int32
		wantReason string // "" means no reason
		wantLog    string // "" means don't check
	}{
		{"available", &fakeGate{env: map[string]string{"TOKEN": token}, config: map[string]string{"var": "TOKEN", "addr": up}},
			0, "", "0 TOKEN is set (5000 bytes)"},
		{"var not set", &fakeGate{config: map[string]string{"var": "TOKEN", "addr": up}},
			1, "TOKEN is not set", ""},
		{"var empty", &fakeGate{env: map[string]string{"TOKEN": ""}, config: map[string]string{"var": "TOKEN", "addr": up}},
			1, "TOKEN is not set", ""},
		{"var denied: the host explains", &fakeGate{deniedEnv: map[string]bool{"TOKEN": true}, config: map[string]string{"var": "TOKEN", "addr": up}},
			1, "", ""},
		{"refused", &fakeGate{env: map[string]string{"TOKEN": "x"}, config: map[string]string{"var": "TOKEN", "addr": down}},
			1, down + ": connection refused", ""},
		{"timed out", &fakeGate{env: map[string]string{"TOKEN": "x"}, dial: map[string]int32{"db:1": -4}, config: map[string]string{"var": "TOKEN", "addr": "db:1"}},
			1, "db:1: timed out", ""},
		{"unknown status", &fakeGate{env: map[string]string{"TOKEN": "x"}, dial: map[string]int32{"db:1": -42}, config: map[string]string{"var": "TOKEN", "addr": "db:1"}},
			1, "db:1: status -42", ""},
		{"dial denied", &fakeGate{env: map[string]string{"TOKEN": "x"}, config: map[string]string{"var": "TOKEN", "addr": "192.0.2.1:80"}},
			1, "", ""},
		{"no config", &fakeGate{}, 2, `example probe: config "var" is not set`, ""},
		{"bad timeout", &fakeGate{config: map[string]string{"var": "TOKEN", "addr": up, "timeout": "soon"}},
			2, `example probe: config "timeout": time: invalid duration "soon"`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, r, compiled, tc.gate, "_initialize")
			assert.Equal(t, tc.wantResult, got.result, "result (reason %q)", got.reason)
			if tc.wantReason == "" {
				assert.False(t, got.reasonSet, "reason %q set", got.reason)
			} else {
				assert.Equal(t, tc.wantReason, got.reason)
			}
			if tc.wantLog != "" {
				assert.Contains(t, got.logs, tc.wantLog)
			}
		})
	}
	// The dial's timeout from config "timeout" arrives in milliseconds.
	g := &fakeGate{env: map[string]string{"TOKEN": "x"}, dial: map[string]int32{"db:1": 0}, config: map[string]string{"var": "TOKEN", "addr": "db:1", "timeout": "1500us"}}
	require.Equal(t, int32(0), run(t, r, compiled, g, "_initialize").result)
	assert.Equal(t, []dialCall{{"db:1", 2}}, g.dialCalls, "1.5ms rounds up to 2ms")
}
