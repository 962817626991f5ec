package runtime

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/testsvc"
)

// TestOnlyTLSProbesWarmSystemRoots counts who asks for the system's TLS
// roots: a probe that speaks plaintext (redis:, postgres:, http://) must
// not, neither when it is made nor when it runs against a real server,
// since loading them is most of what such a run costs; a probe that speaks
// TLS must, before its first handshake; and one with its own CA never
// needs them.
func TestOnlyTLSProbesWarmSystemRoots(t *testing.T) {
	var asked int
	saved := warmSystemRoots
	warmSystemRoots = func() { asked++ }
	t.Cleanup(func() { warmSystemRoots = saved })
	ctx := context.Background()
	e := newEngine(t, NewEngineConfig())

	redis := e.mustStandard(t, "redis:"+testsvc.Redis(t, ""), ProbeConfig{})
	res := redis.Run(ctx)
	require.Equal(t, Available, res.Outcome, "%v %s", res.Err, res.Reason)
	for _, plain := range []string{"postgres:127.0.0.1:5432", "http://127.0.0.1:8080/health", "tcp:127.0.0.1:22", "env:HOME"} {
		e.mustStandard(t, plain, ProbeConfig{})
	}
	assert.Zero(t, asked, "a plaintext probe asked for the system roots")

	for _, tls := range []string{"redis:tls:127.0.0.1:6380", "https://127.0.0.1:8443/health", "tls:example.com:443", "mcp:https://127.0.0.1:8443/mcp"} {
		before := asked
		e.mustStandard(t, tls, ProbeConfig{})
		assert.Equal(t, before+1, asked, "%s did not warm the system roots", tls)
	}
	insecure := ProbeConfig{Grants: hostfuncs.Grants{Insecure: []string{"127.0.0.1:8443"}}}
	before := asked
	e.mustStandard(t, "http://127.0.0.1:8443/health", insecure)
	assert.Equal(t, before+1, asked, "an insecure grant checks the peer against the system roots")

	before = asked
	e.mustStandard(t, "https://127.0.0.1:8443/health", ProbeConfig{TLSRootCAs: testsvc.NewCA(t).Pool()})
	assert.Equal(t, before, asked, "a probe with its own CA never uses the system roots")
}

func (e *Engine) mustStandard(t *testing.T, shorthand string, cfg ProbeConfig) *Probe {
	t.Helper()
	p, err := e.StandardProbe(context.Background(), shorthand, shorthand, cfg)
	require.NoError(t, err, shorthand)
	t.Cleanup(func() { p.Close(context.Background()) })
	return p
}
