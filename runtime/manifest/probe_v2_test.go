package manifest

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ABI v2's keys on the table form: grants http, secrets and insecure, and
// tls_ca and proxy, which a standard probe may have too.
func TestProbeV2Good(t *testing.T) {
	src := `[[tools]]
name = "redis"
[tools.probe]
module = "p/redis.wasm"
tls_ca = "../certs/ca.pem"
proxy = true
grants = { dial = ["127.0.0.1:6379"], secrets = ["REDIS_PASSWORD"], insecure = ["127.0.0.1:6379"], http = ["https://api.example.com/v1/"] }

[[tools]]
name = "std"
probe = { standard = "tcp:localhost:5432", tls_ca = "/etc/ca.pem", proxy = false, budget = "5ms" }

[[tools]]
name = "short"
probe = "tcp:localhost:1"
`
	for _, fast := range []bool{true, false} {
		m, errs, _, took := parseMode("/abs/dir/gate.toml", []byte(src), Limits{}, fast)
		require.Empty(t, errs, "%+v", errs)
		assert.Equal(t, fast, took, "the fast path takes v2 keys")
		p := m.Tools[0].Probe
		assert.Equal(t, "/abs/dir/p/redis.wasm", p.Module)
		assert.Equal(t, "/abs/certs/ca.pem", p.TLSCA, "relative to the manifest's directory, cleaned")
		assert.True(t, p.Proxy)
		assert.Equal(t, []string{"127.0.0.1:6379"}, p.Dial)
		assert.Equal(t, []string{"REDIS_PASSWORD"}, p.Secrets)
		assert.Equal(t, []string{"127.0.0.1:6379"}, p.Insecure)
		assert.Equal(t, []string{"https://api.example.com/v1/"}, p.HTTP)

		s := m.Tools[1].Probe
		assert.Equal(t, "tcp:localhost:5432", s.Standard)
		assert.Equal(t, "/etc/ca.pem", s.TLSCA)
		assert.False(t, s.Proxy)
		assert.Nil(t, s.Secrets)

		assert.Equal(t, &Probe{Standard: "tcp:localhost:1", Pos: m.Tools[2].Probe.Pos}, m.Tools[2].Probe)
	}
}

// An http entry is checked by hostfuncs' Compile like every other grant,
// and refused at its line and column with a caret under it.
func TestProbeV2HTTPGrantChecked(t *testing.T) {
	src := `[[tools]]
name = "api"
probe = { module = "p.wasm", grants = { http = ["ftp://h/x", "ok"], env = ["A"] } }
`
	require.True(t, !sameAsFullPath(t, []byte(src), Limits{}), "an error: the full path's")
	_, err := Parse("gate.toml", []byte(src))
	var errs Errors
	require.True(t, errors.As(err, &errs), "%v", err)
	require.Len(t, errs, 2)
	e := errs[0]
	assert.Equal(t, "tools[0].probe.grants.http[0]", e.Key)
	assert.Equal(t, Position{File: "gate.toml", Line: 3, Col: 49}, e.Pos)
	assert.True(t, strings.HasPrefix(e.Msg, `http grant "ftp://h/x": `), e.Msg)
	assert.Contains(t, e.Detail(), "\n     | "+strings.Repeat(" ", 48)+`^^^^^^^^^^^ http grant "ftp://h/x": `)
	assert.Equal(t, "tools[0].probe.grants.http[1]", errs[1].Key)
	assert.Equal(t, 62, errs[1].Pos.Col)
}
