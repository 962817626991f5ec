package mcpgw

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sent records what an outbox writes.
type sent struct{ methods []string }

func (s *sent) handler(_ context.Context, method string, req mcp.Request) (mcp.Result, error) {
	if p, ok := req.GetParams().(*mcp.ProgressNotificationParams); ok {
		method += ":" + p.Message
	}
	s.methods = append(s.methods, method)
	return nil, nil
}

func progressMsg(s *sent, token any, message string) *outMsg {
	req := &mcp.ServerRequest[*mcp.ProgressNotificationParams]{Params: &mcp.ProgressNotificationParams{ProgressToken: token, Message: message}}
	return &outMsg{ctx: context.Background(), method: "notifications/progress", req: req, send: s.handler, key: coalesceKey("notifications/progress", req)}
}

func listChangedMsg(s *sent) *outMsg {
	req := &mcp.ServerRequest[*mcp.ToolListChangedParams]{Params: &mcp.ToolListChangedParams{}}
	return &outMsg{ctx: context.Background(), method: "notifications/tools/list_changed", req: req, send: s.handler, key: coalesceKey("notifications/tools/list_changed", req)}
}

// The outbox's rules, written out: list_changed waiting is not queued
// again; progress is queued while there is room, and when full replaces
// the newest of its call's; past the bound anything else is refused (the
// session is dropped); flush markers always go in.
func TestOutbox(t *testing.T) {
	s := &sent{}
	var o outbox
	put := func(m *outMsg) bool {
		ok, _ := o.put(m, 3)
		return ok
	}
	require.True(t, put(listChangedMsg(s)))
	require.True(t, put(listChangedMsg(s)), "coalesced")
	require.True(t, put(progressMsg(s, "a", "1")))
	require.True(t, put(progressMsg(s, "a", "2")))
	require.True(t, put(progressMsg(s, "a", "3")), "replaces 2, the outbox being full")
	require.True(t, put(progressMsg(s, 7, "x")) == false, "a new call's progress past the bound")
	marker := &outMsg{done: make(chan struct{})}
	require.True(t, put(marker), "a flush marker always goes in")
	o.write()
	assert.Equal(t, []string{"notifications/tools/list_changed", "notifications/progress:1", "notifications/progress:3"}, s.methods)
	<-marker.done

	// Once written, a list_changed is queued again.
	require.True(t, put(listChangedMsg(s)))
	o.write()
	assert.Len(t, s.methods, 4)

	// A closed outbox takes everything and writes nothing.
	o.close()
	require.True(t, put(listChangedMsg(s)))
	m := &outMsg{done: make(chan struct{})}
	require.True(t, put(m))
	<-m.done
	o.write()
	assert.Len(t, s.methods, 4)
}

func logMsg(s *sent, n int) *outMsg {
	//lint:ignore SA1019 MCP deprecates logging as of 2026-07-28 (SEP-2577); clients and servers of the earlier versions gate speaks use it
	req := &mcp.ServerRequest[*mcp.LoggingMessageParams]{Params: &mcp.LoggingMessageParams{Level: "info", Data: n}}
	return &outMsg{ctx: context.Background(), method: methodLog, req: req, send: s.handler, key: coalesceKey(methodLog, req)}
}

// Log messages never cost a session: past the bound a new one is dropped,
// and any other message takes the place of the oldest one queued; each
// dropped one is counted. Without log messages queued, the bound drops
// the session as before.
func TestOutboxShedsLogMessages(t *testing.T) {
	s := &sent{}
	var o outbox
	put := func(m *outMsg) bool {
		ok, _ := o.put(m, 3)
		return ok
	}
	for i := range 3 {
		require.True(t, put(logMsg(s, i)))
	}
	require.True(t, put(logMsg(s, 3)), "a log message past the bound is dropped, not the session")
	assert.Equal(t, 1, o.shedCount())
	require.True(t, put(listChangedMsg(s)), "takes the place of log message 0")
	require.True(t, put(progressMsg(s, "a", "1")), "takes the place of log message 1")
	require.True(t, put(progressMsg(s, "b", "1")), "takes the place of log message 2")
	assert.Equal(t, 3, o.shedCount())
	assert.Equal(t, 0, o.shedCount(), "counted once")
	require.False(t, put(progressMsg(s, "c", "1")), "no log message left to drop: the session is")
	o.write()
	assert.Equal(t, []string{"notifications/tools/list_changed", "notifications/progress:1", "notifications/progress:1"}, s.methods)

	// Written, they leave room for log messages again.
	require.True(t, put(logMsg(s, 4)))
	o.write()
	assert.Equal(t, methodLog, s.methods[3])
	assert.Zero(t, o.logs)
}
