//go:build !wasip1

// The test runs on the host: it builds the probe for wasip1 and runs it in
// the engine.

package sdk_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/probes/probetest"
	"github.com/gate-dev/gate/runtime"
)

// buildExample builds one of example's probes with the Go toolchain, as a
// probe author would.
func buildExample(t *testing.T, pkg string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "probe.wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	output, err := cmd.CombinedOutput()
	require.NoError(t, err, "GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared %s:\n%s", pkg, output)
	wasm, err := os.ReadFile(out)
	require.NoError(t, err)
	return wasm
}

// TestStreamExample runs example/stream, a Go probe that talks to a
// service with Conn, against probetest's scripted peers on the real engine
// and host functions: Connect's errors, Write with a secret, Read to a
// line, io.EOF, the read timeout and TLS facts. (The HTTP side is checked
// by docs/ABI.md's Go example, in probetest's TestABIDocProtocolExamples.)
func TestStreamExample(t *testing.T) {
	wasm := buildExample(t, "./example/stream")
	const plain, secure = "127.0.0.1:6379", "cache.example.com:6380"
	pong := probetest.Script(probetest.Expect("PING\r\n"), probetest.Send("+PONG\r\n"))
	peer := func(addr string, p probetest.Peer) map[string]probetest.Peer {
		return map[string]probetest.Peer{addr: p}
	}
	tlsAddr := map[string]string{"addr": "tls:" + secure}
	probetest.Test(t, wasm, probetest.Options{
		Grants: hostfuncs.Grants{Dial: []string{plain, secure}, Secrets: map[string][]string{"TOKEN": {plain}}},
		Config: map[string]string{"addr": plain},
		Cases: []probetest.Case{
			{Name: "pong", Peers: peer(plain, pong), Want: runtime.Available},
			{Name: "pong in pieces", Want: runtime.Available, Peers: peer(plain, probetest.Script(
				probetest.Expect("PING\r\n"), probetest.Send("+PO"), probetest.Send("NG\r"), probetest.Send("\n")))},
			{Name: "auth", Config: map[string]string{"secret": "TOKEN"}, Secrets: map[string]string{"TOKEN": "tok-123"}, Want: runtime.Available,
				Peers: peer(plain, probetest.Script(probetest.Expect("AUTH ${secret:TOKEN}\r\nPING\r\n"), probetest.Send("+OK\r\n+PONG\r\n")))},
			{Name: "auth: the secret not set", Config: map[string]string{"secret": "TOKEN"}, Want: runtime.Unavailable,
				Peers: peer(plain, probetest.Script())},
			{Name: "error line", Want: runtime.Unavailable, Peers: peer(plain, probetest.Script(
				probetest.Expect("PING\r\n"), probetest.Send("-NOAUTH Authentication required.\r\n")))},
			{Name: "refused", Want: runtime.Unavailable},
			{Name: "closed: io.EOF", Want: runtime.Failed, Peers: peer(plain, probetest.Script(probetest.Expect("PING\r\n"), probetest.Close()))},
			{Name: "hangs: the read timeout", Want: runtime.Failed, Peers: peer(plain, probetest.Script(probetest.Hang()))},
			{Name: "tls", Config: tlsAddr, Want: runtime.Available, Peers: peer("tls:"+secure, pong)},
			{Name: "tls: 30 days left", Config: map[string]string{"addr": "tls:" + secure, "days": "30"}, Want: runtime.Available,
				Peers: peer("tls:"+secure, pong)},
			{Name: "tls: fewer than 365 days left", Config: map[string]string{"addr": "tls:" + secure, "days": "365"}, Want: runtime.Unavailable,
				Peers: peer("tls:"+secure, probetest.Script())},
			// A plain peer behind a tls: address: the handshake fails.
			{Name: "tls to a plain peer", Config: tlsAddr, Want: runtime.Unavailable,
				Peers: peer(secure, probetest.Script(probetest.Send("+PONG\r\n")))},
		},
	})
}
