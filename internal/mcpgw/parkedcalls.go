package mcpgw

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The gateway's parked calls (parked.go): found by their requestState,
// and bounded in all and per upstream.

// maxParkedCalls bounds the calls parked at once in one gate process: a
// parked call holds one of its upstream's call slots, a goroutine and the
// upstream's waiting request for up to its call_timeout with no request
// of its client open, so a client that never retries costs that much
// until the deadline. maxParkedPerUpstream is one upstream's share, so
// that one asking in a loop leaves the rest to the others. (Variables
// only so that a test can lower them.)
var (
	maxParkedCalls       = 64
	maxParkedPerUpstream = 16
)

// parkedCalls is the gateway's parked calls, by their requestState.
type parkedCalls struct {
	mu      sync.Mutex
	byState map[string]*parkedCall
	held    int               // calls holding a parked slot
	heldBy  map[*upstream]int // of them, each upstream's
	live    map[*parkedCall]struct{}
}

// parkedKey marks the context of a parked call, and holds the call: it is
// not one of its first POST's session's calls (track), as it outlives that
// POST; and an upstream's request tied to the forwarded call is its own
// (parkedFor).
type parkedKey struct{}

func isParked(ctx context.Context) bool { return ctx.Value(parkedKey{}) != nil }

// endAll ends every parked call, with cause.
func (p *parkedCalls) endAll(cause error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for pc := range p.live {
		pc.cancel(cause)
	}
}

// add registers pc by its requestState.
func (p *parkedCalls) add(pc *parkedCall) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.byState == nil {
		p.byState, p.heldBy, p.live = map[string]*parkedCall{}, map[*upstream]int{}, map[*parkedCall]struct{}{}
	}
	p.byState[pc.state] = pc
	p.live[pc] = struct{}{}
}

// find is the parked call whose requestState is state, or nil.
func (p *parkedCalls) find(state string) *parkedCall {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.byState[state]
}

// hold counts pc as parked, once, within maxParkedCalls and its
// upstream's share.
func (p *parkedCalls) hold(pc *parkedCall) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.slot {
		return nil
	}
	if _, ok := p.live[pc]; !ok {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the call has ended"}
	}
	if p.held >= maxParkedCalls || p.heldBy[pc.up] >= maxParkedPerUpstream {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("gate holds as many calls waiting for a 2026-07-28 client's input as it keeps (%d, %d for server %s): the request was not relayed", maxParkedCalls, maxParkedPerUpstream, pc.up.name)}
	}
	pc.slot = true
	p.held++
	p.heldBy[pc.up]++
	return nil
}

// forget ends pc's state: its requestState names nothing after, and its
// slot is free.
func (p *parkedCalls) forget(pc *parkedCall) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.byState, pc.state)
	delete(p.live, pc)
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if pc.slot {
		pc.slot = false
		p.held--
		if p.heldBy[pc.up]--; p.heldBy[pc.up] == 0 {
			delete(p.heldBy, pc.up)
		}
	}
}

// parkedFor is the parked call u's request for input (method, its
// context ctx, for ss) is for. One tied to the call it came with
// (tiedTo) is that call's, nil when that call is not parked: the stream
// says which of ss's calls it is, however many ss has on u. Any other is
// ss's one parked call on u (forRelay).
func (u *upstream) parkedFor(ctx context.Context, ss *mcp.ServerSession, method string) (*parkedCall, error) {
	if c, tied := ctx.Value(tiedKey{}).(*relayCall); tied && c != nil {
		pc, _ := c.ctx.Value(parkedKey{}).(*parkedCall)
		return pc, nil
	}
	return u.gw.parked.forRelay(u, ss, method)
}

// forRelay is the parked call of ss on u that u's request for input is
// for: nil when ss has none there; an error when it has several (the old
// form does not say which call it is for).
func (p *parkedCalls) forRelay(u *upstream, ss *mcp.ServerSession, method string) (*parkedCall, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var found *parkedCall
	for pc := range p.live {
		if pc.up != u || pc.ss != ss {
			continue
		}
		if found != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("gate cannot tell which call %s is for: one client has several calls in flight on server %s", method, u.name)}
		}
		found = pc
	}
	return found, nil
}

// Held is how many calls hold a parked slot (for the tests).
func (p *parkedCalls) Held() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

// newRequestState is an unguessable requestState: 128 random bits.
func newRequestState() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}
