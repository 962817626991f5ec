package mcpgw

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Parked slots are bounded in all and per upstream: one upstream's calls
// past its share are refused while another's are held, up to the cap in
// all; a call that ends frees its slot; a call holds one slot however
// many times it asks.
func TestParkedSlotsCappedPerUpstream(t *testing.T) {
	defer SetParkedCaps(3, 2)()
	var p parkedCalls
	a, b := &upstream{name: "a"}, &upstream{name: "b"}
	n := 0
	newCall := func(u *upstream) *parkedCall {
		n++
		pc := &parkedCall{parkedFor: parkedFor{up: u}, state: string(rune('0' + n)), cancel: func(error) {}}
		p.add(pc)
		return pc
	}
	a1, a2, a3 := newCall(a), newCall(a), newCall(a)
	require.NoError(t, p.hold(a1))
	require.NoError(t, p.hold(a1), "a call asking again holds its one slot")
	require.NoError(t, p.hold(a2))
	assert.ErrorContains(t, p.hold(a3), "(3, 2 for server a)")
	b1, b2 := newCall(b), newCall(b)
	require.NoError(t, p.hold(b1))
	assert.ErrorContains(t, p.hold(b2), "gate holds as many calls waiting", "past the cap in all")
	p.forget(a1)
	require.NoError(t, p.hold(b2), "an ended call's slot serves the next")
	assert.Equal(t, 3, p.Held())
	assert.Error(t, p.hold(a1), "an ended call holds nothing again")
}
