package runtime

import (
	"context"
	"net"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
)

func runStandard(t *testing.T, e *Engine, shorthand string) Result {
	t.Helper()
	p, err := e.StandardProbe(context.Background(), shorthand, shorthand, ProbeConfig{})
	require.NoError(t, err)
	return p.Run(context.Background())
}

// TestStandardEnvProbe reads the real process environment.
func TestStandardEnvProbe(t *testing.T) {
	t.Setenv("GATE_TEST_SET", "value")
	t.Setenv("GATE_TEST_EMPTY", "")
	t.Setenv("GATE_TEST_OTHER", "x")
	e := newEngine(t, NewEngineConfig())
	tests := []struct {
		shorthand string
		outcome   Outcome
		reason    string
	}{
		{"env:GATE_TEST_SET", Available, ""},
		{"env:GATE_TEST_SET,GATE_TEST_OTHER", Available, ""},
		{"env:GATE_TEST_UNSET_XYZ", Unavailable, "Missing environment variables: GATE_TEST_UNSET_XYZ"},
		{"env:GATE_TEST_EMPTY", Unavailable, "Missing environment variables: GATE_TEST_EMPTY"},
		{"env:GATE_TEST_SET,GATE_TEST_EMPTY,GATE_TEST_UNSET_XYZ", Unavailable, "Missing environment variables: GATE_TEST_EMPTY, GATE_TEST_UNSET_XYZ"},
	}
	for _, tt := range tests {
		t.Run(tt.shorthand, func(t *testing.T) {
			res := runStandard(t, e, tt.shorthand)
			assert.Equal(t, tt.outcome, res.Outcome, "%s: %v", res.Reason, res.Err)
			assert.Equal(t, tt.reason, res.Reason)
			assert.Empty(t, res.Denials)
		})
	}
}

// TestStandardTCPProbe dials real loopback listeners: open, closed, a unix
// socket, and IPv6 loopback where the machine has it.
func TestStandardTCPProbe(t *testing.T) {
	e := newEngine(t, NewEngineConfig())

	open := testnet.Listen(t, "tcp", "127.0.0.1:0")
	closedAddr := testnet.ClosedAddr(t)
	sock := filepath.Join(t.TempDir(), "s.sock")
	testnet.Listen(t, "unix", sock)

	tests := []struct {
		shorthand string
		outcome   Outcome
		reason    string
	}{
		{"tcp:" + open.Addr().String(), Available, ""},
		{"tcp:" + closedAddr, Unavailable, closedAddr + ": connection refused"},
		{"tcp:unix:" + sock, Available, ""},
		{"tcp:unix:" + sock + ".missing", Unavailable, "unix:" + sock + ".missing: connection refused"},
	}
	if l6, err := net.Listen("tcp", "[::1]:0"); err == nil {
		l6.Close()
		l6 = testnet.Listen(t, "tcp", "[::1]:0")
		tests = append(tests, struct {
			shorthand string
			outcome   Outcome
			reason    string
		}{"tcp:" + l6.Addr().String(), Available, ""})
	}
	for _, tt := range tests {
		t.Run(tt.shorthand, func(t *testing.T) {
			res := runStandard(t, e, tt.shorthand)
			assert.Equal(t, tt.outcome, res.Outcome, "%s: %v", res.Reason, res.Err)
			assert.Equal(t, tt.reason, res.Reason)
		})
	}
}

// TestStandardImportProbe looks up real binaries, Python modules and shared
// libraries on this machine.
func TestStandardImportProbe(t *testing.T) {
	e := newEngine(t, NewEngineConfig())
	tests := []struct {
		shorthand string
		outcome   Outcome
		reason    string
	}{
		{"import:bin:sh", Available, ""},
		{"import:bin:sh,py:json,py:email.mime.text,lib:libc.so.6", Available, ""},
		{"import:bin:no-such-binary-xyz", Unavailable, "Missing imports: bin:no-such-binary-xyz"},
		{"import:py:no_such_module_xyz", Unavailable, "Missing imports: py:no_such_module_xyz"},
		{"import:py:json,py:no_such_module_xyz,lib:libnope.so.9", Unavailable, "Missing imports: py:no_such_module_xyz, lib:libnope.so.9"},
	}
	for _, tt := range tests {
		t.Run(tt.shorthand, func(t *testing.T) {
			res := runStandard(t, e, tt.shorthand)
			assert.Equal(t, tt.outcome, res.Outcome, "%s: %v", res.Reason, res.Err)
			assert.Equal(t, tt.reason, res.Reason)
		})
	}
}

// TestReactorInstancesAreReused: a healthy reactor instance serves the next
// run; after a failed run the next one starts fresh.
func TestReactorInstancesAreReused(t *testing.T) {
	e := newEngine(t, NewEngineConfig().WithLookupEnv(envMap(map[string]string{"A": "1"})).WithWarmup(false))
	p, err := e.StandardProbe(context.Background(), "a", "env:A", ProbeConfig{})
	require.NoError(t, err)
	assert.True(t, p.Run(context.Background()).Fresh)
	assert.False(t, p.Run(context.Background()).Fresh)

	warm := newEngine(t, NewEngineConfig().WithLookupEnv(envMap(map[string]string{"A": "1"})))
	p, err = warm.StandardProbe(context.Background(), "a", "env:A", ProbeConfig{})
	require.NoError(t, err)
	assert.False(t, p.Run(context.Background()).Fresh, "a warmed-up probe's first run reuses the warm instance")

	bad := hostileProbe(t, e, "unreachable", ProbeConfig{})
	assert.True(t, bad.Run(context.Background()).Fresh)
	assert.True(t, bad.Run(context.Background()).Fresh, "an instance that trapped must not be reused")

	cmd := hostileProbe(t, e, "exit_code", ProbeConfig{Config: map[string]string{"code": "0"}})
	assert.True(t, cmd.Run(context.Background()).Fresh)
	assert.True(t, cmd.Run(context.Background()).Fresh, "a command runs fresh every time")
}

// TestProbeHammer runs one probe from many goroutines at once, race-clean,
// with every answer right.
func TestProbeHammer(t *testing.T) {
	e := newEngine(t, NewEngineConfig().WithLookupEnv(envMap(map[string]string{"A": "1"})))
	avail, err := e.StandardProbe(context.Background(), "a", "env:A", ProbeConfig{})
	require.NoError(t, err)
	unavail, err := e.StandardProbe(context.Background(), "b", "env:B", ProbeConfig{})
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				p, want := avail, Available
				if (g+i)%2 == 1 {
					p, want = unavail, Unavailable
				}
				res := p.Run(context.Background())
				if !assert.Equal(t, want, res.Outcome, "%s", res.Reason) {
					return
				}
			}
		}()
	}
	wg.Wait()
}
