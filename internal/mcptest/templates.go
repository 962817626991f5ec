package mcptest

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ManyVariables is a URI template of n variables in one expression, more
// than Go's regexp repeats when n passes 1,000.
func ManyVariables(n int) string {
	vars := make([]string, n)
	for i := range vars {
		vars[i] = fmt.Sprintf("v%d", i)
	}
	return "x://h{/" + strings.Join(vars, ",") + "}"
}

// Templates is an upstream MCP server (Server's tools) with the resource
// templates given, all listed on one page. It answers resources/read
// itself, with "TAG reads it" (the SDK's own matching of a template past
// Go's regexp limits panics, and this upstream must not), and takes
// subscriptions to any URI, keeping those of each of its sessions until
// the session ends.
type Templates struct {
	Server *mcp.Server
	mu     sync.Mutex
	subs   map[*mcp.ServerSession]map[string]bool
}

// NewTemplates is Templates tagged tag.
func NewTemplates(tag string, templates ...string) *Templates {
	t := &Templates{subs: map[*mcp.ServerSession]map[string]bool{}}
	t.Server = mcp.NewServer(&mcp.Implementation{Name: tag, Version: "1"}, &mcp.ServerOptions{
		PageSize: max(len(templates), 1),
		SubscribeHandler: func(_ context.Context, r *mcp.SubscribeRequest) error {
			t.mu.Lock()
			defer t.mu.Unlock()
			if t.subs[r.Session] == nil {
				t.subs[r.Session] = map[string]bool{}
				go func() {
					_ = r.Session.Wait()
					t.mu.Lock()
					defer t.mu.Unlock()
					delete(t.subs, r.Session)
				}()
			}
			t.subs[r.Session][r.Params.URI] = true
			return nil
		},
		UnsubscribeHandler: func(_ context.Context, r *mcp.UnsubscribeRequest) error {
			t.mu.Lock()
			defer t.mu.Unlock()
			delete(t.subs[r.Session], r.Params.URI)
			return nil
		},
	})
	addServerTools(t.Server)
	for i, tmpl := range templates {
		t.Server.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: tmpl, Name: fmt.Sprintf("t%d", i)}, nil)
	}
	t.Server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if r, ok := req.(*mcp.ReadResourceRequest); ok {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: r.Params.URI, Text: tag + " reads it"}}}, nil
			}
			return next(ctx, method, req)
		}
	})
	return t
}

// Subscribed is how many URIs the upstream is subscribed to now, all its
// sessions together.
func (t *Templates) Subscribed() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, uris := range t.subs {
		n += len(uris)
	}
	return n
}
