package mcpgw

import (
	"context"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxURLElicitations is how many url-mode elicitations of one upstream
// gate remembers the client session of, for the upstream's
// notifications/elicitation/complete: the oldest is forgotten first.
const maxURLElicitations = 64

// urlElicitations maps the elicitationId of each url-mode elicitation an
// upstream sent through gate to the client session it went to.
type urlElicitations struct {
	mu    sync.Mutex
	to    map[string]*mcp.ServerSession
	order []string
}

// sent records that the url-mode elicitation id of the upstream went to
// ss.
func (e *urlElicitations) sent(id string, ss *mcp.ServerSession) {
	if id == "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.to == nil {
		e.to = map[string]*mcp.ServerSession{}
	}
	if _, ok := e.to[id]; !ok {
		e.order = append(e.order, id)
	}
	e.to[id] = ss
	for len(e.order) > maxURLElicitations {
		delete(e.to, e.order[0])
		e.order = e.order[1:]
	}
}

// take is the session the elicitation id went to, forgotten now; nil if
// none.
func (e *urlElicitations) take(id string) *mcp.ServerSession {
	e.mu.Lock()
	defer e.mu.Unlock()
	ss, ok := e.to[id]
	if ok {
		delete(e.to, id)
		// Out of the order too: an id left there would be counted
		// against the bound, and, sent again, evict its new entry early.
		e.order = slices.DeleteFunc(e.order, func(o string) bool { return o == id })
	}
	return ss
}

// elicitationComplete is gate's client's ElicitationCompleteHandler: the
// upstream's notifications/elicitation/complete goes to the client session
// its url-mode elicitation went to, and nowhere else (one gate did not
// relay is dropped).
func (u *upstream) elicitationComplete(ctx context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
	if req.Params == nil {
		return
	}
	ss := u.urlElicits.take(req.Params.ElicitationID)
	if ss == nil || u.gw.find(ss) == nil {
		return
	}
	_ = ss.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: req.Params.ElicitationID})
}
