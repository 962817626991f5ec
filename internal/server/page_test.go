package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"

// getAccept sends GET or HEAD path with an Accept header (none when
// empty) and the token (none when empty).
func (f *fixture) getAccept(t *testing.T, method, path, accept, token string) response {
	t.Helper()
	req, err := http.NewRequest(method, f.url+path, nil)
	require.NoError(t, err)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return f.send(t, req)
}

// TestPageNegotiates: GET / is the status page for a client that asks
// for HTML, under a policy that allows gate's own script, style and
// stream only; any other client gets the API's JSON 404, as before there
// was a page.
func TestPageNegotiates(t *testing.T) {
	t.Parallel()
	f, l := flipFixture(t, nil, Options{})
	defer l.Close()
	for _, tc := range []struct {
		name, method, path, accept string
		code                       int
		contentType                string
	}{
		{"a browser", http.MethodGet, "/", browserAccept, http.StatusOK, "text/html; charset=utf-8"},
		{"a browser's HEAD", http.MethodHead, "/", browserAccept, http.StatusOK, "text/html; charset=utf-8"},
		{"XHTML", http.MethodGet, "/", "application/xhtml+xml", http.StatusOK, "text/html; charset=utf-8"},
		{"curl", http.MethodGet, "/", "*/*", http.StatusNotFound, "application/json"},
		{"no Accept", http.MethodGet, "/", "", http.StatusNotFound, "application/json"},
		{"JSON", http.MethodGet, "/", "application/json", http.StatusNotFound, "application/json"},
		{"HTML refused by weight", http.MethodGet, "/", "text/html;q=0, application/json", http.StatusNotFound, "application/json"},
		{"the script", http.MethodGet, pageScriptPath, "*/*", http.StatusOK, "text/javascript; charset=utf-8"},
		{"the style", http.MethodGet, pageStylePath, "text/css,*/*;q=0.1", http.StatusOK, "text/css; charset=utf-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := f.getAccept(t, tc.method, tc.path, tc.accept, "")
			assert.Equal(t, tc.code, r.code)
			assert.Equal(t, tc.contentType, r.header.Get("Content-Type"))
			assert.Equal(t, "no-store", r.header.Get("Cache-Control"))
			assert.Equal(t, "nosniff", r.header.Get("X-Content-Type-Options"))
			if tc.code != http.StatusOK {
				assert.JSONEq(t, `{"error": "no endpoint / (docs/HTTP.md lists them; a browser, asking for text/html, gets the status page)"}`, r.body)
				assert.Equal(t, "Accept", r.header.Get("Vary"))
				return
			}
			assert.Equal(t, pageCSP, r.header.Get("Content-Security-Policy"))
			assert.Equal(t, "DENY", r.header.Get("X-Frame-Options"))
			assert.Equal(t, "no-referrer", r.header.Get("Referrer-Policy"))
			assert.NotEmpty(t, r.header.Get("Content-Length"))
			if tc.method == http.MethodHead {
				assert.Empty(t, r.body)
			}
		})
	}
	page := f.getAccept(t, http.MethodGet, "/", browserAccept, "").body
	assert.Contains(t, page, `<tr data-kind="tool" data-name="db_query" data-state="available">`)
	assert.Contains(t, page, `<tr data-kind="server" data-name="mcp:db" data-state="available">`)
	assert.Contains(t, page, `<tr data-kind="skill" data-name="db-report" data-state="active">`)
	assert.Contains(t, page, `<script src="page/status.js" defer></script>`, "the one script, gate's own")
	assert.Equal(t, 1, strings.Count(page, "<script"), "no inline script")
	assert.NotContains(t, page, "http://", "nothing from elsewhere")
	assert.NotContains(t, page, "https://", "nothing from elsewhere")
	assert.NotContains(t, page, " style=", "no inline style")

	assert.Equal(t, http.StatusMethodNotAllowed, f.getAccept(t, http.MethodPost, "/", browserAccept, "").code)
}

// TestPageEscapes: a description and a change's name and reason that are
// markup are escaped for where they land, text or attribute.
func TestPageEscapes(t *testing.T) {
	t.Parallel()
	path := writeManifest(t, t.TempDir(), "[[tools]]\nname = \"notes\"\ndescription = '''"+hostileText+"'''\n")
	svc := openService(t, path, nil, serviceConfig(nil, nil))
	runService(t, svc)
	f := serve(t, svc, nil, Options{})
	svc.Publish(runtime.Event{Type: "upstream", Name: hostileName, State: "unavailable", Reason: hostileText, At: time.Now()})

	page := f.getAccept(t, http.MethodGet, "/", browserAccept, "").body
	for _, raw := range []string{"<img", "</script><script>", "onerror=\""} {
		assert.NotContains(t, page, raw)
	}
	assert.Contains(t, page, `title="&lt;/script&gt;&lt;script&gt;document.title=&#39;pwned-by-text&#39;&lt;/script&gt;&lt;img src=x onerror=&#34;document.title=&#39;pwned-by-text&#39;&#34;&gt;"`, "in an attribute")
	assert.Contains(t, page, `<td>&lt;img src=x onerror=&#34;document.title=&#39;pwned-by-name&#39;&#34;&gt;</td>`, "in text")
}

// TestPageToken: with a token, the page, its script and its style need it
// as every endpoint does: a browser without it gets the API's 401, which
// tells nothing; the Host is not checked. Without a token, the Host must
// be loopback, as for the API.
func TestPageToken(t *testing.T) {
	t.Parallel()
	const token = "page-token"
	f, l := flipFixture(t, nil, Options{Token: token})
	defer l.Close()
	for _, path := range []string{"/", pageScriptPath, pageStylePath} {
		r := f.getAccept(t, http.MethodGet, path, browserAccept, "")
		assert.Equal(t, http.StatusUnauthorized, r.code, path)
		assert.Equal(t, unauthorizedBody, r.body, path)
		assert.Empty(t, r.header.Get("Content-Security-Policy"), path)
		assert.Equal(t, http.StatusUnauthorized, f.getAccept(t, http.MethodGet, path, browserAccept, "wrong").code, path)
		assert.Equal(t, http.StatusOK, f.getAccept(t, http.MethodGet, path, browserAccept, token).code, path)
	}

	open, ol := flipFixture(t, nil, Options{})
	defer ol.Close()
	req, err := http.NewRequest(http.MethodGet, open.url+"/", nil)
	require.NoError(t, err)
	req.Host = "evil.example"
	req.Header.Set("Accept", browserAccept)
	r := open.send(t, req)
	assert.Equal(t, http.StatusMisdirectedRequest, r.code)
	assert.NotContains(t, r.body, "<html")
}

// TestWantsHTML: what counts as asking for the page.
func TestWantsHTML(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		accept []string
		want   bool
	}{
		{[]string{browserAccept}, true},
		{[]string{"application/json", "text/html"}, true},
		{[]string{"TEXT/HTML; charset=utf-8"}, true},
		{[]string{"text/html;q=0.1"}, true},
		{[]string{"text/html;q=0"}, false},
		{[]string{"text/html;q=0.000"}, false},
		{[]string{"*/*"}, false},
		{[]string{"text/*"}, false},
		{nil, false},
		{[]string{""}, false},
		{[]string{"text/html;;;==="}, false},
		{[]string{"application/json, text/html;q=0"}, false},
	} {
		assert.Equal(t, tc.want, wantsHTML(tc.accept), "%q", tc.accept)
	}
}

// FuzzWantsHTML: any Accept header is an answer, never a panic, and
// listing text/html first, as a browser does, is asking for the page.
func FuzzWantsHTML(f *testing.F) {
	f.Add(browserAccept)
	f.Add("text/html;q=0")
	f.Add("*/*")
	f.Add(`text/html; q="0.5"`)
	f.Fuzz(func(t *testing.T, accept string) {
		wantsHTML([]string{accept})
		if !strings.Contains(accept, ",") {
			assert.True(t, wantsHTML([]string{"text/html", accept}))
		}
	})
}

// TestFlipLog: the log keeps the latest flipLogSize changes, newest
// first, up to the generation asked for; a held-back answer is not a
// change; since when a thing is in its state is its latest kept change,
// or, for one without, the start while nothing was dropped and the oldest
// kept change after.
func TestFlipLog(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	l := newFlipLog(start)
	v := l.view(0)
	assert.Empty(t, v.recent)
	assert.True(t, v.complete)
	assert.Equal(t, start, v.horizon)

	at := func(i int) time.Time { return start.Add(time.Duration(i) * time.Second) }
	l.record(runtime.Event{Type: "tool", Name: "db", State: "unavailable", At: at(1)}, 1)
	l.record(runtime.Event{Type: "tool", Name: "db", State: "available", At: at(2), Pending: &runtime.Pending{}}, 2)
	l.record(runtime.Event{Type: "server", Name: "db", State: "available", At: at(3)}, 3)
	v = l.view(3)
	require.Len(t, v.recent, 2, "the held-back answer is not kept")
	assert.Equal(t, "server", v.recent[0].Type, "newest first")
	assert.Equal(t, at(1), v.last[flipKey{"tool", "db"}])
	assert.Equal(t, at(3), v.last[flipKey{"server", "db"}], "a tool and a server of one name are two things")
	assert.True(t, v.complete)
	v = l.view(2)
	require.Len(t, v.recent, 1, "a change after the generation the page tells is the stream's to bring")
	assert.Equal(t, "tool", v.recent[0].Type)

	for i := range flipLogSize {
		l.record(runtime.Event{Type: "tool", Name: "flapping", State: "available", At: at(10 + i)}, uint64(4+i))
	}
	v = l.view(uint64(3 + flipLogSize))
	assert.Len(t, v.recent, flipLogSize, "bounded")
	assert.False(t, v.complete)
	assert.Equal(t, at(10), v.horizon, "the oldest kept change")
	assert.Equal(t, at(10+flipLogSize-1), v.last[flipKey{"tool", "flapping"}])
	_, kept := v.last[flipKey{"tool", "db"}]
	assert.False(t, kept, "db's change was dropped: it is in its state since before the horizon")
}
