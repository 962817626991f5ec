package tracing_test

import (
	"context"
	"net/http"
	"os"
	"regexp"
	"testing"

	"github.com/gate-dev/gate/internal/otlptest"
	"github.com/gate-dev/gate/internal/tracing"
	"github.com/stretchr/testify/require"
)

// wellFormed is a traceparent as gate writes one: version 00, a trace id
// and a span id that are not all zeros, and the flags.
var wellFormed = regexp.MustCompile(`^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$`)

// Whatever trace context a client sends, in _meta or a header, Forward
// neither panics nor passes it on as it came: the upstream gets gate's
// own span's traceparent, well formed, and the client's trace id only
// when the client's was valid.
func FuzzForward(f *testing.F) {
	f.Add("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "vendor=1", "")
	f.Add("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00")
	f.Add("00-00000000000000000000000000000000-0000000000000000-01", "a=\x00", "garbage")
	f.Add("", "", "")
	otlptest.ClearEnv(f)
	rcv := otlptest.Start(f)
	f.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
	tr, err := tracing.FromEnv(os.Getenv)
	require.NoError(f, err)
	f.Cleanup(func() { _ = tr.Shutdown(context.Background()) })
	f.Fuzz(func(t *testing.T, metaParent, metaState, headerParent string) {
		header := http.Header{}
		header.Set("traceparent", headerParent)
		ctx, span := tr.Forward(context.Background(), tracing.Forwarded{Method: "tools/call", Server: "up", Tool: "up_tool"}, header, map[string]any{"traceparent": metaParent, "tracestate": metaState})
		meta := tracing.Meta(ctx, nil)
		span.End("ok")
		tp, _ := meta["traceparent"].(string)
		require.Regexp(t, wellFormed, tp)
		require.NotEqual(t, metaParent, tp, "the client's span passed on as gate's")
		require.NotEqual(t, headerParent, tp, "the client's span passed on as gate's")
	})
}
