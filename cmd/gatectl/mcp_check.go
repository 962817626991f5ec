package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gate-dev/gate/internal/hooks"
	"github.com/gate-dev/gate/internal/logq"
	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/internal/statusview"
	"github.com/gate-dev/gate/runtime"
)

const mcpCheckSynopsis = `gatectl mcp check [-m gate.toml] [--json] [-v] [--startup-wait DURATION]
                         [SERVER...]

Starts or connects to every MCP server the manifest's [[servers]] entries
name with command or url (or to the SERVERs named) as the gateway does
(the same environment, credentials and transport), lists its tools, and
reports each server ready or down, with how many tools the gateway can
offer of it, how long it took, and why one is down. It waits for each at
most the connect and listing bounds (21s). A server ready only after
--startup-wait (5s, as gatectl mcp's) is noted: a client that lists once
would not see its tools. Exit codes: 0 all ready, 1 some not, 2 bad
input.`

// mcpCheckFlags are mcp check's flags.
type mcpCheckFlags struct {
	manifest      string
	json, verbose bool
	startupWait   time.Duration
}

func (f *mcpCheckFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&f.manifest, "m", "", "the manifest")
	fs.BoolVar(&f.json, "json", false, "print the result as JSON (shape: docs/CLI.md)")
	fs.BoolVar(&f.verbose, "v", false, "log what the gateway logs about the servers (their stderr, their state) to stderr")
	fs.DurationVar(&f.startupWait, "startup-wait", mcpgw.DefaultStartupWait, "note a server ready only after `DURATION`, the wait of gatectl mcp's and serve's first listing")
}

func mcpCheck(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	return mcpCheckContext(ctx, args, stdout, stderr)
}

// mcpCheckContext is mcp check, stopped early when ctx is done.
func mcpCheckContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const cmd = "gatectl mcp check"
	var f mcpCheckFlags
	fs := newCommand(cmd, mcpCheckSynopsis, stdout, stderr)
	f.bind(fs.FlagSet)
	names, code, done := fs.parse(args)
	if done {
		return code
	}
	if f.startupWait < 0 || f.startupWait > maxStartupWait {
		fmt.Fprintf(stderr, "%s: --startup-wait %v: want 0 to %v\n", cmd, f.startupWait, maxStartupWait)
		return exitUsage
	}
	path := manifestPath(f.manifest)
	if refuseStdinManifest(stderr, cmd, path, "it runs the servers' commands in the manifest's directory") {
		return exitUsage
	}
	log := logq.New(stderr, cmd)
	defer log.Close(logClose)
	svc, err := runtime.OpenService(ctx, path, runtime.NewServiceConfig().WithGate(runtime.NewGateConfig().
		WithEngine(newEngineConfig().WithCacheDir(defaultCacheDir()))))
	if err != nil {
		reportManifestError(log, cmd, path, err)
		return exitUsage
	}
	defer within(logClose, func() { _ = svc.Close(context.Background()) })
	servers, ok := upstreamTargets(cmd, hooks.Manifest(svc.Gate()), names, shownManifest(path), log)
	if !ok {
		return exitUsage
	}
	cfg := mcpgw.NewConfig().WithVersion(version())
	if f.verbose {
		cfg = cfg.WithLog(log)
	}
	gw := mcpgw.New(svc, cfg)
	var report mcpCheckReport
	settleUpstreams(ctx, svc, gw, servers, lockSettle, func(first map[string]settled, waited time.Duration) {
		report = newMcpCheckReport(shownManifest(path), servers, first, waited, gw.CheckUpstream, f.startupWait)
	})
	if f.json {
		writeJSON(stdout, report)
	} else {
		report.print(stdout, outputWidth(stdout, os.Getenv))
	}
	if report.Summary.Ready < report.Summary.Servers {
		return exitUnavailable
	}
	return exitOK
}

// mcpCheckReport is the stable shape of `gatectl mcp check --json`;
// docs/CLI.md documents it.
type mcpCheckReport struct {
	Manifest string          `json:"manifest"`
	Servers  []upstreamEntry `json:"servers"`
	Summary  mcpCheckSummary `json:"summary"`
}

// upstreamEntry is one server as mcp check found it.
type upstreamEntry struct {
	Name  string `json:"name"`
	State string `json:"state"` // ready | down
	Ready bool   `json:"ready"`
	// Tools counts the tools the gateway can offer of it; Invalid those
	// it listed that the gateway never offers (gatectl mcp -v logs why).
	Tools   int `json:"tools"`
	Invalid int `json:"invalid_tools"`
	// Seconds is how long it took to be ready or down, from the start of
	// the gateway; null when it was still connecting at the bound.
	Seconds *float64 `json:"took_seconds"`
	// Reason is why it is down, as the gateway logs it; for one that is
	// ready, what a client would miss, or "".
	Reason string `json:"reason"`
	// CodeInfo adds "code", "retryable" and "action" to a server that is
	// down.
	*statusview.CodeInfo
}

type mcpCheckSummary struct {
	Servers int `json:"servers"`
	Ready   int `json:"ready"`
}

// newMcpCheckReport is the report of servers from what each first came
// to within waited and what the gateway (check) knows of it now.
func newMcpCheckReport(path string, servers []string, first map[string]settled, waited time.Duration, check func(string) mcpgw.UpstreamCheck, startupWait time.Duration) mcpCheckReport {
	r := mcpCheckReport{Manifest: path, Servers: make([]upstreamEntry, 0, len(servers)), Summary: mcpCheckSummary{Servers: len(servers)}}
	for _, s := range servers {
		now := check(s)
		e := upstreamEntry{Name: s, State: mcpgw.StateDown}
		f, settledOnce := first[s]
		if settledOnce {
			secs := f.after.Seconds()
			e.Seconds = &secs
		}
		switch {
		case settledOnce && f.event.State == mcpgw.StateReady && now.State == mcpgw.StateReady:
			e.State, e.Ready, e.Tools, e.Invalid = mcpgw.StateReady, true, now.Tools, now.Invalid
			if startupWait > 0 && f.after > startupWait {
				e.Reason = fmt.Sprintf("ready after the startup wait of %v: a client that lists once, at the start, would not see its tools", startupWait)
			}
			if now.Over {
				e.Reason = joinReasons(e.Reason, "it lists more tools than the gateway keeps of one server: those past it are not offered")
			}
			r.Summary.Ready++
		case !settledOnce:
			e.Reason = joinReasons(fmt.Sprintf("still connecting after %v", roundDuration(waited)), now.Reason)
		case now.Reason != "":
			e.Reason = now.Reason
		default:
			e.Reason = f.event.Reason
		}
		if !e.Ready {
			e.CodeInfo = statusview.Code(runtime.CodeUpstreamDown)
		}
		r.Servers = append(r.Servers, e)
	}
	return r
}

func joinReasons(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// print writes the report as a table, each row at most width columns
// (reasons wrapped to fit), or whole when width is 0.
func (r mcpCheckReport) print(w io.Writer, width int) {
	t := table{rows: make([][]string, 0, 1+len(r.Servers))}
	t.add("SERVER", "STATE", "TOOLS", "TIME", "REASON")
	for _, e := range r.Servers {
		tools, took := "-", "-"
		if e.Ready {
			tools = fmt.Sprint(e.Tools)
			if e.Invalid > 0 {
				tools += fmt.Sprintf(" (+%d invalid)", e.Invalid)
			}
		}
		if e.Seconds != nil {
			took = roundDuration(time.Duration(*e.Seconds * float64(time.Second))).String()
		}
		t.add(safetext.Terminal(e.Name), e.State, tools, took, safetext.Terminal(e.Reason))
	}
	clipped := t.fit(width)
	t.write(w)
	summary := fmt.Sprintf("%d of %d MCP servers ready.", r.Summary.Ready, r.Summary.Servers)
	if clipped {
		summary += " (… cuts text to fit the terminal; --json or a pipe shows all of it.)"
	}
	if width > 0 {
		summary = wrap(summary, width)
	}
	fmt.Fprintf(w, "\n%s\n", summary)
}
