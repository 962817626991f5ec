package mcpgw

import (
	"sync"
	"time"
)

// listChangedSpacer spaces the notifications/tools/list_changed the
// sessions get when Config.WithListChangedInterval is set. The first
// change of the offered tools after a quiet spell starts an interval; the
// notification the SDK sends each session for it, and for every change
// made until the interval ends, is held, and one goes out to each session
// at its end. A client is thus told of a change at most one interval
// late, and re-reads its list (and has its model provider re-read the
// prompt that holds it) at most once per interval, however often the
// tools flip: a tool hidden and shown again within one interval costs one
// re-read of an unchanged list (tools/list is sorted by name, whatever
// flips) instead of two of changed ones.
type listChangedSpacer struct {
	mu      sync.Mutex
	pending map[*clientSession]*outMsg // the notification each session is owed
	armed   bool                       // a timer will release pending
}

// hold keeps m, cs's list_changed, until the interval under way ends,
// starting one if none is.
func (h *listChangedSpacer) hold(g *Gateway, cs *clientSession, m *outMsg) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.pending == nil {
		h.pending = map[*clientSession]*outMsg{}
	}
	h.pending[cs] = m // list_changed has no parameters: any one says it all
	if !h.armed {
		h.armed = true
		time.AfterFunc(g.cfg.listChangedInterval, func() { h.release(g) })
	}
}

// release sends each session still open the notification it is owed.
func (h *listChangedSpacer) release(g *Gateway) {
	h.mu.Lock()
	pending := h.pending
	h.pending, h.armed = nil, false
	h.mu.Unlock()
	for cs, m := range pending {
		if g.find(cs.ss) == cs {
			g.enqueue(cs, m)
		}
	}
}
