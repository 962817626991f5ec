//go:build wasip1

// Command probe answers whether the "search_internal" tool can run: its
// API key must be set and look like one, and its service must accept
// connections. It is written with gate's Go SDK; build it with
//
//	sh examples/custom-probe/build.sh
//
// A Go probe carries the Go runtime (megabytes, and most of a second to
// compile the first time, cached on disk after that); the same checks in C are a
// few hundred bytes (see docs/ABI.md). Go is worth it when a probe needs
// Go's libraries.
package main

import (
	"errors"
	"strings"
	"time"

	"github.com/gate-dev/gate/probes/sdk"
)

func main() {}

//go:wasmexport probe
func probe() int32 {
	keyVar, ok := sdk.Config("key_var")
	if !ok {
		sdk.Reason(`config "key_var" is not set`)
		return 2 // a misconfigured probe is an error, not an unavailable tool
	}
	key, err := sdk.Env(keyVar)
	switch {
	case errors.Is(err, sdk.ErrNotSet) || (err == nil && key == ""):
		sdk.Reason(keyVar + " is not set")
		return sdk.Unavailable
	case err != nil:
		return sdk.Unavailable // denied: the host explains
	case !strings.HasPrefix(key, "sk-"):
		sdk.Reason(keyVar + " does not look like an API key (want sk-...)")
		return sdk.Unavailable
	}

	addr, _ := sdk.Config("addr")
	if err := sdk.Dial(addr, 50*time.Millisecond); err != nil {
		sdk.Log(sdk.LevelInfo, "dial "+addr+": "+err.Error())
		sdk.Reason("search service " + addr + " is down: " + err.Error())
		return sdk.Unavailable
	}
	return sdk.Available
}
