package gateway

import (
	"context"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type progressRoute struct {
	session *mcp.ServerSession
	token   any
}

// progress forwards an upstream's progress notification to the client
// whose call it belongs to, under the client's own token.
func (u *upstream) progress(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
	tk, ok := req.Params.ProgressToken.(string)
	if !ok {
		return
	}
	u.mu.Lock()
	r, ok := u.routes[tk]
	u.mu.Unlock()
	if !ok {
		return
	}
	p := *req.Params
	p.ProgressToken = r.token
	p.Message = cleanMessage(p.Message)
	_ = r.session.NotifyProgress(ctx, &p)
}

// route registers a progress token for a forwarded call; the returned
// function removes it.
func (u *upstream) route(ss *mcp.ServerSession, token any) (string, func()) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.nextTk++
	tk := "gate-" + strconv.FormatUint(u.id, 10) + "-" + strconv.FormatUint(u.nextTk, 10)
	u.routes[tk] = progressRoute{ss, token}
	return tk, func() {
		// The SDK handles an upstream's notifications apart from its
		// answers, so progress sent just before the answer can be handled
		// just after it: the route outlives the call by a moment so that
		// such progress still reaches the client.
		time.AfterFunc(progressLinger, func() {
			u.mu.Lock()
			delete(u.routes, tk)
			u.mu.Unlock()
		})
	}
}

// progressLinger is how long a call's progress route outlives the call.
const progressLinger = 250 * time.Millisecond
