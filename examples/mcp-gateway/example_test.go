package mcpgateway_test

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/gate-dev/gate/gateway"
	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// The example manifest, as README shows it: the notes server's tools are
// offered, search_web only while SERP_API_KEY is set, and the list changes
// when it becomes set.
func TestExampleManifest(t *testing.T) {
	build := exec.Command("go", "build", "-o", "notes/notes", "./notes")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	t.Setenv("SERP_API_KEY", "")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	svc, err := runtime.OpenService(ctx, "gate.toml", runtime.NewServiceConfig().WithTick(20*time.Millisecond).WithWatchInterval(0))
	require.NoError(t, err)
	defer svc.Close(context.Background())
	gw := gateway.New(svc, gateway.NewConfig())
	done := make(chan struct{}, 2)
	go func() { _ = svc.Run(ctx); done <- struct{}{} }()
	go func() { _ = gw.Run(ctx); done <- struct{}{} }()
	defer func() { cancel(); <-done; <-done }()

	changed := make(chan struct{}, 100)
	st, ct := mcp.NewInMemoryTransports()
	_, err = gw.Server().Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	}).Connect(ctx, ct, nil)
	require.NoError(t, err)
	defer cs.Close()

	names := func() []string {
		res, err := cs.ListTools(ctx, nil)
		require.NoError(t, err)
		var n []string
		for _, tool := range res.Tools {
			n = append(n, tool.Name)
		}
		slices.Sort(n)
		return n
	}
	require.Eventually(t, func() bool {
		return slices.Equal(names(), []string{"notes_add_note", "notes_list_notes"})
	}, 15*time.Second, 20*time.Millisecond)

	os.Setenv("SERP_API_KEY", "test-key") // t.Setenv restores it
	require.Eventually(t, func() bool {
		return slices.Equal(names(), []string{"notes_add_note", "notes_list_notes", "notes_search_web"})
	}, 15*time.Second, 20*time.Millisecond)
	select {
	case <-changed:
	case <-time.After(15 * time.Second):
		t.Fatal("no list_changed when search_web became available")
	}
}
