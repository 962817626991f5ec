// Package server is gate's HTTP side: a read-only JSON API over a
// runtime.Service for agents that cannot embed the Go library (Python,
// TypeScript), a server-sent event stream of every change, Prometheus
// metrics, and, when Options.MCP is set, the MCP gateway (internal/mcpgw)
// at /mcp behind the same token and Host checks. docs/HTTP.md documents
// every endpoint and shape.
//
// A request never runs a probe: the Service refreshes answers in the
// background and every read serves the latest one. The one exception is a
// request that arrives before the Service's first round of probes has
// answered a tool: the registry probes what was never probed, so the
// request still gets a real answer (within one probe budget) rather than
// an empty list; /readyz tells a supervisor when that window is over.
//
// The lead wiring (gatectl serve) is:
//
//	metrics := server.NewMetrics()
//	svc, err := runtime.OpenService(ctx, path, runtime.NewServiceConfig().
//		WithGate(runtime.NewGateConfig().WithObserver(metrics)))
//	stop := metrics.Watch(svc)
//	defer stop()
//	if err := server.CheckBind(addr, allowRemote, token); err != nil { ... }
//	var limits server.ServerOptions // the defaults: timeouts, header and connection caps
//	l, err := server.Listen("tcp", addr, limits)
//	metrics.WatchListener(l)
//	done := make(chan struct{})
//	gw := mcpgw.New(svc, mcpgw.NewConfig().WithMetrics(metrics.Registry))
//	srv := server.NewHTTPServer(server.New(svc, metrics, server.Options{Token: token, Done: done, MCP: gw.Handler()}), limits)
//	srv.RegisterOnShutdown(func() { close(done) }) // ends the event streams, so Shutdown can finish
//	go svc.Run(ctx)
//	go gw.Run(ctx)
//	err = srv.Serve(l)
//
// Hostile clients are bounded (docs/HTTP.md, "Limits"): every timeout,
// the header and connection caps, each peer's share of the connections
// and of the event streams, and every refusal closing its connection; without a token, only requests to a loopback Host are
// answered (DNS rebinding); reload errors are reported by their first
// problems; large answers are rendered once and shared.
package server
