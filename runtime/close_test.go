package runtime

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/testnet"
)

// secretEnv is what secret_loop reads and scan_memory looks for.
var secretEnv = envMap(map[string]string{"SECRET_TOKEN": "S3CRET-TOKEN-VALUE"})

// TestCloseWhileProbesRun is the hammer: probes of every kind run in a
// loop (busy, sleeping, dialling a black hole, touching many pages of a
// mapped region, flooding output, recursing, commands, a real Go guest)
// and the engine is closed at a random moment, many times. Close must
// stop them and wait for them before freeing their memory: before, an
// unmapped region under a running guest crashed the process. Every run
// returns, every run after Close answers ErrClosed, and nothing hangs.
func TestCloseWhileProbesRun(t *testing.T) {
	blackHole := testnet.BlackHole(t)
	goWasm := buildGoWasm(t, "./testdata/goprobe")
	cacheDir := t.TempDir()
	rounds := 12
	if testing.Short() {
		rounds = 3
	}
	for round := range rounds {
		ctx := context.Background()
		e, err := NewEngine(ctx, NewEngineConfig().WithLookupEnv(secretEnv).WithCacheDir(cacheDir).WithCompileTimeout(testCompileTimeout))
		require.NoError(t, err)
		goModule, err := e.Compile(ctx, "goprobe.wasm", goWasm)
		require.NoError(t, err)
		var probes []*Probe
		add := func(name string, cfg ProbeConfig) {
			probes = append(probes, hostileProbe(t, e, name, cfg))
		}
		for _, name := range []string{"loop_probe", "sleep", "touch_pages", "calltree", "stdout_flood", "log_flood", "recursion", "grow", "loop_command", "loop_initialize"} {
			add(name, ProbeConfig{})
		}
		add("secret_loop", ProbeConfig{Grants: hostfuncs.Grants{Env: []string{"SECRET_TOKEN"}}})
		add("ask", ProbeConfig{Config: map[string]string{"op": "dial", "arg": blackHole}, Grants: hostfuncs.Grants{Dial: []string{blackHole}}})
		add("exit_code", ProbeConfig{Config: map[string]string{"code": "1"}})
		for _, mode := range []string{"busy", "sleep", "alloc", "ok"} {
			p, err := e.NewProbe(ctx, "go-"+mode, goModule, ProbeConfig{Config: map[string]string{"mode": mode}})
			require.NoError(t, err)
			probes = append(probes, p)
		}

		var wg sync.WaitGroup
		var mu sync.Mutex
		var afterClose []Result
		closed := make(chan struct{})
		for _, p := range probes {
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						res := p.Run(ctx)
						select {
						case <-closed:
							mu.Lock()
							afterClose = append(afterClose, res)
							mu.Unlock()
							return
						default:
						}
						if errors.Is(res.Err, ErrClosed) {
							return
						}
					}
				}()
			}
		}
		time.Sleep(time.Duration(rand.IntN(40)) * time.Millisecond) // Close at a random moment of the runs
		require.NoError(t, e.Close(ctx), "round %d", round)
		close(closed)
		waitOrFail(t, &wg, 10*time.Second, "runs still going after Close returned")
		for _, res := range afterClose {
			// A run that ended just before Close may report anything; every
			// one that ran into it says so.
			if res.Outcome == Failed && !errors.Is(res.Err, ErrClosed) {
				var perr *ProbeError
				require.ErrorAs(t, res.Err, &perr)
			}
		}
		res := probes[0].Run(ctx)
		require.ErrorIs(t, res.Err, ErrClosed, "a run after Close")
		assert.Equal(t, Failed, res.Outcome)
	}
}

// TestClosedEngineLeaksNoMemory: a probe holding a granted secret keeps
// writing it into its memory while its engine is closed; probes of another
// engine, without grants, start on fresh one-page memories all the while
// and look for it. Before Close waited for running guests, the holder's
// page was cleared and recycled while the holder still wrote into it, and
// the scanner read the secret in 5 of 5 tries.
func TestClosedEngineLeaksNoMemory(t *testing.T) {
	ctx := context.Background()
	scanners := newEngine(t, NewEngineConfig().WithIdleMemoryLimit(0).WithWarmup(false))
	scanner := hostileProbe(t, scanners, "scan_memory", ProbeConfig{})
	rounds := 20
	if testing.Short() {
		rounds = 5
	}
	for round := range rounds {
		e, err := NewEngine(ctx, NewEngineConfig().WithLookupEnv(secretEnv))
		require.NoError(t, err)
		holder := hostileProbe(t, e, "secret_loop", ProbeConfig{Grants: hostfuncs.Grants{Env: []string{"SECRET_TOKEN"}}})
		var holders sync.WaitGroup
		for range 2 {
			holders.Add(1)
			go func() {
				defer holders.Done()
				holder.Run(ctx)
			}()
		}
		stop := make(chan struct{})
		var scans sync.WaitGroup
		var leaks []string
		var mu sync.Mutex
		for range 2 {
			scans.Add(1)
			go func() {
				defer scans.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					// Only the scan's own answer counts: a run the loaded
					// machine made late is no leak.
					if res := scanner.Run(ctx); res.Outcome == Unavailable {
						mu.Lock()
						leaks = append(leaks, res.Reason)
						mu.Unlock()
					}
				}
			}()
		}
		time.Sleep(time.Duration(2+rand.IntN(10)) * time.Millisecond) // Close at a random moment of the writes
		require.NoError(t, e.Close(ctx))
		waitOrFail(t, &holders, 10*time.Second, "the holder's runs did not end")
		time.Sleep(5 * time.Millisecond) // the scanners look a while longer: the scenario, not a wait
		close(stop)
		scans.Wait()
		require.Empty(t, leaks, "round %d: a probe saw another's memory", round)
	}
}

// TestProbeCloseWhileRunning: closing one probe stops its runs (and only
// its runs), waits for them, and refuses later ones; other probes of the
// engine are not disturbed.
func TestProbeCloseWhileRunning(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, NewEngineConfig())
	busy := hostileProbe(t, e, "loop_probe", ProbeConfig{})
	sleeper := hostileProbe(t, e, "sleep", ProbeConfig{})
	results := make(chan Result, 2)
	for _, p := range []*Probe{busy, sleeper} {
		go func() { results <- p.Run(ctx) }()
	}
	waitRunning(t, busy, sleeper)
	require.NoError(t, busy.Close(ctx))
	require.NoError(t, sleeper.Close(ctx))
	for range 2 {
		select {
		case res := <-results:
			assert.Equal(t, Failed, res.Outcome)
			assert.ErrorIs(t, res.Err, ErrClosed, "%s", res.Reason)
			var perr *ProbeError
			require.ErrorAs(t, res.Err, &perr)
			assert.Equal(t, KindCanceled, perr.Kind)
		case <-time.After(5 * time.Second):
			t.Fatal("a run went on after its probe was closed")
		}
	}
	res := busy.Run(ctx)
	assert.ErrorIs(t, res.Err, ErrClosed)
	assert.Contains(t, res.Reason, `probe "loop_probe" canceled in queue: stopped`)
	assertHealthy(t, e)
}

// TestCloseWithImpatientContext: a Close whose context ends before the
// runs have stopped returns at once with that error, and the engine is
// still released afterwards, never under a running guest.
func TestCloseWithImpatientContext(t *testing.T) {
	ctx := context.Background()
	e, err := NewEngine(ctx, NewEngineConfig())
	require.NoError(t, err)
	p := hostileProbe(t, e, "loop_probe", ProbeConfig{})
	done := make(chan Result)
	go func() { done <- p.Run(ctx) }()
	waitRunning(t, p)
	gone, cancel := context.WithCancel(ctx)
	cancel()
	err = e.Close(gone)
	require.ErrorIs(t, err, context.Canceled)
	res := <-done
	assert.ErrorIs(t, res.Err, ErrClosed)
	require.NoError(t, e.Close(ctx), "a second Close waits for the release and reports it")
}

// waitOrFail waits for wg, failing the test if that takes longer than d:
// a hang is the bug these tests look for.
// waitRunning waits until each probe has a run in flight: one that a
// Close must wait for.
func waitRunning(t *testing.T, probes ...*Probe) {
	t.Helper()
	require.Eventually(t, func() bool {
		for _, p := range probes {
			if p.life.active.Load() == 0 {
				return false
			}
		}
		return true
	}, 10*time.Second, time.Millisecond, "the runs never started")
}

func waitOrFail(t *testing.T, wg *sync.WaitGroup, d time.Duration, msg string) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatal(msg)
	}
}

// TestServiceRetiresGatesWithRunningProbes: reloads replace the serving
// Gate while its probes (busy, touching a mapped region, holding a secret)
// are running, and each replaced Gate is closed a millisecond later; then
// the service itself is closed mid-refresh. A retired Gate used to free
// its probes' memory under them 5 s after a reload (a crash in serve);
// now every Close stops and waits for its runs.
func TestServiceRetiresGatesWithRunningProbes(t *testing.T) {
	t.Setenv("SECRET_TOKEN", "S3CRET-TOKEN-VALUE")
	dir := t.TempDir()
	abs := func(name string) string {
		p, err := filepath.Abs(hostilePath(name))
		require.NoError(t, err)
		return p
	}
	path := filepath.Join(dir, "gate.toml")
	require.NoError(t, os.WriteFile(path, []byte(fmt.Sprintf(`
[runtime]
ttl = "20ms"
grace = "0s"

[[tools]]
name = "spin"
probe = { module = %q }

[[tools]]
name = "pages"
probe = { module = %q }

[[tools]]
name = "secret"
probe = { module = %q, grants = { env = ["SECRET_TOKEN"] } }
`, abs("loop_probe"), abs("touch_pages"), abs("secret_loop"))), 0o644))

	ctx, cancel := context.WithCancel(context.Background())
	svc, err := OpenService(ctx, path, NewServiceConfig().WithWatchInterval(0).WithTick(5*time.Millisecond).WithRetireDelay(time.Millisecond))
	require.NoError(t, err)
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_ = svc.Run(ctx)
	}()
	var readers sync.WaitGroup
	for range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for ctx.Err() == nil {
				svc.Gate().AvailableTools(ctx)
			}
		}()
	}
	// Reloads and the Close at random moments of the reads.
	for range 10 {
		time.Sleep(time.Duration(rand.IntN(30)) * time.Millisecond)
		require.NoError(t, svc.Reload(ctx))
	}
	time.Sleep(time.Duration(rand.IntN(30)) * time.Millisecond)
	cancel()
	closed := make(chan error)
	go func() { closed <- svc.Close(context.Background()) }()
	select {
	case err := <-closed:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Service.Close did not return")
	}
	<-ran
	waitOrFail(t, &readers, 10*time.Second, "readers still waiting after Close")
}

// TestServiceReloadAfterClose: a reload that finishes after Close (a
// manifest watcher firing during shutdown) installs nothing and leaves
// nothing open: its new Gate is closed at once.
func TestServiceReloadAfterClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gate.toml")
	require.NoError(t, os.WriteFile(path, []byte("[[tools]]\nname = \"echo\"\nprobe = \"env:HOME\"\n"), 0o644))
	ctx := context.Background()
	svc, err := OpenService(ctx, path, NewServiceConfig().WithWatchInterval(0))
	require.NoError(t, err)
	served := svc.Gate()
	require.NoError(t, svc.Close(ctx))
	err = svc.Reload(ctx)
	require.ErrorIs(t, err, ErrClosed)
	assert.Same(t, served, svc.Gate(), "nothing installed")
	sts, err := served.Tools().Refresh(ctx)
	require.NoError(t, err)
	assert.ErrorIs(t, sts[0].Err, ErrClosed, "the served Gate is closed")
}
