package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/gate-dev/gate/internal/logq"
	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/gate-dev/gate/runtime"
)

// daemonCore is what gatectl serve and gatectl mcp share: the manifest opened
// as a service that re-probes in the background, everything logged
// through one queue, the event log of reloads and flips, the MCP gateway
// in front of the manifest's servers, and reloads on SIGHUP. Each command
// puts its own front (the HTTP API, one stdio client) between start and
// stop.
type daemonCore struct {
	cmd string
	// log is the queue every line goes through, so that a stderr nobody
	// reads holds up no probe, upstream or session, nor the shutdown: its
	// last lines get logClose.
	log    *logq.Queue
	svc    *runtime.Service
	events *eventLog
	// unsubscribe stops the event log hearing the service.
	unsubscribe func()
	// verbose (-v) has the gateway log its debug lines too.
	verbose bool

	gw        *mcpgw.Gateway
	cancelRun context.CancelFunc
	// ran is closed once the service's and the gateway's Run have
	// returned and the reloads have stopped.
	ran chan struct{}
}

// openDaemon opens the manifest at path as a service logging to stderr,
// with the registries' log lines too when verbose, and observer (nil for
// none) told of every probe run. It reports a manifest it cannot open and
// returns false; else call close when done.
func openDaemon(ctx context.Context, cmd, path string, verbose bool, observer runtime.Observer, stderr io.Writer) (*daemonCore, bool) {
	if refuseStdinManifest(stderr, cmd, path, "it reads the manifest again when it changes and on SIGHUP") {
		return nil, false
	}
	log := logq.New(stderr, cmd)
	// Without -v the registry says nothing: its log has a line per probe
	// run that fails (every few seconds for one tool that stays down);
	// the event log says when a tool flips, once.
	cfg := runtime.NewGateConfig().WithEngine(newEngineConfig().WithCacheDir(defaultCacheDir()))
	if verbose {
		cfg = cfg.WithLogger(slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug})))
	}
	if observer != nil {
		cfg = cfg.WithObserver(observer)
	}
	svc, err := runtime.OpenService(ctx, path, runtime.NewServiceConfig().WithGate(cfg))
	if err != nil {
		reportManifestError(log, cmd, path, err)
		log.Close(logClose)
		return nil, false
	}
	d := &daemonCore{cmd: cmd, log: log, svc: svc, events: newEventLog(cmd, log), verbose: verbose}
	d.unsubscribe = svc.Subscribe(d.events.add)
	return d, true
}

// gateway makes the MCP gateway in front of the service's servers, with
// cfg and the daemon's log (its debug lines too with -v) and version;
// start runs it.
func (d *daemonCore) gateway(cfg mcpgw.Config) *mcpgw.Gateway {
	d.gw = mcpgw.New(d.svc, cfg.WithLog(d.log).WithDebug(d.verbose).WithVersion(version()))
	return d.gw
}

// start runs the service's background refresh and the gateway, and
// reloads the manifest on every value from reload until ctx is done or
// stop is called. Reloads run off the caller's loop, one at a time,
// coalesced: a reload compiles modules (seconds for a large one) and must
// never keep SIGTERM waiting; stop ends one midway.
func (d *daemonCore) start(ctx context.Context, reload <-chan os.Signal) {
	runCtx, cancel := context.WithCancel(context.Background())
	d.cancelRun, d.ran = cancel, make(chan struct{})
	svcRan, gwRan := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(svcRan)
		_ = d.svc.Run(runCtx)
	}()
	go func() {
		defer close(gwRan)
		_ = d.gw.Run(runCtx)
	}()
	reloads := make(chan struct{}, 1)
	reloaded := make(chan struct{})
	go func() {
		defer close(reloaded)
		for range reloads {
			_ = d.svc.Reload(runCtx) // the event log says how it went
		}
	}()
	go func() {
		defer func() {
			close(reloads)
			<-reloaded
			<-svcRan
			<-gwRan
			close(d.ran)
		}()
		for {
			select {
			case <-ctx.Done():
				return
			case <-runCtx.Done():
				return
			case <-reload:
				select {
				case reloads <- struct{}{}:
				default: // one is pending already; it will read the latest file
				}
			}
		}
	}()
}

// stop ends the refresh, the gateway and a reload under way, and waits
// for them: the gateway's Run ends within its bound whatever the
// upstreams do, so that no upstream outlives gatectl.
func (d *daemonCore) stop() {
	d.cancelRun()
	<-d.ran
	fmt.Fprintf(d.log, "%s: stopped\n", d.cmd)
}

// close closes the event log, the service and, last, the log. A compile
// under way cannot be interrupted; it finishes in the background, where
// nothing waits for it.
func (d *daemonCore) close() {
	d.unsubscribe()
	d.events.close()
	within(logClose, func() { _ = d.svc.Close(context.Background()) })
	d.log.Close(logClose)
}
