package mcpgw_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The upstreams of these tests check credentials as real servers do: the
// Go SDK's bearer-token middleware (auth.RequireBearerToken) in front of
// its streamable handler, with tokens from a token endpoint of the test's
// own (authServer), or a handler that checks a header. Every one counts
// the requests it gets, so that a test can say where a secret went and
// how often a rejected one was tried.

func init() {
	// envServer tells its UPSTREAM_TOKEN on stderr (as a careless server
	// does), and has a tool that answers a variable of its environment.
	upstreamModes["env"] = func() *mcp.Server {
		fmt.Fprintf(os.Stderr, "starting with token %s\n", os.Getenv("UPSTREAM_TOKEN"))
		s := newUpstreamServer("")
		s.AddTool(&mcp.Tool{Name: "getenv", InputSchema: objectSchema}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(os.Getenv(parse(req).Name)), nil
		})
		s.AddTool(&mcp.Tool{Name: "leak", InputSchema: objectSchema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: 4000, Message: "my token is " + os.Getenv("UPSTREAM_TOKEN")}
		})
		return s
	}
}

// authServer is a token endpoint for OAuth's client-credentials grant: it
// checks the client's id and secret (HTTP Basic), issues tokens the
// upstream's verifier accepts until revoked, and counts its requests.
type authServer struct {
	url, id, secret, resource string
	requests                  atomic.Int64

	mu     sync.Mutex
	n      int
	valid  map[string]bool
	issued []string
}

func newAuthServer(t *testing.T, id, secret string) *authServer {
	a := &authServer{id: id, secret: secret, valid: map[string]bool{}}
	a.url = serveHTTP(t, http.HandlerFunc(a.serve)) + "/token"
	return a
}

func (a *authServer) serve(w http.ResponseWriter, r *http.Request) {
	a.requests.Add(1)
	id, secret, ok := r.BasicAuth()
	switch {
	case r.Method != http.MethodPost || r.URL.Path != "/token" || r.ParseForm() != nil || r.PostForm.Get("grant_type") != "client_credentials":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":"unsupported_grant_type"}`))
		return
	case !ok || id != a.id || secret != a.secret:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		// A careless server quotes what it was sent.
		_, _ = fmt.Fprintf(w, `{"error":"invalid_client","error_description":"no client %s with secret %s"}`, id, secret)
		return
	}
	a.mu.Lock()
	a.n++
	tok := fmt.Sprintf("access-%d-%d", a.n, time.Now().UnixNano())
	a.valid[tok] = true
	a.issued = append(a.issued, tok)
	a.resource = r.PostForm.Get("resource")
	a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "bearer", "expires_in": 3600})
}

// verify is the upstream's token check.
func (a *authServer) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.valid[token] {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{Expiration: time.Now().Add(time.Hour), UserID: "gate"}, nil
}

// revoke makes every token issued so far invalid, as their expiry would.
func (a *authServer) revoke() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.valid)
}

func (a *authServer) tokens() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.issued...)
}

// counted counts the requests to h, and those it answered 401 or 403.
type counted struct {
	h                 http.Handler
	requests, refused atomic.Int64
}

func (c *counted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.requests.Add(1)
	rec := &statusWriter{ResponseWriter: w}
	c.h.ServeHTTP(rec, r)
	if rec.status == http.StatusUnauthorized || rec.status == http.StatusForbidden {
		c.refused.Add(1)
	}
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// credentialServer is the test upstream with a "leak" tool, whose error
// quotes the credentials it was sent, and a "whoami" tool that answers
// them.
func credentialServer() *mcp.Server {
	s := newUpstreamServer("")
	sent := func(req *mcp.CallToolRequest) string {
		if req.Extra == nil || req.Extra.Header == nil {
			return ""
		}
		return req.Extra.Header.Get("X-Api-Key") + "|" + req.Extra.Header.Get("Authorization")
	}
	s.AddTool(&mcp.Tool{Name: "leak", InputSchema: objectSchema}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		data, _ := json.Marshal(map[string]string{"sent": sent(req)})
		pad := strings.Repeat("p", parse(req).Bytes)
		return nil, &jsonrpc.Error{Code: 4001, Message: "refused: " + pad + "you sent " + sent(req), Data: data}
	})
	s.AddTool(&mcp.Tool{Name: "whoami", InputSchema: objectSchema}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(sent(req)), nil
	})
	return s
}

// headerUpstream serves credentialServer to requests whose X-Api-Key is
// key, and answers others 401 with a body and a status line that quote
// what they sent.
func headerUpstream(t *testing.T, key string) (*counted, string) {
	s := credentialServer()
	mcpH := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	c := &counted{h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("X-Api-Key"); got != key {
			w.Header().Set("WWW-Authenticate", `ApiKey error="invalid key `+got+`"`)
			http.Error(w, "bad key "+got, http.StatusUnauthorized)
			return
		}
		mcpH.ServeHTTP(w, r)
	})}
	return c, serveHTTP(t, c)
}

// oauthUpstream serves credentialServer behind the SDK's bearer check
// against a's tokens.
func oauthUpstream(t *testing.T, a *authServer) (*counted, string) {
	s := credentialServer()
	h := auth.RequireBearerToken(a.verify, nil)(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	c := &counted{h: h}
	return c, serveHTTP(t, c)
}

// waitTool waits until c is offered tool.
func waitTool(t *testing.T, c *client, tool string) {
	t.Helper()
	require.Eventually(t, func() bool { return slices.Contains(c.Tools(t), tool) }, waitFor, 10*time.Millisecond, "tool %s never offered", tool)
}

// credConfig retries quickly, at most every 100ms, and logs into log.
func credConfig(log *blockedLog) mcpgw.Config {
	return mcpgw.NewConfig().WithBackoff(time.Millisecond, 100*time.Millisecond).WithKeepAlive(0).WithLog(log)
}

func openLog() *blockedLog {
	l := &blockedLog{released: make(chan struct{})}
	close(l.released)
	return l
}

// noSecrets fails if any of the secrets is in what gate showed of h:
// its log, its events, Upstreams() and the texts given.
func noSecrets(t *testing.T, h *harness, log *blockedLog, secrets []string, texts ...string) {
	t.Helper()
	h.states.mu.Lock()
	events, _ := json.Marshal(h.states.events)
	h.states.mu.Unlock()
	ups, _ := json.Marshal(h.gw.Upstreams())
	shown := map[string]string{"log": log.String(), "events": string(events), "Upstreams()": string(ups), "texts": strings.Join(texts, "\n")}
	for what, s := range shown {
		for _, secret := range secrets {
			require.NotEmpty(t, secret)
			assert.NotContains(t, s, secret, "a secret in %s", what)
		}
	}
}

func TestCredentialsHeaderUpstream(t *testing.T) {
	const key = "k3y-0f-the-header-upstream"
	t.Setenv("GATE_TEST_API_KEY", key)
	up, url := headerUpstream(t, key)
	log := openLog()
	h := start(t, fmt.Sprintf(`[[servers]]
name = "web"
prefix = "w_"
url = %q
headers = { "X-Api-Key" = "${secret:GATE_TEST_API_KEY}" }
`, url+"/mcp"), credConfig(log))
	c := h.client()
	waitTool(t, c, "w_whoami")
	res, err := c.call(t, "w_whoami", nil)
	require.NoError(t, err)
	assert.Equal(t, key+"|", textOf(res), "the header, and no Authorization")
	// The upstream's error quotes the key: the client gets it without.
	_, err = c.call(t, "w_leak", nil)
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, "refused: you sent ${secret:GATE_TEST_API_KEY}|", je.Message)
	assert.JSONEq(t, `{"sent":"${secret:GATE_TEST_API_KEY}|"}`, string(je.Data))
	// A message cut where the key is (gate passes on 4 KiB of one) is
	// redacted whole before the cut: no beginning of the key is left.
	_, cut := c.call(t, "w_leak", map[string]any{"bytes": 4096 - len("refused: you sent ") - 6})
	require.ErrorAs(t, cut, &je)
	assert.Contains(t, je.Message, "pppp")
	assert.False(t, strings.Contains(je.Message, key[:6]), "a beginning of the key is left")
	assert.Zero(t, up.refused.Load())
	noSecrets(t, h, log, []string{key}, err.Error(), cut.Error())
}

func TestCredentialsOAuthUpstream(t *testing.T) {
	const clientSecret = "s3cret-of-the-oauth-client"
	t.Setenv("GATE_TEST_CLIENT_SECRET", clientSecret)
	as := newAuthServer(t, "gate", clientSecret)
	up, url := oauthUpstream(t, as)
	log := openLog()
	h := start(t, fmt.Sprintf(`[[servers]]
name = "crm"
prefix = "c_"
url = %q
oauth = { token_url = %q, client_id = "gate", client_secret = "${secret:GATE_TEST_CLIENT_SECRET}", scopes = ["mcp:tools"] }
`, url+"/mcp", as.url), credConfig(log))
	c := h.client()
	waitTool(t, c, "c_whoami")
	res, err := c.call(t, "c_whoami", nil)
	require.NoError(t, err)
	first := as.tokens()
	require.Len(t, first, 1, "one token for the session")
	assert.Equal(t, "|Bearer "+first[0], textOf(res))
	assert.Equal(t, url+"/mcp", as.resource, "the token asked for this server (RFC 8707)")

	// The token expires early: the upstream refuses it, gate asks for a
	// new one and sends the call again, and the client sees nothing.
	as.revoke()
	refusedBefore := up.refused.Load()
	res, err = c.call(t, "c_echo", map[string]any{"text": "again"})
	require.NoError(t, err)
	assert.Equal(t, "echo: again", textOf(res))
	assert.Len(t, as.tokens(), 2, "a fresh token")
	assert.Equal(t, refusedBefore+1, up.refused.Load(), "one refusal, then the call with the new token")
	assert.Equal(t, int64(2), as.requests.Load())
	for _, u := range h.gw.Upstreams() {
		assert.Equal(t, mcpgw.StateReady, u.State, "%+v", u)
	}

	_, err = c.call(t, "c_leak", nil)
	require.Error(t, err)
	noSecrets(t, h, log, append(as.tokens(), clientSecret), err.Error())
}

// A rejected credential takes the upstream down with a reason that says
// so, and is tried again only at the longest backoff: over many of the
// shortest backoffs, the upstream sees a few attempts.
func TestCredentialsRejectedWithoutAStorm(t *testing.T) {
	const wrong = "wr0ng-key-of-the-header-upstream"
	t.Setenv("GATE_TEST_WRONG_KEY", wrong)
	up, url := headerUpstream(t, "the-right-key")
	log := openLog()
	h := start(t, fmt.Sprintf(`[[servers]]
name = "web"
url = %q
headers = { "X-Api-Key" = "${secret:GATE_TEST_WRONG_KEY}" }
`, url+"/mcp"), credConfig(log))
	why := waitDown(t, h, "web", "credentials rejected (HTTP 401)")
	assert.Contains(t, why, `with HTTP 401 Unauthorized (WWW-Authenticate: ApiKey error="invalid key ${secret:GATE_TEST_WRONG_KEY}")`)
	assert.Contains(t, why, "gate tries again only after its longest backoff (retrying in 100ms)")
	// Without the longest backoff at once, 1ms doubling would be about 11
	// attempts in 600ms; at 100ms each, it is at most 7, of one request
	// each (a session sends nothing after the refusal).
	start := up.requests.Load()
	time.Sleep(600 * time.Millisecond)
	attempts := up.requests.Load() - start
	assert.LessOrEqual(t, attempts, int64(7), "attempts in 600ms")
	assert.Equal(t, up.requests.Load(), up.refused.Load(), "every request was the initialize that was refused")
	t.Logf("down: %s", why)
	noSecrets(t, h, log, []string{wrong}, why)
}

// A token endpoint that refuses the client is the reason, quoted without
// the secret it was sent; the upstream is never asked.
func TestCredentialsTokenEndpointRefuses(t *testing.T) {
	const wrong = "wr0ng-client-secret"
	t.Setenv("GATE_TEST_WRONG_CLIENT_SECRET", wrong)
	as := newAuthServer(t, "gate", "the-right-secret")
	up, url := oauthUpstream(t, as)
	log := openLog()
	h := start(t, fmt.Sprintf(`[[servers]]
name = "crm"
url = %q
oauth = { token_url = %q, client_id = "gate", client_secret = "${secret:GATE_TEST_WRONG_CLIENT_SECRET}" }
`, url+"/mcp", as.url), credConfig(log))
	why := waitDown(t, h, "crm", "oauth: token request to "+as.url+` failed: HTTP 401 Unauthorized: "invalid_client"`)
	assert.Contains(t, why, "credentials rejected: gate tries again only after its longest backoff")
	assert.Contains(t, why, "with secret ${secret:GATE_TEST_WRONG_CLIENT_SECRET}", "the server's words, redacted")
	assert.Zero(t, up.requests.Load(), "no request without a token")
	t.Logf("down: %s", why)
	noSecrets(t, h, log, []string{wrong}, why)
}

// A redirect is refused: of the upstream (its headers would follow) and
// of the token endpoint (the client secret would); its target is sent
// nothing.
func TestCredentialsRedirectRefused(t *testing.T) {
	const key, clientSecret = "k3y-not-for-the-target", "s3cret-not-for-the-target"
	t.Setenv("GATE_TEST_API_KEY", key)
	t.Setenv("GATE_TEST_CLIENT_SECRET", clientSecret)
	target := &counted{h: sdkHandler(false)}
	targetURL := serveHTTP(t, target)
	unreached := &counted{h: sdkHandler(false)}
	unreachedURL := serveHTTP(t, unreached)
	redirect := func(code int) string {
		return serveHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, targetURL+r.URL.Path, code)
		}))
	}
	log := openLog()
	h := start(t, fmt.Sprintf(`[[servers]]
name = "moved"
url = %q
headers = { "X-Api-Key" = "${secret:GATE_TEST_API_KEY}" }

[[servers]]
name = "token-moved"
url = %q
oauth = { token_url = %q, client_id = "gate", client_secret = "${secret:GATE_TEST_CLIENT_SECRET}" }
`, redirect(http.StatusTemporaryRedirect)+"/mcp", unreachedURL+"/mcp", redirect(http.StatusFound)+"/token"), credConfig(log))
	why := waitDown(t, h, "moved", "answered HTTP 307 Temporary Redirect with Location \""+targetURL+"/mcp\": gate follows no redirects")
	whyToken := waitDown(t, h, "token-moved", "oauth: token request to ")
	assert.Contains(t, whyToken, "it answered HTTP 302 Found with Location \""+targetURL+"/token\"; gate follows no redirects")
	assert.Zero(t, target.requests.Load(), "the redirects' target was sent a request")
	assert.Zero(t, unreached.requests.Load(), "an upstream was sent a request without a token")
	t.Logf("down: %s\ndown: %s", why, whyToken)
	noSecrets(t, h, log, []string{key, clientSecret}, why, whyToken)
}

// A secret that is not set keeps the upstream down, unconnected, with a
// reason that names it; a stdio upstream is not started.
func TestCredentialsUnsetSecret(t *testing.T) {
	_ = os.Unsetenv("GATE_TEST_UNSET_SECRET")
	up, url := headerUpstream(t, "key")
	h := start(t, fmt.Sprintf(`[[servers]]
name = "web"
url = %q
headers = { "X-Api-Key" = "${secret:GATE_TEST_UNSET_SECRET}" }

[[servers]]
name = "local"
command = [%q]
env = { GATE_TEST_UPSTREAM = "env", UPSTREAM_TOKEN = "${secret:GATE_TEST_UNSET_SECRET}" }
`, url+"/mcp", exe(t)), credConfig(openLog()))
	t.Logf("down: %s", waitDown(t, h, "web", "header X-Api-Key: secret GATE_TEST_UNSET_SECRET is not set"))
	t.Logf("down: %s", waitDown(t, h, "local", "env UPSTREAM_TOKEN: secret GATE_TEST_UNSET_SECRET is not set"))
	assert.Zero(t, up.requests.Load())
}

// A stdio upstream gets its env secret, and what it says of it on stderr
// and in its errors reaches gate's log and the client redacted.
func TestCredentialsStdioEnvSecret(t *testing.T) {
	const token = "t0ken-of-the-stdio-upstream"
	t.Setenv("GATE_TEST_STDIO_TOKEN", token)
	log := openLog()
	h := start(t, fmt.Sprintf(`[[servers]]
name = "local"
prefix = "l_"
command = [%q]
env = { GATE_TEST_UPSTREAM = "env", UPSTREAM_TOKEN = "${secret:GATE_TEST_STDIO_TOKEN}", PLAIN = "${HOME}" }
`, exe(t)), credConfig(log))
	c := h.client()
	waitTool(t, c, "l_getenv")
	res, err := c.call(t, "l_getenv", map[string]any{"name": "UPSTREAM_TOKEN"})
	require.NoError(t, err)
	assert.Equal(t, token, textOf(res), "the secret, expanded")
	res, err = c.call(t, "l_getenv", map[string]any{"name": "PLAIN"})
	require.NoError(t, err)
	assert.Equal(t, "${HOME}", textOf(res), "nothing but ${secret:NAME} is expanded")
	_, err = c.call(t, "l_leak", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "my token is ${secret:GATE_TEST_STDIO_TOKEN}")
	require.Eventually(t, func() bool {
		return strings.Contains(log.String(), "upstream local: starting with token ${secret:GATE_TEST_STDIO_TOKEN}")
	}, waitFor, 10*time.Millisecond, "log:\n%s", log.String())
	noSecrets(t, h, log, []string{token}, err.Error())
}

// A reload after a secret changed reconnects with the new value, though
// the manifest's entry is as it was.
func TestCredentialsChangedSecretReconnects(t *testing.T) {
	t.Setenv("GATE_TEST_ROTATING_KEY", "first-key")
	s := credentialServer()
	mcpH := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	url := serveHTTP(t, mcpH)
	manifest := fmt.Sprintf(`[[servers]]
name = "web"
prefix = "w_"
url = %q
headers = { "X-Api-Key" = "${secret:GATE_TEST_ROTATING_KEY}" }
`, url+"/mcp")
	h := start(t, manifest, credConfig(openLog()))
	c := h.client()
	waitTool(t, c, "w_whoami")
	res, err := c.call(t, "w_whoami", nil)
	require.NoError(t, err)
	require.Equal(t, "first-key|", textOf(res))
	t.Setenv("GATE_TEST_ROTATING_KEY", "second-key")
	h.rewrite(manifest + "\n# the same entry\n")
	require.Eventually(t, func() bool {
		res, err := c.call(t, "w_whoami", nil)
		return err == nil && textOf(res) == "second-key|"
	}, waitFor, 20*time.Millisecond)
}
