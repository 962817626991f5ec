//go:build wasip1

// Command example is a complete gate probe written with the Go SDK. It is
// available when the environment variable named by config "var" is set and
// non-empty and the address in config "addr" accepts a connection within
// config "timeout" (a Go duration, default 50ms). A config it cannot use
// (no "var", no "addr", a "timeout" that is no duration) is the probe's own
// failure, not the tool's: it answers sdk.Failed, an error with its reason.
//
// Build it with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o example.wasm .
//
// and grant it the variable and the address it checks, e.g. with this
// config: var = "REDIS_PASSWORD", addr = "127.0.0.1:6379".
package main

import (
	"errors"
	"strconv"
	"time"

	"github.com/gate-dev/gate/probes/sdk"
)

// main is not called: gate calls the exported probe function.
func main() {}

//go:wasmexport probe
func probe() int32 {
	name, ok := sdk.Config("var")
	if !ok || name == "" {
		sdk.Reason(`example probe: config "var" is not set`)
		return sdk.Failed
	}
	addr, ok := sdk.Config("addr")
	if !ok || addr == "" {
		sdk.Reason(`example probe: config "addr" is not set`)
		return sdk.Failed
	}
	timeout := 50 * time.Millisecond
	if s, ok := sdk.Config("timeout"); ok {
		d, err := time.ParseDuration(s)
		if err != nil {
			sdk.Reason(`example probe: config "timeout": ` + err.Error())
			return sdk.Failed
		}
		timeout = d
	}

	value, err := sdk.Env(name)
	switch {
	case errors.Is(err, sdk.ErrDenied):
		// The host has recorded why; a reason of our own would hide it.
		return sdk.Unavailable
	case err != nil || value == "":
		sdk.Reason(name + " is not set")
		return sdk.Unavailable
	}
	sdk.Log(sdk.LevelDebug, name+" is set ("+strconv.Itoa(len(value))+" bytes)")

	if err := sdk.Dial(addr, timeout); err != nil {
		if errors.Is(err, sdk.ErrDenied) {
			return sdk.Unavailable
		}
		sdk.Reason(addr + ": " + err.Error())
		return sdk.Unavailable
	}
	return sdk.Available
}
