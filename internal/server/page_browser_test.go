package server

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileName and hostileText are a name and a description or reason
// that would run script if the page wrote them as markup: each would set
// document.title, and an <img> would appear in the document. Manifest
// names are letters, digits, _ and -; an upstream's (which the MCP
// gateway publishes) and every description and reason are free text.
const (
	hostileName = `<img src=x onerror="document.title='pwned-by-name'">`
	hostileText = `</script><script>document.title='pwned-by-text'</script><img src=x onerror="document.title='pwned-by-text'">`
)

// pageManifest: db_query and mcp:db on one loopback listener, with a TTL
// short enough that the refresher notices the listener go within a probe
// round; echo without a probe; a tool and a skill described with markup
// (the skill needs db_query).
const pageManifest = `
[runtime]
ttl = "100ms"
grace = "0s"

[[tools]]
name = "db_query"
description = "Query the database."
probe = "tcp:%[1]s"

[[tools]]
name = "echo"
description = "Always here."

[[tools]]
name = "notes"
description = %[2]q

[[servers]]
name = "mcp:db"
probe = "tcp:%[1]s"

[skills]
paths = ["skills"]
`

// screenshotDir is $GATE_SCREENSHOT_DIR when set (to keep the page's
// picture, as docs/img/status-page.png was made), else a test directory.
func screenshotDir(t *testing.T) string {
	if dir := os.Getenv("GATE_SCREENSHOT_DIR"); dir != "" {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		return dir
	}
	return t.TempDir()
}

// rowCells is a row's cells by data-field, for the kind and name given.
const rowCells = `((kind, name) => {
	for (const tr of document.querySelectorAll('tr[data-kind]')) {
		if (tr.dataset.kind === kind && tr.dataset.name === name) {
			const out = {};
			for (const td of tr.cells) out[td.dataset.field] = td.textContent;
			return out;
		}
	}
	return null;
})`

// pageSafety is what markup that ran would have changed: the title, and
// elements that only such markup brings.
const pageSafety = `({title: document.title, imgs: document.images.length, scripts: document.scripts.length,
	styled: document.styleSheets.length === 1 && document.styleSheets[0].cssRules.length > 0})`

type pageSafetyView struct {
	Title   string
	Imgs    int
	Scripts int
	Styled  bool
}

// TestStatusPageInBrowser: in a real browser, the page lists every tool,
// server and skill with its state; a tool's flip reaches the page live,
// without a reload; names, descriptions and reasons that are markup,
// rendered by the server or written by the script from an event, show as
// text and run nothing.
func TestStatusPageInBrowser(t *testing.T) {
	t.Parallel()
	l := testnet.Listen(t, "tcp", "127.0.0.1:0")
	dir := t.TempDir()
	skill := fmt.Sprintf("---\nname: db-report\ndescription: %q\nrequires_tools: [db_query]\n---\n", hostileText)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "skills", "db-report"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "skills", "db-report", "SKILL.md"), []byte(skill), 0o644))
	path := writeManifest(t, dir, fmt.Sprintf(pageManifest, l.Addr(), hostileText))
	svc := openService(t, path, nil, serviceConfig(nil, nil))
	runService(t, svc)
	f := serve(t, svc, nil, Options{})
	// An upstream (as the MCP gateway reports one) named and explained
	// with markup: the server renders it among the recent changes.
	svc.Publish(runtime.Event{Type: "upstream", Name: hostileName, State: "unavailable", Reason: hostileText, At: time.Now()})

	b := startBrowser(t, 1200, 900)
	b.open(f.url + "/")

	var safety pageSafetyView
	b.eval(pageSafety, &safety)
	assert.Equal(t, pageSafetyView{Title: "gate status", Imgs: 0, Scripts: 1, Styled: true}, safety, "the page as served")

	// A probe that overran its budget on a busy machine may have flipped
	// a probed row already, and the page follows it: each row comes to
	// its state.
	for _, tc := range []struct{ kind, name, state string }{
		{"tool", "db_query", "available"},
		{"tool", "echo", "available"},
		{"tool", "notes", "available"},
		{"server", "mcp:db", "available"},
		{"skill", "db-report", "active"},
	} {
		b.waitUntil(fmt.Sprintf(`%s(%q, %q).state === %q`, rowCells, tc.kind, tc.name, tc.state))
	}
	for _, name := range []string{"echo", "notes"} {
		var cells map[string]string
		b.eval(fmt.Sprintf("%s('tool', %q)", rowCells, name), &cells)
		assert.Equal(t, name, cells["name"])
		assert.Contains(t, cells["since"], "gate's start, ", "a tool without a probe never changes")
		assert.Equal(t, "no probe", cells["checked"])
	}
	var title string
	b.eval(`document.querySelector('tr[data-name="notes"] td[data-field="name"]').title`, &title)
	assert.Equal(t, hostileText, title, "the description, in an attribute, is the text")
	var skillCells map[string]string
	b.eval(fmt.Sprintf("%s('skill', 'db-report')", rowCells), &skillCells)
	assert.Equal(t, hostileText, skillCells["description"], "the description shows as text")
	var recent []string
	b.eval(`Array.from(document.getElementById('flips').rows, tr => tr.cells[2].textContent + ' | ' + tr.cells[4].textContent)`, &recent)
	assert.Contains(t, recent, hostileName+" | "+hostileText, "the server-rendered change shows as text")

	// Live: the script has connected; a marker set now would be lost by a
	// reload.
	b.waitUntil(`document.body.dataset.live === 'connected'`)
	b.eval(`window.gateMarker = 'same page'`, nil)

	const liveName = `<script>document.title='pwned-live'</script>`
	svc.Publish(runtime.Event{Type: "upstream", Name: liveName, State: "unavailable", Reason: hostileText, At: time.Now()})
	l.Close()
	// Unavailable, or an error where a busy machine kept the probe past
	// its budget: not available either way.
	b.waitUntil(fmt.Sprintf(`['unavailable', 'error'].includes(%s('tool', 'db_query').state)`, rowCells))
	b.waitUntil(fmt.Sprintf(`%s('skill', 'db-report').state === 'degraded'`, rowCells))

	var cells map[string]string
	b.eval(fmt.Sprintf("%s('tool', 'db_query')", rowCells), &cells)
	// Refused, or unreachable or overrun on a machine too busy for the
	// probe's budget: either way, a reason, a code and its action.
	assert.NotEmpty(t, cells["reason"])
	assert.Contains(t, runtime.Codes(), runtime.Code(cells["code"]))
	assert.Equal(t, runtime.Code(cells["code"]).Action(), cells["action"])
	assert.NotContains(t, cells["since"], "start", "since is the flip's time")
	var marker string
	b.eval(`window.gateMarker`, &marker)
	assert.Equal(t, "same page", marker, "the flip came without a reload")

	recent = nil
	b.eval(`Array.from(document.getElementById('flips').rows, tr => tr.cells[2].textContent + ' | ' + tr.cells[4].textContent)`, &recent)
	assert.Contains(t, recent, liveName+" | "+hostileText, "the event's name and reason show as text")
	// The summary counts the flip (written at most ten times a second).
	b.waitUntil(`document.querySelector('[data-count="tool"]').textContent === '2 of 3'`)
	b.eval(pageSafety, &safety)
	assert.Equal(t, pageSafetyView{Title: "gate status", Imgs: 0, Scripts: 1, Styled: true}, safety, "after the live changes")

	shot := b.screenshot(screenshotDir(t), "status-page.png")
	t.Logf("screenshot: %s", shot)
}

// TestStatusPageTokenInBrowser: with a token, a browser that does not
// send it gets the API's 401 and no page; one behind a reverse proxy that
// adds "Authorization: Bearer" (what docs/HTTP.md recommends) gets the
// page, live.
func TestStatusPageTokenInBrowser(t *testing.T) {
	t.Parallel()
	const token = "page-token"
	f, l := flipFixture(t, nil, Options{Token: token})
	defer l.Close()

	b := startBrowser(t, 800, 600)
	b.open(f.url + "/")
	var refused struct {
		Title string
		Text  string
		Rows  int
	}
	b.eval(`({title: document.title, text: document.body.innerText, rows: document.querySelectorAll('tr[data-kind]').length})`, &refused)
	assert.NotEqual(t, "gate status", refused.Title)
	assert.JSONEq(t, unauthorizedBody, refused.Text)
	assert.Zero(t, refused.Rows)

	target, err := url.Parse(f.url)
	require.NoError(t, err)
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.Header.Set("Authorization", "Bearer "+token)
	}})
	// The browser's stream through the proxy lasts until gate ends it:
	// proxy.Close waits for it.
	defer func() {
		f.shutdown()
		proxy.Close()
	}()
	b.open(proxy.URL + "/")
	b.waitUntil(fmt.Sprintf(`%s('tool', 'db_query').state === 'available'`, rowCells))
	b.waitUntil(`document.body.dataset.live === 'connected'`)
	l.Close()
	b.waitUntil(fmt.Sprintf(`['unavailable', 'error'].includes(%s('tool', 'db_query').state)`, rowCells))
	var title string
	b.eval(`document.title`, &title)
	assert.Equal(t, "gate status", title)
}

// TestStatusPageCatchesUp: a change between the page's rendering and its
// stream's start is not lost: the stream's hello tells the page it lacks
// changes, and it reads the state again in place, without a reload, then
// follows the stream. The browser holds the stream's request back
// (DevTools' Fetch domain) until the change is made.
func TestStatusPageCatchesUp(t *testing.T) {
	t.Parallel()
	path := writeManifest(t, t.TempDir(), "[[tools]]\nname = \"echo\"\n")
	svc := openService(t, path, nil, serviceConfig(nil, nil))
	runService(t, svc)
	f := serve(t, svc, nil, Options{})

	b := startBrowser(t, 800, 600)
	paused := b.on("Fetch.requestPaused")
	b.do("Fetch.enable", map[string]any{"patterns": []map[string]any{{"urlPattern": "*/v1/events*"}}}, nil)
	b.open(f.url + "/")
	var request struct{ RequestID string }
	select {
	case raw := <-paused:
		require.NoError(t, json.Unmarshal(raw, &request))
	case <-time.After(browserWait):
		t.Fatal("the page did not open its event stream")
	}
	recent := `Array.from(document.getElementById('flips').rows, tr => tr.cells[2].textContent)`
	var names []string
	b.eval(recent, &names)
	assert.Empty(t, names)

	svc.Publish(runtime.Event{Type: "upstream", Name: "missed-by-the-page", State: "unavailable", At: time.Now()})
	b.eval(`window.gateMarker = 'same page'`, nil)
	b.do("Fetch.continueRequest", map[string]any{"requestId": request.RequestID}, nil)
	b.waitUntil(recent + `.includes('missed-by-the-page') && document.body.dataset.live === 'connected'`)

	svc.Publish(runtime.Event{Type: "upstream", Name: "after-the-catch-up", State: "available", Available: true, At: time.Now()})
	b.waitUntil(recent + `.includes('after-the-catch-up')`)
	b.eval(recent, &names)
	assert.Equal(t, []string{"after-the-catch-up", "missed-by-the-page"}, names, "each change once, newest first")
	// A row read in the catch-up follows the changes after it.
	svc.Publish(runtime.Event{Type: "tool", Name: "echo", State: "unavailable", Reason: "flipped after the catch-up", At: time.Now()})
	b.waitUntil(fmt.Sprintf(`%s('tool', 'echo').reason === 'flipped after the catch-up'`, rowCells))
	b.waitUntil(`document.querySelector('[data-count="tool"]').textContent === '0 of 1'`)
	var marker string
	b.eval(`window.gateMarker`, &marker)
	assert.Equal(t, "same page", marker, "caught up without a reload")
}
