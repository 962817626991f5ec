package customprobe_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/probes/probetest"
	"github.com/gate-dev/gate/runtime"
)

// built is the example's one build command, run once per test binary into
// a temporary directory, with the example's manifest beside the module.
var built = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "custom-probe")
	if err != nil {
		return "", err
	}
	buildDir = dir
	if out, err := exec.Command("sh", "build.sh", dir).CombinedOutput(); err != nil {
		return "", fmt.Errorf("sh build.sh: %v\n%s", err, out)
	}
	manifest, err := os.ReadFile("gate.toml")
	if err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "gate.toml"), manifest, 0o644)
})

func build(t *testing.T) string {
	t.Helper()
	dir, err := built()
	require.NoError(t, err)
	return dir
}

// TestCustomProbe loads the manifest with the freshly built probe and
// checks the tool's answer as the key and the service come and go. (One
// Gate: compiling a 2 MB Go probe takes seconds under the race detector.)
func TestCustomProbe(t *testing.T) {
	dir := build(t)
	var mu sync.Mutex
	env := map[string]string{}
	setEnv := func(k, v string) { mu.Lock(); env[k] = v; mu.Unlock() }
	g, err := runtime.Open(context.Background(), filepath.Join(dir, "gate.toml"), runtime.NewGateConfig().
		WithEngine(runtime.NewEngineConfig().WithLookupEnv(func(k string) (string, bool) {
			mu.Lock()
			defer mu.Unlock()
			v, ok := env[k]
			return v, ok
		})))
	require.NoError(t, err)
	defer g.Close(context.Background())
	status := func() runtime.Status {
		st, err := g.Tools().Refresh(context.Background(), "search_internal")
		require.NoError(t, err)
		return st[0]
	}

	st := status()
	assert.Equal(t, runtime.StateUnavailable, st.State)
	assert.Equal(t, "SEARCH_API_KEY is not set", st.Reason)

	setEnv("SEARCH_API_KEY", "hunter2")
	assert.Equal(t, "SEARCH_API_KEY does not look like an API key (want sk-...)", status().Reason)

	setEnv("SEARCH_API_KEY", "sk-123")
	st = status()
	assert.Equal(t, runtime.StateUnavailable, st.State, "nothing listens on 127.0.0.1:8089 yet")
	assert.True(t, strings.HasPrefix(st.Reason, "search service 127.0.0.1:8089 is down: "), st.Reason)

	if stop, err := listenOn("127.0.0.1:8089"); err == nil {
		defer stop()
		assert.Equal(t, runtime.StateAvailable, status().State)
	} else {
		t.Logf("127.0.0.1:8089 is taken on this machine (%v): the available case is covered by probetest below", err)
	}
}

// TestCustomProbeConforms runs the ABI conformance checks on the probe.
func TestCustomProbeConforms(t *testing.T) {
	wasm, err := os.ReadFile(filepath.Join(build(t), "probe.wasm"))
	require.NoError(t, err)
	up := testnet.Listen(t, "tcp", "127.0.0.1:0").Addr().String()
	probetest.Test(t, wasm, probetest.Options{
		Grants: hostfuncs.Grants{Env: []string{"KEY"}, Dial: []string{"127.0.0.1:*"}},
		Config: map[string]string{"key_var": "KEY", "addr": up},
		Cases: []probetest.Case{
			{Name: "key and service", Env: map[string]string{"KEY": "sk-1"}, Want: runtime.Available},
			{Name: "no key", Want: runtime.Unavailable},
			{Name: "bad key", Env: map[string]string{"KEY": "nope"}, Want: runtime.Unavailable},
			{Name: "service down", Env: map[string]string{"KEY": "sk-1"}, Config: map[string]string{"addr": testnet.ClosedAddr(t)}, Want: runtime.Unavailable},
		},
	})
}

// buildDir is where built put the module, removed when the tests end.
var buildDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}
