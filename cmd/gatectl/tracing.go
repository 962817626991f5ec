package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/internal/tracing"
)

// openTracer makes the tracer the OTEL_* variables ask for (nil: none),
// or says which variable is wrong and returns false.
func openTracer(cmd string, stderr io.Writer) (*tracing.Tracer, bool) {
	t, err := tracing.FromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "%s: tracing: %v\n", cmd, err)
		return nil, false
	}
	return t, true
}

// closeTracer sends the spans still queued, within tracing.ShutdownBound
// (a collector that is down does not hold up the exit longer), and says
// so on log when they could not all be sent.
func closeTracer(t *tracing.Tracer, log io.Writer, cmd string) {
	if err := t.Shutdown(context.Background()); err != nil {
		fmt.Fprintf(log, "%s: tracing: the last spans were not all sent: %s\n", cmd, safetext.Terminal(err.Error()))
	}
}
