package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/gate-dev/gate/runtime/manifest"
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
	logger := quietLogger()
	if verbose {
		logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	cfg := runtime.NewGateConfig().
		WithEngine(runtime.NewEngineConfig().WithCacheDir(defaultCacheDir())).
		WithRegistry(runtime.NewRegistryConfig().WithLogger(logger))
	if adjust != nil {
		cfg = adjust(cfg)
	}
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
	var errs manifest.Errors
	if errors.As(err, &errs) {
		fmt.Fprintf(stderr, "%s: %d problem(s) in %s:\n%+v\n", cmd, len(errs), path, errs)
	} else {
		fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
	}
}

// quietLogger drops log lines: the commands print what they found.
func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

const checkSynopsis = `gatectl check [-m gate.toml] [--json] [NAME...]

Probes every tool and server of the manifest (or the NAMEd ones) and shows
which a model would be offered right now, and why the others are hidden.
The manifest is -m, else $GATE_MANIFEST, else ./gate.toml.
Exit codes: 0 all available, 1 some not, 2 bad input.`

func check(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("gatectl check", checkSynopsis, stderr)
	m := fs.String("m", "", "the manifest")
	asJSON := fs.Bool("json", false, "print the result as JSON (shape: docs/CLI.md)")
	verbose := fs.Bool("v", false, "log each probe's failures and grace decisions to stderr")
	names, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	ctx := context.Background()
	path := manifestPath(*m)
	g, ok := openGate(ctx, "gatectl check", path, *verbose, stderr)
	if !ok {
		return exitUsage
	}
	defer g.Close(ctx)

	toolNames, serverNames, unknown := splitNames(g, names)
	if len(unknown) > 0 {
		fmt.Fprintf(stderr, "gatectl check: %s has no tool or server named %s\n", path, strings.Join(unknown, ", "))
		return exitUsage
	}
	var tools, servers []runtime.Status
	if len(names) == 0 || len(toolNames) > 0 {
		tools, _ = g.Tools().Status(ctx, toolNames...)
	}
	if len(names) == 0 || len(serverNames) > 0 {
		servers, _ = g.Servers().Status(ctx, serverNames...)
	}
	report := newCheckReport(path, g, tools, servers)
	if *asJSON {
		writeJSON(stdout, report)
	} else {
		report.print(stdout)
	}
	if report.Summary.ToolsAvailable < report.Summary.Tools || report.Summary.ServersAvailable < report.Summary.Servers {
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
	Summary  checkSummary `json:"summary"`
}

type checkEntry struct {
	Name      string             `json:"name"`
	State     string             `json:"state"` // available | unavailable | error
	Available bool               `json:"available"`
	Reason    string             `json:"reason"`
	Probe     string             `json:"probe"`  // the standard shorthand, the module path, or "" for none
	Source    string             `json:"source"` // probed | cached | graced | none
	LatencyMS float64            `json:"latency_ms"`
	Error     *runtime.ErrorInfo `json:"error"`
}

type checkSummary struct {
	Tools            int `json:"tools"`
	ToolsAvailable   int `json:"tools_available"`
	Servers          int `json:"servers"`
	ServersAvailable int `json:"servers_available"`
}

func newCheckReport(path string, g *runtime.Gate, tools, servers []runtime.Status) checkReport {
	probeOf := map[string]string{}
	if m := g.Manifest(); m != nil {
		for _, t := range m.Tools {
			probeOf["tool:"+t.Name] = t.Probe.Label()
		}
		for _, s := range m.Servers {
			probeOf["server:"+s.Name] = s.Probe.Label()
		}
	}
	r := checkReport{Manifest: path, Tools: []checkEntry{}, Servers: []checkEntry{}}
	for _, st := range tools {
		r.Tools = append(r.Tools, entryOf(st, probeOf["tool:"+st.Name]))
		r.Summary.Tools++
		if st.Available() {
			r.Summary.ToolsAvailable++
		}
	}
	for _, st := range servers {
		r.Servers = append(r.Servers, entryOf(st, probeOf["server:"+st.Name]))
		r.Summary.Servers++
		if st.Available() {
			r.Summary.ServersAvailable++
		}
	}
	return r
}

func entryOf(st runtime.Status, probe string) checkEntry {
	e := checkEntry{
		Name:      st.Name,
		State:     string(st.State),
		Available: st.Available(),
		Reason:    st.Reason,
		Probe:     probe,
		Source:    "probed",
		LatencyMS: float64(st.Latency.Microseconds()) / 1000,
	}
	switch {
	case !st.HasProbe:
		e.Source = "none"
	case st.Graced:
		e.Source = "graced"
	case st.Cached:
		e.Source = "cached"
	}
	e.Error = runtime.NewErrorInfo(st.Err)
	return e
}

func (r checkReport) print(w io.Writer) {
	section := func(title string, entries []checkEntry) {
		if len(entries) == 0 {
			return
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "%s\tSTATE\tLATENCY\tPROBE\tREASON\n", title)
		for _, e := range entries {
			state := e.State
			if e.Source == "graced" {
				state += " (graced)"
			}
			latency := "-"
			if e.Source != "none" {
				latency = roundDuration(time.Duration(e.LatencyMS * float64(time.Millisecond))).String()
			}
			probe := e.Probe
			if probe == "" {
				probe = "(none: always available)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Name, state, latency, probe, oneLine(e.Reason))
		}
		tw.Flush()
	}
	section("TOOL", r.Tools)
	if len(r.Tools) > 0 && len(r.Servers) > 0 {
		fmt.Fprintln(w)
	}
	section("SERVER", r.Servers)
	s := r.Summary
	fmt.Fprintf(w, "\n%d of %d tools available", s.ToolsAvailable, s.Tools)
	if s.Servers > 0 {
		fmt.Fprintf(w, ", %d of %d servers", s.ServersAvailable, s.Servers)
	}
	if hidden := s.Tools - s.ToolsAvailable; hidden > 0 {
		fmt.Fprintf(w, "; the model would not be offered the %d hidden tool(s)", hidden)
	}
	fmt.Fprintln(w, ".")
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return clipText(s, 120)
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

func schemaCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("gatectl schema", schemaSynopsis, stderr)
	m := fs.String("m", "", "the manifest")
	formatFlag := fs.String("format", "openai", "openai, anthropic or mcp")
	if !parseNoArgs("gatectl schema", fs, args, stderr) {
		return exitUsage
	}
	format, err := schema.ParseFormat(*formatFlag)
	if err != nil {
		fmt.Fprintf(stderr, "gatectl schema: %v\n", err)
		return exitUsage
	}
	ctx := context.Background()
	g, ok := openGate(ctx, "gatectl schema", manifestPath(*m), false, stderr)
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
