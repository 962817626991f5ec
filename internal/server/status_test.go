package server

import (
	"context"
	"encoding/json"
	"github.com/gate-dev/gate/internal/statusview"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// handClock is a clock moved by hand, for the server's ages.
type handClock struct {
	mu sync.Mutex
	t  time.Time
}

func newHandClock() *handClock { return &handClock{t: time.Now()} }

func (c *handClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *handClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// statusReader reads /v1/status of f and counts its renderings; the
// server's clock stands still unless the test moves it.
type statusReader struct {
	f       *fixture
	clock   *handClock
	renders atomic.Int64
}

func newStatusReader(f *fixture) *statusReader {
	sr := &statusReader{f: f, clock: newHandClock()}
	f.srv.now = sr.clock.now
	f.srv.testHook = func(step string) {
		if step == "encode" {
			sr.renders.Add(1)
		}
	}
	return sr
}

// get reads /v1/status, and how many renderings there have been.
func (sr *statusReader) get(t *testing.T) (string, statusAnswer, int64) {
	t.Helper()
	r := sr.f.get(t, "/v1/status")
	require.Equal(t, http.StatusOK, r.code, r.body)
	var st statusAnswer
	require.NoError(t, json.Unmarshal([]byte(r.body), &st))
	return r.body, st, sr.renders.Load()
}

func toolNamed(t *testing.T, st statusAnswer, name string) statusview.Info {
	t.Helper()
	for _, e := range st.Tools {
		if e.Name == name {
			return e
		}
	}
	t.Fatalf("no tool %q in /v1/status", name)
	return statusview.Info{}
}

const statusEnv = "GATE_STATUS_TEST_KEY"

// TestStatusRenderedOncePerChange: /v1/status hands every reader the same
// bytes while nothing it tells has changed, and renders once more on the
// next request after any change: a refresh that says what the last one
// said (only checked_at and latency are new), a flip, a flip a policy
// holds back, a reload that fails, one that works, an event (the
// generation), readiness.
func TestStatusRenderedOncePerChange(t *testing.T) {
	const oneTool = "[runtime]\nttl = \"1h\"\n\n[[tools]]\nname = \"search\"\nprobe = \"env:" + statusEnv + "\"\n"
	refresh := func(t *testing.T, f *fixture) {
		_, err := f.svc.Gate().Tools().Refresh(context.Background(), "search")
		require.NoError(t, err)
	}
	for _, c := range []struct {
		name     string
		manifest string
		run      bool // run the service (its first round) before the first read
		change   func(t *testing.T, f *fixture, path string)
		shows    func(t *testing.T, before, after statusAnswer)
	}{
		{"a refresh with the same answer", oneTool, true, func(t *testing.T, f *fixture, _ string) { refresh(t, f) },
			func(t *testing.T, before, after statusAnswer) {
				b, a := toolNamed(t, before, "search"), toolNamed(t, after, "search")
				require.NotNil(t, b.CheckedAt)
				require.NotNil(t, a.CheckedAt)
				assert.True(t, a.CheckedAt.After(*b.CheckedAt), "a new checked_at")
				assert.Equal(t, b.State, a.State)
			}},
		{"a flip", oneTool, true, func(t *testing.T, f *fixture, _ string) {
			require.NoError(t, os.Unsetenv(statusEnv))
			refresh(t, f)
		}, func(t *testing.T, before, after statusAnswer) {
			assert.Equal(t, "available", toolNamed(t, before, "search").State)
			assert.Equal(t, "unavailable", toolNamed(t, after, "search").State)
		}},
		{"a flip a policy holds back", oneTool + "failure_threshold = 2\n", true, func(t *testing.T, f *fixture, _ string) {
			require.NoError(t, os.Unsetenv(statusEnv))
			refresh(t, f)
		}, func(t *testing.T, before, after statusAnswer) {
			assert.Nil(t, toolNamed(t, before, "search").Pending)
			a := toolNamed(t, after, "search")
			assert.Equal(t, "available", a.State, "served as it was")
			require.NotNil(t, a.Pending)
			assert.Equal(t, runtime.StateUnavailable, a.Pending.State)
		}},
		{"a reload that fails", oneTool, true, func(t *testing.T, f *fixture, path string) {
			writeManifest(t, path, "[[tools]]\nname = 1\n")
			require.Error(t, f.svc.Reload(context.Background()))
		}, func(t *testing.T, before, after statusAnswer) {
			assert.Nil(t, before.Service.ReloadError)
			require.NotNil(t, after.Service.ReloadError)
			assert.Contains(t, *after.Service.ReloadError, "name")
		}},
		{"a reload that works", oneTool, true, func(t *testing.T, f *fixture, path string) {
			writeManifest(t, path, oneTool+"\n[[tools]]\nname = \"echo\"\n")
			require.NoError(t, f.svc.Reload(context.Background()))
		}, func(t *testing.T, before, after statusAnswer) {
			assert.Len(t, before.Tools, 1)
			assert.Len(t, after.Tools, 2)
		}},
		{"an event of a part built on the service", oneTool, true, func(t *testing.T, f *fixture, _ string) {
			f.svc.Publish(runtime.Event{Type: "upstream", Name: "notes", State: "ready", Available: true})
		}, func(t *testing.T, before, after statusAnswer) {
			assert.Equal(t, before.Generation+1, after.Generation, "the generation it tells")
		}},
		// A tool without a probe: the first round stores no answer, so
		// readiness is the only thing that changes.
		{"readiness", "[[tools]]\nname = \"echo\"\n", false, func(t *testing.T, f *fixture, _ string) {
			runService(t, f.svc)
		}, func(t *testing.T, before, after statusAnswer) {
			assert.False(t, before.Service.Ready)
			assert.True(t, after.Service.Ready)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(statusEnv, "set")
			dir := t.TempDir()
			path := writeManifest(t, dir, c.manifest)
			svc := openService(t, path, nil, serviceConfig(nil, nil))
			if c.run {
				runService(t, svc)
			}
			sr := newStatusReader(serve(t, svc, nil, Options{}))

			body, before, n := sr.get(t)
			assert.Equal(t, int64(1), n)
			again, _, n := sr.get(t)
			assert.Equal(t, int64(1), n, "nothing changed: no rendering")
			assert.Equal(t, body, again, "nothing changed: the same bytes")

			c.change(t, sr.f, dir)
			changed, after, n := sr.get(t)
			assert.Equal(t, int64(2), n, "the change is rendered on the next request")
			assert.NotEqual(t, body, changed)
			c.shows(t, before, after)
			again, _, n = sr.get(t)
			assert.Equal(t, int64(2), n, "and once")
			assert.Equal(t, changed, again)
		})
	}
}

// TestStatusAgeBound: while nothing changes, a rendering is handed out
// for less than statusMaxAge after the time its ages are as of, so no
// reader's ages are short by statusMaxAge or more; then it is rendered
// again, with the ages of its new time.
func TestStatusAgeBound(t *testing.T) {
	t.Setenv(statusEnv, "set")
	path := writeManifest(t, t.TempDir(), "[runtime]\nttl = \"1h\"\n\n[[tools]]\nname = \"search\"\nprobe = \"env:"+statusEnv+"\"\n")
	svc := openService(t, path, nil, serviceConfig(nil, nil))
	runService(t, svc)
	sr := newStatusReader(serve(t, svc, nil, Options{}))

	// renderedAt is the time a body's ages are as of.
	renderedAt := func(st statusAnswer) time.Time {
		e := toolNamed(t, st, "search")
		require.NotNil(t, e.CheckedAt)
		require.NotNil(t, e.AgeSeconds)
		return e.CheckedAt.Add(time.Duration(*e.AgeSeconds * float64(time.Second)))
	}
	// float64 seconds of a wall-clock time keep about a microsecond.
	const precision = time.Microsecond

	_, st, n := sr.get(t)
	require.Equal(t, int64(1), n)
	first := renderedAt(st)
	assert.WithinDuration(t, sr.clock.now(), first, precision, "rendered now")

	sr.clock.add(statusMaxAge - time.Nanosecond)
	_, st, n = sr.get(t)
	assert.Equal(t, int64(1), n, "reused just short of the bound")
	assert.WithinDuration(t, first, renderedAt(st), precision)

	sr.clock.add(time.Nanosecond)
	_, st, n = sr.get(t)
	assert.Equal(t, int64(2), n, "rendered again at the bound")
	assert.WithinDuration(t, sr.clock.now(), renderedAt(st), precision, "with the ages of now")

	// Whatever the readers' times, none gets ages short by the bound.
	for _, step := range []time.Duration{300, 300, 300, 300, 700, 100, 999, 2, 1500, 1, 1} {
		sr.clock.add(step * time.Millisecond)
		_, st, _ := sr.get(t)
		stale := sr.clock.now().Sub(renderedAt(st))
		assert.GreaterOrEqual(t, stale, -precision)
		assert.Less(t, stale, statusMaxAge+precision)
	}
}

// TestStatusSharedRendering: concurrent readers of /v1/status get the same
// bytes from one rendering: those that arrive while it is under way wait
// for it instead of rendering their own.
func TestStatusSharedRendering(t *testing.T) {
	const readers = 8
	t.Setenv(statusEnv, "set")
	path := writeManifest(t, t.TempDir(), "[runtime]\nttl = \"1h\"\n\n[[tools]]\nname = \"search\"\nprobe = \"env:"+statusEnv+"\"\n")
	svc := openService(t, path, nil, serviceConfig(nil, nil))
	runService(t, svc)
	f := serve(t, svc, nil, Options{})
	clock := newHandClock()
	f.srv.now = clock.now

	var entered, encodes atomic.Int64
	allIn := make(chan struct{})
	f.srv.testHook = func(step string) {
		switch step {
		case "enter":
			if entered.Add(1) == readers {
				close(allIn)
			}
		case "encode":
			if encodes.Add(1) == 1 {
				<-allIn
			}
		}
	}
	bodies := make([]string, readers)
	var wg sync.WaitGroup
	for i := range readers {
		wg.Go(func() {
			r := f.get(t, "/v1/status")
			assert.Equal(t, http.StatusOK, r.code)
			bodies[i] = r.body
		})
	}
	wg.Wait()
	assert.Equal(t, int64(1), encodes.Load(), "one rendering for every reader")
	for _, b := range bodies {
		assert.Equal(t, bodies[0], b)
	}
}

// TestStatusCacheKeeps: a rendering is reused for the state it was read
// from, within statusMaxAge of its time, unless its encoder said it may
// not be kept (its reader went away while it waited for a probe, and an
// answer may say so).
func TestStatusCacheKeeps(t *testing.T) {
	g := &runtime.Gate{}
	at := time.Unix(1000, 0)
	state := statusState{gate: g, tools: 1, servers: 1, gen: 1, ready: true, reloadedAt: at}
	for _, c := range []struct {
		name    string
		keep    bool
		then    func(st *statusState, now *time.Time)
		renders int
	}{
		{"the same state", true, func(*statusState, *time.Time) {}, 1},
		{"not to be kept", false, func(*statusState, *time.Time) {}, 2},
		{"a tool's answer stored", true, func(st *statusState, _ *time.Time) { st.tools++ }, 2},
		{"a server's answer stored", true, func(st *statusState, _ *time.Time) { st.servers++ }, 2},
		{"another Gate", true, func(st *statusState, _ *time.Time) { st.gate = &runtime.Gate{} }, 2},
		{"an event", true, func(st *statusState, _ *time.Time) { st.gen++ }, 2},
		{"not ready", true, func(st *statusState, _ *time.Time) { st.ready = false }, 2},
		{"a reload", true, func(st *statusState, _ *time.Time) { st.reloadedAt = at.Add(time.Second) }, 2},
		{"a reload error", true, func(st *statusState, _ *time.Time) { st.reloadErr = os.ErrNotExist }, 2},
		{"just short of the bound", true, func(_ *statusState, now *time.Time) { *now = now.Add(statusMaxAge - 1) }, 1},
		{"at the bound", true, func(_ *statusState, now *time.Time) { *now = now.Add(statusMaxAge) }, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			var cache statusCache
			st, now := state, at
			renders := 0
			get := func() []byte {
				body, err := cache.render(func() statusState { return st }, func() time.Time { return now },
					func(statusState) ([]byte, time.Time, bool, error) {
						renders++
						return []byte{byte(renders)}, now, c.keep, nil
					})
				require.NoError(t, err)
				return body
			}
			assert.Equal(t, []byte{1}, get())
			c.then(&st, &now)
			assert.Equal(t, []byte{byte(c.renders)}, get())
			assert.Equal(t, c.renders, renders)
		})
	}
}

// TestStatusCacheReloadError: a reload error that stands is the same one
// by identity, and one without an identity is rendered anew every time.
func TestStatusCacheReloadError(t *testing.T) {
	for _, c := range []struct {
		name    string
		err     error
		renders int
	}{
		{"a pointer", os.ErrNotExist, 1},
		{"a slice", sliceError{"a", "b"}, 1},
		{"a struct", valueError{}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			var cache statusCache
			st := statusState{gate: &runtime.Gate{}, reloadErr: c.err}
			renders := 0
			now := time.Unix(1000, 0)
			for range 2 {
				_, err := cache.render(func() statusState { return st }, func() time.Time { return now }, func(statusState) ([]byte, time.Time, bool, error) {
					renders++
					return nil, now, true, nil
				})
				require.NoError(t, err)
			}
			assert.Equal(t, c.renders, renders)
		})
	}
}

// TestStatusCacheWaiters: readers that wait while a rendering is under
// way, with answers stored meanwhile, render once more between them, not
// once each: the first to go renders, and the others take that rendering,
// which was begun after they arrived, though an answer was stored since
// they read the state.
func TestStatusCacheWaiters(t *testing.T) {
	var cache statusCache
	var mu sync.Mutex
	st := statusState{gate: &runtime.Gate{}, tools: 1}
	reads := 0
	allRead := make(chan struct{})
	read := func() statusState {
		mu.Lock()
		defer mu.Unlock()
		// The first reader's two reads (as it arrives, as it renders),
		// then the two waiters' as they arrive.
		if reads++; reads == 4 {
			close(allRead)
		}
		return st
	}
	store := func() { // an answer stored
		mu.Lock()
		st.tools++
		mu.Unlock()
	}
	now := func() time.Time { return time.Unix(1000, 0) }
	var renders atomic.Int64
	underWay, release := make(chan struct{}), make(chan struct{})
	encode := func(statusState) ([]byte, time.Time, bool, error) {
		if renders.Add(1) == 1 {
			close(underWay)
			<-release
		}
		return nil, now(), true, nil
	}
	var wg sync.WaitGroup
	wg.Go(func() { _, _ = cache.render(read, now, encode) })
	<-underWay
	store()
	for range 2 {
		wg.Go(func() { _, _ = cache.render(read, now, encode) })
	}
	<-allRead
	store()
	close(release)
	wg.Wait()
	assert.Equal(t, int64(2), renders.Load())
}

// sliceError is an error of many problems, as manifest.Errors is.
type sliceError []string

func (e sliceError) Error() string { return "problems" }

// valueError is an error that problemCache cannot identify: a struct.
type valueError struct{}

func (valueError) Error() string { return "a value" }
