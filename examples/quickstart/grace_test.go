package quickstart_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/runtime"
)

// TestNetworkToolGraceWindow walks the reference's table for a probe that
// raises, with gate.toml's own network_tool pointed at a loopback listener
// that the test stops, and a clock moved by hand:
//
//   - probe returns True: available, cached for the TTL;
//   - probe raises within ttl + grace of that success: still available
//     (last-good), nothing cached, a DEBUG line;
//   - probe raises later than that: hidden, a WARNING;
//   - probe raises with no success ever (port 9, as in gate.toml): hidden,
//     a WARNING.
func TestNetworkToolGraceWindow(t *testing.T) {
	ctx := context.Background()
	up := testnet.Listen(t, "tcp", "127.0.0.1:0")
	addr := up.Addr().String()

	m, err := manifest.Load("gate.toml")
	require.NoError(t, err)
	require.Equal(t, 30*time.Second, *m.Runtime.TTL)
	require.Equal(t, 30*time.Second, *m.Runtime.Grace)
	var probe *manifest.Probe
	for _, tool := range m.Tools {
		if tool.Name == "network_tool" {
			probe = tool.Probe
		}
	}
	require.NotNil(t, probe)
	require.Equal(t, "127.0.0.1:9", probe.Config["dial"])
	require.Equal(t, []string{"127.0.0.1:9"}, probe.Grants.Dial)
	// The same manifest with the tool's service at addr, beside the copy
	// whose probe modules it names.
	b, err := os.ReadFile(manifestCopy(t))
	require.NoError(t, err)
	listening := filepath.Join(filepath.Dir(manifestCopy(t)), "grace-listening.toml")
	require.NoError(t, os.WriteFile(listening, []byte(strings.ReplaceAll(string(b), `"127.0.0.1:9"`, strconv.Quote(addr))), 0o644))

	clock := &manualClock{now: time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)}
	logs := &syncBuffer{}
	// No environment: only network_tool is asked, and nothing here may
	// reach serpapi.com through search_web's key.
	noEnv := runtime.NewEngineConfig().WithLookupEnv(func(string) (string, bool) { return "", false })
	g, err := runtime.Open(ctx, listening, runtime.NewGateConfig().WithEngine(noEnv).
		WithClock(clock).WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	require.NoError(t, err)
	defer g.Close(ctx)
	status := func() runtime.Status {
		st, err := g.Tools().Status(ctx, "network_tool")
		require.NoError(t, err)
		return st[0]
	}

	st := status()
	assert.Equal(t, runtime.StateAvailable, st.State, st.Reason)
	assert.False(t, st.Cached || st.Graced)

	require.NoError(t, up.Close()) // the network blinks: dials are refused from now on

	clock.advance(10 * time.Second)
	st = status()
	assert.Equal(t, runtime.StateAvailable, st.State)
	assert.True(t, st.Cached, "within the TTL the cached answer is reused, no probe runs")

	clock.advance(21 * time.Second) // 31 s: past the TTL, within the grace window
	st = status()
	assert.Equal(t, runtime.StateAvailable, st.State, st.Reason)
	assert.True(t, st.Graced, "served on its last good answer")
	var perr *runtime.ProbeError
	if assert.ErrorAs(t, st.Err, &perr) {
		assert.Equal(t, runtime.KindStatus, perr.Kind)
	}
	assert.Contains(t, logs.String(), "level=DEBUG msg=\"Availability check failed for tool 'network_tool' but serving last-good within grace window")
	assert.NotContains(t, logs.String(), "level=WARN")

	// The probe's own words, from its log: the runtime reports a raise by
	// its error message.
	tool, _ := g.Tools().Get("network_tool")
	res := tool.Probe.Run(ctx)
	assert.Equal(t, runtime.Failed, res.Outcome)
	if assert.Len(t, res.Logs, 1) {
		assert.Equal(t, "Network unreachable", res.Logs[0].Message)
	}

	clock.advance(30 * time.Second) // 61 s: past ttl + grace
	st = status()
	assert.Equal(t, runtime.StateError, st.State)
	assert.False(t, st.Graced)
	assert.Contains(t, logs.String(), "level=WARN msg=\"Availability check failed for tool 'network_tool'")

	// gate.toml as written: nothing listens on port 9, and a tool that
	// never succeeded is hidden at once, with a WARNING.
	fresh := &syncBuffer{}
	g2, err := runtime.Open(ctx, manifestCopy(t), runtime.NewGateConfig().WithEngine(noEnv).
		WithLogger(slog.New(slog.NewTextHandler(fresh, nil))))
	require.NoError(t, err)
	defer g2.Close(ctx)
	sts, err := g2.Tools().Status(ctx, "network_tool")
	require.NoError(t, err)
	assert.Equal(t, runtime.StateError, sts[0].State)
	assert.Contains(t, fresh.String(), "level=WARN msg=\"Availability check failed for tool 'network_tool'")
}

// TestUnavailableIsFinal contrasts an honest "unavailable": search_web's
// key is revoked after a success (the service answers 401, here the
// loopback stand-in for serpapi.com) and the tool is hidden at the next
// probe, grace window or not, and that answer is cached for the TTL.
func TestUnavailableIsFinal(t *testing.T) {
	ctx := context.Background()
	env := &caseEnv{}
	env.set(map[string]string{"SERP_API_KEY": goodKey})
	clock := &manualClock{now: time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)}
	g, err := runtime.Open(ctx, manifestCopy(t), runtime.NewGateConfig().
		WithEngine(runtime.NewEngineConfig().WithLookupEnv(env.lookup)).
		WithClock(clock))
	require.NoError(t, err)
	defer g.Close(ctx)
	status := func() runtime.Status {
		st, err := g.Tools().Status(ctx, "search_web")
		require.NoError(t, err)
		return st[0]
	}

	st := status()
	assert.Equal(t, runtime.StateAvailable, st.State, st.Reason)
	env.set(map[string]string{"SERP_API_KEY": "revoked"})
	clock.advance(31 * time.Second)
	st = status()
	assert.Equal(t, runtime.StateUnavailable, st.State)
	assert.False(t, st.Graced)
	assert.Equal(t, serpURL()+": credentials rejected (HTTP 401)", st.Reason)

	env.set(map[string]string{"SERP_API_KEY": goodKey})
	clock.advance(10 * time.Second)
	st = status()
	assert.Equal(t, runtime.StateUnavailable, st.State, "the negative answer is cached for the TTL")
	assert.True(t, st.Cached)
}

type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// syncBuffer is a bytes.Buffer safe for the registry's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
