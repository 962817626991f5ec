package mcpgw

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/toollock"
	"github.com/gate-dev/gate/runtime"
)

// Pinning: a server with pin in the manifest offers a tool only while
// each part of its definition, as the gateway offers it, has the sum its
// entry in the lock file beside the manifest gives (toollock). The lock
// file is read when the offered set is computed and its metadata changed
// (one stat), and looked at every pinLook while a server is pinned, so
// that a lock gatectl mcp lock writes is taken up without a reload.

// pinLook is how often the lock file's metadata is looked at while a
// server is pinned: one stat, and a computation of the offered set only
// when it changed.
const pinLook = time.Second

// Verdicts of a pinned tool, as the drift events' State says them.
const (
	pinMatches    = "locked"       // its parts match its entry
	pinChanged    = "changed"      // a part differs from its entry
	pinNotLocked  = "not_locked"   // no entry, and the server is pinned strictly
	pinUnlocked   = "unlocked"     // no entry, and the server is not strict: offered
	pinLockBroken = "lock_invalid" // the lock file cannot be used
)

// pinState is the lock file as the gateway last read it, and the
// verdicts of the pinned tools.
type pinState struct {
	mu   sync.Mutex // guards path and info, which watchLock reads too
	path string     // the serving manifest's lock file; "" when no server is pinned
	info os.FileInfo
	read bool // path was read (info is what it was read at; nil: missing)

	// What follows is Run's alone (compute).
	file *toollock.File // nil when err is set
	err  error          // why the lock file cannot be used
	// sums caches the sums of listed tools; a listing makes new tools,
	// so an entry lives as long as its tool is listed.
	sums, nextSums map[*mcp.Tool]toollock.Sums
	// verdicts are each pinned server's tools' verdicts (server -> tool
	// -> verdict), of the last computation that saw its tools listed.
	verdicts, next map[string]map[string]pinVerdict
	drifted        *prometheus.GaugeVec // nil: no metrics
	gauged         map[string]bool      // servers drifted has a series of
}

// pinVerdict is what the lock says of one tool, and the parts that
// changed.
type pinVerdict struct {
	state string
	parts string // "description, input schema"
}

// hides reports whether the verdict hides the tool (given a usable
// lock file).
func (v pinVerdict) hides() bool { return v.state == pinChanged || v.state == pinNotLocked }

func newPinState(reg prometheus.Registerer) *pinState {
	p := &pinState{sums: map[*mcp.Tool]toollock.Sums{}, verdicts: map[string]map[string]pinVerdict{}, gauged: map[string]bool{}}
	if reg != nil {
		p.drifted = prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "gate_mcp_tools_drifted",
			Help: "Tools of a pinned upstream server hidden because their definition differs from the lock file, by server.",
		}, []string{"server"})
		reg.MustRegister(p.drifted)
	}
	return p
}

// lockPath is the lock file of m when one of its servers is pinned, or "".
func lockPath(m *manifest.Manifest) string {
	if m == nil {
		return ""
	}
	for _, s := range m.Servers {
		if s.Upstream != nil && s.Upstream.Pin != manifest.PinOff {
			return toollock.PathFor(m.Path)
		}
	}
	return ""
}

// pinBegin starts a computation of the offered set: it reads the lock
// file again when it is another file, or its metadata changed.
func (g *Gateway) pinBegin(m *manifest.Manifest) {
	p := g.pins
	path := lockPath(m)
	p.nextSums, p.next = nil, nil
	if path != "" {
		p.nextSums = map[*mcp.Tool]toollock.Sums{}
		p.next = map[string]map[string]pinVerdict{}
	}
	if path == "" {
		p.mu.Lock()
		p.path, p.info, p.read = "", nil, false
		p.mu.Unlock()
		p.file, p.err = nil, nil
		return
	}
	// Only Run changes path and info, so they are read here without the
	// lock, which is never held across I/O.
	info, _ := os.Stat(path)
	if path == p.path && p.read && sameFile(p.info, info) {
		return
	}
	p.mu.Lock()
	p.path, p.info, p.read = path, info, true
	p.mu.Unlock()
	wasErr := p.err
	f, err := toollock.Read(path)
	switch {
	case err == nil:
		p.file, p.err = f, nil
	case toollock.IsMissing(err):
		// No lock yet: every tool is one the lock does not know.
		p.file, p.err = &toollock.File{}, nil
	default:
		p.file, p.err = nil, err
	}
	if p.err != nil || wasErr != nil {
		g.lockEvent(path, p.err)
	}
}

// sameFile reports whether b, a stat of the lock file, says it is as it
// was at a (both nil: missing both times).
func sameFile(a, b os.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && a.Mode() == b.Mode()
}

// lockEvent publishes that the lock file cannot be used (err), or can be
// again (nil).
func (g *Gateway) lockEvent(path string, err error) {
	ev := runtime.Event{Type: "drift", Name: path, State: "ok", Available: true, Reason: "the lock file is read again", At: time.Now()}
	if err != nil {
		ev.State, ev.Available, ev.Code = "error", false, runtime.CodeLockInvalid
		ev.Reason = fmt.Sprintf("%v: the tools of every pinned server are hidden until it is fixed (or removed, and gatectl mcp lock run)", err)
	}
	g.svc.Publish(ev)
}

// pinHides returns why the lock hides lt, a valid listed tool of server s
// that the gateway would offer as name, or a zero hiddenTool; it records
// the tool's verdict either way.
func (g *Gateway) pinHides(s manifest.Server, lt listedTool, name string) hiddenTool {
	mode := s.Upstream.Pin
	if mode == manifest.PinOff {
		return hiddenTool{}
	}
	p := g.pins
	v, why := p.judge(s.Name, mode, lt)
	tools := p.next[s.Name]
	if tools == nil {
		tools = map[string]pinVerdict{}
		p.next[s.Name] = tools
	}
	tools[lt.name] = v
	// An event says each change of verdict that hides the tool or shows
	// it again, or changes the parts that differ (not a tool the lock
	// comes to know, which stays offered); while the lock file cannot be
	// used, one event said so.
	old := p.verdicts[s.Name][lt.name]
	if old.state == pinLockBroken {
		old = pinVerdict{}
	}
	if v.state != pinLockBroken && old != v && (old.hides() || v.hides()) {
		ev := runtime.Event{Type: "drift", Name: name, State: v.state, Available: why.reason == "", Reason: why.reason, Code: why.code, At: time.Now()}
		if why.reason == "" {
			ev.Reason = fmt.Sprintf("server %s's tool %s matches the lock file", s.Name, lt.name)
			if v.state == pinUnlocked {
				ev.Reason = fmt.Sprintf("server %s's tool %s is not in the lock file, and offered (pin = true)", s.Name, lt.name)
			}
		}
		g.svc.Publish(ev)
	}
	return why
}

// judge compares lt with its entry in the lock file.
func (p *pinState) judge(server string, mode manifest.Pin, lt listedTool) (pinVerdict, hiddenTool) {
	if p.err != nil {
		return pinVerdict{state: pinLockBroken}, hiddenTool{runtime.CodeLockInvalid,
			fmt.Sprintf("server %s is pinned and its lock file cannot be used: %v; fix it, or remove it and run gatectl mcp lock %s", server, p.err, server)}
	}
	sums, ok := p.sums[lt.tool]
	if !ok {
		var err error
		if sums, err = toollock.SumsOf(lt.tool); err != nil {
			return pinVerdict{state: pinChanged, parts: "all"}, hiddenTool{runtime.CodeNotOffered,
				fmt.Sprintf("server %s's tool %s cannot be compared with the lock file: %v", server, lt.name, err)}
		}
	}
	p.nextSums[lt.tool] = sums
	locked, known := p.file.Lookup(server, lt.name)
	switch {
	case !known && mode == manifest.PinStrict:
		return pinVerdict{state: pinNotLocked}, hiddenTool{runtime.CodeNotLocked,
			fmt.Sprintf("server %s's tool %s is not in the lock file %s (pin = \"strict\"); run gatectl mcp lock %s to accept it", server, lt.name, p.path, server)}
	case !known:
		return pinVerdict{state: pinUnlocked}, hiddenTool{}
	}
	differ := locked.Differ(sums)
	if len(differ) == 0 {
		return pinVerdict{state: pinMatches}, hiddenTool{}
	}
	names := make([]string, len(differ))
	for i, part := range differ {
		names[i] = part.String()
	}
	parts := strings.Join(names, ", ")
	return pinVerdict{state: pinChanged, parts: parts}, hiddenTool{runtime.CodeDefinitionChanged,
		fmt.Sprintf("server %s's tool %s changed since it was locked: %s; run gatectl mcp lock %s to accept", server, lt.name, parts, server)}
}

// pinEnd ends a computation: a pinned server whose tools were not listed
// (it is connecting, or down) keeps its verdicts, and each pinned
// server's drifted tools are counted.
func (g *Gateway) pinEnd(m *manifest.Manifest) {
	p := g.pins
	pinned := map[string]bool{}
	if m != nil {
		for _, s := range m.Servers {
			if s.Upstream != nil && s.Upstream.Pin != manifest.PinOff {
				pinned[s.Name] = true
				if _, listed := p.next[s.Name]; !listed {
					if old, ok := p.verdicts[s.Name]; ok {
						p.next[s.Name] = old
					}
				}
			}
		}
	}
	if p.drifted != nil {
		for server := range p.gauged {
			if !pinned[server] {
				p.drifted.DeleteLabelValues(server)
				delete(p.gauged, server)
			}
		}
		for server := range pinned {
			n := 0
			for _, v := range p.next[server] {
				if v.state == pinChanged {
					n++
				}
			}
			p.drifted.WithLabelValues(server).Set(float64(n))
			p.gauged[server] = true
		}
	}
	p.sums, p.verdicts = p.nextSums, p.next
	p.nextSums, p.next = nil, nil
}

// watchLock has the offered set computed again when the lock file's
// metadata changes, until ctx is done: a lock written by gatectl mcp lock
// is taken up within pinLook.
func (g *Gateway) watchLock(ctx context.Context) {
	t := time.NewTicker(pinLook)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		p := g.pins
		p.mu.Lock()
		path, info, read := p.path, p.info, p.read
		p.mu.Unlock()
		if path == "" || !read {
			continue
		}
		now, _ := os.Stat(path)
		if !sameFile(info, now) {
			g.poke()
		}
	}
}

// LockEntries returns the lock file's entries for server's tools as the
// gateway offers them now (toollock.SumsOf of each well-formed tool,
// before its prefix), and whether the server is connected with its tools
// listed; when it is not, why, from its last error. Its tools that are
// malformed are left out: the gateway never offers them.
func (g *Gateway) LockEntries(server string) (entries []toollock.Entry, ready bool, why string) {
	g.upsMu.Lock()
	u := g.ups[server]
	g.upsMu.Unlock()
	if u == nil {
		return nil, false, "the manifest names no upstream server " + server
	}
	state, lastErr, tools, _ := u.snapshot()
	if state != StateReady {
		why = "it is " + state
		if lastErr != "" {
			why += ": " + lastErr
		}
		return nil, false, why
	}
	for _, lt := range tools {
		if lt.tool == nil {
			continue
		}
		sums, err := toollock.SumsOf(lt.tool)
		if err != nil {
			continue
		}
		entries = append(entries, toollock.Entry{Server: server, Tool: lt.name, Sums: sums})
	}
	return entries, true, ""
}
