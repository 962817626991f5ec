package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/gate-dev/gate/gateway"
	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const mcpSynopsis = `gatectl mcp [-m gate.toml] [-v]

Runs gate as an MCP server over stdio, the way desktop clients (Claude
Desktop, Claude Code, Cursor) launch MCP servers. It fronts the MCP servers
the manifest's [[servers]] entries name with command or url, and offers the
client only the tools that can run now: those of servers whose probes say
available, that are connected, and whose own [[servers.tools]] probes say
available. When that changes, the client gets
notifications/tools/list_changed. Skills are offered as resources and a
"skills" prompt. docs/MCP.md has the details.

Standard output carries only the protocol; upstream state changes, probe
flips and reloads are logged on stderr. The manifest is re-read when it
changes and on SIGHUP. SIGTERM, SIGINT or the end of stdin stop it, after
closing the upstreams.`

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
	fs := newCommand("gatectl mcp", mcpSynopsis, out, stderr)
	m := fs.String("m", "", "the manifest")
	verbose := fs.Bool("v", false, "also log every probe run that fails and every grace decision")
	if code, done := fs.parseNoArgs(args); done {
		return code
	}
	logger := slog.New(slog.DiscardHandler)
	if *verbose {
		logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	path := manifestPath(*m)
	svc, err := runtime.OpenService(ctx, path, runtime.NewServiceConfig().WithGate(runtime.NewGateConfig().
		WithEngine(runtime.NewEngineConfig().WithCacheDir(defaultCacheDir())).
		WithRegistry(runtime.NewRegistryConfig().WithLogger(logger))))
	if err != nil {
		reportManifestError(stderr, "gatectl mcp", path, err)
		return exitUsage
	}
	defer svc.Close(context.Background())
	events := newEventLog("gatectl mcp", stderr)
	defer events.close()
	defer svc.Subscribe(events.add)()

	gw := gateway.New(svc, gateway.NewConfig().WithLog(stderr).WithVersion(version()))
	runCtx, cancelRun := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = svc.Run(runCtx) }()
	go func() { defer wg.Done(); _ = gw.Run(runCtx) }()
	go func() {
		for {
			select {
			case <-runCtx.Done():
				return
			case <-reload:
				_ = svc.Reload(runCtx) // the event log says how it went
			}
		}
	}()

	serveCtx, cancelServe := context.WithCancel(ctx)
	defer cancelServe()
	err = gw.Server().Run(serveCtx, &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}})
	code := exitOK
	if err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		fmt.Fprintf(stderr, "gatectl mcp: %v\n", err)
		code = exitUsage
	}
	cancelRun()
	wg.Wait()
	fmt.Fprintln(stderr, "gatectl mcp: stopped")
	return code
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
