package tracing

import (
	"context"
	"strings"
	"time"

	"github.com/gate-dev/gate/runtime"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Observe returns an Observer that tells next (nil for none) of every
// probe run and read, and makes a span of each run: with tracing off it
// is next itself, so the registry's path is what it was.
//
// A run's span is a root: one run answers every reader that waits on it,
// and most runs are the background refresh's, so no request is its
// parent. It starts when the run asked for its place and ends at its
// answer; gate.probe.queued_s and gate.probe.run_s split that into the
// wait for a place and an execution slot, and the run itself.
func (t *Tracer) Observe(next runtime.Observer) runtime.Observer {
	if t == nil {
		return next
	}
	return &probeSpans{t: t, next: next}
}

// probesContext is the parent context of every probe run's span: a root,
// made for the probe runner.
var probesContext = WithParty(context.Background(), ProbesParty)

type probeSpans struct {
	t    *Tracer
	next runtime.Observer
}

func (p *probeSpans) Probed(kind string, res runtime.Result, st runtime.Status) {
	if p.next != nil {
		p.next.Probed(kind, res, st)
	}
	end := time.Now()
	start := end.Add(-(res.Queued + res.Elapsed))
	_, span := p.t.tracer.Start(probesContext, "probe "+st.Name, trace.WithTimestamp(start), trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(
			attribute.String("gate.probe.name", st.Name),
			attribute.String("gate.probe.of", kind), // "tool" or "server"
			attribute.String("gate.probe.kind", probeKind(st.Probe)),
			attribute.String("gate.probe.state", string(st.State)),
			attribute.String("gate.probe.code", string(res.Code)),
			attribute.Bool("gate.probe.late", res.Late),
			attribute.Bool("gate.probe.graced", st.Graced),
			attribute.Float64("gate.probe.queued_s", res.Queued.Seconds()),
			attribute.Float64("gate.probe.run_s", res.Elapsed.Seconds()),
		))
	if res.Outcome == runtime.Failed {
		// The code says why; the error's text may quote the probe.
		span.SetStatus(codes.Error, string(res.Code))
	}
	span.End(trace.WithTimestamp(end))
}

func (p *probeSpans) Read(kind string, probed int) {
	if p.next != nil {
		p.next.Read(kind, probed)
	}
}

// probeKind is the kind of the probe a manifest wrote as label: a
// standard probe's scheme ("env", "tcp", "http"...), "module" for a
// module's path, "code" for one registered in code (no label). Only the
// scheme: the rest names hosts and variables an operator may not want in
// a collector.
func probeKind(label string) string {
	if label == "" {
		return "code"
	}
	scheme, _, ok := strings.Cut(label, ":")
	if !ok || scheme == "" || len(scheme) > 16 {
		return "module"
	}
	for _, c := range scheme {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return "module"
		}
	}
	return scheme
}
