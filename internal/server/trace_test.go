package server

import (
	"context"
	"net/http"
	"os"
	"testing"

	"github.com/gate-dev/gate/internal/otlptest"
	"github.com/gate-dev/gate/internal/tracing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTraceOnlyAllowedRequests: a request is traced once it has passed
// the Host and token checks: one without the token, or to a Host that is
// not loopback, makes no span and cannot name a parent, so that a party
// that may not use the API cannot fill the export queue with spans in
// traces of its choosing; nor does one to /healthz, which is answered
// without the token.
func TestTraceOnlyAllowedRequests(t *testing.T) {
	otlptest.ClearEnv(t)
	rcv := otlptest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	tr, err := tracing.FromEnv(os.Getenv)
	require.NoError(t, err)
	trace := func(h http.Handler) http.Handler { return tr.Handler(h, "/mcp", Route) }

	path := writeManifest(t, t.TempDir(), "[[tools]]\nname = \"search\"\n")
	svc := openService(t, path, nil, serviceConfig(nil, nil))
	runService(t, svc)
	const token = "s3cret-token"
	withToken := serve(t, svc, nil, Options{Token: token, Trace: trace})
	noToken := serve(t, svc, nil, Options{Trace: trace})

	var sendTo func(f *fixture, route, host, token, trace string) int
	const (
		refusedTrace = "0af7651916cd43dd8448eb211c80319c"
		allowedTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	)
	send := func(f *fixture, host, token, trace string) int {
		return sendTo(f, "/v1/status", host, token, trace)
	}
	sendTo = func(f *fixture, route, host, token, trace string) int {
		req, err := http.NewRequest(http.MethodGet, f.url+route, nil)
		require.NoError(t, err)
		if host != "" {
			req.Host = host
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		req.Header.Set("traceparent", "00-"+trace+"-b7ad6b7169203331-01")
		return f.send(t, req).code
	}
	assert.Equal(t, http.StatusUnauthorized, send(withToken, "", "", refusedTrace), "no token")
	assert.Equal(t, http.StatusUnauthorized, send(withToken, "", "wrong", refusedTrace), "a wrong token")
	assert.Equal(t, http.StatusMisdirectedRequest, send(noToken, "evil.example:7311", "", refusedTrace), "a Host that is not loopback")
	// /healthz answers without the token, to anyone: such a request is no
	// token holder's, and a flood of them would take the API's share of
	// the span queue (and name parents) for whoever sent it.
	for range 3 {
		assert.Equal(t, http.StatusOK, sendTo(withToken, "/healthz", "", "", refusedTrace), "/healthz without the token")
	}
	assert.Equal(t, http.StatusOK, send(withToken, "", token, allowedTrace))

	require.NoError(t, tr.Shutdown(context.Background()))
	spans := rcv.Spans()
	require.Len(t, spans, 1, "a span for the allowed request only")
	assert.Equal(t, "GET /v1/status", spans[0].Name)
	assert.Equal(t, allowedTrace, otlptest.Hex(spans[0].TraceId))
}
