package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/internal/statusview"
	"github.com/gate-dev/gate/runtime"
	"github.com/gate-dev/gate/runtime/schema"
)

const checkSynopsis = `gatectl check [-m gate.toml] [--json] [--wait DURATION] [NAME...]

Probes every tool and server of the manifest (or the NAMEd ones) and shows
which a model would be offered right now, and why the others are hidden.
The manifest is -m, else $GATE_MANIFEST, else ./gate.toml. With --wait it
reads the answers again until all are available or DURATION has passed,
as the runtime answers them: a probe runs again once its answer is due
(its TTL, or its retry while it fails), so a tool that comes up is seen
within its retry (or TTL) of doing so. It says on stderr what it waits
for, and prints the last answers. Check does not connect to the MCP
servers that [[servers]] entries run or reach: gatectl mcp check does.
Exit codes: 0 all available, 1 some not (when the wait ran out), 2 bad
input.`

// checkFlags are check's flags.
type checkFlags struct {
	manifest      string
	json, verbose bool
	wait          time.Duration
}

func (f *checkFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&f.manifest, "m", "", "the manifest")
	fs.BoolVar(&f.json, "json", false, "print the result as JSON (shape: docs/CLI.md)")
	fs.BoolVar(&f.verbose, "v", false, "log each probe's failures and grace decisions to stderr")
	fs.DurationVar(&f.wait, "wait", 0, "check again until every tool and server (or each NAME) is available, for at most `DURATION`; exit 1 if one is not by then")
}

func check(args []string, stdout, stderr io.Writer) int {
	var f checkFlags
	fs := newCommand("gatectl check", checkSynopsis, stdout, stderr)
	f.bind(fs.FlagSet)
	names, code, done := fs.parse(args)
	if done {
		return code
	}
	if f.wait < 0 {
		fmt.Fprintf(stderr, "gatectl check: --wait %v: want 0 (no wait) or more\n", f.wait)
		return exitUsage
	}
	ctx := context.Background()
	path := manifestPath(f.manifest)
	g, problems, ok := openGateReport(ctx, "gatectl check", path, f.verbose, stderr, nil)
	if !ok {
		if f.json {
			writeJSON(stdout, checkProblems{Manifest: shownManifest(path), Problems: problems})
		}
		return exitUsage
	}
	defer g.Close(ctx)

	toolNames, serverNames, unknown := splitNames(g, names)
	if len(unknown) > 0 {
		known := registeredNames(g)
		for _, n := range unknown {
			fmt.Fprintf(stderr, "gatectl check: %s has no tool or server named %q%s\n", safetext.Terminal(shownManifest(path)), n, nearNamesIn(n, known))
		}
		return exitUsage
	}
	a := answers{g: g, tools: toolNames, servers: serverNames, allTools: len(names) == 0, allServers: len(names) == 0}
	var tools, servers []runtime.Status
	if f.wait > 0 {
		tools, servers = waitAvailable(ctx, a, f.wait, stderr)
	} else {
		tools, servers = a.read(ctx)
	}
	report := newCheckReport(shownManifest(path), tools, servers, pinsOf(g.PinnedServers(), path))
	report.markUpstreams(g.UpstreamServers())
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

// registeredNames are the names check takes: the Gate's tools, then its
// servers (with their [[servers.tools]] rules, "SERVER#RULE").
func registeredNames(g *runtime.Gate) []string {
	var names []string
	for _, reg := range []*runtime.Registry{g.Tools(), g.Servers()} {
		for _, t := range reg.List() {
			names = append(names, t.Name)
		}
	}
	return names
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

// checkProblems is `gatectl check --json` for a manifest that could not
// be opened (exit code 2): every problem, in file order; docs/CLI.md
// documents it.
type checkProblems struct {
	Manifest string            `json:"manifest"`
	Problems []manifestProblem `json:"problems"`
}

// checkEntry is a tool or server as /v1/status shows it, and what its
// probe run was denied (Status.Denied).
type checkEntry struct {
	statusview.Info
	// Denials are the requests of the probe run behind this answer that its
	// grants refused; Denied counts them. A probe that was denied what it
	// needs usually says something vaguer ("not configured"): this is what
	// to grant, or why not.
	Denials []denialJSON `json:"denials"`
	Denied  int          `json:"denied"`
	// upstream: the entry is a server gate connects to (command or url),
	// whose connection check does not look at.
	upstream bool
}

type checkSummary struct {
	Tools            int `json:"tools"`
	ToolsAvailable   int `json:"tools_available"`
	Servers          int `json:"servers"`
	ServersAvailable int `json:"servers_available"`
	// ServersNotConnected counts the servers reported that gate connects
	// to (command or url): check answers their probes, and connects to
	// none of them (gatectl mcp check does).
	ServersNotConnected int `json:"servers_not_connected,omitempty"`
}

// newCheckReport is the report of the answers tools and servers, with
// the pinned servers' lock-file lines: all of it from what the runtime
// answered, which names each probe (Status.Probe) and what each run was
// denied (Status.Denied).
func newCheckReport(path string, tools, servers []runtime.Status, pins []checkPin) checkReport {
	r := checkReport{Manifest: path, Tools: make([]checkEntry, 0, len(tools)), Servers: make([]checkEntry, 0, len(servers)), Pins: pins}
	now := time.Now()
	for _, st := range tools {
		r.Tools = append(r.Tools, entryOf(st, now))
		r.Summary.Tools++
		if st.Available() {
			r.Summary.ToolsAvailable++
		}
	}
	for _, st := range servers {
		r.Servers = append(r.Servers, entryOf(st, now))
		r.Summary.Servers++
		if st.Available() {
			r.Summary.ServersAvailable++
		}
	}
	return r
}

// markUpstreams marks the servers of r that gate connects to, named by
// upstream, and counts them.
func (r *checkReport) markUpstreams(upstream []string) {
	for i := range r.Servers {
		if slices.Contains(upstream, r.Servers[i].Name) {
			r.Servers[i].upstream = true
			r.Summary.ServersNotConnected++
		}
	}
}

func entryOf(st runtime.Status, now time.Time) checkEntry {
	denials := denialsOf(st.Denied)
	return checkEntry{Info: statusview.New(st, now), Denials: denials, Denied: len(denials)}
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
			switch {
			case probe == "" && e.upstream:
				probe = "(none)" // the summary says its connection is not checked
			case probe == "":
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
	if n := s.ServersNotConnected; n > 0 {
		summary += fmt.Sprintf(" %d MCP server(s) not connected to: gatectl mcp check connects and lists their tools.", n)
	}
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

// denialsOf is denied as the report shows it; empty, not nil, when
// none, so that the JSON says [].
func denialsOf(denied []hostfuncs.Denial) []denialJSON {
	if len(denied) == 0 {
		return []denialJSON{}
	}
	list := make([]denialJSON, 0, len(denied))
	for _, d := range denied {
		list = append(list, denialJSON{Kind: d.Kind, Request: d.Request, To: d.To, Message: d.String()})
	}
	return list
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

// schemaFormats are the values --format takes.
func schemaFormats() []string {
	names := make([]string, len(schema.Formats))
	for i, f := range schema.Formats {
		names[i] = string(f)
	}
	return names
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
