package server

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/gate-dev/gate/internal/statusview"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/gate-dev/gate/runtime/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// endpointsManifest has one tool of each kind of answer: available,
// unavailable (an honest no), error (a probe that overruns its budget),
// and always available (no probe); a server; and the skills of gatectl's
// tests.
const endpointsManifest = `
[[tools]]
name = "search_web"
description = "Search the web for information."
parameters = { type = "object", properties = { query = { type = "string" } }, required = ["query"] }
probe = "env:GATE_SERVER_TEST_KEY"

[[tools]]
name = "notify_team"
description = "Send notifications to team Slack."
probe = "env:GATE_SERVER_TEST_UNSET"

[[tools]]
name = "spin"
description = "A tool whose probe never answers."
probe = { module = %q, budget = "20ms" }

[[tools]]
name = "echo"
description = "Always here: no probe."

[[servers]]
name = "mcp:filesystem"
probe = "env:GATE_SERVER_TEST_KEY"

[skills]
paths = ["skills"]
`

// endpointsFixture serves endpointsManifest from a temporary directory
// (returned, to mask it in golden files), after the first round.
func endpointsFixture(t *testing.T, metrics *Metrics, opts Options) (*fixture, string) {
	t.Helper()
	t.Setenv("GATE_SERVER_TEST_KEY", "k")
	t.Setenv("SKILL_CAPABILITY_ENFORCEMENT", "warn")
	t.Setenv("GATECTL_SKILL_KEY", "") // needs-env stays degraded
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(filepath.Join(dir, "skills"), os.DirFS(filepath.Join("..", "..", "cmd", "gatectl", "testdata", "skills"))))
	loop, err := filepath.Abs(filepath.Join("..", "..", "runtime", "testdata", "hostile", "loop_probe.wasm"))
	require.NoError(t, err)
	path := writeManifest(t, dir, fmt.Sprintf(endpointsManifest, loop))
	svc := openService(t, path, metrics, serviceConfig(metrics, nil))
	runService(t, svc)
	return serve(t, svc, metrics, opts), dir
}

// TestEndpoints pins every endpoint's status, headers and shape.
func TestEndpoints(t *testing.T) {
	metrics := NewMetrics()
	f, dir := endpointsFixture(t, metrics, Options{})

	jsonEndpoints := []struct{ path, golden string }{
		{"/v1/tools", "tools.json"},
		{"/v1/schema", "schema_openai.json"},
		{"/v1/schema?format=openai", "schema_openai.json"},
		{"/v1/schema?format=Anthropic", "schema_anthropic.json"},
		{"/v1/schema?format=mcp", "schema_mcp.json"},
		{"/v1/status", "status.json"},
		{"/v1/skills", "skills.json"},
		{"/v1/diagnostics", "diagnostics.json"},
	}
	for _, e := range jsonEndpoints {
		t.Run(strings.TrimPrefix(e.path, "/"), func(t *testing.T) {
			r := f.get(t, e.path)
			assert.Equal(t, http.StatusOK, r.code, r.body)
			assert.Equal(t, "application/json", r.header.Get("Content-Type"))
			assert.Equal(t, "no-store", r.header.Get("Cache-Control"))
			assert.True(t, json.Valid([]byte(r.body)), r.body)
			assertGolden(t, e.golden, maskTimings(r.body, dir))

			head := f.do(t, http.MethodHead, e.path, "")
			assert.Equal(t, http.StatusOK, head.code)
			assert.Empty(t, head.body)
			if e.path == "/v1/status" {
				// Its ages and timings change between two requests, and
				// with them the number of digits: only the header is sure.
				assert.NotEmpty(t, head.header.Get("Content-Length"), "HEAD tells the length of GET")
			} else {
				assert.Equal(t, fmt.Sprint(len(r.body)), head.header.Get("Content-Length"), "HEAD tells the length of GET")
			}
		})
	}

	t.Run("schema is Gate.Schema", func(t *testing.T) {
		for _, format := range schema.Formats {
			want, err := f.svc.Gate().Schema(context.Background(), format)
			require.NoError(t, err)
			for range 2 { // rendered, then reused
				assert.Equal(t, string(want), f.get(t, "/v1/schema?format="+string(format)).body)
			}
		}
	})

	t.Run("status", func(t *testing.T) {
		var st statusAnswer
		require.NoError(t, json.Unmarshal([]byte(f.get(t, "/v1/status").body), &st))
		assert.True(t, st.Service.Ready)
		assert.Nil(t, st.Service.ReloadError)
		byName := map[string]statusview.Info{}
		for _, e := range st.Tools {
			byName[e.Name] = e
		}
		require.NotNil(t, byName["spin"].Error)
		assert.Equal(t, "overrun", byName["spin"].Error.Kind)
		assert.Equal(t, "error", byName["spin"].State)
		require.NotNil(t, byName["search_web"].AgeSeconds)
		assert.GreaterOrEqual(t, *byName["search_web"].AgeSeconds, 0.0)
		assert.Nil(t, byName["echo"].AgeSeconds, "a tool without a probe has no age")
	})

	t.Run("prompt", func(t *testing.T) {
		r := f.get(t, "/v1/skills/prompt")
		assert.Equal(t, http.StatusOK, r.code)
		assert.Equal(t, "text/plain; charset=utf-8", r.header.Get("Content-Type"))
		assert.Equal(t, "no-store", r.header.Get("Cache-Control"))
		assert.Equal(t, f.svc.Gate().SkillsPrompt(context.Background()), r.body)
		assertGolden(t, "prompt.xml", maskTimings(r.body, dir))
	})

	t.Run("health", func(t *testing.T) {
		r := f.get(t, "/healthz")
		assert.Equal(t, http.StatusOK, r.code)
		assert.Equal(t, "ok\n", r.body)
		r = f.get(t, "/readyz")
		assert.Equal(t, http.StatusOK, r.code)
		assert.Equal(t, "ready\n", r.body)
	})

	t.Run("metrics", func(t *testing.T) {
		r := f.get(t, "/metrics")
		assert.Equal(t, http.StatusOK, r.code)
		assert.True(t, strings.HasPrefix(r.header.Get("Content-Type"), "text/plain"), r.header.Get("Content-Type"))
		for _, line := range []string{
			`gate_probe_runs_total{kind="tool",outcome="available"} 1`,
			`gate_probe_runs_total{kind="tool",outcome="unavailable"} 1`,
			`gate_probe_runs_total{kind="tool",outcome="error"} 1`,
			`gate_probe_runs_total{kind="server",outcome="available"} 1`,
			`gate_probe_codes_total{code="env_missing",kind="tool"} 1`,
			`gate_probe_codes_total{code="overrun",kind="tool"} 1`,
			`gate_probe_overruns_total{kind="tool"} 1`,
			`gate_probe_duration_seconds_count{kind="tool"} 3`,
			`gate_probe_duration_seconds_bucket{kind="tool",le="1e-05"}`,
			`gate_probe_duration_seconds_bucket{kind="tool",le="0.1"}`,
			`gate_tools{state="available"} 2`,
			`gate_tools{state="unavailable"} 1`,
			`gate_tools{state="error"} 1`,
			`gate_servers{state="available"} 1`,
			`gate_skills{state="active"} 5`,
			`gate_skills{state="degraded"} 2`,
			`gate_skills_offered 6`,
			`gate_ready 1`,
			`gate_reloads_total{result="error"} 0`,
			`gate_state_changes_total{type="tool"} 0`,
			`gate_graced_serves_total{kind="tool"} 0`,
			`gate_event_streams 0`,
			"go_goroutines ",
			"process_resident_memory_bytes ",
		} {
			assert.Contains(t, r.body, line+"", "metric %s", line)
		}
		assert.Regexp(t, `gate_reads_total\{kind="tool",source="cache"\} [1-9]`, r.body)
	})

	t.Run("events", func(t *testing.T) {
		c := openEvents(t, f, "")
		assert.Equal(t, "text/event-stream", c.resp.Header.Get("Content-Type"))
		assert.Equal(t, "no-store", c.resp.Header.Get("Cache-Control"))
		hello := c.waitFor(t, 3*time.Second, "hello", isEvent("hello"))
		assert.JSONEq(t, `{"generation": 0}`, hello.Data)

		head := f.do(t, http.MethodHead, "/v1/events", "")
		assert.Equal(t, http.StatusOK, head.code)
		assert.Equal(t, "text/event-stream", head.header.Get("Content-Type"))
	})

	t.Run("errors", func(t *testing.T) {
		for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodOptions} {
			r := f.do(t, method, "/v1/tools", "")
			assert.Equal(t, http.StatusMethodNotAllowed, r.code, method)
			assert.Equal(t, "GET, HEAD", r.header.Get("Allow"))
			assert.Equal(t, "application/json", r.header.Get("Content-Type"))
			assert.JSONEq(t, fmt.Sprintf(`{"error": "method %s not allowed: /v1/tools answers GET and HEAD"}`, method), r.body)
		}
		r := f.get(t, "/v1/schema?format=gemini")
		assert.Equal(t, http.StatusBadRequest, r.code)
		assert.Equal(t, "application/json", r.header.Get("Content-Type"))
		assert.JSONEq(t, `{"error": "unknown schema format \"gemini\" (want openai, anthropic or mcp)"}`, r.body)

		r = f.get(t, "/v1/nothing")
		assert.Equal(t, http.StatusNotFound, r.code)
		assert.JSONEq(t, `{"error": "no endpoint /v1/nothing (docs/HTTP.md lists them)"}`, r.body)
	})
}

// TestSameAsGatectl: the skills endpoints and the schema answer what
// gatectl prints for the same manifest, skills and working directory,
// byte for byte (its golden files).
func TestSameAsGatectl(t *testing.T) {
	t.Setenv("GATECTL_SERP_API_KEY", "k")
	t.Setenv("SKILL_CAPABILITY_ENFORCEMENT", "warn")
	t.Chdir(filepath.Join("..", "..", "cmd", "gatectl"))
	wd, err := os.Getwd()
	require.NoError(t, err)
	svc := openService(t, filepath.Join("testdata", "check", "gate.toml"), nil, serviceConfig(nil, func(c runtime.GateConfig) runtime.GateConfig {
		return c.WithSkillPaths(filepath.Join("testdata", "skills"))
	}))
	runService(t, svc)
	f := serve(t, svc, nil, Options{})

	for path, file := range map[string]string{
		"/v1/diagnostics":          "doctor_skills_warn.json",
		"/v1/skills":               "skills_warn.json",
		"/v1/schema?format=openai": "schema_openai.json",
		"/v1/schema?format=mcp":    "schema_mcp.json",
	} {
		want, err := os.ReadFile(filepath.Join("testdata", file))
		require.NoError(t, err)
		assert.Equal(t, string(want), f.get(t, path).body, "%s differs from gatectl's %s", path, file)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "skills_prompt_warn.xml"))
	require.NoError(t, err)
	// gatectl prints the prompt with a newline, and its golden file
	// masks the working directory.
	got := strings.ReplaceAll(f.get(t, "/v1/skills/prompt").body, wd, "$PWD") + "\n"
	assert.Equal(t, string(want), got)
}
