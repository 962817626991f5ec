package server

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckBind(t *testing.T) {
	local := []string{"127.0.0.1:7311", "127.1.2.3:80", "localhost:7311", "LOCALHOST:1", "[::1]:7311", "[::ffff:127.0.0.1]:7311", "[::1%lo]:7311"}
	for _, addr := range local {
		assert.NoError(t, CheckBind(addr, false, ""), addr)
	}
	remote := []string{":7311", "0.0.0.0:7311", "[::]:7311", "192.168.1.5:7311", "10.0.0.1:80", "example.com:7311", "[2001:db8::1]:7311"}
	for _, addr := range remote {
		err := CheckBind(addr, false, "")
		assert.ErrorIs(t, err, ErrRemoteNotAllowed, addr)
		assert.ErrorIs(t, err, ErrRemoteNeedsToken, addr)

		err = CheckBind(addr, true, "")
		assert.False(t, errors.Is(err, ErrRemoteNotAllowed), addr)
		assert.ErrorIs(t, err, ErrRemoteNeedsToken, addr)
		assert.Contains(t, err.Error(), "needs a bearer token")

		err = CheckBind(addr, false, "tok")
		assert.ErrorIs(t, err, ErrRemoteNotAllowed, addr)
		assert.False(t, errors.Is(err, ErrRemoteNeedsToken), addr)
		assert.Contains(t, err.Error(), "--allow-remote")

		assert.NoError(t, CheckBind(addr, true, "tok"), addr)
	}
	assert.EqualError(t, CheckBind("0.0.0.0:7311", false, ""),
		"listening on every interface (0.0.0.0:7311) exposes gate beyond this machine: needs --allow-remote and needs a bearer token (--token-file or GATE_TOKEN) (loopback, e.g. 127.0.0.1:7311, needs neither)")
	assert.EqualError(t, CheckBind("192.168.1.5:7311", true, ""),
		"listening on 192.168.1.5 exposes gate beyond this machine: needs a bearer token (--token-file or GATE_TOKEN) (loopback, e.g. 127.0.0.1:7311, needs neither)")
	assert.ErrorContains(t, CheckBind("127.0.0.1", false, ""), "want HOST:PORT")
}
