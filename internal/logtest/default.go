// Package logtest holds what tests of logging need: slog's default logger
// swapped for one the test reads, to show that a package given no logger
// does not fall back to the application's.
package logtest

import (
	"log/slog"
	"testing"
)

// UseDefault makes l slog's default logger until the test ends. The
// default is global: a test that calls it must not run in parallel with
// one that logs to it.
func UseDefault(t testing.TB, l *slog.Logger) {
	t.Helper()
	old := slog.Default()
	slog.SetDefault(l)
	t.Cleanup(func() { slog.SetDefault(old) })
}
