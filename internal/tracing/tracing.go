// Package tracing exports OpenTelemetry spans of gate's probe runs, its
// forwarded MCP requests and its HTTP API, over OTLP, as the standard
// OTEL_* variables say. It is off unless they ask for it: then the
// *Tracer is nil, and every method of a nil *Tracer returns what it was
// given, so the paths it hooks cost a nil check and start no goroutine.
//
// A span carries names the manifest chose (a tool's, a server's), the
// probe's kind, the state and code of its answer, the outcome of a
// forwarded request and durations: never a header's, an env variable's or
// an argument's value, a probe's reason, nor anything else a peer sent.
package tracing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// ExportTimeout bounds one export to the collector (a batch of spans),
// retries included, unless OTEL_EXPORTER_OTLP_TIMEOUT (or its TRACES_
// form) says otherwise: a collector that is down costs a batch at most
// this, on the exporter's goroutine, and never a probe or a call.
const ExportTimeout = 2 * time.Second

// ShutdownBound bounds Shutdown: the spans still queued are sent within
// it or dropped, so a dead collector cannot hold up gate's exit.
const ShutdownBound = 2 * time.Second

// Tracer makes gate's spans and exports them. A nil *Tracer is tracing
// off: its methods do nothing and allocate nothing.
type Tracer struct {
	provider *sdktrace.TracerProvider
	tracer   trace.Tracer
	carrier  propagation.TraceContext
	queue    *shareQueue
}

// FromEnv makes the Tracer the process's OTEL_* variables ask for (see
// Enabled), or nil when they ask for none. The exporter reads the OTLP
// variables itself (endpoint, headers, timeout, compression,
// certificates), the SDK the sampler's (OTEL_TRACES_SAMPLER and its
// _ARG) and the batch processor's (OTEL_BSP_*; gate reads its queue
// size too, to share it among parties: share.go), the resource
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. The error names the
// variable that is wrong.
func FromEnv(getenv func(string) string) (*Tracer, error) {
	on, err := Enabled(getenv)
	if err != nil || !on {
		return nil, err
	}
	opts := []otlptracehttp.Option{}
	if getenv("OTEL_EXPORTER_OTLP_TIMEOUT") == "" && getenv("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT") == "" {
		opts = append(opts, otlptracehttp.WithTimeout(ExportTimeout))
	}
	// The default retries for a minute: a collector that is down would
	// keep each batch's export going that long.
	opts = append(opts, otlptracehttp.WithRetry(otlptracehttp.RetryConfig{
		Enabled: true, InitialInterval: 100 * time.Millisecond, MaxInterval: time.Second, MaxElapsedTime: ExportTimeout,
	}))
	total, batch, err := queueSizes(getenv)
	if err != nil {
		return nil, err
	}
	exporter, err := otlptracehttp.New(context.Background(), opts...)
	if err != nil {
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_ENDPOINT: %w", err)
	}
	res, err := resource.New(context.Background(),
		resource.WithAttributes(attribute.String("service.name", "gate")),
		resource.WithFromEnv(), // OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES: over the default
		resource.WithTelemetrySDK())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %w", err)
	}
	queue := newShareQueue(exporter, total, batch)
	provider := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(queue), sdktrace.WithResource(res))
	return &Tracer{provider: provider, tracer: provider.Tracer("github.com/gate-dev/gate"), queue: queue}, nil
}

// RegisterMetrics adds the tracer's series (gate_trace_spans_dropped_total)
// to reg; with tracing off there are none.
func (t *Tracer) RegisterMetrics(reg prometheus.Registerer) {
	if t == nil || reg == nil {
		return
	}
	reg.MustRegister(t.queue.dropped)
}

// Shutdown sends the spans still queued and stops the exporter, within
// ShutdownBound or ctx's deadline, whichever comes first.
func (t *Tracer) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, ShutdownBound)
	defer cancel()
	return t.provider.Shutdown(ctx)
}
