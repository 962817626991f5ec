package probes

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDockerProbe(t *testing.T) {
	const s = "/var/run/docker.sock"
	c := cfg("socket", s)
	runCases(t, Docker, []probeCase{
		{"200", &fakeGate{config: c, http: status(200)}, 0, ""},
		{"default socket", &fakeGate{http: status(200)}, 0, ""},
		{"refused", &fakeGate{config: c, http: answer(httpResp{fail: -3, lastErr: "dial unix " + s + ": connect: no such file or directory"})}, 1,
			"Docker unavailable: " + s + ": connection refused (is the daemon running?)"},
		{"refused at the default socket", &fakeGate{}, 1,
			"Docker unavailable: " + s + ": connection refused (is the daemon running?)"},
		{"permission denied", &fakeGate{config: c, http: answer(httpResp{fail: -5, lastErr: "dial unix " + s + ": connect: permission denied"})}, 1,
			"Docker unavailable: " + s + ": unreachable: dial unix " + s + ": connect: permission denied"},
		{"the daemon hangs", &fakeGate{config: c, http: answer(httpResp{fail: -4})}, 2, "Docker unavailable: " + s + ": timed out"},
		{"reset", &fakeGate{config: c, http: answer(httpResp{fail: -9, lastErr: "EOF"})}, 2,
			"Docker unavailable: " + s + ": connection reset or broken HTTP: EOF"},
		{"500", &fakeGate{config: c, http: status(500)}, 2, "Docker unavailable: " + s + ": HTTP 500 (transient)"},
		{"503", &fakeGate{config: c, http: status(503)}, 2, "Docker unavailable: " + s + ": HTTP 503 (transient)"},
		{"404", &fakeGate{config: c, http: status(404)}, 1, "Docker unavailable: " + s + ": HTTP 404"},
		{"204", &fakeGate{config: c, http: status(204)}, 1, "Docker unavailable: " + s + ": HTTP 204"},
		{"denied: the host has the reason", &fakeGate{config: c, http: answer(httpResp{fail: -2})}, 1, ""},
		{"timeout_ms bad", &fakeGate{config: cfg("socket", s, "timeout_ms", "-1")}, 2,
			`docker probe: config "timeout_ms" must be a whole number of milliseconds (0 to 2147483647), not "-1"`},
	})
}

// TestDockerProbeRequest: GET /_ping on the configured socket, nothing
// else, with the configured timeout.
func TestDockerProbeRequest(t *testing.T) {
	sh, err := ParseShorthand("docker:unix:/run/user/1000/docker.sock timeout_ms=70")
	require.NoError(t, err)
	r := newFakeHost(t)
	g := &fakeGate{config: sh.Config, http: status(200)}
	got := run(t, r, compile(t, r, Docker), g)
	require.Equal(t, int32(0), got.result, got.reason)
	assert.Equal(t, []httpReq{{method: "GET", url: "unix:/run/user/1000/docker.sock:/_ping", timeoutMS: 70}}, g.httpCalls)
	assert.Equal(t, sh.HTTP, []string{g.httpCalls[0].url}, "the grant is exactly what it asks")
}
