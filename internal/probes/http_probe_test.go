package probes

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// answer returns an http function that answers every request with resp.
func answer(resp httpResp) func(httpReq) httpResp {
	return func(httpReq) httpResp { return resp }
}

// status returns an http function that answers every request with code.
func status(code int32) func(httpReq) httpResp { return answer(httpResp{status: code}) }

func TestHTTPProbe(t *testing.T) {
	const u = "https://api.example.com/v1/models"
	c := func(kv ...string) map[string]string { return cfg(append([]string{"url", u}, kv...)...) }
	body := httpResp{status: 200, body: `{"status":"ok","data":[]}`, headers: map[string]string{"Content-Type": "application/json; charset=utf-8"}}
	cases := []probeCase{
		{"200", &fakeGate{config: c(), http: status(200)}, 0, ""},
		{"204", &fakeGate{config: c(), http: status(204)}, 0, ""},
		{"302 not followed", &fakeGate{config: c(), http: status(302)}, 0, ""},
		{"401", &fakeGate{config: c(), http: status(401)}, 1, u + ": credentials rejected (HTTP 401)"},
		{"403", &fakeGate{config: c(), http: status(403)}, 1, u + ": credentials rejected (HTTP 403)"},
		{"404", &fakeGate{config: c(), http: status(404)}, 1, u + ": not found (HTTP 404)"},
		{"418", &fakeGate{config: c(), http: status(418)}, 1, u + ": HTTP 418"},
		{"400", &fakeGate{config: c(), http: status(400)}, 1, u + ": HTTP 400"},
		{"429 raises", &fakeGate{config: c(), http: status(429)}, 2, u + ": HTTP 429 (transient)"},
		{"500 raises", &fakeGate{config: c(), http: status(500)}, 2, u + ": HTTP 500 (transient)"},
		{"503 raises", &fakeGate{config: c(), http: status(503)}, 2, u + ": HTTP 503 (transient)"},
		{"599 raises", &fakeGate{config: c(), http: status(599)}, 2, u + ": HTTP 599 (transient)"},
		{"199", &fakeGate{config: c(), http: status(199)}, 1, u + ": HTTP 199"},

		{"status: in the set", &fakeGate{config: c("status", "200-299,418"), http: status(418)}, 0, ""},
		{"status: a 5xx in the set", &fakeGate{config: c("status", "503"), http: status(503)}, 0, ""},
		{"status: a 2xx outside", &fakeGate{config: c("status", "200"), http: status(204)}, 1, u + ": HTTP 204 (want 200)"},
		{"status: a 3xx outside", &fakeGate{config: c("status", "200-299, 304"), http: status(301)}, 1, u + ": HTTP 301 (want 200-299, 304)"},
		{"status: 401 outside", &fakeGate{config: c("status", "200"), http: status(401)}, 1, u + ": credentials rejected (HTTP 401)"},
		{"status: 404 outside", &fakeGate{config: c("status", "200"), http: status(404)}, 1, u + ": not found (HTTP 404)"},
		{"status: 429 outside raises", &fakeGate{config: c("status", "200"), http: status(429)}, 2, u + ": HTTP 429 (transient)"},
		{"status: 502 outside raises", &fakeGate{config: c("status", "200"), http: status(502)}, 2, u + ": HTTP 502 (transient)"},
		{"status: malformed", &fakeGate{config: c("status", "2xx"), http: status(200)}, 2,
			`http probe: config "status" must be status codes and ranges, like 200-299,301`},
		{"status: empty", &fakeGate{config: c("status", ""), http: status(200)}, 2,
			`http probe: config "status" must be status codes and ranges, like 200-299,301`},
		{"status: backwards range", &fakeGate{config: c("status", "299-200"), http: status(200)}, 2,
			`http probe: config "status" must be status codes and ranges, like 200-299,301`},

		{"expect_body holds", &fakeGate{config: c("expect_body", `"status":"ok"`), http: answer(body)}, 0, ""},
		{"expect_body fails", &fakeGate{config: c("expect_body", `"status":"up"`), http: answer(body)}, 1,
			u + `: HTTP 200, but the body does not contain ""status":"up""`},
		{"reject_body holds", &fakeGate{config: c("reject_body", "error"), http: answer(body)}, 0, ""},
		{"reject_body fails", &fakeGate{config: c("reject_body", `"data":[]`), http: answer(body)}, 1,
			u + `: HTTP 200, but the body contains ""data":[]"`},
		{"expect_header holds", &fakeGate{config: c("expect_header", "content-type: application/json"), http: answer(body)}, 0, ""},
		{"expect_header: present is enough", &fakeGate{config: c("expect_header", "Content-Type: "), http: answer(body)}, 0, ""},
		{"expect_header: wrong value", &fakeGate{config: c("expect_header", "Content-Type: text/html"), http: answer(body)}, 1,
			u + `: HTTP 200, but header Content-Type is "application/json; charset=utf-8", without "text/html"`},
		{"expect_header: missing", &fakeGate{config: c("expect_header", "X-Ready: yes"), http: answer(body)}, 1,
			u + `: HTTP 200, but no header X-Ready`},
		{"expect_header: malformed", &fakeGate{config: c("expect_header", "nocolon"), http: answer(body)}, 2,
			`http probe: config "expect_header" must be "Name: substring"`},
		{"expectations only on a good status", &fakeGate{config: c("expect_body", "nope"), http: answer(httpResp{status: 401, body: "x"})}, 1,
			u + ": credentials rejected (HTTP 401)"},

		{"refused", &fakeGate{config: c(), http: answer(httpResp{fail: -3})}, 1, u + ": connection refused"},
		{"unreachable", &fakeGate{config: c(), http: answer(httpResp{fail: -5, lastErr: "dial tcp: lookup api.example.com: no such host"})}, 1,
			u + ": unreachable: dial tcp: lookup api.example.com: no such host"},
		{"TLS failed", &fakeGate{config: c(), http: answer(httpResp{fail: -8, lastErr: "x509: certificate signed by unknown authority"})}, 1,
			u + ": TLS: x509: certificate signed by unknown authority"},
		{"bad request", &fakeGate{config: c(), http: answer(httpResp{fail: -6, lastErr: "user info is not allowed"})}, 1,
			u + ": bad request: user info is not allowed"},
		{"timed out raises", &fakeGate{config: c(), http: answer(httpResp{fail: -4})}, 2, u + ": timed out"},
		{"reset raises", &fakeGate{config: c(), http: answer(httpResp{fail: -9, lastErr: "read: connection reset by peer"})}, 2,
			u + ": connection reset or broken HTTP: read: connection reset by peer"},
		{"a bound raises", &fakeGate{config: c(), http: answer(httpResp{fail: -7, lastErr: "more than 8 handles open"})}, 2,
			u + ": more than 8 handles open"},
		{"secret not set: the host's words", &fakeGate{config: c(), http: answer(httpResp{fail: -1, lastErr: "secret OPENAI_API_KEY is not set"})}, 1,
			"secret OPENAI_API_KEY is not set"},
		{"denied: the host has the reason", &fakeGate{config: c(), http: answer(httpResp{fail: -2})}, 1, ""},
		{"an unknown status", &fakeGate{config: c(), http: answer(httpResp{fail: -42})}, 1, u + ": request failed (status -42)"},

		{"url not set", &fakeGate{http: status(200)}, 2, `http probe: config "url" is not set`},
		{"url empty", &fakeGate{config: cfg("url", ""), http: status(200)}, 2, `http probe: config "url" is not set`},
		{"timeout_ms bad", &fakeGate{config: c("timeout_ms", "soon"), http: status(200)}, 2,
			`http probe: config "timeout_ms" must be a whole number of milliseconds (0 to 2147483647), not "soon"`},
		{"request too long", &fakeGate{config: c("headers", strings.Repeat("X: y\n", 3000)), http: status(200)}, 2,
			`http probe: config "url" with the headers and body is too long (the limit is 12288 bytes)`},
	}
	runCases(t, HTTP, cases)
}

// TestHTTPProbeRequest checks what the probe asks: the request as the
// config says, the secret as a placeholder, the flags and the timeout.
func TestHTTPProbeRequest(t *testing.T) {
	sh, err := ParseShorthand(`https://api.example.com/v1/chat?k=${secret:Q} method=POST bearer=KEY header="X-Org: acme" body="{\"a\":1}" insecure=true timeout_ms=40`)
	require.NoError(t, err)
	r := newFakeHost(t)
	g := &fakeGate{config: sh.Config, http: status(200)}
	got := run(t, r, compile(t, r, HTTP), g)
	require.Equal(t, int32(0), got.result, got.reason)
	require.Len(t, g.httpCalls, 1)
	assert.Equal(t, httpReq{method: "POST", url: "https://api.example.com/v1/chat?k=${secret:Q}",
		headers: []string{"Authorization: Bearer ${secret:KEY}", "X-Org: acme"}, body: `{"a":1}`, flags: 1, timeoutMS: 40}, g.httpCalls[0])

	// Defaults: GET, no headers, no body, verified TLS, the budget.
	g = &fakeGate{config: cfg("url", "http://127.0.0.1:8080/health"), http: status(200)}
	got = run(t, r, compile(t, r, HTTP), g)
	require.Equal(t, int32(0), got.result, got.reason)
	assert.Equal(t, []httpReq{{method: "GET", url: "http://127.0.0.1:8080/health"}}, g.httpCalls)

	// insecure must say exactly "true".
	g = &fakeGate{config: cfg("url", "https://h/", "insecure", "yes"), http: status(200)}
	run(t, r, compile(t, r, HTTP), g)
	assert.Equal(t, int32(0), g.httpCalls[0].flags)
}

// TestHTTPProbeBodyWindow: expectations see the body's first 32 KiB, and
// a long expectation or header value is cut in the reason, which stays
// within what the host keeps.
func TestHTTPProbeBodyWindow(t *testing.T) {
	big := strings.Repeat("a", 32*1024)
	runCases(t, HTTP, []probeCase{
		{"at the end of the window", &fakeGate{config: cfg("url", "http://h/", "expect_body", "ab"),
			http: answer(httpResp{status: 200, body: big[2:] + "ab"})}, 0, ""},
		{"past the window", &fakeGate{config: cfg("url", "http://h/", "expect_body", "ab"),
			http: answer(httpResp{status: 200, body: big + "ab"})}, 1, `http://h/: HTTP 200, but the body does not contain "ab"`},
		{"a long expectation is cut", &fakeGate{config: cfg("url", "http://h/", "expect_body", strings.Repeat("b", 300)),
			http: answer(httpResp{status: 200, body: "x"})}, 1,
			`http://h/: HTTP 200, but the body does not contain "` + strings.Repeat("b", 200) + `..."`},
	})
	r := newFakeHost(t)
	long := "http://h/" + strings.Repeat("p", 3000)
	got := run(t, r, compile(t, r, HTTP), &fakeGate{config: cfg("url", long), http: status(503)})
	assert.Equal(t, int32(2), got.result)
	assert.LessOrEqual(t, len(got.reason), 1024)
	assert.True(t, strings.HasSuffix(got.reason, "...: HTTP 503 (transient)"), got.reason)
}

// inStatus is the reference for the probe's status-set check: whether
// code is in a list checkStatus accepts.
func inStatus(list string, code int32) bool {
	for _, it := range strings.FieldsFunc(list, isSep) {
		lo, hi, ok := strings.Cut(it, "-")
		if !ok {
			hi = lo
		}
		a, _ := statusCode(lo)
		b, _ := statusCode(hi)
		if int(code) >= a && int(code) <= b {
			return true
		}
	}
	return false
}

// FuzzHTTPProbe feeds the http probe arbitrary status lists, codes,
// bodies and expectations: it never traps, answers 0, 1 or 2 with a
// reason the host can keep, agrees with checkStatus on which lists are
// well-formed and with inStatus on what they hold, and finds a body
// expectation exactly when strings.Contains does.
func FuzzHTTPProbe(f *testing.F) {
	f.Add("200-299,301", int32(301), `{"ok":true}`, "ok")
	f.Add("2xx", int32(200), "", "")
	f.Add("", int32(503), "x", "y")
	f.Add("100-599 404", int32(404), "abc", "bc")
	r := newFakeHost(f)
	compiled := compile(f, r, HTTP)
	f.Fuzz(func(t *testing.T, statusList string, code int32, body, expect string) {
		if code < 100 || code > 599 {
			code = 100 + (code&0x7FFFFFFF)%500
		}
		c := cfg("url", "http://h/", "status", statusList)
		if expect != "" {
			c["expect_body"] = expect
		}
		got := run(t, r, compiled, &fakeGate{config: c, http: answer(httpResp{status: code, body: body})})
		require.Contains(t, []int32{0, 1, 2}, got.result)
		require.LessOrEqual(t, len(got.reason), 1024)
		_, err := checkStatus(statusList)
		if err != nil || len(statusList) > STDConfigMax {
			if err != nil {
				require.Equal(t, int32(2), got.result, "status %q: %s", statusList, got.reason)
			}
			return
		}
		in := inStatus(statusList, code)
		switch {
		case !in && (code == 429 || code >= 500):
			require.Equal(t, int32(2), got.result, got.reason)
		case !in:
			require.Equal(t, int32(1), got.result, got.reason)
		case len(expect) > STDConfigMax || len(body) > 32*1024:
			// Cut: the reference would need the probe's windows.
		case expect == "" || strings.Contains(body, expect):
			require.Equal(t, int32(0), got.result, got.reason)
		default:
			require.Equal(t, int32(1), got.result, got.reason)
		}
	})
}

// STDConfigMax is STD_CONFIG_MAX in src/std.h.
const STDConfigMax = 4096
