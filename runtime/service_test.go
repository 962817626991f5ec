package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
)

// events collects a service's events for a test.
type events struct {
	mu  sync.Mutex
	got []Event
}

func (e *events) add(ev Event) {
	e.mu.Lock()
	e.got = append(e.got, ev)
	e.mu.Unlock()
}

// wait returns the first event that matches, or fails after a generous
// deadline (this is about order and content, not speed).
func (e *events) wait(t *testing.T, match func(Event) bool, what string) Event {
	t.Helper()
	var found Event
	require.Eventually(t, func() bool {
		e.mu.Lock()
		defer e.mu.Unlock()
		for _, ev := range e.got {
			if match(ev) {
				found = ev
				return true
			}
		}
		return false
	}, 5*time.Second, 5*time.Millisecond, "no event: %s (got %+v)", what, e.snapshot())
	return found
}

func (e *events) snapshot() []Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Event(nil), e.got...)
}

// probeCounter counts the probe runs, and the probes reads had to wait
// for.
type probeCounter struct{ probes, readProbes atomic.Int64 }

func (c *probeCounter) Probed(string, Result, Status) { c.probes.Add(1) }
func (c *probeCounter) Read(_ string, probed int)     { c.readProbes.Add(int64(probed)) }

func startService(t *testing.T, path string, obs Observer) (*Service, *events) {
	t.Helper()
	cfg := NewServiceConfig().WithWatchInterval(20 * time.Millisecond).WithRetireDelay(10 * time.Millisecond)
	if obs != nil {
		cfg = cfg.WithGate(NewGateConfig().withRegistry(newRegistryConfig().WithObserver(obs)))
	}
	return startServiceWith(t, path, cfg)
}

// startServiceWith opens a service with cfg, runs it until the test ends,
// and waits until it is ready.
func startServiceWith(t *testing.T, path string, cfg ServiceConfig) (*Service, *events) {
	t.Helper()
	svc, err := OpenService(context.Background(), path, cfg)
	require.NoError(t, err)
	ev := &events{}
	t.Cleanup(svc.Subscribe(ev.add))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = svc.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		svc.Close(context.Background())
	})
	require.Eventually(t, svc.Ready, 5*time.Second, time.Millisecond)
	return svc, ev
}

// TestServiceRefreshesAhead: once ready, reads never wait for a probe; the
// service notices a service going away by itself and publishes the flip,
// and the skill that needs the tool follows.
func TestServiceRefreshesAhead(t *testing.T) {
	l := testnet.Listen(t, "tcp", "127.0.0.1:0")
	skills := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(skills, "cache"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(skills, "cache", "SKILL.md"),
		[]byte("---\nname: cache\ndescription: Use the cache.\nrequires_tools: [cache_data]\n---\n"), 0o644))
	path := writeManifest(t, fmt.Sprintf(`
[runtime]
ttl = "100ms"
grace = "0s"

[skills]
paths = [%q]
enforcement = "strict"

[[tools]]
name = "cache_data"
probe = "tcp:%s"

[[tools]]
name = "echo"
`, skills, l.Addr()), nil)
	t.Setenv("SKILL_CAPABILITY_ENFORCEMENT", "")
	counter := &probeCounter{}
	svc, ev := startService(t, path, counter)
	ctx := context.Background()
	assert.Equal(t, []string{"cache_data", "echo"}, names(svc.Gate().AvailableTools(ctx)))
	before := counter.readProbes.Load()

	l.Close()
	e := ev.wait(t, func(e Event) bool { return e.Type == "tool" && e.Name == "cache_data" }, "cache_data goes away")
	assert.False(t, e.Available)
	assert.Equal(t, "unavailable", e.State)
	assert.Contains(t, e.Reason, "connection refused")
	s := ev.wait(t, func(e Event) bool { return e.Type == "skill" && e.Name == "cache" }, "the cache skill follows")
	assert.Equal(t, "unavailable", s.State)
	assert.False(t, s.Available)

	for range 100 {
		svc.Gate().AvailableTools(ctx)
		_, _ = svc.Gate().Tools().Status(ctx)
	}
	assert.Equal(t, before, counter.readProbes.Load(), "no read waited for a probe after the first round")
	assert.Equal(t, []string{"echo"}, names(svc.Gate().AvailableTools(ctx)))
}

// TestServiceReload: an edit of the manifest is picked up by itself; a
// broken one is reported while the last good configuration keeps serving.
func TestServiceReload(t *testing.T) {
	path := writeManifest(t, "[[tools]]\nname = \"one\"\n", nil)
	svc, ev := startService(t, path, nil)
	ctx := context.Background()
	assert.Equal(t, []string{"one"}, names(svc.Gate().AvailableTools(ctx)))

	require.NoError(t, os.WriteFile(path, []byte("[[tools]]\nname = \"one\"\n\n[[tools]]\nname = \"two\"\n"), 0o644))
	ev.wait(t, func(e Event) bool { return e.Type == "reload" && e.State == "ok" }, "the watcher reloads the edit")
	ev.wait(t, func(e Event) bool { return e.Type == "tool" && e.Name == "two" && e.Available }, "tool two appears")
	assert.Equal(t, []string{"one", "two"}, names(svc.Gate().AvailableTools(ctx)))

	require.NoError(t, os.WriteFile(path, []byte("[[tools]]\nname = \"one\"\nname = \"again\"\n"), 0o644))
	bad := ev.wait(t, func(e Event) bool { return e.Type == "reload" && e.State == "error" }, "the broken edit is reported")
	assert.Contains(t, bad.Reason, path+":3:1")
	assert.Equal(t, []string{"one", "two"}, names(svc.Gate().AvailableTools(ctx)), "the last good configuration keeps serving")
	_, err := svc.LastReload()
	assert.Error(t, err)
	assert.Error(t, svc.Reload(ctx), "an explicit reload of the broken file fails too")

	require.NoError(t, os.WriteFile(path, []byte("[[tools]]\nname = \"three\"\n"), 0o644))
	ev.wait(t, func(e Event) bool { return e.Type == "tool" && e.Name == "one" && e.State == "removed" }, "tool one goes")
	_, err = svc.LastReload()
	assert.NoError(t, err)
	assert.Equal(t, []string{"three"}, names(svc.Gate().AvailableTools(ctx)))
}
