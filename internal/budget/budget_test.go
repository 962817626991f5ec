package budget

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A party past its share is refused alone; past the total, whoever asks;
// what is given back may be taken again, and a party holding nothing is
// forgotten.
func TestShared(t *testing.T) {
	t.Parallel()
	b := New(10, 4)
	require.NoError(t, b.Take("a", 4))
	assert.ErrorIs(t, b.Take("a", 1), ErrOverShare, "a holds its share")
	require.NoError(t, b.Take("b", 3))
	require.NoError(t, b.Take("c", 3))
	assert.ErrorIs(t, b.Take("d", 1), ErrOverTotal, "the total is held")
	assert.ErrorIs(t, b.Take("a", 1), ErrOverShare, "the share is told first")
	assert.Equal(t, int64(10), b.Held())
	b.Give("a", 4)
	assert.Equal(t, 2, b.Parties(), "a holds nothing and is forgotten")
	require.NoError(t, b.Take("d", 4))
	assert.Equal(t, int64(4), b.HeldBy("d"))
	assert.Equal(t, int64(0), b.HeldBy("a"))
}

func TestPeer(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		"127.0.0.1:5000":           "127.0.0.1",
		"127.0.0.2:5000":           "127.0.0.2",
		"[::1]:80":                 "::1",
		"[2001:db8:1:2:3:4:5:6]:1": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ff::1]:9":   "2001:db8:1:2::/64",
		"[::ffff:10.0.0.1]:7":      "10.0.0.1",
		"10.0.0.1":                 "10.0.0.1",
		"@":                        "@",
	} {
		assert.Equal(t, want, Peer(addr), addr)
	}
}

// Peer never panics, and two ports of one address are one peer.
func FuzzPeer(f *testing.F) {
	for _, s := range []string{"127.0.0.1:1", "[::1]:2", "[2001:db8::1]:3", "[fe80::1%eth0]:4", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		p := Peer(addr)
		if ap, err := netip.ParseAddrPort(addr); err == nil {
			assert.Equal(t, p, Peer(netip.AddrPortFrom(ap.Addr(), ap.Port()+1).String()))
		}
	})
}
