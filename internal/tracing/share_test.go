package tracing_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/gate-dev/gate/internal/otlptest"
	"github.com/gate-dev/gate/internal/tracing"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

// spansDropped is gate_trace_spans_dropped_total of reg, by party.
func spansDropped(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	families, err := reg.Gather()
	require.NoError(t, err)
	out := map[string]float64{}
	for _, f := range families {
		if f.GetName() != "gate_trace_spans_dropped_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			out[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
		}
	}
	return out
}

// One party that makes spans faster than the collector takes them loses
// its own past its share of the export queue, counted by party in
// gate_trace_spans_dropped_total; every span of the others still arrives.
func TestPartyShareOfTheSpanQueue(t *testing.T) {
	const queue = 64 // a share is a quarter of it
	for _, tc := range []struct {
		name           string
		flooder, other tracing.Party
		kind           string
	}{
		{"one client session against another", tracing.ClientParty("flooder"), tracing.ClientParty("other"), "client"},
		{"a client session against the probe runner", tracing.ClientParty("flooder"), tracing.ProbesParty, "client"},
		{"the API's token holders against a client session", tracing.APIParty, tracing.ClientParty(""), "api"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			otlptest.ClearEnv(t)
			rcv := otlptest.Start(t)
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
			t.Setenv("OTEL_BSP_MAX_QUEUE_SIZE", fmt.Sprint(queue))
			// The collector is slow, not failing: an export waits for it.
			t.Setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "600000")
			t.Setenv("OTEL_BSP_EXPORT_TIMEOUT", "600000")
			tr, err := tracing.FromEnv(os.Getenv)
			require.NoError(t, err)
			reg := prometheus.NewRegistry()
			tr.RegisterMetrics(reg)
			release := rcv.Hold(t)

			const flood, others = 20 * queue, 10
			span := func(p tracing.Party, tool string) {
				_, s := tr.Forward(tracing.WithParty(context.Background(), p), tracing.Forwarded{Method: "tools/call", Server: "up", Tool: tool}, nil, nil)
				s.End("ok")
			}
			for range flood {
				span(tc.flooder, "flood")
			}
			for range others {
				span(tc.other, "other")
			}
			release()
			require.NoError(t, tr.Shutdown(context.Background()))

			require.Len(t, rcv.Named("tools/call other"), others, "every span of the other party arrives")
			require.Len(t, rcv.Named("tools/call flood"), queue/4, "the flooder's share")
			want := map[string]float64{"client": 0, "api": 0, "probes": 0, "other": 0}
			want[tc.kind] = flood - queue/4
			require.Equal(t, want, spansDropped(t, reg))
		})
	}
}

// A client opens as many sessions as it likes, each a party: together
// they flood the queue while the collector is slow, and still every span
// of the probe runner and of the API's token holders arrives, the client
// sessions together keeping no more than the half of the queue the other
// two leave them.
func TestClientSessionsTogetherLeaveTheOthersTheirShares(t *testing.T) {
	const queue = 64 // a share is a quarter of it
	otlptest.ClearEnv(t)
	rcv := otlptest.Start(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	t.Setenv("OTEL_BSP_MAX_QUEUE_SIZE", fmt.Sprint(queue))
	t.Setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "600000")
	t.Setenv("OTEL_BSP_EXPORT_TIMEOUT", "600000")
	tr, err := tracing.FromEnv(os.Getenv)
	require.NoError(t, err)
	reg := prometheus.NewRegistry()
	tr.RegisterMetrics(reg)
	release := rcv.Hold(t)

	span := func(p tracing.Party, tool string) {
		_, s := tr.Forward(tracing.WithParty(context.Background(), p), tracing.Forwarded{Method: "tools/call", Server: "up", Tool: tool}, nil, nil)
		s.End("ok")
	}
	const sessions, flood, others = 8, 2 * queue, 10
	for i := range sessions {
		for range flood {
			span(tracing.ClientParty(fmt.Sprint("session-", i)), "flood")
		}
	}
	for range others {
		span(tracing.ProbesParty, "probes")
		span(tracing.APIParty, "api")
	}
	release()
	require.NoError(t, tr.Shutdown(context.Background()))

	require.Len(t, rcv.Named("tools/call probes"), others, "every span of the probe runner arrives")
	require.Len(t, rcv.Named("tools/call api"), others, "every span of the API's token holders arrives")
	require.Len(t, rcv.Named("tools/call flood"), queue/2, "the client sessions' share, together")
	require.Equal(t, map[string]float64{"client": sessions*flood - queue/2, "api": 0, "probes": 0, "other": 0}, spansDropped(t, reg))
}

// The queue's size, which gate shares, must be a number of spans.
func TestQueueSizeRefused(t *testing.T) {
	for _, v := range []string{"many", "0", "-5"} {
		otlptest.ClearEnv(t)
		t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")
		t.Setenv("OTEL_BSP_MAX_QUEUE_SIZE", v)
		_, err := tracing.FromEnv(os.Getenv)
		require.ErrorContains(t, err, fmt.Sprintf("OTEL_BSP_MAX_QUEUE_SIZE=%q", v))
	}
}

// With tracing off there is no series.
func TestNoDropMetricWhenOff(t *testing.T) {
	reg := prometheus.NewRegistry()
	var tr *tracing.Tracer
	tr.RegisterMetrics(reg)
	families, err := reg.Gather()
	require.NoError(t, err)
	require.Empty(t, families)
}
