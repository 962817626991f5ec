package server

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"html/template"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/pathfmt"
	"github.com/gate-dev/gate/internal/skillsview"
	"github.com/gate-dev/gate/runtime"
)

// The status page (GET / for a browser, docs/HTTP.md): server-rendered
// HTML that is whole without JavaScript, and a script of its own that
// follows /v1/events. Its script and style are served by gate under
// pageScriptPath and pageStylePath, so that the Content-Security-Policy
// allows no inline code and nothing from elsewhere.
const (
	pageScriptPath = "/page/status.js"
	pageStylePath  = "/page/status.css"
	// pageCSP allows the page gate's own script, style and event stream,
	// and nothing else: no inline script or handler (so that a name that
	// slipped into markup could not run even then), no other origin, no
	// frames, forms or <base>.
	pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
	// pageRecentFlips is how many of the kept changes the page lists; the
	// rest still tell since when a thing is in its state.
	pageRecentFlips = 25
)

//go:embed page
var pageFiles embed.FS

// pageTemplate is the page's template, parsed on first use: every gatectl
// command links this package, and only serve shows the page.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("status.html").Funcs(template.FuncMap{
		"pageSection": func(title, kind string, t pageTable) pageSection { return pageSection{title, kind, t} },
	}).ParseFS(pageFiles, "page/status.html"))
})

// pageSection is the tools' or servers' table with its heading.
type pageSection struct {
	Title, Kind string
	Table       pageTable
}

// pageAssetTypes are the content types of the script and style, which
// are served as embedded.
var pageAssetTypes = map[string]string{
	pageScriptPath: "text/javascript; charset=utf-8",
	pageStylePath:  "text/css; charset=utf-8",
}

func mustRead(name string) []byte {
	b, err := pageFiles.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return b
}

// setPageHeaders sets what every answer of the page carries besides
// ServeHTTP's: its policy, and that it may be framed by no one and tells
// no one where it was opened from.
func setPageHeaders(h http.Header) {
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Vary", "Accept")
}

// page answers GET / : the status page to a client that asks for HTML (a
// browser), and the API's 404 to any other, whose clients read JSON.
func (s *server) page(w http.ResponseWriter, r *http.Request) {
	if !wantsHTML(r.Header.Values("Accept")) {
		w.Header().Set("Vary", "Accept")
		writeError(w, http.StatusNotFound, fmt.Sprintf("no endpoint %s (docs/HTTP.md lists them; a browser, asking for text/html, gets the status page)", r.URL.Path))
		return
	}
	s.hook("enter page")
	// The page is rendered once per change of what it tells, as
	// /v1/status is: a client reloading it in a loop costs gate a copy
	// of the bytes per request, not a rendering of every tool.
	body, err := s.pages.render(s.statusState, s.now, func(st statusState) ([]byte, time.Time, bool, error) {
		s.hook("encode page")
		data, at, err := s.pageData(r.Context(), st)
		if err != nil {
			return nil, at, false, err
		}
		var b bytes.Buffer
		if err := pageTemplate().Execute(&b, data); err != nil {
			return nil, at, false, fmt.Errorf("rendering the page: %w", err)
		}
		return b.Bytes(), at, r.Context().Err() == nil, nil
	})
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	setPageHeaders(w.Header())
	writeBody(w, http.StatusOK, "text/html; charset=utf-8", body)
}

// pageAsset answers the page's script or style.
func (s *server) pageAsset(w http.ResponseWriter, r *http.Request) {
	setPageHeaders(w.Header())
	writeBody(w, http.StatusOK, pageAssetTypes[r.URL.Path], mustRead(strings.TrimPrefix(r.URL.Path, "/")))
}

// wantsHTML reports whether an Accept header lists text/html (or XHTML)
// with a weight above zero: what a browser sends for a page, and what
// curl (*/*) and the API's clients (application/json) do not.
func wantsHTML(accept []string) bool {
	for _, line := range accept {
		for _, part := range strings.Split(line, ",") {
			typ, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil || (typ != "text/html" && typ != "application/xhtml+xml") {
				continue
			}
			if q, ok := params["q"]; ok && strings.Trim(q, "0.") == "" {
				continue // q=0, 0.0, 0.000: "not this"
			}
			return true
		}
	}
	return false
}

// pageView is what the template renders.
type pageView struct {
	Script, Style string // relative, so that the page works under a proxy's prefix
	Generation    uint64
	Ready         bool
	Manifest      string
	LastReload    string
	ReloadError   string
	Now           string
	Tools         pageTable
	Servers       pageTable
	Skills        pageTable
	Flips         []pageFlip
	// FlipsKept and FlipsShown say how many changes the log keeps and
	// the page lists at most.
	FlipsKept, FlipsShown int
}

// pageTable is the rows of one kind, and how many of them are up.
type pageTable struct {
	Rows   []pageRow
	Up     int
	Fields string // the data-field of each column, in order, for the script
}

// pageRow is one tool, server or skill.
type pageRow struct {
	Kind, Name, State string
	// Up: a tool or server available, a skill active.
	Up                   bool
	Reason, Code, Action string
	Since                string
	Checked              string // tools and servers
	Description          string
	Offered              string // skills
}

// pageFlip is one recent change.
type pageFlip struct {
	At, Type, Name, State, Reason, Code string
}

// pageTime is how the page writes a time: UTC, to the second, as the
// script writes an event's.
func pageTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") }

// pageData reads the state the page shows besides st (read first, the
// generation before the rest, so that the script knows which events the
// rest already tells, as /v1/status), and the time its ages are as of.
func (s *server) pageData(ctx context.Context, st statusState) (pageView, time.Time, error) {
	flips := s.hub.flips.view(st.gen)
	v := pageView{Script: strings.TrimPrefix(pageScriptPath, "/"), Style: strings.TrimPrefix(pageStylePath, "/"),
		Generation: st.gen, Ready: st.ready, Manifest: st.gate.ManifestPath(), LastReload: pageTime(st.reloadedAt)}
	if st.reloadErr != nil {
		v.ReloadError = s.problems.text(st.reloadErr)
	}
	since := func(kind, name string) string {
		if at, ok := flips.last[flipKey{kind, name}]; ok {
			return pageTime(at)
		}
		if flips.complete {
			return "gate's start, " + pageTime(flips.horizon)
		}
		return "before " + pageTime(flips.horizon)
	}
	tools, err := st.gate.Tools().Status(ctx)
	if err != nil {
		return v, time.Time{}, err
	}
	servers, err := st.gate.Servers().Status(ctx)
	if err != nil {
		return v, time.Time{}, err
	}
	now := s.now()
	v.Now = pageTime(now)
	v.Tools = statusTable("tool", st.gate.Tools(), tools, now, since)
	v.Servers = statusTable("server", st.gate.Servers(), servers, now, since)
	v.Skills = pageTable{Fields: "name state offered description reason since"}
	if m := st.gate.Skills(ctx); m != nil {
		for _, sk := range skillsview.NewList(m, pathfmt.Rel).Skills {
			row := pageRow{Kind: "skill", Name: sk.Name, State: sk.State, Up: sk.State == "active", Description: sk.Description,
				Reason: strings.Join(append(append([]string{}, sk.Errors...), sk.Warnings...), "; "), Offered: "no", Since: since("skill", sk.Name)}
			if sk.Offered {
				row.Offered = "yes"
			}
			if row.Up {
				v.Skills.Up++
			}
			v.Skills.Rows = append(v.Skills.Rows, row)
		}
	}
	v.FlipsKept = flipLogSize
	for _, e := range flips.recent[:min(len(flips.recent), pageRecentFlips)] {
		v.Flips = append(v.Flips, pageFlip{At: pageTime(e.At), Type: e.Type, Name: e.Name, State: e.State, Reason: e.Reason, Code: string(e.Code)})
	}
	v.FlipsShown = pageRecentFlips
	return v, now, nil
}

// statusTable is the rows of reg's tools or servers, whose answers are
// sts.
func statusTable(kind string, reg *runtime.Registry, sts []runtime.Status, now time.Time, since func(kind, name string) string) pageTable {
	t := pageTable{Fields: "name state reason code action since checked"}
	descriptions := map[string]string{}
	for _, tool := range reg.List() {
		descriptions[tool.Name] = tool.Description
	}
	for _, st := range sts {
		row := pageRow{Kind: kind, Name: st.Name, State: string(st.State), Up: st.Available(), Reason: st.Reason,
			Description: descriptions[st.Name], Since: since(kind, st.Name), Checked: "no probe"}
		if !st.Available() && st.Code != "" {
			row.Code, row.Action = string(st.Code), st.Code.Action()
		}
		if !st.CheckedAt.IsZero() {
			row.Checked = fmt.Sprintf("%s ago", now.Sub(st.CheckedAt).Round(time.Millisecond))
		}
		if row.Up {
			t.Up++
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
