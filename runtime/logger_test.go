package runtime

import (
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/logtest"
)

// TestRegistryLogsOnlyToItsLogger: a registry given no logger logs
// nothing, not even to slog.Default (which is the application's); given
// one, the same reads are logged there.
func TestRegistryLogsOnlyToItsLogger(t *testing.T) {
	for _, tc := range []struct {
		name  string
		given bool
	}{
		{"no logger", false},
		{"a logger", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fallback, own := &logRecorder{}, &logRecorder{}
			logtest.UseDefault(t, slog.New(fallback))
			cfg := newRegistryConfig().WithTTL(0).WithGrace(0)
			if tc.given {
				cfg = cfg.WithLogger(slog.New(own))
			}
			r := newRegistry(cfg)
			require.NoError(t, r.Register(Tool{Name: "down", Probe: script(raises)}, false))
			require.NoError(t, r.Register(Tool{Name: "off", Probe: script(noWhy)}, false))
			r.ListAvailable(context.Background())

			assert.Empty(t, fallback.take(), "nothing goes to slog.Default")
			if tc.given {
				assert.NotEmpty(t, own.take(), "the failures are logged to the logger given")
			}
		})
	}
}
