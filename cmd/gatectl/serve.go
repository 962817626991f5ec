package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/gate-dev/gate/server"
)

const serveSynopsis = `gatectl serve [-m gate.toml] [--addr 127.0.0.1:7311] [--allow-remote --token-file FILE]

Runs gate as a long-lived service for agents that are not written in Go:
answers are re-probed in the background before they expire, so a request
never waits for a probe, and the HTTP API (docs/HTTP.md) serves the tools,
their schema, skills, an event stream of changes, health and metrics.
The manifest is re-read when it changes and on SIGHUP; a broken edit is
reported and the last good configuration keeps serving. SIGTERM or SIGINT
shut down gracefully.

Listening on anything but loopback needs --allow-remote and a bearer token,
read from --token-file or $GATE_TOKEN (never from the command line, where
other users could read it).`

func serve(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	return serveContext(ctx, args, hup, stderr, nil)
}

// serveContext is serve with the process's signals made arguments: it
// serves until ctx is done, reloads on every value from reload, and calls
// listening with the address once it accepts connections (tests use it).
func serveContext(ctx context.Context, args []string, reload <-chan os.Signal, stderr io.Writer, listening func(addr string)) int {
	fs := newFlagSet("gatectl serve", serveSynopsis, stderr)
	m := fs.String("m", "", "the manifest")
	addr := fs.String("addr", "127.0.0.1:7311", "where to listen")
	allowRemote := fs.Bool("allow-remote", false, "allow listening on an address other than loopback (needs a token)")
	tokenFile := fs.String("token-file", "", "read the bearer token from `FILE` (else $GATE_TOKEN)")
	verbose := fs.Bool("v", false, "log probe failures, grace decisions and reloads")
	if !parseNoArgs("gatectl serve", fs, args, stderr) {
		return exitUsage
	}
	token, err := readToken(*tokenFile)
	if err != nil {
		fmt.Fprintf(stderr, "gatectl serve: %v\n", err)
		return exitUsage
	}
	if err := server.CheckBind(*addr, *allowRemote, token); err != nil {
		fmt.Fprintf(stderr, "gatectl serve: %v\n", err)
		return exitUsage
	}

	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if *verbose {
		logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	metrics := server.NewMetrics()
	path := manifestPath(*m)
	svc, err := runtime.OpenService(ctx, path, runtime.NewServiceConfig().WithGate(runtime.NewGateConfig().
		WithEngine(runtime.NewEngineConfig().WithCacheDir(defaultCacheDir())).
		WithRegistry(runtime.NewRegistryConfig().WithLogger(logger).WithObserver(metrics))))
	if err != nil {
		reportManifestError(stderr, "gatectl serve", path, err)
		return exitUsage
	}
	defer svc.Close(context.Background())
	defer metrics.Watch(svc)()

	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "gatectl serve: %v\n", err)
		return exitUsage
	}
	done := make(chan struct{})
	srv := &http.Server{
		Handler:           server.New(svc, metrics, server.Options{Token: token, Done: done}),
		ReadHeaderTimeout: 5 * time.Second,
	}
	runCtx, cancelRun := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_ = svc.Run(runCtx)
	}()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	fmt.Fprintf(stderr, "gatectl serve: listening on http://%s (manifest %s)\n", l.Addr(), path)
	if listening != nil {
		listening(l.Addr().String())
	}

	// Reloads run off the signal loop, one at a time, coalesced: a reload
	// compiles modules (seconds for a large one) and must never keep
	// SIGTERM waiting; cancelRun ends one midway.
	reloads := make(chan struct{}, 1)
	reloaded := make(chan struct{})
	go func() {
		defer close(reloaded)
		for range reloads {
			if err := svc.Reload(runCtx); err != nil {
				fmt.Fprintf(stderr, "gatectl serve: %v\n", err)
			} else {
				fmt.Fprintf(stderr, "gatectl serve: reloaded %s\n", path)
			}
		}
	}()

	code := exitOK
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-reload:
			select {
			case reloads <- struct{}{}:
			default: // one is pending already; it will read the latest file
			}
		case err := <-served:
			fmt.Fprintf(stderr, "gatectl serve: %v\n", err)
			code = exitUsage
			break loop
		}
	}

	// Shut down: end the event streams (they never end by themselves),
	// let other requests finish, then stop refreshing.
	close(done)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "gatectl serve: shutdown: %v\n", err)
	}
	cancelRun()
	close(reloads)
	<-reloaded
	<-ran
	fmt.Fprintln(stderr, "gatectl serve: stopped")
	return code
}

// readToken reads the bearer token from the file, else $GATE_TOKEN; ""
// when neither is set. A token given but empty is an error: it would
// silently turn authentication off.
func readToken(file string) (string, error) {
	if file != "" {
		b, err := os.ReadFile(file)
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
