package host

import "testing"

// What the probe-level hostile tests of secrets (package host_test,
// which run a real probe through the runtime) share with the host-level
// ones: the grants, the values, the leak finder and the peers.
var (
	BoundSecret         = boundSecret
	Reach               = reach
	MergeGrants         = grantsOf
	HostileValue        = hostileValue
	SpecialValue        = specialValue
	AssertNoLeak        = assertNoLeak
	AssertSameText      = assertSameText
	Decodings           = decodings
	HostileHTTP         = hostileHTTP
	HostilePeer         = hostilePeer
	CountingPeer        = countingPeer
	RepeatHandler       = repeatHandler
	EncodedTokenHandler = encodedTokenHandler
	DumpHandler         = dumpHandler
	RedisMonitor        = redisMonitor
	Placeholders        = placeholders
	CopiesOfP           = copiesOfP
)

// AssertSameObservations is assertSameObservations for the observations
// of a probe-level test.
func AssertSameObservations(t testing.TB, what string, a, b []string) bool {
	t.Helper()
	return assertSameObservations(t, what, seen(a), seen(b))
}

// Total is how many bytes the peer was sent; Ends how many of its
// connections are over.
func (r *received) Total() int64 { return r.total.Load() }
func (r *received) Ends() int32  { return r.ends.Load() }
