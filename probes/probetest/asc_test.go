package probetest_test

import (
	"context"
	"github.com/gate-dev/gate/internal/inspect"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/doctest"
	"github.com/gate-dev/gate/probes/probetest"
	"github.com/gate-dev/gate/runtime"
)

// ascCommand is the AssemblyScript compiler that probes/asc/package-lock.json
// pins, as scripts/test installs it.
func ascCommand(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	asc := filepath.Join(root, "probes", "asc", "node_modules", ".bin", "asc")
	_, err = os.Stat(asc)
	require.NoError(t, err, "the AssemblyScript compiler is needed: npm ci --prefix probes/asc (scripts/test does)")
	return asc
}

// buildASC compiles an AssemblyScript probe the default way, as the SDK
// page says: the stub runtime, and without --use abort=, so that a failed
// assert calls env.abort. src is relative to this package's directory,
// which is what the abort's file name reads.
func buildASC(t *testing.T, src string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "probe.wasm")
	cmd := exec.Command(ascCommand(t), src, "--runtime", "stub", "-Oz", "-o", out)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "asc %s:\n%s", src, b)
	return must(os.ReadFile(out))
}

// The SDK's example, built by the real compiler: every answer it gives,
// its own failure (no config) included, on fresh and reused instances.
func TestAssemblyScriptExample(t *testing.T) {
	wasm := buildASC(t, filepath.Join("..", "asc", "env.ts"))
	info, err := inspect.Module(wasm, inspect.Limits{})
	require.NoError(t, err)
	assert.Empty(t, info.Violations)
	assert.Contains(t, info.Imports, inspect.Item{Module: "env", Name: "abort", Kind: "func", Type: "(i32, i32, i32, i32) -> ()"},
		"built the default way, the module imports env.abort")

	token := map[string]string{"var": "API_TOKEN"}
	probetest.Test(t, wasm, probetest.Options{
		Grants: hostfuncs.Grants{Env: []string{"API_TOKEN"}},
		Cases: []probetest.Case{
			{Name: "set", Config: token, Env: map[string]string{"API_TOKEN": "t0k3n"}, Want: runtime.Available},
			{Name: "empty", Config: token, Env: map[string]string{"API_TOKEN": ""}, Want: runtime.Unavailable},
			{Name: "not set", Config: token, Want: runtime.Unavailable},
			{Name: "no config", Want: runtime.Failed},
		},
	})

	// The reasons, as the runs give them.
	for _, tc := range []struct {
		config map[string]string
		want   []string
	}{
		{token, []string{`case "r": answers unavailable ("API_TOKEN is not set"), want available`}},
		{nil, []string{`case "r": probe "probe" raised: env probe: config "var" is not set`}},
	} {
		got := probetest.Check(context.Background(), wasm, probetest.Options{
			Grants: hostfuncs.Grants{Env: []string{"API_TOKEN"}},
			Cases:  []probetest.Case{{Name: "r", Config: tc.config, Want: runtime.Available}},
		})
		var msgs []string
		for _, v := range got {
			msgs = append(msgs, v.Error())
		}
		assert.Equal(t, tc.want, msgs)
	}
}

// A failed assert in a probe built the default way is AssemblyScript's
// env.abort: the run is an error whose reason is the assert's message and
// its place in the source, and the probe's other answers are untouched.
func TestAssemblyScriptAbort(t *testing.T) {
	wasm := buildASC(t, filepath.Join("testdata", "abort.ts"))
	got := probetest.Check(context.Background(), wasm, probetest.Options{
		Cases: []probetest.Case{
			{Name: "holds", Config: map[string]string{"mode": "ok"}, Want: runtime.Available},
			{Name: "fails", Config: map[string]string{"mode": "bad"}, Want: runtime.Available},
		},
	})
	require.Len(t, got, 1, "%v", got)
	assert.Equal(t, probetest.Violation{Case: "fails", Rule: "trap",
		Msg: `probe "probe" trapped in probe: abort: boom: mode is not ok at testdata/abort.ts:9:3`}, *got[0])

	// docs/ABI.md shows the same run with gatectl, the module built
	// beside its source: the reason is this one.
	_, blocks := doctest.Marked(t, filepath.Join("..", "..", "docs", "ABI.md"))
	s := blocks[0].Step("gatectl probe run abort.wasm --config mode=bad")
	require.NotNil(t, s, "docs/ABI.md shows no run of abort.wasm")
	reason := strings.Replace(strings.TrimPrefix(got[0].Msg, `probe "probe" `), "testdata/", "", 1)
	assert.True(t, doctest.Match([]string{`abort.wasm: error: probe "abort.wasm" ` + reason + ` (...)`}, s.Output),
		"docs/ABI.md:%d shows %q, not the reason %q", s.Line, s.Output, reason)
}

// The SDK's version-2 functions against scripted peers: connect, send
// with a secret the host puts in, recv, close, and lastError's words for
// a refusal.
func TestAssemblyScriptStreams(t *testing.T) {
	wasm := buildASC(t, filepath.Join("testdata", "ping.ts"))
	const addr = "127.0.0.1:6379"
	token := map[string]string{"TOKEN": "s3cret-value"}
	sent := probetest.Expect("AUTH ${secret:TOKEN}\r\nPING\r\n")
	script := func(steps ...probetest.Step) map[string]probetest.Peer {
		return map[string]probetest.Peer{addr: probetest.Script(steps...)}
	}
	opts := probetest.Options{
		Grants: hostfuncs.Grants{Dial: []string{addr}, Secrets: map[string][]string{"TOKEN": {addr}}},
		Config: map[string]string{"addr": addr},
		Cases: []probetest.Case{
			{Name: "pong", Secrets: token, Want: runtime.Available, Peers: script(sent, probetest.Send("+OK\r\n+PONG\r\n"))},
			{Name: "in pieces", Secrets: token, Want: runtime.Available,
				Peers: script(sent, probetest.Send("+OK\r"), probetest.Send("\n+PO"), probetest.Send("NG\r\n"))},
			// The server echoes the secret: the read is withheld whole and
			// the probe, its recv failed, raises.
			{Name: "wrong password", Secrets: token, Want: runtime.Failed,
				Peers: script(sent, probetest.Send("-WRONGPASS ${secret:TOKEN} is not it\r\n+PONG\r\n"))},
			{Name: "refused", Secrets: token, Want: runtime.Unavailable, Peers: map[string]probetest.Peer{addr: probetest.Refuse()}},
			{Name: "hangs", Secrets: token, Want: runtime.Failed, Peers: script(probetest.Hang())},
			{Name: "closes", Secrets: token, Want: runtime.Failed, Peers: script(sent, probetest.Close())},
		},
	}
	probetest.Test(t, wasm, opts)

	// The reasons, as the runs give them: the host's words for a read that
	// held the secret (withheld whole) and for a refusal.
	for _, tc := range []struct {
		name  string
		peers map[string]probetest.Peer
		want  string
	}{
		{"wrong password", script(sent, probetest.Send("-WRONGPASS ${secret:TOKEN} is not it\r\n+PONG\r\n")),
			`secret "TOKEN" came back from 127.0.0.1:6379: what came is withheld whole`},
		{"refused", map[string]probetest.Peer{addr: probetest.Refuse()}, "connection refused"},
	} {
		o := opts
		o.Cases = []probetest.Case{{Name: tc.name, Secrets: token, Peers: tc.peers, Want: runtime.Available}}
		got := probetest.Check(context.Background(), wasm, o)
		require.NotEmpty(t, got, tc.name)
		assert.Contains(t, got[0].Msg, tc.want, tc.name)
	}
}
