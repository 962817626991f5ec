package server

import (
	"github.com/gate-dev/gate/internal/statusview"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStatusShowsEveryProbe: /v1/status names the probe of every entry as
// gatectl check --json does, a [[servers.tools]] rule's included, and
// where each answer came from.
func TestStatusShowsEveryProbe(t *testing.T) {
	const manifest = `[[tools]]
name = "search"
probe = "env:GATE_STATUS_PROBE_SEARCH"

[[tools]]
name = "echo"

[[servers]]
name = "notes"
command = ["notes-server"]
probe = "env:GATE_STATUS_PROBE_NOTES"

[[servers.tools]]
match = "write_*"
probe = "env:GATE_STATUS_PROBE_WRITE"
`
	svc := openService(t, writeManifest(t, t.TempDir(), manifest), nil, serviceConfig(nil, nil))
	runService(t, svc)
	f := serve(t, svc, nil, Options{})
	_, st, _ := newStatusReader(f).get(t)

	byName := map[string]statusview.Info{}
	for _, e := range append(st.Tools, st.Servers...) {
		byName[e.Name] = e
	}
	for _, want := range []struct{ name, probe, source string }{
		{"search", "env:GATE_STATUS_PROBE_SEARCH", "cached"},
		{"echo", "", "none"},
		{"notes", "env:GATE_STATUS_PROBE_NOTES", "cached"},
		{"notes#write_*", "env:GATE_STATUS_PROBE_WRITE", "cached"},
	} {
		e, ok := byName[want.name]
		require.True(t, ok, "no entry %q in /v1/status", want.name)
		assert.Equal(t, want.probe, e.Probe, "%s's probe", want.name)
		assert.Equal(t, want.source, e.Source, "%s's source", want.name)
	}
}
