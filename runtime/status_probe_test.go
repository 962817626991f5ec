package runtime

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
)

// TestStatusNamesItsProbeAndItsDenials: a Status of a Gate opened from a
// manifest names its probe as the manifest wrote it (for a tool, a server
// and a [[servers.tools]] rule; "" without one) and carries what the run
// behind it was denied, fresh or cached, so that a reader prints both
// without going back to the manifest.
func TestStatusNamesItsProbeAndItsDenials(t *testing.T) {
	ask := readFile(t, hostilePath("ask"))
	path := writeManifest(t, fmt.Sprintf(`
[[tools]]
name = "keyed"
probe = "env:GATE_LABEL_KEY"

[[tools]]
name = "asks_ungranted"
[tools.probe]
module = "probes/ask.wasm"
sha256 = "%s"
config = { op = "env", arg = "GATE_LABEL_SECRET" }

[[tools]]
name = "always"

[[servers]]
name = "notes"
command = ["./notes"]
probe = "env:GATE_LABEL_NOTES"
pin = "strict"

[[servers.tools]]
match = "write_*"
probe = "env:GATE_LABEL_WRITE"
`, sum(ask)), map[string][]byte{"probes/ask.wasm": ask})
	t.Chdir(filepath.Dir(path)) // a module's label is its path from here
	env := map[string]string{"GATE_LABEL_KEY": "k", "GATE_LABEL_SECRET": "s"}
	cfg := NewGateConfig().WithEngine(NewEngineConfig().WithLookupEnv(envMap(env)))
	ctx := context.Background()
	g, err := Open(ctx, path, cfg)
	require.NoError(t, err)
	defer g.Close(ctx)

	denied := []hostfuncs.Denial{{Kind: "env", Request: "GATE_LABEL_SECRET", Probe: "asks_ungranted"}}
	for _, read := range []string{"probed", "cached"} {
		tools, err := g.Tools().Status(ctx)
		require.NoError(t, err)
		require.Len(t, tools, 3)
		for i, want := range []struct {
			probe  string
			denied []hostfuncs.Denial
		}{{"env:GATE_LABEL_KEY", nil}, {filepath.Join("probes", "ask.wasm"), denied}, {"", nil}} {
			assert.Equal(t, want.probe, tools[i].Probe, "%s: %s", read, tools[i].Name)
			assert.Equal(t, want.denied, tools[i].Denied, "%s: %s", read, tools[i].Name)
		}
		assert.Equal(t, read == "cached", tools[0].Cached)
		assert.Equal(t, CodeDenied, tools[1].Code, read)

		servers, err := g.Servers().Status(ctx)
		require.NoError(t, err)
		require.Len(t, servers, 2)
		assert.Equal(t, "env:GATE_LABEL_NOTES", servers[0].Probe, read)
		assert.Equal(t, "notes#write_*", servers[1].Name)
		assert.Equal(t, "env:GATE_LABEL_WRITE", servers[1].Probe, read)
	}
}

// TestGateSaysWhatItsManifestSet: what a reader prints besides the
// answers (the pinned servers, the manifest's path) comes from the Gate;
// a Gate built in code has none of it.
func TestGateSaysWhatItsManifestSet(t *testing.T) {
	path := writeManifest(t, `
[[servers]]
name = "loose"
command = ["./loose"]

[[servers]]
name = "notes"
command = ["./notes"]
pin = "strict"

[[servers]]
name = "wiki"
url = "http://127.0.0.1:1/mcp"
pin = true
`, nil)
	ctx := context.Background()
	g, err := Open(ctx, path, NewGateConfig())
	require.NoError(t, err)
	defer g.Close(ctx)
	assert.Equal(t, []PinnedServer{{Name: "notes", Pin: "strict"}, {Name: "wiki", Pin: "true"}}, g.PinnedServers())
	assert.Equal(t, path, g.ManifestPath())

	code, err := New(ctx, NewGateConfig())
	require.NoError(t, err)
	defer code.Close(ctx)
	assert.Empty(t, code.PinnedServers())
	assert.Equal(t, "", code.ManifestPath())
}

// TestStatusOfACodeToolHasNoLabel: a tool registered in code has a probe
// only the host app can name: its Status says "", and its run's denials
// all the same.
func TestStatusOfACodeToolHasNoLabel(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, NewEngineConfig().WithLookupEnv(envMap(map[string]string{"GATE_SET": "x"})))
	p := hostileProbe(t, e, "ask", ProbeConfig{Config: map[string]string{"op": "env", "arg": "GATE_SET"}})
	g, err := New(ctx, NewGateConfig())
	require.NoError(t, err)
	defer g.Close(ctx)
	require.NoError(t, g.Tools().Register(Tool{Name: "mine", Probe: p}, false))

	sts, err := g.Tools().Status(ctx)
	require.NoError(t, err)
	require.Len(t, sts, 1)
	assert.Equal(t, "", sts[0].Probe)
	require.Len(t, sts[0].Denied, 1)
	assert.Equal(t, "GATE_SET", sts[0].Denied[0].Request)
}
