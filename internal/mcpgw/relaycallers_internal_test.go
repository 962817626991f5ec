package mcpgw

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A request tied to a call goes to that call's session, within that call,
// whatever other sessions have in flight; once that call has ended (or
// its stream has: no call), it goes to no one, not to the session whose
// calls are left.
func TestRelayForTiedCall(t *testing.T) {
	var r relayCallers
	alice, bob := &mcp.ServerSession{}, &mcp.ServerSession{}
	aliceCtx, cancelAlice := context.WithCancel(context.Background())
	defer cancelAlice()
	_, leftAlice := r.enter(aliceCtx, alice)
	var aliceCall *relayCall
	for c := range r.calls {
		aliceCall = c
	}
	_, leftBob := r.enter(context.Background(), bob)
	defer leftBob()

	tied := context.WithValue(context.Background(), tiedKey{}, aliceCall)
	ss, rctx, done, sessions := r.relayFor(tied)
	require.Equal(t, oneCaller, sessions)
	assert.Same(t, alice, ss)
	cancelAlice()
	<-rctx.Done() // the relay ends with its call
	done()

	_, _, _, sessions = r.relayFor(context.Background())
	assert.Equal(t, severalCallers, sessions, "untied, among two sessions")

	leftAlice()
	_, _, _, sessions = r.relayFor(tied)
	assert.Equal(t, callerEnded, sessions, "tied to a call that ended")
	_, _, _, sessions = r.relayFor(context.WithValue(context.Background(), tiedKey{}, (*relayCall)(nil)))
	assert.Equal(t, callerEnded, sessions, "tied to a stream that ended")
	_, _, _, sessions = r.relayFor(context.Background())
	assert.Equal(t, oneCaller, sessions, "untied, with one session's calls left")
}
