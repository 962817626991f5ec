package server

import (
	"encoding/json"
	"github.com/gate-dev/gate/internal/statusview"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// POST /v1/refresh probes what it names now, whatever the TTL, and
// answers with the new answers; the list follows at once.
func TestRefresh(t *testing.T) {
	const token = "refresh-token"
	t.Setenv("GATE_TEST_REFRESH", "")
	path := writeManifest(t, t.TempDir(), `
[runtime]
ttl = "1h"

[[tools]]
name = "fixed"
probe = "env:GATE_TEST_REFRESH"

[[tools]]
name = "plain"

[[servers]]
name = "db"
probe = "env:GATE_TEST_REFRESH"
`)
	svc := openService(t, path, nil, serviceConfig(nil, nil))
	runService(t, svc)
	f := serve(t, svc, nil, Options{Token: token})
	type answer struct {
		Tools   []statusview.Info `json:"tools"`
		Servers []statusview.Info `json:"servers"`
	}
	tools := func() []string {
		r := f.do(t, http.MethodGet, "/v1/tools", token)
		require.Equal(t, http.StatusOK, r.code, r.body)
		var a toolsAnswer
		require.NoError(t, json.Unmarshal([]byte(r.body), &a))
		var out []string
		for _, tool := range a.Tools {
			out = append(out, tool.Name)
		}
		return out
	}
	assert.Equal(t, []string{"plain"}, tools())

	t.Setenv("GATE_TEST_REFRESH", "now set")
	assert.Equal(t, []string{"plain"}, tools(), "cached for the TTL")
	r := f.do(t, http.MethodPost, "/v1/refresh?tool=fixed&tool=fixed", token)
	require.Equal(t, http.StatusOK, r.code, r.body)
	var a answer
	require.NoError(t, json.Unmarshal([]byte(r.body), &a))
	require.Len(t, a.Tools, 1, "named twice, probed once")
	assert.Equal(t, "fixed", a.Tools[0].Name)
	assert.True(t, a.Tools[0].Available)
	assert.False(t, a.Tools[0].Cached)
	assert.Empty(t, a.Servers, "only what was named")
	assert.Equal(t, []string{"fixed", "plain"}, tools())

	r = f.do(t, http.MethodPost, "/v1/refresh", token)
	require.Equal(t, http.StatusOK, r.code, r.body)
	a = answer{}
	require.NoError(t, json.Unmarshal([]byte(r.body), &a))
	assert.Len(t, a.Tools, 2, "everything")
	require.Len(t, a.Servers, 1)
	assert.True(t, a.Servers[0].Available)

	for _, tc := range []struct {
		name, method, path, token string
		code                      int
		body                      string
	}{
		{"an unknown tool probes nothing", http.MethodPost, "/v1/refresh?server=db&tool=nope", token, http.StatusNotFound, `{"error": "no tool named \"nope\""}`},
		{"an unknown server", http.MethodPost, "/v1/refresh?server=nope", token, http.StatusNotFound, `{"error": "no server named \"nope\""}`},
		{"an unknown parameter", http.MethodPost, "/v1/refresh?name=fixed", token, http.StatusBadRequest, `{"error": "unknown parameter \"name\": want tool=NAME or server=NAME, or neither for everything"}`},
		{"GET", http.MethodGet, "/v1/refresh", token, http.StatusMethodNotAllowed, `{"error": "method GET not allowed: /v1/refresh takes POST"}`},
		{"no token", http.MethodPost, "/v1/refresh", "", http.StatusUnauthorized, unauthorizedBody},
		{"POST elsewhere", http.MethodPost, "/v1/status", token, http.StatusMethodNotAllowed, `{"error": "method POST not allowed: /v1/status answers GET and HEAD"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := f.do(t, tc.method, tc.path, tc.token)
			assert.Equal(t, tc.code, r.code)
			assert.JSONEq(t, tc.body, r.body)
		})
	}
}

// A serve without a token refuses POST /v1/refresh: whoever can reach a
// loopback port would make gate probe on demand.
func TestRefreshNeedsAToken(t *testing.T) {
	path := writeManifest(t, t.TempDir(), "[[tools]]\nname = \"plain\"\n")
	svc := openService(t, path, nil, serviceConfig(nil, nil))
	runService(t, svc)
	f := serve(t, svc, nil, Options{})
	r := f.do(t, http.MethodPost, "/v1/refresh", "")
	assert.Equal(t, http.StatusForbidden, r.code)
	assert.JSONEq(t, `{"error": "POST /v1/refresh runs probes on request, and needs a token (gatectl serve: --token-file or $GATE_TOKEN; docs/HTTP.md)"}`, r.body)
}
