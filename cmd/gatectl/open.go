package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
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
	g, _, ok := openGateReport(ctx, cmd, path, verbose, stderr, adjust)
	return g, ok
}

// openGateReport is openGateWith that also returns, when the manifest
// cannot be opened, its problems as check --json shows them.
func openGateReport(ctx context.Context, cmd, path string, verbose bool, stderr io.Writer, adjust func(runtime.GateConfig) runtime.GateConfig) (*runtime.Gate, []manifestProblem, bool) {
	cfg := runtime.NewGateConfig().WithEngine(withProgress(newEngineConfig().WithCacheDir(defaultCacheDir()), stderr))
	if verbose {
		cfg = cfg.WithLogger(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
	}
	if adjust != nil {
		cfg = adjust(cfg)
	}
	g, err := openManifestGate(ctx, path, cfg)
	if err != nil {
		return nil, reportManifestError(stderr, cmd, path, err), false
	}
	return g, nil, true
}

// manifestProblem is one problem of a manifest that could not be opened,
// as check --json shows it (docs/CLI.md): where it is, when that is
// known, and what is wrong.
type manifestProblem struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Key     string `json:"key,omitempty"`
	Message string `json:"message"`
}

// reportManifestError prints every problem of a manifest that could not be
// opened, each with its source line and a caret, and returns them all. A
// manifest that is not there is one line that says so and how to write
// one.
func reportManifestError(stderr io.Writer, cmd, path string, err error) []manifestProblem {
	// manifest.Errors replace control characters themselves (with U+FFFD,
	// keeping their source-line layout); any other error may quote a path
	// or a module's words, so it is escaped here.
	var errs manifest.Errors
	if !errors.As(err, &errs) {
		fmt.Fprintf(stderr, "%s: %s\n", cmd, safetext.TerminalLines(err.Error()))
		return []manifestProblem{{File: shownManifest(path), Message: err.Error()}}
	}
	if missingManifest(errs, path) {
		fmt.Fprintf(stderr, "%s: %s\n", cmd, noManifest(path))
	} else {
		fmt.Fprintf(stderr, "%s: %d problem(s) in %s:\n%+v\n", cmd, len(errs), safetext.Terminal(shownManifest(path)), errs)
	}
	problems := make([]manifestProblem, 0, len(errs))
	for _, e := range errs {
		problems = append(problems, manifestProblem{File: e.Pos.File, Line: e.Pos.Line, Column: e.Pos.Col, Key: e.Key, Message: e.Msg})
	}
	return problems
}

// missingManifest reports whether errs says only that there is no file
// at path: the one problem, about the file as a whole, caused by its not
// being there (not a probe module the manifest names).
func missingManifest(errs manifest.Errors, path string) bool {
	return len(errs) == 1 && errs[0].Pos.Line == 0 && errs[0].Pos.File == path && errors.Is(errs[0], fs.ErrNotExist)
}

// noManifest says that there is no manifest at path, and how to write
// one there: gatectl init, which writes where check reads by default, or
// init -m PATH for any other path.
func noManifest(path string) string {
	shown := safetext.Terminal(path)
	if path == manifestPath("") {
		return "no manifest at " + shown + `; run "gatectl init" to write one, or name another with -m`
	}
	return "no manifest at " + shown + `; run "gatectl init -m ` + safetext.Terminal(shellWord(path)) + `" to write one there`
}
