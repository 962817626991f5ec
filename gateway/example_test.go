package gateway_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gate-dev/gate/gateway"
	"github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A gateway over a manifest with no servers yet, serving one client over
// the SDK's in-memory transport (gatectl mcp serves Server() over stdio,
// gatectl serve mounts Handler() at /mcp): it offers no tools.
func Example() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir, err := os.MkdirTemp("", "gateway-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	manifest := filepath.Join(dir, "gate.toml")
	if err := os.WriteFile(manifest, []byte("[runtime]\nttl = \"2s\"\n"), 0o600); err != nil {
		panic(err)
	}

	svc, err := runtime.OpenService(ctx, manifest, runtime.NewServiceConfig().WithWatchInterval(0))
	if err != nil {
		panic(err)
	}
	defer svc.Close(context.Background())
	gw := gateway.New(svc, gateway.NewConfig().WithVersion("example"))
	done := make(chan struct{}, 2)
	go func() { _ = svc.Run(ctx); done <- struct{}{} }()
	go func() { _ = gw.Run(ctx); done <- struct{}{} }()
	defer func() { cancel(); <-done; <-done }()

	st, ct := mcp.NewInMemoryTransports()
	if _, err := gw.Server().Connect(ctx, st, nil); err != nil {
		panic(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	fmt.Println("server:", cs.InitializeResult().ServerInfo.Version)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("tools:", len(tools.Tools))
	// Output:
	// server: example
	// tools: 0
}
