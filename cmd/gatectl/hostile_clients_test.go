package main

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcptest"
	"github.com/gate-dev/gate/internal/testnet"
)

// stalledSessions is how many sessions hostileClients stalls.
const stalledSessions = 2

// Loopback addresses of the attack's clients that are peers of their own
// to serve, whose per-peer connection shares are all that tell a hostile
// client from an honest one: on the honest clients' 127.0.0.1 they would
// take the honest clients' share (a loaded machine's honest request, its
// connection closed to make room for the flood's before it was read,
// ended without an answer).
const (
	// idlePeer holds the idle connections.
	idlePeer = "127.0.0.6"
	// callerPeer is the Go SDK clients' that call the hostile upstreams'
	// tools.
	callerPeer = "127.0.0.7"
)

// hostileClients is the attack the serve soaks aim at /mcp, whatever else
// each adds: sessions that stop reading, batch initializes kept open past
// the session cap, connections without the token that send nothing, and
// a watch on how many sessions are open. A soak adds its own attackers
// with loop, once start has set the attacks' time.
type hostileClients struct {
	t               *testing.T
	s               *serveProcess
	endpoint, token string

	ctx      context.Context // the attacks' time, from start
	wg       sync.WaitGroup
	stopIdle func()

	mu              sync.Mutex
	sessionIDs      []string // the batch initializes' sessions, to close at the end
	refused, failed atomic.Int64
	most            atomic.Int64 // the most sessions seen open at once
}

// newHostileClients stalls stalledSessions sessions (a standalone stream
// never read, and a call whose stream is never read while it floods it:
// 16 MB, four times what loopback's send buffer grows to, so a write to
// it blocks even when gate drops progress a full queue cannot take), then
// opens 300 sessions
// with batch initializes, 16 at a time.
func newHostileClients(t *testing.T, s *serveProcess, endpoint, token string) *hostileClients {
	h := &hostileClients{t: t, s: s, endpoint: endpoint, token: token}
	for range stalledSessions {
		c := &mcptest.Raw{T: t, Endpoint: endpoint, Token: token}
		c.Open()
		c.Stall(http.MethodGet, "")
		c.Stall(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"flood","arguments":{"steps":4000},"_meta":{"progressToken":"t"}}}`)
	}
	var opening sync.WaitGroup
	for range 16 {
		opening.Go(func() {
			for range 300 / 16 {
				h.initialize()
			}
		})
	}
	opening.Wait()
	t.Logf("batch initializes: %d opened, %d refused, %d failed", len(h.sessionIDs), h.refused.Load(), h.failed.Load())
	return h
}

// initialize opens a session with a batch initialize, and keeps it open.
func (h *hostileClients) initialize() {
	c := &mcptest.Raw{T: h.t, Endpoint: h.endpoint, Token: h.token}
	resp, err := c.Try("[" + mcptest.InitializeBody + "]")
	switch {
	case err != nil:
		h.failed.Add(1)
	case resp.StatusCode == http.StatusServiceUnavailable:
		h.refused.Add(1)
	case resp.Header.Get("Mcp-Session-Id") != "":
		h.mu.Lock()
		h.sessionIDs = append(h.sessionIDs, resp.Header.Get("Mcp-Session-Id"))
		h.mu.Unlock()
	}
}

// start begins the attacks' time, for d: batch initializes throughout,
// 1,100 idle connections from idlePeer opened again as the server closes
// them, and
// the watch on the session count. The caller defers stop.
func (h *hostileClients) start(d time.Duration) (stop func()) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	h.ctx = ctx
	h.loop(h.initialize)
	_, h.stopIdle = testnet.HoldIdleFrom(idlePeer, h.s.addr, 1100)
	h.loop(func() {
		h.most.Store(max(h.most.Load(), int64(h.s.gauge(h.t, "gate_mcp_sessions"))))
		time.Sleep(50 * time.Millisecond)
	})
	return func() {
		cancel()
		h.stopIdle()
	}
}

// loop calls f over and over until the attacks' time ends, and at least
// once: a loaded machine may run an attacker only after that time has
// passed (the idle connections' dialling alone can take it), and an
// attack that never ran tests nothing.
func (h *hostileClients) loop(f func()) {
	h.wg.Go(func() {
		for {
			f()
			if h.ctx.Err() != nil {
				return
			}
		}
	})
}

// wait waits for every attacker to stop.
func (h *hostileClients) wait() { h.wg.Wait() }

// leave takes the attackers away: the idle connections close, and the
// sessions the batch initializes opened are deleted. The stalled sessions
// are left for gate to drop.
func (h *hostileClients) leave() {
	h.stopIdle()
	for _, id := range h.sessionIDs {
		req, err := http.NewRequest(http.MethodDelete, h.endpoint, nil)
		if err != nil {
			h.t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+h.token)
		req.Header.Set("Mcp-Session-Id", id)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}
}
