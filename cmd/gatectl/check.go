package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/gate-dev/gate/internal/hooks"
	"github.com/gate-dev/gate/internal/statusview"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/runtime"
	"github.com/gate-dev/gate/runtime/schema"
)

// manifestPath is -m, else $GATE_MANIFEST, else ./gate.toml.
func manifestPath(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	if env := os.Getenv("GATE_MANIFEST"); env != "" {
		return env
	}
	return "gate.toml"
}

// openGate opens the manifest, printing every problem (with its source
// line and a caret) to stderr when it cannot. The registries' log lines
// (a probe that failed, a tool served on its last good answer) go to
// stderr with -v; the table already says the same.
func openGate(ctx context.Context, cmd, path string, verbose bool, stderr io.Writer) (*runtime.Gate, bool) {
	return openGateWith(ctx, cmd, path, verbose, stderr, nil)
}

// openGateWith is openGate with a last word on the configuration.
func openGateWith(ctx context.Context, cmd, path string, verbose bool, stderr io.Writer, adjust func(runtime.GateConfig) runtime.GateConfig) (*runtime.Gate, bool) {
	return openGateObserved(ctx, cmd, path, verbose, stderr, nil, adjust)
}

// openGateObserved is openGateWith with an observer of every probe run
// (nil for none).
func openGateObserved(ctx context.Context, cmd, path string, verbose bool, stderr io.Writer, obs runtime.Observer, adjust func(runtime.GateConfig) runtime.GateConfig) (*runtime.Gate, bool) {
	cfg := runtime.NewGateConfig().WithEngine(withProgress(newEngineConfig().WithCacheDir(defaultCacheDir()), stderr))
	if verbose {
		cfg = cfg.WithLogger(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
	}
	if obs != nil {
		cfg = cfg.WithObserver(obs)
	}
	if adjust != nil {
		cfg = adjust(cfg)
	}
	fitMemoryToManifest(path)
	g, err := runtime.Open(ctx, path, cfg)
	if err != nil {
		reportManifestError(stderr, cmd, path, err)
		return nil, false
	}
	return g, true
}

// reportManifestError prints every problem of a manifest that could not be
// opened, each with its source line and a caret.
func reportManifestError(stderr io.Writer, cmd, path string, err error) {
	// manifest.Errors replace control characters themselves (with U+FFFD,
	// keeping their source-line layout); any other error may quote a path
	// or a module's words, so it is escaped here.
	var errs manifest.Errors
	if errors.As(err, &errs) {
		fmt.Fprintf(stderr, "%s: %d problem(s) in %s:\n%+v\n", cmd, len(errs), safetext.Terminal(path), errs)
	} else {
		fmt.Fprintf(stderr, "%s: %s\n", cmd, safetext.TerminalLines(err.Error()))
	}
}

const checkSynopsis = `gatectl check [-m gate.toml] [--json] [NAME...]

Probes every tool and server of the manifest (or the NAMEd ones) and shows
which a model would be offered right now, and why the others are hidden.
The manifest is -m, else $GATE_MANIFEST, else ./gate.toml.
Exit codes: 0 all available, 1 some not, 2 bad input.`

// checkFlags are check's flags.
type checkFlags struct {
	manifest      string
	json, verbose bool
}

func (f *checkFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&f.manifest, "m", "", "the manifest")
	fs.BoolVar(&f.json, "json", false, "print the result as JSON (shape: docs/CLI.md)")
	fs.BoolVar(&f.verbose, "v", false, "log each probe's failures and grace decisions to stderr")
}

func check(args []string, stdout, stderr io.Writer) int {
	var f checkFlags
	fs := newCommand("gatectl check", checkSynopsis, stdout, stderr)
	f.bind(fs.FlagSet)
	names, code, done := fs.parse(args)
	if done {
		return code
	}
	ctx := context.Background()
	path := manifestPath(f.manifest)
	denials := &denialRecorder{}
	g, ok := openGateObserved(ctx, "gatectl check", path, f.verbose, stderr, denials, nil)
	if !ok {
		return exitUsage
	}
	defer g.Close(ctx)

	toolNames, serverNames, unknown := splitNames(g, names)
	if len(unknown) > 0 {
		for _, n := range unknown {
			near := ""
			if m := hooks.Manifest(g); m != nil {
				near = nearNames(n, m)
			}
			fmt.Fprintf(stderr, "gatectl check: %s has no tool or server named %q%s\n", safetext.Terminal(path), n, near)
		}
		return exitUsage
	}
	var tools, servers []runtime.Status
	if len(names) == 0 || len(toolNames) > 0 {
		tools, _ = g.Tools().Status(ctx, toolNames...)
	}
	if len(names) == 0 || len(serverNames) > 0 {
		servers, _ = g.Servers().Status(ctx, serverNames...)
	}
	report := newCheckReport(path, g, tools, servers, denials)
	if f.json {
		writeJSON(stdout, report)
	} else {
		report.print(stdout, outputWidth(stdout, os.Getenv))
	}
	if report.Summary.ToolsAvailable < report.Summary.Tools || report.Summary.ServersAvailable < report.Summary.Servers || slices.ContainsFunc(report.Pins, func(p checkPin) bool { return p.Error != "" }) {
		return exitUnavailable
	}
	return exitOK
}

func splitNames(g *runtime.Gate, names []string) (tools, servers, unknown []string) {
	for _, n := range names {
		if _, ok := g.Tools().Get(n); ok {
			tools = append(tools, n)
		} else if _, ok := g.Servers().Get(n); ok {
			servers = append(servers, n)
		} else {
			unknown = append(unknown, n)
		}
	}
	return tools, servers, unknown
}

// checkReport is the stable shape of `gatectl check --json`; docs/CLI.md
// documents it.
type checkReport struct {
	Manifest string       `json:"manifest"`
	Tools    []checkEntry `json:"tools"`
	Servers  []checkEntry `json:"servers"`
	// Pins are the servers with pin in the manifest (check_pins.go).
	Pins    []checkPin   `json:"pins,omitempty"`
	Summary checkSummary `json:"summary"`
}

// checkEntry is a tool or server as /v1/status shows it, and what its
// probe run was denied: a check records that (denialRecorder), a Status
// does not carry it.
type checkEntry struct {
	statusview.Info
	// Denials are the requests of the probe run behind this answer that its
	// grants refused; Denied counts them. A probe that was denied what it
	// needs usually says something vaguer ("not configured"): this is what
	// to grant, or why not.
	Denials []denialJSON `json:"denials"`
	Denied  int          `json:"denied"`
}

type checkSummary struct {
	Tools            int `json:"tools"`
	ToolsAvailable   int `json:"tools_available"`
	Servers          int `json:"servers"`
	ServersAvailable int `json:"servers_available"`
}

func newCheckReport(path string, g *runtime.Gate, tools, servers []runtime.Status, denied *denialRecorder) checkReport {
	m := hooks.Manifest(g)
	var probeOf map[kindName]string
	if m != nil {
		probeOf = make(map[kindName]string, len(m.Servers))
		for _, s := range m.Servers {
			probeOf[kindName{"server", s.Name}] = s.Probe.Label()
			if s.Upstream != nil {
				for _, r := range s.Upstream.Tools {
					probeOf[kindName{"server", manifest.UpstreamRuleName(s.Name, r.Rule())}] = r.Probe.Label()
				}
			}
		}
	}
	r := checkReport{Manifest: path, Tools: make([]checkEntry, 0, len(tools)), Servers: make([]checkEntry, 0, len(servers)), Pins: pinsOf(m, path)}
	toolProbes := toolProbeLabels(m, tools)
	now := time.Now()
	for i, st := range tools {
		r.Tools = append(r.Tools, entryOf(st, toolProbes(i), denied.of("tool", st.Name), now))
		r.Summary.Tools++
		if st.Available() {
			r.Summary.ToolsAvailable++
		}
	}
	for _, st := range servers {
		r.Servers = append(r.Servers, entryOf(st, probeOf[kindName{"server", st.Name}], denied.of("server", st.Name), now))
		r.Summary.Servers++
		if st.Available() {
			r.Summary.ServersAvailable++
		}
	}
	return r
}

// toolProbeLabels returns the probe label of tools[i]: the manifest's
// tool at i when the statuses are the manifest's tools in order (a check
// of them all), else the one of that name, looked up in a map made once
// it is needed.
func toolProbeLabels(m *manifest.Manifest, tools []runtime.Status) func(i int) string {
	var byName map[string]*manifest.Tool
	return func(i int) string {
		if m == nil {
			return ""
		}
		name := tools[i].Name
		if i < len(m.Tools) && m.Tools[i].Name == name {
			return m.Tools[i].Probe.Label()
		}
		if byName == nil {
			byName = make(map[string]*manifest.Tool, len(m.Tools))
			for j := range m.Tools {
				byName[m.Tools[j].Name] = &m.Tools[j]
			}
		}
		if t, ok := byName[name]; ok {
			return t.Probe.Label()
		}
		return ""
	}
}

func entryOf(st runtime.Status, probe string, denials []denialJSON, now time.Time) checkEntry {
	return checkEntry{Info: statusview.New(st, probe, now), Denials: denials, Denied: len(denials)}
}

// print writes the report as tables, each row at most width columns
// (long probes clipped, reasons wrapped to fit), or whole when width is 0.
func (r checkReport) print(w io.Writer, width int) {
	clipped := false
	section := func(title string, entries []checkEntry) {
		if len(entries) == 0 {
			return
		}
		t := table{rows: make([][]string, 0, 1+len(entries))}
		t.add(title, "STATE", "LATENCY", "PROBE", "REASON")
		for _, e := range entries {
			state := e.State
			if e.Source == "graced" {
				state += " (graced)"
			}
			latency := "-"
			if e.Source != "none" {
				latency = roundDuration(time.Duration(e.LatencyMS * float64(time.Millisecond))).String()
			}
			probe := safetext.Terminal(e.Probe)
			if probe == "" {
				probe = "(none: always available)"
			}
			// Every column a manifest or a probe wrote is escaped before
			// the table measures it: a reason with "\r\x1b[2K" in it must
			// not rewrite its row, nor a tab in it move the columns.
			t.add(safetext.Terminal(e.Name), state, latency, probe, reasonColumn(e))
		}
		clipped = t.fit(width) || clipped
		t.write(w)
	}
	section("TOOL", r.Tools)
	if len(r.Tools) > 0 && len(r.Servers) > 0 {
		fmt.Fprintln(w)
	}
	section("SERVER", r.Servers)
	printPins(w, r.Pins)
	s := r.Summary
	summary := fmt.Sprintf("%d of %d tools available", s.ToolsAvailable, s.Tools)
	if s.Servers > 0 {
		summary += fmt.Sprintf(", %d of %d servers", s.ServersAvailable, s.Servers)
	}
	if hidden := s.Tools - s.ToolsAvailable; hidden > 0 {
		summary += fmt.Sprintf("; the model would not be offered the %d hidden tool(s)", hidden)
	}
	summary += "."
	if clipped {
		summary += " (… cuts text to fit the terminal; --json or a pipe shows all of it.)"
	}
	if width > 0 {
		summary = wrap(summary, width)
	}
	fmt.Fprintf(w, "\n%s\n", summary)
}

// reasonColumn is an entry's reason, escaped, on one line, followed by
// what its probe was denied when the reason does not already say it. The
// reason is whole (the runtime keeps at most 1 KiB of it): only a
// terminal's width clips it (table.fit).
func reasonColumn(e checkEntry) string {
	reason := safetext.Terminal(strings.ReplaceAll(e.Reason, "\n", " "))
	var more []string
	for _, d := range e.Denials {
		if d.Message != e.Reason {
			what := d.Kind + " " + strconv.Quote(d.Request)
			if d.To != "" {
				what += " for " + strconv.Quote(d.To)
			}
			more = append(more, safetext.Terminal(what))
		}
	}
	if len(more) == 0 {
		return reason
	}
	denied := fmt.Sprintf("[denied %d: %s]", len(more), clipText(strings.Join(more, ", "), 80))
	if reason == "" {
		return denied
	}
	return reason + " " + denied
}

// denialJSON is one request a probe's grants refused.
type denialJSON struct {
	Kind    string `json:"kind"`    // env, dial, import, http, secret or insecure
	Request string `json:"request"` // the variable, address, import spec or URL asked for
	// To is, for a secret the probe holds but sent where it is not bound,
	// that destination: what the secrets grant would need to name.
	To      string `json:"to,omitempty"`
	Message string `json:"message"` // the sentence, as in probe run's denials
}

// denialRecorder keeps what each probe run of a check was denied: a
// Status carries the reason only, so the registries' observer hands over
// each run's Result as it happens.
type denialRecorder struct {
	mu  sync.Mutex
	got map[kindName][]denialJSON
}

// kindName names a tool or a server.
type kindName struct{ kind, name string }

// Probed implements runtime.Observer; the latest run of a name wins. Runs
// that were denied nothing, nearly all, leave the map (and its lock)
// alone unless an earlier run of theirs was denied something.
func (d *denialRecorder) Probed(kind string, res runtime.Result, st runtime.Status) {
	key := kindName{kind, st.Name}
	if len(res.Denied) == 0 {
		d.mu.Lock()
		delete(d.got, key)
		d.mu.Unlock()
		return
	}
	list := make([]denialJSON, 0, len(res.Denied))
	for _, dn := range res.Denied {
		list = append(list, denialJSON{Kind: dn.Kind, Request: dn.Request, To: dn.To, Message: dn.String()})
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.got == nil {
		d.got = map[kindName][]denialJSON{}
	}
	d.got[key] = list
}

// Read implements runtime.Observer.
func (d *denialRecorder) Read(string, int) {}

func (d *denialRecorder) of(kind, name string) []denialJSON {
	if d == nil {
		return []denialJSON{}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if l, ok := d.got[kindName{kind, name}]; ok {
		return l
	}
	return []denialJSON{}
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

const schemaSynopsis = `gatectl schema [-m gate.toml] [--format openai|anthropic|mcp]

Prints the tools a model would be offered right now, in the shape the
model's API expects (probing what is not cached). Exit codes: 0 printed,
2 bad input.`

// schemaFlags are schema's flags.
type schemaFlags struct {
	manifest, format string
}

func (f *schemaFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&f.manifest, "m", "", "the manifest")
	fs.StringVar(&f.format, "format", "openai", "openai, anthropic or mcp")
}

func schemaCmd(args []string, stdout, stderr io.Writer) int {
	var f schemaFlags
	fs := newCommand("gatectl schema", schemaSynopsis, stdout, stderr)
	f.bind(fs.FlagSet)
	if code, done := fs.parseNoArgs(args); done {
		return code
	}
	format, err := schema.ParseFormat(f.format)
	if err != nil {
		fmt.Fprintf(stderr, "gatectl schema: %v\n", err)
		return exitUsage
	}
	ctx := context.Background()
	g, ok := openGate(ctx, "gatectl schema", manifestPath(f.manifest), false, stderr)
	if !ok {
		return exitUsage
	}
	defer g.Close(ctx)
	out, err := g.Schema(ctx, format)
	if err != nil {
		fmt.Fprintf(stderr, "gatectl schema: %v\n", err)
		return exitUsage
	}
	stdout.Write(out)
	return exitOK
}
