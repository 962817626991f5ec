package tracing

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// The SDK's batch processor keeps the spans that ended in one queue, a
// channel of OTEL_BSP_MAX_QUEUE_SIZE, and drops a span that finds it full:
// whoever makes spans fastest while the collector is slow fills it, and
// everyone else's spans are the ones lost. shareQueue sits in front of it
// and counts each party's spans from their end to their export (the
// exporter's return, sent or not): a party that has its share queued
// loses its next span, counted in gate_trace_spans_dropped_total, and all
// parties together never queue more than the batch processor holds, so it
// drops none itself. A client opens sessions at will, each a party of its
// own, so the client sessions together have a share too (clients), which
// leaves the API's and the probe runner's shares to them.
type shareQueue struct {
	next    sdktrace.SpanProcessor // the batch processor, exporting through exportCounted
	share   int                    // the most spans one party may have queued
	clients int                    // the most all client sessions together may have queued
	total   int                    // the batch processor's queue: the most all parties may have queued

	mu            sync.Mutex
	of            map[trace.SpanID]Party // a sampled span's party, from its start to its export
	queued        map[Party]int          // a party's spans handed to next and not yet exported
	sum           int                    // all parties' queued spans
	clientsQueued int                    // all client sessions' queued spans

	dropped *prometheus.CounterVec
}

// partyShareDivisor: a party may have a quarter of the queue waiting, so
// one that floods it leaves three quarters to the others.
const partyShareDivisor = 4

// queueSizes are the batch processor's queue and batch sizes, as the SDK
// reads them (OTEL_BSP_MAX_QUEUE_SIZE, OTEL_BSP_MAX_EXPORT_BATCH_SIZE, a
// batch no larger than the queue); gate needs the queue's to share it.
func queueSizes(getenv func(string) string) (total, batch int, err error) {
	if total, err = envInt(getenv, "OTEL_BSP_MAX_QUEUE_SIZE", sdktrace.DefaultMaxQueueSize); err != nil {
		return 0, 0, err
	}
	if batch, err = envInt(getenv, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", sdktrace.DefaultMaxExportBatchSize); err != nil {
		return 0, 0, err
	}
	return total, min(batch, total), nil
}

// newShareQueue returns the span processor of exporter: the SDK's batch
// processor, its queue total spans, behind a shareQueue.
func newShareQueue(exporter sdktrace.SpanExporter, total, batch int) *shareQueue {
	share := max(1, total/partyShareDivisor)
	q := &shareQueue{
		share: share,
		// The API's token holders and the probe runner keep a share each.
		clients: max(share, total-2*share),
		total:   total,
		of:      map[trace.SpanID]Party{},
		queued:  map[Party]int{},
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gate_trace_spans_dropped_total",
			Help: "Spans not exported because their party (client, api, probes) had its share of the export queue waiting, the client sessions together theirs, or all parties had the whole queue.",
		}, []string{"party"}),
	}
	for _, p := range []Party{ClientParty(""), APIParty, ProbesParty, otherParty} {
		q.dropped.WithLabelValues(p.kind) // a series from the start, at 0
	}
	q.next = sdktrace.NewBatchSpanProcessor(exportCounted{SpanExporter: exporter, q: q},
		sdktrace.WithMaxQueueSize(total), sdktrace.WithMaxExportBatchSize(batch))
	return q
}

// envInt is the variable key as a positive integer, or def when it is
// unset; anything else is an error that names it.
func envInt(getenv func(string) string, key string, def int) (int, error) {
	v := strings.TrimSpace(getenv(key))
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s=%q: a number of spans, above 0", key, v)
	}
	return n, nil
}

func (q *shareQueue) OnStart(parent context.Context, s sdktrace.ReadWriteSpan) {
	if sc := s.SpanContext(); sc.IsSampled() { // the batch processor exports no other
		q.mu.Lock()
		q.of[sc.SpanID()] = partyOf(parent)
		q.mu.Unlock()
	}
	q.next.OnStart(parent, s)
}

func (q *shareQueue) OnEnd(s sdktrace.ReadOnlySpan) {
	id := s.SpanContext().SpanID()
	q.mu.Lock()
	p, ok := q.of[id]
	if ok && (q.queued[p] >= q.share || q.sum >= q.total || p.kind == clientKind && q.clientsQueued >= q.clients) {
		delete(q.of, id)
		q.mu.Unlock()
		q.dropped.WithLabelValues(p.kind).Inc()
		return
	}
	if ok {
		q.queued[p]++
		q.sum++
		if p.kind == clientKind {
			q.clientsQueued++
		}
	}
	q.mu.Unlock()
	q.next.OnEnd(s)
}

// exported counts spans out of their parties' queues: the exporter
// returned, whether they were sent or not.
func (q *shareQueue) exported(spans []sdktrace.ReadOnlySpan) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, s := range spans {
		id := s.SpanContext().SpanID()
		p, ok := q.of[id]
		if !ok {
			continue
		}
		delete(q.of, id)
		q.sum--
		if p.kind == clientKind {
			q.clientsQueued--
		}
		if q.queued[p]--; q.queued[p] <= 0 {
			delete(q.queued, p)
		}
	}
}

func (q *shareQueue) Shutdown(ctx context.Context) error   { return q.next.Shutdown(ctx) }
func (q *shareQueue) ForceFlush(ctx context.Context) error { return q.next.ForceFlush(ctx) }

// exportCounted is the exporter the batch processor sends through: each
// batch leaves its parties' queues when the export returns.
type exportCounted struct {
	sdktrace.SpanExporter
	q *shareQueue
}

func (e exportCounted) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	defer e.q.exported(spans)
	return e.SpanExporter.ExportSpans(ctx, spans)
}
