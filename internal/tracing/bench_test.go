package tracing_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gate-dev/gate/internal/otlptest"
	"github.com/gate-dev/gate/internal/tracing"
	"github.com/gate-dev/gate/runtime"
	"github.com/stretchr/testify/require"
)

// BenchmarkProbeRun re-probes one env-probed tool through its registry
// (Refresh: the run, the registry's answer and its observer): without an
// observer, as gatectl mcp runs with tracing off (the anchor), and with
// the tracer's, each run a span exported to a loopback OTLP receiver.
func BenchmarkProbeRun(b *testing.B) {
	rcv := otlptest.Start(b)
	b.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	tr, err := tracing.FromEnv(os.Getenv)
	require.NoError(b, err)
	b.Cleanup(func() { _ = tr.Shutdown(context.Background()) })
	path := filepath.Join(b.TempDir(), "gate.toml")
	require.NoError(b, os.WriteFile(path, []byte("[[tools]]\nname = \"notes_search\"\nprobe = \"env:GATE_TRACING_TEST_UNSET\"\n"), 0o600))
	for _, v := range []struct {
		name string
		obs  runtime.Observer
	}{{"tracing=off", nil}, {"tracing=on", tr.Observe(nil)}} {
		b.Run(v.name, func(b *testing.B) {
			cfg := runtime.NewGateConfig()
			if v.obs != nil {
				cfg = cfg.WithObserver(v.obs)
			}
			g, err := runtime.Open(context.Background(), path, cfg)
			require.NoError(b, err)
			defer g.Close(context.Background())
			ctx := context.Background()
			_, _ = g.Tools().Refresh(ctx, "notes_search") // the instance the others reuse
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				st, err := g.Tools().Refresh(ctx, "notes_search")
				if err != nil || len(st) != 1 || st[0].State != runtime.StateUnavailable {
					b.Fatalf("refresh: %v %v", err, st)
				}
			}
		})
	}
}
