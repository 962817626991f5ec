package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/nohang"
	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/runtime/schema"
)

// writeManifest writes a manifest and the probe modules it names into a
// fresh directory; files maps a relative path to its content.
func writeManifest(t testing.TB, toml string, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, b := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, b, 0o644))
	}
	path := filepath.Join(dir, "gate.toml")
	require.NoError(t, os.WriteFile(path, []byte(toml), 0o644))
	return path
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func names(tools []Tool) []string {
	out := []string{}
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

func TestOpenManifest(t *testing.T) {
	ask := readFile(t, hostilePath("ask"))
	open := testnet.Listen(t, "tcp", "127.0.0.1:0")
	path := writeManifest(t, fmt.Sprintf(`
[runtime]
ttl = "10s"
grace = "5s"

[[tools]]
name = "search_web"
description = "Search the web for information."
parameters = { type = "object", properties = { query = { type = "string" } }, required = ["query"] }
probe = "env:SERP_API_KEY"

[[tools]]
name = "query_database"
description = "Query the application database"
[tools.probe]
module = "probes/ask.wasm"
sha256 = "%s"
config = { op = "env", arg = "DATABASE_URL" }
grants = { env = ["DATABASE_URL"] }

[[tools]]
name = "always"

[[tools]]
name = "cache_data"
probe = "tcp:%s"

[[servers]]
name = "mcp:filesystem"
probe = "env:FS_SERVER"
`, sum(ask), open.Addr()), map[string][]byte{"probes/ask.wasm": ask})

	env := map[string]string{"DATABASE_URL": "postgres://x"}
	clock := newFakeClock()
	cfg := NewGateConfig().
		WithEngine(NewEngineConfig().WithLookupEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })).
		withRegistry(newRegistryConfig().WithClock(clock))
	// Open from another directory: module paths resolve against the manifest.
	t.Chdir(t.TempDir())
	g, err := Open(context.Background(), path, cfg)
	require.NoError(t, err)
	defer g.Close(context.Background())
	ctx := context.Background()

	assert.Equal(t, []string{"query_database", "always", "cache_data"}, names(g.AvailableTools(ctx)))
	servers := g.Servers().ListAvailable(ctx)
	assert.Empty(t, servers)

	// The manifest's TTL (10 s) applies: a key set now shows at t=10, not before.
	env["SERP_API_KEY"] = "k"
	clock.At(9 * time.Second)
	assert.NotContains(t, names(g.AvailableTools(ctx)), "search_web")
	clock.At(10 * time.Second)
	assert.Contains(t, names(g.AvailableTools(ctx)), "search_web")

	out, err := g.Schema(ctx, schema.OpenAI)
	require.NoError(t, err)
	var tools []map[string]any
	require.NoError(t, json.Unmarshal(out, &tools))
	require.Len(t, tools, 4)
	assert.Equal(t, "search_web", tools[0]["function"].(map[string]any)["name"])
	assert.Equal(t, []any{"query"}, tools[0]["function"].(map[string]any)["parameters"].(map[string]any)["required"])
}

// TestOpenReportsEveryProblem: problems found while opening (not parsing)
// are reported together, each at the manifest line that caused it.
func TestOpenReportsEveryProblem(t *testing.T) {
	ask := readFile(t, hostilePath("ask"))
	path := writeManifest(t, `[[tools]]
name = "missing"
probe = { module = "probes/nope.wasm" }

[[tools]]
name = "pinned"
probe = { module = "probes/ask.wasm", sha256 = "0000000000000000000000000000000000000000000000000000000000000000" }

[[tools]]
name = "broken"
probe = { module = "probes/unknown_import.wasm" }

[[tools]]
name = "fine"
probe = "env:HOME"
`, map[string][]byte{"probes/ask.wasm": ask, "probes/unknown_import.wasm": readFile(t, hostilePath("unknown_import"))})

	_, err := Open(context.Background(), path, NewGateConfig())
	var errs manifest.Errors
	require.ErrorAs(t, err, &errs)
	require.Len(t, errs, 3)
	dir := filepath.Dir(path)
	assert.Equal(t, fmt.Sprintf("%s:3:1: tools[0].probe: open %s: no such file or directory", path, filepath.Join(dir, "probes", "nope.wasm")), errs[0].Error())
	assert.Equal(t, fmt.Sprintf("%s:7:1: tools[1].probe: %s has sha256 %s, but the manifest pins %s: refusing to load it",
		path, filepath.Join(dir, "probes", "ask.wasm"), sum(ask), strings.Repeat("0", 64)), errs[1].Error())
	assert.Contains(t, errs[2].Error(), path+":11:1: tools[2].probe: probe module "+filepath.Join(dir, "probes", "unknown_import.wasm")+": 3 problems:")
	assert.True(t, errors.Is(err, os.ErrNotExist))
	assert.Contains(t, fmt.Sprintf("%+v", errs[0]), "3 | probe = { module = \"probes/nope.wasm\" }")
}

func TestOpenBadManifest(t *testing.T) {
	path := writeManifest(t, "[[tools]]\nnme = \"typo\"\n", nil)
	_, err := Open(context.Background(), path, NewGateConfig())
	var errs manifest.Errors
	require.ErrorAs(t, err, &errs)
	assert.Contains(t, err.Error(), path+":2:1")
}

// TestGateInCode: a host app builds a Gate without a manifest and gates
// its own tools with native Go checks.
func TestGateInCode(t *testing.T) {
	ctx := context.Background()
	g, err := New(ctx, NewGateConfig())
	require.NoError(t, err)
	defer g.Close(ctx)
	require.NoError(t, g.Tools().Register(Tool{
		Name:  "gpu_infer",
		Probe: NewNativeProbe(0, func(context.Context) (bool, string, error) { return false, "CUDA not available", nil }),
	}, false))
	require.NoError(t, g.Tools().Register(Tool{Name: "echo"}, false))
	assert.Equal(t, []string{"echo"}, names(g.AvailableTools(ctx)))
	st, err := g.Tools().Status(ctx, "gpu_infer")
	require.NoError(t, err)
	assert.Equal(t, "CUDA not available", st[0].Reason)
}

// TestGateSkillsFollowAvailability: a skill's state and the prompt follow
// the tools that are available now (registered is not enough), and a
// SKILL.md edited on disk is read again.
func TestGateSkillsFollowAvailability(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		path := filepath.Join(dir, name, "SKILL.md")
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
		return path
	}
	write("research", "---\nname: research\ndescription: Research on the web.\nrequires_tools: [search_web]\n---\n")
	write("web-via-terminal", "---\nname: web-via-terminal\ndescription: Use curl.\nrequires_tools: [terminal]\nfallback_for_tools: [search_web]\n---\n")
	notes := write("notes", "---\nname: notes\ndescription: Take notes.\n---\n")

	env := map[string]string{"SERP_API_KEY": "k"}
	clock := newFakeClock()
	path := writeManifest(t, fmt.Sprintf(`
[skills]
paths = [%q]
enforcement = "strict"

[[tools]]
name = "search_web"
probe = "env:SERP_API_KEY"

[[tools]]
name = "terminal"
`, dir), nil)
	t.Setenv("SKILL_CAPABILITY_ENFORCEMENT", "")
	g, err := Open(context.Background(), path, NewGateConfig().
		WithEngine(NewEngineConfig().WithLookupEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })).
		withRegistry(newRegistryConfig().WithClock(clock)))
	require.NoError(t, err)
	defer g.Close(context.Background())
	ctx := context.Background()

	offered := func() []string {
		var out []string
		for _, s := range g.Skills(ctx).Offered() {
			out = append(out, s.Name)
		}
		return out
	}
	assert.Equal(t, []string{"notes", "research"}, offered(), "search_web is available: the fallback stays hidden")
	assert.Contains(t, g.SkillsPrompt(ctx), "<name>research</name>")

	// The key goes away; once the cached answer expires the tool is hidden,
	// research is unavailable under strict, and the fallback steps in.
	delete(env, "SERP_API_KEY")
	clock.At(29 * time.Second)
	assert.Equal(t, []string{"notes", "research"}, offered(), "the cached answer holds for its TTL")
	clock.At(30 * time.Second)
	assert.Equal(t, []string{"notes", "web-via-terminal"}, offered())
	res, err := g.Skills(ctx).Result("research", false)
	require.NoError(t, err)
	assert.Equal(t, []string{"Missing required tools: search_web"}, res.Errors)

	// An edit on disk is picked up.
	require.NoError(t, os.WriteFile(notes, []byte("---\nname: notes\ndescription: Take notes.\nrequires_tools: [notion]\n---\n"), 0o644))
	// As if a second had passed: the next call starts a rescan, in the
	// background, and a later one sees what it found.
	g.skills.rescanDue()
	require.Eventually(t, func() bool { return strings.Join(offered(), ",") == "web-via-terminal" }, nohang.Limit, time.Millisecond)
}
