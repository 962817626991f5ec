package mcpgw

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolsPage is how many tools one tools/list answer holds: the SDK's
// page size.
const toolsPage = mcp.DefaultPageSize

// serveOffered answers tools/list from the offered set the gateway
// computed last, and sends a tools/call of a tool in that set to its
// upstream (refusing any other with why, callOffered), so that each
// request sees one whole set. The SDK's server
// (v1.8.0) changes its tools one call at a time (RemoveTools, then
// AddTool for each), under a lock it takes and drops for each: a
// tools/list between two of them saw a set that never was, a renamed
// tool under neither name, and a tools/call a bare "unknown tool". The
// SDK's set is still kept in step (compute): its changes send
// notifications/tools/list_changed, and its streamable transport looks a
// called tool up there.
func (g *Gateway) serveOffered(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			if r, ok := req.(*mcp.ListToolsRequest); ok {
				g.awaitFirstLook(ctx, "tools/list")
				return g.listTools(r)
			}
		case "tools/call":
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
				return g.callOffered(ctx, r)
			}
		}
		return next(ctx, method, req)
	}
}

// errOfferedNow is what callOffered's refuseHidden passes a call on to
// when the set changed between callOffered's look and its own, and now
// offers the tool.
var errOfferedNow = errors.New("offered now")

// callOffered forwards a call of an offered tool to its upstream, and has
// refuseHidden refuse one that is not offered, with why. Should the set
// change between the two looks and offer the tool after all, what
// refuseHidden passes the call on to is not the SDK's handler (whose set
// may still be being changed) but a look again.
func (g *Gateway) callOffered(ctx context.Context, r *mcp.CallToolRequest) (mcp.Result, error) {
	refuse := g.refuseHidden(func(context.Context, string, mcp.Request) (mcp.Result, error) { return nil, errOfferedNow })
	g.mu.Lock()
	_, on := g.offered[r.Params.Name]
	g.mu.Unlock()
	if !on {
		g.awaitFirstLook(ctx, "tools/call")
	}
	for range 3 {
		g.mu.Lock()
		o := g.offered[r.Params.Name]
		g.mu.Unlock()
		if o != nil {
			res, err := g.forward(o)(ctx, r)
			if err == nil && res != nil && res.Content == nil {
				c := *res
				c.Content = []mcp.Content{} // as the SDK's server: never "null"
				res = &c
			}
			return markComplete(r, res), err
		}
		res, err := refuse(ctx, "tools/call", r)
		if !errors.Is(err, errOfferedNow) {
			return res, err
		}
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("tool %s is not available now: the tools offered are changing; list them again", quote(r.Params.Name))}
}

// listTools answers one page of the offered set, sorted by name. A cursor
// is the last name of the page before (encoded, as the protocol wants it
// opaque): the next page starts after it in the set offered when it is
// asked for.
func (g *Gateway) listTools(req *mcp.ListToolsRequest) (*mcp.ListToolsResult, error) {
	g.mu.Lock()
	listed := g.listed
	g.mu.Unlock()
	start := 0
	if req.Params != nil && req.Params.Cursor != "" {
		after, err := base64.RawURLEncoding.DecodeString(req.Params.Cursor)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tools/list: the cursor is not one gate gave"}
		}
		start, _ = slices.BinarySearchFunc(listed, string(after), func(t *mcp.Tool, name string) int { return strings.Compare(t.Name, name) })
		if start < len(listed) && listed[start].Name == string(after) {
			start++
		}
	}
	end := min(start+toolsPage, len(listed))
	res := &mcp.ListToolsResult{Tools: append([]*mcp.Tool{}, listed[start:end]...)}
	setCacheable(req, &res.Cacheable, g.listTTL())
	if end < len(listed) {
		res.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(listed[end-1].Name))
	}
	return res, nil
}
