package runtime

import (
	"context"
	"crypto/x509"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
)

// TestHostileReactorNeverShowsAnotherToolsConfig: remember_config keeps
// the config value its instance's first run read and answers with it on
// every later run. Two tools of that module with the same grants but
// their own config must each see their own value, whichever ran first.
func TestHostileReactorNeverShowsAnotherToolsConfig(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, NewEngineConfig().WithConcurrency(1))
	m := hostileModule(t, e, "remember_config")
	grants := hostfuncs.Grants{Env: []string{"HOME"}}
	first, err := e.NewProbe(ctx, "first", m, ProbeConfig{Grants: grants, Config: map[string]string{"k": "first tool's password"}})
	require.NoError(t, err)
	second, err := e.NewProbe(ctx, "second", m, ProbeConfig{Grants: grants, Config: map[string]string{"k": "second"}})
	require.NoError(t, err)

	assert.Equal(t, "first tool's password", first.Run(ctx).Reason)
	assert.Equal(t, "second", second.Run(ctx).Reason, "the second tool's run saw what the first tool's run kept")
	assert.Equal(t, "first tool's password", first.Run(ctx).Reason)
}

// TestInstancesNeverCrossProbeSettings: a run can observe every setting
// of its probe (its config through gate.config, its CA and proxy through
// what its TLS and HTTP calls see, its budget through the clock, its name
// through a denial in gate.last_error), so two probes of a non-standard
// module that differ in any of them never share an instance. stateful
// answers available on an instance's first run and unavailable after.
func TestInstancesNeverCrossProbeSettings(t *testing.T) {
	ctx := context.Background()
	base := func() (string, ProbeConfig) {
		return "tool", ProbeConfig{Grants: hostfuncs.Grants{Env: []string{"A"}}, Config: map[string]string{"k": "v"}}
	}
	for _, tc := range []struct {
		name   string
		change func(name *string, cfg *ProbeConfig)
	}{
		{"config value", func(_ *string, c *ProbeConfig) { c.Config = map[string]string{"k": "w"} }},
		{"config key", func(_ *string, c *ProbeConfig) { c.Config = map[string]string{"k": "v", "j": ""} }},
		{"tls_ca", func(_ *string, c *ProbeConfig) { c.TLSRootCAs = x509.NewCertPool() }},
		{"proxy", func(_ *string, c *ProbeConfig) { c.Proxy = true }},
		{"budget", func(_ *string, c *ProbeConfig) { c.Budget = 50 * time.Millisecond }},
		{"name", func(n *string, _ *ProbeConfig) { *n = "other tool" }},
		{"nothing but the probe", func(*string, *ProbeConfig) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngine(t, NewEngineConfig().WithConcurrency(1))
			m := hostileModule(t, e, "stateful")
			name, cfg := base()
			a, err := e.NewProbe(ctx, name, m, cfg)
			require.NoError(t, err)
			name, cfg = base()
			tc.change(&name, &cfg)
			b, err := e.NewProbe(ctx, name, m, cfg)
			require.NoError(t, err)
			assert.Equal(t, Available, a.Run(ctx).Outcome, "the first run of a's instance")
			res := b.Run(ctx)
			assert.Equal(t, Available, res.Outcome, "b ran on the instance a's run left (%q)", res.Reason)
			assert.Equal(t, Unavailable, a.Run(ctx).Outcome, "a's own instance is kept for a")
		})
	}
}
