package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAuth: with a token, every endpoint but /healthz wants it, and every
// refusal is the same answer, byte for byte, whatever was wrong and
// whatever was asked.
func TestAuth(t *testing.T) {
	const token = "s3cret-token"
	f, _ := endpointsFixture(t, NewMetrics(), Options{Token: token})

	refusal := func(r response) string {
		h := r.header.Clone()
		h.Del("Date") // the one header that may differ: the clock
		var b strings.Builder
		require.NoError(t, h.Write(&b))
		return fmt.Sprintf("%d\n%s\n%s", r.code, b.String(), r.body)
	}
	missing := f.get(t, "/v1/tools")
	assert.Equal(t, http.StatusUnauthorized, missing.code)
	assert.Equal(t, "Bearer", missing.header.Get("WWW-Authenticate"))
	assert.Equal(t, "application/json", missing.header.Get("Content-Type"))
	assert.JSONEq(t, `{"error": "unauthorized"}`, missing.body)
	want := refusal(missing)

	wrong := func(path, method, authorization string) response {
		return f.doAuth(t, method, path, authorization)
	}
	for _, c := range []struct{ name, path, method, auth string }{
		{"wrong token", "/v1/tools", "GET", "Bearer nope"},
		{"token with a suffix", "/v1/tools", "GET", "Bearer " + token + "x"},
		{"token prefix", "/v1/tools", "GET", "Bearer " + token[:4]},
		{"empty bearer", "/v1/tools", "GET", "Bearer "},
		{"another scheme", "/v1/tools", "GET", "Basic " + token},
		{"token without scheme", "/v1/tools", "GET", token},
		{"unknown endpoint", "/v1/secret-admin", "GET", ""},
		{"unknown endpoint, wrong token", "/nope", "GET", "Bearer nope"},
		{"POST", "/v1/tools", "POST", "Bearer nope"},
		{"metrics", "/metrics", "GET", ""},
		{"events", "/v1/events", "GET", ""},
		{"readyz", "/readyz", "GET", ""},
		{"schema", "/v1/schema?format=mcp", "GET", "Bearer nope"},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, want, refusal(wrong(c.path, c.method, c.auth)), "a refusal must not differ from the one for a missing token")
		})
	}

	for _, auth := range []string{"Bearer " + token, "bearer " + token, "BEARER  " + token + " "} {
		r := wrong("/v1/tools", "GET", auth)
		assert.Equal(t, http.StatusOK, r.code, auth)
	}
	r := wrong("/v1/tools", "POST", "Bearer "+token)
	assert.Equal(t, http.StatusMethodNotAllowed, r.code, "with the token, the method is checked")
	r = wrong("/v1/nothing", "GET", "Bearer "+token)
	assert.Equal(t, http.StatusNotFound, r.code, "with the token, unknown paths are told")

	health := f.get(t, "/healthz")
	assert.Equal(t, http.StatusOK, health.code, "/healthz needs no token")
	assert.Equal(t, "ok\n", health.body)

	c := openEvents(t, f, token)
	c.waitFor(t, 3*time.Second, "hello", isEvent("hello"))
}
