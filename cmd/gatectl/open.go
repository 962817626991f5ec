package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/runtime"
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
	cfg := runtime.NewGateConfig().WithEngine(withProgress(newEngineConfig().WithCacheDir(defaultCacheDir()), stderr))
	if verbose {
		cfg = cfg.WithLogger(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
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
