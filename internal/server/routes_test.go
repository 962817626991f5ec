package server

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Route knows every route New serves, and nothing else.
func TestRouteKnowsEveryRoute(t *testing.T) {
	path := writeManifest(t, t.TempDir(), "[[tools]]\nname = \"t\"\n")
	svc := openService(t, path, nil, serviceConfig(nil, nil))
	done := make(chan struct{})
	defer close(done)
	h := New(svc, NewMetrics(), Options{Done: done}).(*server)
	for path := range h.routes {
		require.Equal(t, path, Route(path))
	}
	for path := range h.actions {
		require.Equal(t, path, Route(path))
	}
	require.Equal(t, "/mcp", Route("/mcp"))
	require.Empty(t, Route("/v1/tools/../secret"))
	require.Empty(t, Route("/v1/Tools"))
}
