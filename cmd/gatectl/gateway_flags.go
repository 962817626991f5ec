package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/gate-dev/gate/gateway"
)

// gatewayFlags are the MCP gateway's settings that mcp and serve both
// take.
type gatewayFlags struct {
	listChangedInterval time.Duration
}

func (f *gatewayFlags) bind(fs *flag.FlagSet) {
	fs.DurationVar(&f.listChangedInterval, "list-changed-interval", 0,
		"notify MCP clients that the tools changed at most once per `DURATION`, for every change since the last notice (0: at each change)")
}

// config is the gateway's configuration with the flags, or false (and
// why, on stderr) when one is out of range.
func (f *gatewayFlags) config(cmd string, stderr io.Writer) (gateway.Config, bool) {
	if f.listChangedInterval < 0 {
		fmt.Fprintf(stderr, "%s: --list-changed-interval %v: want 0 (a notice at each change) or more\n", cmd, f.listChangedInterval)
		return gateway.Config{}, false
	}
	return gateway.NewConfig().WithListChangedInterval(f.listChangedInterval), true
}
