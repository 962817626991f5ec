package main

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/gate-dev/gate/runtime"
)

// settled is what an upstream first came to: its event, ready or down,
// and how long after the gateway started.
type settled struct {
	event runtime.Event
	after time.Duration
}

// settleUpstreams runs gw until each of servers has been ready or down
// once, or bound has passed, or ctx is done; then it calls read, with gw
// still running, with what each first came to (a server still connecting
// has no entry) and how long it waited, and stops gw.
func settleUpstreams(ctx context.Context, svc *runtime.Service, gw *mcpgw.Gateway, servers []string, bound time.Duration, read func(first map[string]settled, waited time.Duration)) {
	var mu sync.Mutex
	first := map[string]settled{}
	wake := make(chan struct{}, 1)
	start := time.Now()
	defer svc.Subscribe(func(e runtime.Event) {
		if e.Type != "upstream" || !slices.Contains(servers, e.Name) || e.State == mcpgw.StateConnecting {
			return
		}
		mu.Lock()
		if _, ok := first[e.Name]; !ok {
			first[e.Name] = settled{event: e, after: time.Since(start)}
		}
		mu.Unlock()
		select {
		case wake <- struct{}{}:
		default:
		}
	})()
	runCtx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { defer close(ran); _ = gw.Run(runCtx) }()
	deadline := time.NewTimer(bound)
	defer deadline.Stop()
wait:
	for {
		mu.Lock()
		n := len(first)
		mu.Unlock()
		if n == len(servers) {
			break
		}
		select {
		case <-wake:
		case <-deadline.C:
			break wait
		case <-ctx.Done():
			break wait
		}
	}
	mu.Lock()
	read(first, time.Since(start))
	mu.Unlock()
	cancel()
	<-ran
}
