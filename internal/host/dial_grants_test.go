package host

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/testnet"
)

// dtestDial runs gate.dial through the guest for each address and checks
// the status it answers.
func dtestDial(t *testing.T, c *Call, want map[string]int32) {
	t.Helper()
	g := newGuest(t)
	for addr, status := range want {
		p, n := g.put(t, 0, addr)
		got, err := g.call(c, "dial", p, n, 1000)
		require.NoError(t, err, addr)
		assert.Equal(t, status, got, addr)
	}
}

// dtestShortDir is a temporary directory with a path short enough for a
// socket name (108 bytes), which t.TempDir's often is not.
func dtestShortDir(t *testing.T) string {
	d, err := os.MkdirTemp("", "gd")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// A socket outside the granted directory stays out of reach through "..",
// a deeper directory, or a second slash.
func TestDialUnixSocketsOutsideTheGrant(t *testing.T) {
	d := dtestShortDir(t)
	for _, sub := range []string{"app", "app/sub", "secret"} {
		require.NoError(t, os.MkdirAll(filepath.Join(d, sub), 0o755))
	}
	testnet.Listen(t, "unix", filepath.Join(d, "app", "ok.sock"))
	testnet.Listen(t, "unix", filepath.Join(d, "app", "sub", "deep.sock"))
	testnet.Listen(t, "unix", filepath.Join(d, "secret", "docker.sock"))
	require.NoError(t, os.Symlink(filepath.Join(d, "secret"), filepath.Join(d, "app", "link")))

	c := testCall(t, Grants{Dial: []string{"unix:" + d + "/app/*.sock"}})
	dtestDial(t, c, map[string]int32{
		"unix:" + d + "/app/ok.sock":    StatusOK,
		"unix:" + d + "//app/./ok.sock": StatusOK,
		"unix:" + d + "/app/gone.sock":  StatusRefused,
		// Each of these reached docker.sock before.
		"unix:" + d + "/app/../secret/docker.sock":             StatusBadRequest,
		"unix:" + d + "/app/link/../app/../secret/docker.sock": StatusBadRequest,
		"unix:" + d + "/app/sub/deep.sock":                     StatusDenied,
		"unix:" + d + "/app/link/docker.sock":                  StatusDenied,
	})
	assert.NotEmpty(t, c.Denials())
}

func TestDialTCPPatterns(t *testing.T) {
	l4 := testnet.Listen(t, "tcp", "127.0.0.1:0")
	port := strconv.Itoa(l4.Addr().(*net.TCPAddr).Port)
	l6 := testnet.Listen(t, "tcp", "[::1]:0")
	port6 := strconv.Itoa(l6.Addr().(*net.TCPAddr).Port)

	c := testCall(t, Grants{Dial: []string{"127.0.0.*:" + port, "[::1]:" + port6, "localhost:" + port}})
	dtestDial(t, c, map[string]int32{
		"127.0.0.1:" + port:                  StatusOK,
		"[::ffff:127.0.0.1]:" + port:         StatusOK,
		"[0:0::1]:" + port6:                  StatusOK,
		"[0000::0001]:" + port6:              StatusOK,
		"LOCALHOST:" + port:                  StatusOK,
		"127.0.0.1.attacker.example:" + port: StatusDenied, // never looked up
		"127.0.0.attacker:" + port:           StatusDenied,
		"127.0.0.1:" + port6:                 StatusDenied,
		"[::ffff:127.0.0.1]:" + port6:        StatusDenied,
	})
	assert.Empty(t, c.Notes(), "no name was sent to a resolver")

	c = testCall(t, Grants{Dial: []string{"127.0.0.0/8:*", "[::1/128]:" + port6}})
	dtestDial(t, c, map[string]int32{
		"127.0.0.1:" + port:          StatusOK,
		"[::ffff:127.0.0.1]:" + port: StatusOK,
		"[::1]:" + port6:             StatusOK,
		"localhost:" + port:          StatusDenied, // a prefix matches addresses, never names
	})

	// An IPv6 grant, however wide, does not reach IPv4 through a mapped
	// address.
	c = testCall(t, Grants{Dial: []string{"[::/0]:*"}})
	dtestDial(t, c, map[string]int32{
		"[::1]:" + port6:             StatusOK,
		"[::ffff:127.0.0.1]:" + port: StatusDenied,
		"127.0.0.1:" + port:          StatusDenied,
	})
}
