package tracing

import (
	"fmt"
	"io"

	"github.com/gate-dev/gate/internal/safetext"
	"go.opentelemetry.io/otel"
)

// LogErrors sends the SDK's errors (an export that failed, spans
// dropped) to w, a line each after prefix, cleaned for a terminal, instead
// of Go's standard logger, which writes to stderr past gate's log queue.
// A collector that is down costs a line for each batch.
func (t *Tracer) LogErrors(w io.Writer, prefix string) {
	if t == nil {
		return
	}
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
		fmt.Fprintf(w, "%stracing: %s\n", prefix, safetext.Terminal(err.Error()))
	}))
}
