package server

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPageRenderedOncePerChange: the status page is rendered as
// /v1/status is, once per change of what it tells and at most once per
// statusMaxAge, whatever the number of requests: a client that reloads it
// in a loop costs gate no rendering of every tool per request.
func TestPageRenderedOncePerChange(t *testing.T) {
	t.Setenv(statusEnv, "set")
	path := writeManifest(t, t.TempDir(), "[runtime]\nttl = \"1h\"\n\n[[tools]]\nname = \"search\"\nprobe = \"env:"+statusEnv+"\"\n")
	svc := openService(t, path, nil, serviceConfig(nil, nil))
	runService(t, svc)
	f := serve(t, svc, nil, Options{})
	clock := newHandClock()
	f.srv.now = clock.now
	var encodes atomic.Int64
	f.srv.testHook = func(step string) {
		if step == "encode page" {
			encodes.Add(1)
		}
	}
	get := func() string {
		r := f.getAccept(t, http.MethodGet, "/", browserAccept, "")
		assert.Equal(t, http.StatusOK, r.code)
		return r.body
	}
	first := get()
	for range 20 {
		assert.Equal(t, first, get())
	}
	assert.Equal(t, int64(1), encodes.Load(), "one rendering while nothing changed")

	clock.add(statusMaxAge)
	get()
	assert.Equal(t, int64(2), encodes.Load(), "a new rendering once the last is statusMaxAge old")
}

// TestPageSharedRendering: concurrent readers of the page get the same
// bytes from one rendering: those that arrive while it is under way wait
// for it instead of rendering their own.
func TestPageSharedRendering(t *testing.T) {
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
		case "enter page":
			if entered.Add(1) == readers {
				close(allIn)
			}
		case "encode page":
			if encodes.Add(1) == 1 {
				<-allIn
			}
		}
	}
	bodies := make([]string, readers)
	var wg sync.WaitGroup
	for i := range readers {
		wg.Go(func() {
			r := f.getAccept(t, http.MethodGet, "/", browserAccept, "")
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
