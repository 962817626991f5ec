package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gate-dev/gate/internal/hooks"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const mcpSynopsis = `gatectl mcp [-m gate.toml] [-v] [--list-changed-interval DURATION]
                   [--startup-wait DURATION]

Runs gate as an MCP server over stdio, the way desktop clients (Claude
Desktop, Claude Code, Cursor) launch MCP servers. It fronts the MCP servers
the manifest's [[servers]] entries name with command or url, and offers the
client only the tools that can run now: those of servers whose probes say
available, that are connected, and whose own [[servers.tools]] probes say
available. When that changes, the client gets
notifications/tools/list_changed (at most one per --list-changed-interval,
when set, to trade freshness for a model provider's prompt cache). A
listing made while servers are still starting waits for them, up to
--startup-wait (5s), so that a client that lists once sees their tools.
Skills are offered as resources and a "skills" prompt. docs/MCP.md has the
details.

Standard output carries only the protocol; upstream state changes, probe
flips and reloads are logged on stderr. The manifest is re-read when it
changes and on SIGHUP. At the end of stdin it answers every request read
before it, waiting for them at most the startup wait, plus the longest
call_timeout of the manifest's servers (60s unless set), plus a second;
then it stops. SIGTERM or SIGINT stop it at once: calls in flight are
answered with an error that says gate is shutting down, the upstreams are
closed, all at once, and it exits within 8 s, whatever the client and the
upstreams do.`

// mcpFlags are mcp's flags.
type mcpFlags struct {
	manifest string
	verbose  bool
	gateway  gatewayFlags
}

func (f *mcpFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&f.manifest, "m", "", "the manifest")
	fs.BoolVar(&f.verbose, "v", false, "also log every probe run that fails and every grace decision")
	f.gateway.bind(fs)
}

func mcpCmd(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	return mcpContext(ctx, args, os.Stdin, hup, stdout, stderr)
}

// mcpContext is mcp with the process's stdin and signals made arguments:
// it serves one client on in and out until in ends or ctx is done.
func mcpContext(ctx context.Context, args []string, in io.Reader, reload <-chan os.Signal, out, stderr io.Writer) int {
	var f mcpFlags
	fs := newCommand("gatectl mcp", mcpSynopsis, out, stderr)
	f.bind(fs.FlagSet)
	if code, done := fs.parseNoArgs(args); done {
		return code
	}
	gwConfig, ok := f.gateway.config("gatectl mcp", stderr)
	if !ok {
		return exitUsage
	}
	tracer, ok := openTracer("gatectl mcp", stderr)
	if !ok {
		return exitUsage
	}
	d, ok := openDaemon(ctx, "gatectl mcp", manifestPath(f.manifest), f.verbose, tracer.Observe(nil), stderr)
	if !ok {
		closeTracer(tracer, stderr, "gatectl mcp")
		return exitUsage
	}
	defer d.close()
	log := d.log
	tracer.LogErrors(log, "gatectl mcp: ")
	// Before the log closes (deferred later, so run first), after the
	// daemon has stopped: the spans of the shutdown go too.
	defer closeTracer(tracer, log, "gatectl mcp")
	gw := d.gateway(gwConfig.WithTracer(tracer))
	d.start(ctx, reload)

	answers := newAnswerCount()
	input := newClientInput(in, answers, func() time.Duration {
		return inputEndBound(hooks.Manifest(d.svc.Gate()), f.gateway.startupWait)
	}, log)
	defer input.Close()
	serveCtx, cancelServe := context.WithCancel(context.Background())
	defer cancelServe()
	served := make(chan error, 1)
	go func() {
		served <- gw.Server().Run(serveCtx, &mcp.IOTransport{Reader: input, Writer: answers.writer(out)})
	}()
	code := exitOK
	select {
	case err := <-served: // the client ended the session
		if err != nil && !errors.Is(err, io.EOF) {
			fmt.Fprintf(log, "gatectl mcp: %v\n", err)
			code = exitUsage
		}
	case <-ctx.Done():
		// The calls in flight end at once, each with an error that says
		// gate is shutting down; the session is closed once they are
		// written (the SDK writes nothing once it is closing). A client
		// that reads none of it keeps the session no longer than the
		// bound.
		gw.Shutdown()
		deadline := time.Now().Add(mcpSessionClose)
		answers.wait(deadline, nil)
		cancelServe()
		within(time.Until(deadline), func() { <-served })
	}
	d.stop()
	return code
}

// mcpSessionClose bounds closing the client's session on SIGTERM (its
// answers written): a client that reads nothing keeps gatectl mcp no
// longer. With the gateway's bound on closing its upstreams (twice their
// 2 s stop grace, and a second) and logClose for each of the service's
// close and the last lines to stderr, gatectl mcp exits within 8 s of
// SIGTERM (1 + 5 + 2 × 0.5, rounded up). At the end of stdin, the wait
// for the requests' answers allows gate as long to write an answer.
const mcpSessionClose = time.Second

// within runs f and waits for it for at most d; f may go on after.
func within(d time.Duration, f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}
