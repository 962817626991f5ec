package gateway

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gate-dev/gate/runtime/manifest"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The credentials go to the url's origin only: a request the transport
// is handed for another origin (another host, port or scheme) carries
// none of them.
func TestCredentialsBoundToOrigin(t *testing.T) {
	got := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got[r.Host+r.URL.Path] = r.Header.Get("X-Api-Key") + "|" + r.Header.Get("X-Plain")
	}))
	defer srv.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got["other"+r.URL.Path] = r.Header.Get("X-Api-Key") + "|" + r.Header.Get("X-Plain")
	}))
	defer other.Close()
	t.Setenv("GATE_TEST_K", "the-key")
	conn := &manifest.Upstream{URL: srv.URL + "/mcp", Headers: []manifest.Header{{Name: "X-Api-Key", Value: "${secret:GATE_TEST_K}"}, {Name: "X-Plain", Value: "p"}}}
	var secrets redactor
	c, err := newCredentials(conn, ptr(NewConfig()), newGuard(1), http.DefaultTransport, &secrets)
	require.NoError(t, err)
	for _, u := range []string{srv.URL + "/mcp", other.URL + "/x", strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/y"} {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		resp, err := c.RoundTrip(req)
		require.NoError(t, err)
		_ = resp.Body.Close()
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	assert.Equal(t, map[string]string{
		host + "/mcp": "the-key|p",
		"other/x":     "|",
		strings.Replace(host, "127.0.0.1", "localhost", 1) + "/y": "|", // another host: another origin
	}, got)
	assert.Equal(t, "${secret:GATE_TEST_K}", secrets.text("the-key"))
}

func ptr[T any](v T) *T { return &v }

func TestOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"http://h/mcp":          "http://h:80",
		"HTTPS://H.example/x":   "https://h.example:443",
		"https://h:443/":        "https://h:443",
		"http://[::1]:8080/mcp": "http://[::1]:8080",
	} {
		got, err := originOf(in)
		require.NoError(t, err)
		assert.Equal(t, want, got, in)
	}
}

func TestRedactor(t *testing.T) {
	var r redactor
	assert.Equal(t, "abc", r.text("abc"), "nothing to redact")
	r.add("", "[empty]")
	r.add("key", "${secret:K}")
	r.add("key-and-more", "[header X]")
	r.add("secret", "${secret:S}")
	// Longest first: a value that holds another goes whole; a label that
	// holds a value is not searched again.
	assert.Equal(t, "[header X] ${secret:K} ${secret:S}${secret:S}", r.text("key-and-more key secretsecret"))
	assert.Equal(t, len("key-and-more"), r.longest())

	je := &jsonrpc.Error{Code: 7, Message: "sent key", Data: json.RawMessage(`{"k\u0065y":"k\u0065y","n":[1,"secret"]}`)}
	out := r.err(je)
	var got *jsonrpc.Error
	require.ErrorAs(t, out, &got)
	assert.Equal(t, int64(7), got.Code)
	assert.Equal(t, "sent ${secret:K}", got.Message)
	assert.JSONEq(t, `{"${secret:K}":"${secret:K}","n":[1,"${secret:S}"]}`, string(got.Data))
	assert.Equal(t, "sent key", je.Message, "the original is kept as it was")

	wrapped := r.err(errors.Join(errors.New("outer key"), je))
	require.ErrorAs(t, wrapped, &got)
	assert.Equal(t, "sent ${secret:K}", got.Message, "errors.As finds only the redacted copy")
	assert.NotContains(t, wrapped.Error(), "key\n")
	plain := errors.New("nothing here")
	assert.Same(t, plain, r.err(plain), "an error without a value is kept")

	assert.Nil(t, r.data(json.RawMessage(`not json with key`)), "data that does not decode and quotes a value is dropped")

	for i := range maxTokensKept + 1 {
		r.addToken("token-" + string(rune('a'+i)))
	}
	assert.Equal(t, "token-a [oauth access token]", r.text("token-a token-e"), "the oldest token is forgotten")
}
