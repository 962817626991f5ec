//go:build wasip1

// Command stream is a gate probe that talks to a service over a stream
// with the Go SDK (ABI v2): it connects to config "addr" ("host:port",
// "unix:/path" or "tls:host:port"), sends "AUTH ${secret:NAME}" when
// config "secret" names a secret, then PING, and reads the answer. "+PONG"
// is available; a line starting with '-' is unavailable, with the
// server's line as the reason. For a tls: address, config "days" asks for
// a certificate that is valid for at least that many more days.
//
// Build it with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o stream.wasm .
//
// and grant it the address (dial) and the secret, bound to that address
// (secrets = { NAME = ["host:port"] }).
package main

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/gate-dev/gate/probes/sdk"
)

func main() {}

// raise is GATE_ERROR: transient, the registry's grace window applies.
const raise int32 = 2

//go:wasmexport probe
func probe() int32 {
	addr, ok := sdk.Config("addr")
	if !ok || addr == "" {
		sdk.Reason(`stream probe: config "addr" is not set`)
		return raise
	}
	c, err := sdk.Connect(addr, sdk.WithTimeout(50*time.Millisecond))
	switch {
	case errors.Is(err, sdk.ErrDenied):
		return sdk.Unavailable
	case errors.Is(err, sdk.ErrTimeout):
		sdk.Reason(addr + ": " + err.Error())
		return raise
	case err != nil:
		sdk.Reason(addr + ": " + err.Error())
		return sdk.Unavailable
	}
	defer c.Close()

	if s, ok := sdk.Config("days"); ok {
		days, err := strconv.Atoi(s)
		if err != nil {
			sdk.Reason(`stream probe: config "days": ` + err.Error())
			return raise
		}
		st, err := c.TLS()
		if err != nil {
			sdk.Reason(addr + ": " + err.Error())
			return raise
		}
		if !st.Verified || st.Left < time.Duration(days)*24*time.Hour {
			sdk.Reason(addr + ": certificate expires " + st.NotAfter.Format(time.DateOnly))
			return sdk.Unavailable
		}
	}

	msg := "PING\r\n"
	lines := 1
	if name, ok := sdk.Config("secret"); ok {
		msg = "AUTH " + sdk.Secret(name) + "\r\n" + msg
		lines = 2
	}
	if _, err := c.WriteString(msg); err != nil {
		if errors.Is(err, sdk.ErrDenied) {
			return sdk.Unavailable
		}
		sdk.Reason(addr + ": " + err.Error())
		if errors.Is(err, sdk.ErrNotSet) {
			return sdk.Unavailable
		}
		return raise
	}

	c.SetReadTimeout(30 * time.Millisecond)
	var got []byte
	buf := make([]byte, 256)
	for bytes.Count(got, []byte("\n")) < lines {
		if line, _, ok := bytes.Cut(got, []byte("\n")); ok && bytes.HasPrefix(line, []byte("-")) {
			break
		}
		n, err := c.Read(buf)
		got = append(got, buf[:n]...)
		switch {
		case err == io.EOF:
			sdk.Reason(addr + ": connection closed before an answer")
			return raise
		case err != nil:
			sdk.Reason(addr + ": " + err.Error())
			return raise
		}
	}
	for line := range bytes.Lines(got) {
		line = bytes.TrimRight(line, "\r\n")
		if bytes.HasPrefix(line, []byte("-")) {
			sdk.Reason(addr + ": " + string(line))
			return sdk.Unavailable
		}
	}
	return sdk.Available
}
