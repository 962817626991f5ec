package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/gate-dev/gate/internal/safefile"
	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/internal/server"
	"github.com/gate-dev/gate/runtime"
)

const serveSynopsis = `gatectl serve [-m gate.toml] [--addr 127.0.0.1:7311]
                     [--allow-remote --token-file FILE]
                     [--list-changed-interval DURATION]
                     [--startup-wait DURATION] [--mcp-stateless]

Runs gate as a long-lived service for agents that are not written in Go:
answers are re-probed in the background before they expire, so a request
never waits for a probe, and the HTTP API (docs/HTTP.md) serves the tools,
their schema, skills, an event stream of changes, health and metrics.
The manifest is re-read when it changes (once the file has settled) and
on SIGHUP; a broken edit, or one that looks half-written (every tool gone,
a tool's probe gone), is reported and the last good configuration keeps
serving. Reloads and every flip of a tool, server or skill are logged on
stderr. SIGTERM or SIGINT shut down gracefully, within seconds.

Listening on anything but loopback needs --allow-remote and a bearer token,
read from --token-file or $GATE_TOKEN (never from the command line, where
other users could read it).`

// serveFlags are serve's flags.
type serveFlags struct {
	manifest, addr, tokenFile string
	allowRemote, verbose      bool
	stateless                 bool
	gateway                   gatewayFlags
}

func (f *serveFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&f.manifest, "m", "", "the manifest")
	fs.StringVar(&f.addr, "addr", "127.0.0.1:7311", "where to listen")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "allow listening on an address other than loopback (needs a token)")
	fs.StringVar(&f.tokenFile, "token-file", "", "read the bearer token from `FILE` (else $GATE_TOKEN)")
	fs.BoolVar(&f.verbose, "v", false, "also log every probe run that fails and every grace decision")
	fs.BoolVar(&f.stateless, "mcp-stateless", false, "serve MCP 2026-07-28 on /mcp beside the older versions (a client that speaks both then speaks 2026-07-28, which has no roots, logging/setLevel, elicitation or sampling)")
	f.gateway.bind(fs)
}

func serve(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	return serveContext(ctx, args, hup, stdout, stderr, nil)
}

// serveContext is serve with the process's signals made arguments: it
// serves until ctx is done, reloads on every value from reload, and calls
// listening with the address once it accepts connections (tests use it).
func serveContext(ctx context.Context, args []string, reload <-chan os.Signal, stdout, stderr io.Writer, listening func(addr string)) int {
	var f serveFlags
	fs := newCommand("gatectl serve", serveSynopsis, stdout, stderr)
	f.bind(fs.FlagSet)
	if code, done := fs.parseNoArgs(args); done {
		return code
	}
	gwConfig, ok := f.gateway.config("gatectl serve", stderr)
	if !ok {
		return exitUsage
	}
	token, err := readToken(f.tokenFile)
	if err != nil {
		fmt.Fprintf(stderr, "gatectl serve: %v\n", err)
		return exitUsage
	}
	if err := server.CheckBind(f.addr, f.allowRemote, token); err != nil {
		fmt.Fprintf(stderr, "gatectl serve: %v\n", err)
		return exitUsage
	}

	tracer, ok := openTracer("gatectl serve", stderr)
	if !ok {
		return exitUsage
	}
	metrics := server.NewMetrics()
	tracer.RegisterMetrics(metrics.Registry)
	path := manifestPath(f.manifest)
	d, ok := openDaemon(ctx, "gatectl serve", path, f.verbose, tracer.Observe(metrics), stderr)
	if !ok {
		closeTracer(tracer, stderr, "gatectl serve")
		return exitUsage
	}
	defer d.close()
	log, svc := d.log, d.svc
	tracer.LogErrors(log, "gatectl serve: ")
	// Before the log closes (deferred later, so run first), after the
	// daemon has stopped: the spans of the shutdown go too.
	defer closeTracer(tracer, log, "gatectl serve")
	defer metrics.Watch(svc)()
	// Its goroutine ends with this function, whichever way it returns.
	trimCtx, stopTrim := context.WithCancel(ctx)
	defer stopTrim()
	defer svc.Subscribe(returnMemoryAfterReloads(trimCtx))()

	// The server's timeouts and caps (docs/HTTP.md, Limits) hold against
	// clients that never send the token: a refusal closes the connection,
	// an idle or trickling one is cut, and past the connection cap a new
	// one is closed at once rather than queued.
	var limits server.ServerOptions
	l, err := server.Listen("tcp", f.addr, limits)
	if err != nil {
		fmt.Fprintf(log, "gatectl serve: %v\n", err)
		return exitUsage
	}
	metrics.WatchListener(l)
	done := make(chan struct{})
	// With a token, the token is what stops a rebinding page; /mcp then
	// serves any Host, as the rest of the API does.
	gw := d.gateway(gwConfig.WithMetrics(metrics.Registry).WithAnyHost(token != "").WithTracer(tracer).WithStateless(f.stateless))
	api := server.New(svc, metrics, server.Options{Token: token, Done: done, MCP: gw.Handler(),
		Trace: func(h http.Handler) http.Handler { return tracer.Handler(h, "/mcp", server.Route) }})
	srv := server.NewHTTPServer(api, limits)
	// The socket is listening already (Listen): said before the gateway
	// starts, so that its first lines come after this one.
	fmt.Fprintf(log, "gatectl serve: listening on http://%s (manifest %s)\n", l.Addr(), safetext.Terminal(path))
	d.start(ctx, reload)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	if listening != nil {
		listening(l.Addr().String())
	}

	code := exitOK
	select {
	case <-ctx.Done():
	case err := <-served:
		fmt.Fprintf(log, "gatectl serve: %v\n", err)
		code = exitUsage
	}

	// Shut down: end the event streams (they never end by themselves),
	// answer the MCP calls in flight with an error and close the MCP
	// sessions, let other requests finish; at the bound, close every
	// connection still open (a client that does not read its answer
	// holds none past it). Then stop refreshing and close the upstreams.
	close(done)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownBound)
	defer cancel()
	gwDown := make(chan struct{})
	go func() {
		defer close(gwDown)
		_ = gw.CloseSessionsContext(shutdownCtx)
	}()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(log, "gatectl serve: shutdown: %v after %v; closing the connections still open\n", err, shutdownBound)
		_ = srv.Close()
	}
	<-gwDown
	d.stop()
	return code
}

// shutdownBound is how long serve lets requests finish on SIGTERM before
// it closes every connection still open.
const shutdownBound = 5 * time.Second

// logClose bounds each of the last steps of a shutdown that wait on what
// gate does not control: the last lines to a stderr nobody reads, the
// service's close while a compile finishes.
const logClose = 500 * time.Millisecond

// maxTokenFile is far more than any bearer token; a token file is read
// whole, so the cap is what keeps a mistake (--token-file /dev/zero, a
// FIFO, a log) from hanging or exhausting the server at start.
const maxTokenFile = 64 << 10

// readToken reads the bearer token from the file, else $GATE_TOKEN; ""
// when neither is set. A token given but empty is an error: it would
// silently turn authentication off.
func readToken(file string) (string, error) {
	if file != "" {
		b, err := safefile.Read(file, maxTokenFile)
		if err != nil {
			return "", fmt.Errorf("--token-file: %w", err)
		}
		t := strings.TrimSpace(string(b))
		if t == "" {
			return "", fmt.Errorf("--token-file %s is empty", file)
		}
		return t, nil
	}
	if t, ok := os.LookupEnv("GATE_TOKEN"); ok {
		t = strings.TrimSpace(t)
		if t == "" {
			return "", errors.New("GATE_TOKEN is set but empty")
		}
		return t, nil
	}
	return "", nil
}

// returnMemoryAfterReloads returns a subscriber that, once reloads have
// stopped for a second, gives the memory of the configurations they
// replaced back to the system. Go returns freed heap to the system only
// gradually, so after a storm of reloads the process kept several times
// its starting memory for minutes (docs/BENCHMARKS.md, "Hostile files,
// edits and clients"). A forced collection
// costs a few milliseconds of one core per quiet period, which reloads
// (each compiling and probing a whole manifest) dwarf.
func returnMemoryAfterReloads(ctx context.Context) func(runtime.Event) {
	reloaded := make(chan struct{}, 1)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-reloaded:
			}
			quiet := time.NewTimer(time.Second)
		wait:
			for {
				select {
				case <-ctx.Done():
					quiet.Stop()
					return
				case <-reloaded:
					quiet.Reset(time.Second)
				case <-quiet.C:
					break wait
				}
			}
			debug.FreeOSMemory()
		}
	}()
	return func(e runtime.Event) {
		if e.Type == "reload" && e.State == "ok" {
			select {
			case reloaded <- struct{}{}:
			default:
			}
		}
	}
}
