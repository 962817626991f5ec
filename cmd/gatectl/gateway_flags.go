package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
)

// gatewayFlags are the MCP gateway's settings that mcp and serve both
// take.
type gatewayFlags struct {
	listChangedInterval time.Duration
	startupWait         time.Duration
}

// maxStartupWait bounds --startup-wait: a client's first request held
// longer than a minute is a client that has given up.
const maxStartupWait = time.Minute

func (f *gatewayFlags) bind(fs *flag.FlagSet) {
	fs.DurationVar(&f.listChangedInterval, "list-changed-interval", 0,
		"notify MCP clients that the tools changed at most once per `DURATION`, for every change since the last notice (0: at each change)")
	fs.DurationVar(&f.startupWait, "startup-wait", mcpgw.DefaultStartupWait,
		"hold a client's listing at most `DURATION` for servers still making their first connection, so that a client that lists once sees their tools (0: answer at once)")
}

// config is the gateway's configuration with the flags, or false (and
// why, on stderr) when one is out of range.
func (f *gatewayFlags) config(cmd string, stderr io.Writer) (mcpgw.Config, bool) {
	if f.listChangedInterval < 0 {
		fmt.Fprintf(stderr, "%s: --list-changed-interval %v: want 0 (a notice at each change) or more\n", cmd, f.listChangedInterval)
		return mcpgw.Config{}, false
	}
	if f.startupWait < 0 || f.startupWait > maxStartupWait {
		fmt.Fprintf(stderr, "%s: --startup-wait %v: want 0 (answer at once) to %v\n", cmd, f.startupWait, maxStartupWait)
		return mcpgw.Config{}, false
	}
	wait := f.startupWait
	if wait == 0 {
		wait = -1 // Config's "wait for nothing"; its 0 is the default
	}
	return mcpgw.NewConfig().WithListChangedInterval(f.listChangedInterval).WithStartupWait(wait), true
}
