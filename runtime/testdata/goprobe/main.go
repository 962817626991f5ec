//go:build wasip1

// Command goprobe is a Go-built probe whose behaviour its config "mode"
// picks, so the engine's tests can show how it treats a real Go guest:
// its runtime's _initialize, a panic (whose text only reaches stderr), a
// time.Sleep, a busy loop, an allocation past the memory cap, a loop on
// crypto/rand (WASI random_get).
package main

import (
	"crypto/rand"
	"time"

	"github.com/gate-dev/gate/probes/sdk"
)

func main() {}

var sink [][]byte

//go:wasmexport probe
func probe() int32 {
	mode, _ := sdk.Config("mode")
	switch mode {
	case "ok":
		return sdk.Available
	case "env":
		if v, _ := sdk.LookupEnv("GOPROBE_VAR"); v == "" {
			sdk.Reason("GOPROBE_VAR is not set")
			return sdk.Unavailable
		}
		return sdk.Available
	case "panic":
		panic("probe exploded")
	case "sleep":
		time.Sleep(10 * time.Second)
		return sdk.Available
	case "busy":
		for i := 0; ; i++ {
			if i < 0 {
				return sdk.Available
			}
		}
	case "alloc":
		for {
			sink = append(sink, make([]byte, 1<<20))
		}
	case "rand":
		buf := make([]byte, 1<<20)
		for {
			rand.Read(buf)
		}
	}
	sdk.Reason("unknown mode " + mode)
	return 2
}
