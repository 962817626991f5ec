package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/mcptest"
)

// gatectl serve fronts two HTTP upstreams that want an X-Api-Key: one
// given the right key (in gate's environment, named in the manifest), one
// a wrong one. Both servers quote the key they were sent, in an error and
// in a refusal. Neither key is in serve's log, /v1/status, /metrics, the
// error the client gets, or what gatectl check prints.
func TestServeCredentialsShowNoSecret(t *testing.T) {
	const key, wrong = "k3y-for-the-good-upstream", "wr0ng-key-for-the-bad-one"
	t.Setenv("GATE_CACHE_DIR", t.TempDir())
	t.Setenv("GATE_TEST_GOOD_KEY", key)
	t.Setenv("GATE_TEST_BAD_KEY", wrong)
	up := mcp.NewServer(&mcp.Implementation{Name: "keyed", Version: "1"}, nil)
	up.AddTool(&mcp.Tool{Name: "leak", InputSchema: map[string]any{"type": "object"}}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, &jsonrpc.Error{Code: 4001, Message: "you sent " + req.Extra.Header.Get("X-Api-Key")}
	})
	mcpH := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return up }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("X-Api-Key"); got != key {
			w.Header().Set("WWW-Authenticate", `ApiKey error="`+got+`"`)
			http.Error(w, "bad key "+got, http.StatusUnauthorized)
			return
		}
		mcpH.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	manifest := fmt.Sprintf(`[[servers]]
name = "good"
prefix = "g_"
url = %q
headers = { "X-Api-Key" = "${secret:GATE_TEST_GOOD_KEY}" }

[[servers]]
name = "bad"
url = %q
headers = { "X-Api-Key" = "${secret:GATE_TEST_BAD_KEY}" }
`, srv.URL+"/mcp", srv.URL+"/mcp")
	s := startDocServe(t, manifest)
	s.waitFor("upstream good ready")
	s.waitFor("credentials rejected (HTTP 401)")

	cl, c := mcptest.New("credentials")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.base + "/mcp"}, nil)
	require.NoError(t, err)
	defer cs.Close()
	c.Session = cs
	c.WaitTools(t, "g_leak")
	_, callErr := cs.CallTool(ctx, &mcp.CallToolParams{Name: "g_leak"})
	require.Error(t, callErr)
	assert.Contains(t, callErr.Error(), "you sent ${secret:GATE_TEST_GOOD_KEY}")

	_, status := get(t, s.base+"/v1/status", "")
	_, metrics := get(t, s.base+"/metrics", "")
	var checkOut, checkErr bytes.Buffer
	run([]string{"check", "-m", s.manifest}, &checkOut, &checkErr)
	log := s.stop()
	assert.Contains(t, log, `WWW-Authenticate: ApiKey error="${secret:GATE_TEST_BAD_KEY}"`, "the refusal, redacted")
	for what, text := range map[string]string{
		"serve's log": log, "/v1/status": status, "/metrics": metrics, "the call's error": callErr.Error(),
		"gatectl check": checkOut.String() + checkErr.String(),
	} {
		for _, secret := range []string{key, wrong} {
			assert.False(t, strings.Contains(text, secret), "%s holds a secret:\n%s", what, text)
		}
	}
}
