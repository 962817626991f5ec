package mcpgw

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/uplink"
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
	c, err := newCredentials(conn, ptr(NewConfig()), uplink.NewGuard(1, reachesGate), http.DefaultTransport, &secrets)
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

	// The spellings gate gives a value in what it sends: percent-encoded
	// as a form value (HTTP Basic's id and secret) and as a path segment.
	r.add("p@ss/w rd", "${secret:P}")
	assert.Equal(t, "${secret:P} ${secret:P} ${secret:P}", r.text("p@ss/w rd p%40ss%2Fw+rd p@ss%2Fw%20rd"))

	for i := range maxTokensKept + 1 {
		r.addToken("token-" + string(rune('a'+i)))
	}
	assert.Equal(t, "token-a [oauth access token]", r.text("token-a token-e"), "the oldest token is forgotten")
}

// What a token endpoint answers, and what gate makes of it: the token,
// or a reason that names the endpoint and never the body; a refusal of
// the client is a rejection of the credentials, a server error is not.
func TestTokenSourceAnswers(t *testing.T) {
	for _, tc := range []struct {
		name     string
		status   int
		body     string
		want     string
		rejected bool
	}{
		{"bearer", 200, `{"access_token":"at-1","token_type":"Bearer","expires_in":"3600"}`, "", false},
		{"no type", 200, `{"access_token":"at-2"}`, "", false},
		{"dpop", 200, `{"access_token":"at-3","token_type":"DPoP"}`, `the token is of type "DPoP"; gate sends only Bearer tokens`, false},
		{"space in token", 200, `{"access_token":"a b","token_type":"bearer"}`, "holds characters a header cannot carry", false},
		{"invalid scope", 400, `{"error":"invalid_scope","error_description":"no such scope"}`, `HTTP 400 Bad Request: "invalid_scope" (no such scope); credentials rejected`, true},
		{"forbidden", 403, `nope`, "HTTP 403 Forbidden; credentials rejected", true},
		{"server error", 500, `{"error":"temporarily_unavailable"}`, `HTTP 500 Internal Server Error: "temporarily_unavailable"`, false},
		{"quotes the request", 401, `{"error":"invalid_client","error_description":"QUOTE"}`, `HTTP 401 Unauthorized: "invalid_client" ([oauth client credentials] ${secret} ${secret})`, true},
		{"huge", 200, `{"access_token":"` + strings.Repeat("a", maxTokenBody) + `"}`, "its answer is over 65536 bytes", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				id, secret, _ := r.BasicAuth()
				assert.Equal(t, "id|"+url.QueryEscape("s3cr=t/+"), id+"|"+secret, "HTTP Basic of the form-encoded id and secret")
				assert.Equal(t, "", r.PostFormValue("client_secret"), "the secret goes in the header only")
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				// A token endpoint that quotes what it refused: the
				// Authorization header as sent, and the secret decoded
				// and as it came.
				_, auth, _ := strings.Cut(r.Header.Get("Authorization"), " ")
				decoded, err := url.QueryUnescape(secret)
				assert.NoError(t, err)
				quote := auth + " " + decoded + " " + secret
				_, _ = w.Write([]byte(strings.Replace(tc.body, "QUOTE", quote, 1)))
			}))
			defer srv.Close()
			var secrets redactor
			secrets.add("s3cr=t/+", "${secret}")
			src := newTokenSource(&manifest.OAuth{TokenURL: srv.URL + "/t"}, "id", "s3cr=t/+", "http://up/mcp", ptr(NewConfig()), &secrets)
			tok, err := src.token(t.Context(), "")
			if tc.want == "" {
				require.NoError(t, err)
				assert.True(t, strings.HasPrefix(tok, "at-"))
				assert.Equal(t, "[oauth access token]", secrets.text(tok))
				again, err := src.token(t.Context(), "")
				require.NoError(t, err)
				assert.Equal(t, tok, again, "kept until it expires or is stale")
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), "oauth: token request to "+srv.URL+"/t")
			assert.Contains(t, err.Error(), tc.want)
			assert.Equal(t, tc.rejected, errors.Is(err, errCredentialsRejected))
		})
	}
}

// A value cut by the 200 bytes a reason quotes of a header is redacted
// whole first: no beginning of it is left.
func TestRedactorShortRedactsBeforeTheCut(t *testing.T) {
	var r redactor
	r.add("0123456789abcdef", "${secret:K}")
	got := r.short(strings.Repeat("x", 195) + "0123456789abcdef\x1b")
	assert.Equal(t, strings.Repeat("x", 195)+"${sec…", got)
	assert.NotContains(t, got, "01234")
}

// A token is renewed tokenEarly before it expires, halfway through a
// shorter life, and never within tokenReuse of getting it, so that an
// authorization server's short expires_in does not cost a token request
// before every request.
func TestRenewAt(t *testing.T) {
	got := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		life, want time.Duration
	}{
		{time.Hour, time.Hour - tokenEarly},
		{20 * time.Second, 10 * time.Second},
		{10 * time.Second, 5 * time.Second},
		{4 * time.Second, 2 * time.Second},
		{time.Second, tokenReuse},
		{-time.Minute, tokenReuse},
	} {
		assert.Equal(t, got.Add(tc.want), renewAt(got, got.Add(tc.life)), "a life of %v", tc.life)
	}
	assert.True(t, renewAt(got, time.Time{}).IsZero(), "no expiry: never")
}

// An authorization server that gives tokens 2 s of life is asked once for
// all the requests of the first second, not once a request.
func TestShortLivedTokenIsReused(t *testing.T) {
	var asked atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := asked.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"access_token":"at-%d","token_type":"Bearer","expires_in":2}`, n)
	}))
	defer srv.Close()
	var secrets redactor
	src := newTokenSource(&manifest.OAuth{TokenURL: srv.URL + "/t"}, "id", "s", "http://up/mcp", ptr(NewConfig()), &secrets)
	first, err := src.token(t.Context(), "")
	require.NoError(t, err)
	for range 100 {
		tok, err := src.token(t.Context(), "")
		require.NoError(t, err)
		if tok != first {
			break // a second has passed on a slow machine: renewed, once
		}
	}
	assert.LessOrEqual(t, asked.Load(), int64(2))
	stale, err := src.token(t.Context(), first)
	require.NoError(t, err)
	assert.NotEqual(t, first, stale, "a token the upstream refused is renewed at once")
}
