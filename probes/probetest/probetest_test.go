package probetest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/probes"
	"github.com/gate-dev/gate/probes/probetest"
	"github.com/gate-dev/gate/runtime"
)

func standard(t *testing.T, k probes.Kind) []byte {
	b, ok := probes.Wasm(k)
	require.True(t, ok)
	return b
}

func hostile(t *testing.T, name string) []byte {
	b, err := os.ReadFile(filepath.Join("..", "..", "runtime", "testdata", "hostile", name+".wasm"))
	require.NoError(t, err)
	return b
}

// The standard env probe conforms, in the situations it is made for.
func TestStandardEnvProbeConforms(t *testing.T) {
	probetest.Test(t, standard(t, probes.Env), probetest.Options{
		Grants: hostfuncs.Grants{Env: []string{"API_KEY", "OTHER"}},
		Config: map[string]string{"vars": "API_KEY,OTHER"},
		Cases: []probetest.Case{
			{Name: "both set", Env: map[string]string{"API_KEY": "k", "OTHER": "o"}, Want: runtime.Available},
			{Name: "one empty", Env: map[string]string{"API_KEY": "", "OTHER": "o"}, Want: runtime.Unavailable},
			{Name: "none set", Want: runtime.Unavailable},
		},
	})
}

func TestStandardImportProbeConforms(t *testing.T) {
	probetest.Test(t, standard(t, probes.Import), probetest.Options{
		Grants: hostfuncs.Grants{Import: []string{"bin:*"}},
		Cases: []probetest.Case{
			{Name: "sh", Config: map[string]string{"specs": "bin:sh"}, Want: runtime.Available},
			{Name: "missing", Config: map[string]string{"specs": "bin:no-such-binary-xyz"}, Want: runtime.Unavailable},
		},
	})
}

// Check reports every broken rule at once, each naming its case.
func TestCheckReportsEveryViolation(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		wasm   []byte
		opts   probetest.Options
		want   []string // each Violation.Error(), in order
		budget time.Duration
	}{
		{
			name: "wrong outcome, denial and no reason",
			wasm: standard(t, probes.Env),
			opts: probetest.Options{
				Config: map[string]string{"vars": "API_KEY"},
				Cases:  []probetest.Case{{Name: "ungranted", Env: map[string]string{"API_KEY": "k"}, Want: runtime.Available}},
			},
			want: []string{
				`case "ungranted": answers unavailable ("Missing environment variables: API_KEY"), want available`,
				`case "ungranted": env "API_KEY" not granted to probe "probe" (add it to the grants if the probe needs it)`,
			},
		},
		{
			name: "static rules",
			wasm: hostile(t, "unknown_import"),
			want: []string{
				"imports gate.exec, which the probe ABI does not have (it has env, dial, import, config, reason, log, connect, send, recv, close, http, http_status, http_header, http_body, tls, last_error)",
				"imports env.system, which the probe ABI does not have (it has abort)",
				`imports func "libc"."system": probes may import only from "gate", "wasi_snapshot_preview1" and "env"`,
			},
		},
		{
			name: "overrun",
			wasm: hostile(t, "loop_probe"),
			opts: probetest.Options{Budget: 10 * time.Millisecond},
			want: []string{`case "default": probe "probe" ran past its 10ms budget in probe`},
		},
		{
			name: "status",
			wasm: hostile(t, "bad_status"),
			want: []string{`case "default": probe "probe" returned 7 (want 0 available or 1 unavailable)`},
		},
		{
			name: "state kept between runs",
			wasm: hostile(t, "stateful"),
			want: []string{`case "default": answers unavailable ("seen before") on a reused instance but available ("") on a fresh one`},
		},
		{
			name: "not wasm",
			wasm: hostile(t, "notwasm"),
			want: []string{"not a WebAssembly module: wasm: "},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := probetest.Check(ctx, tt.wasm, tt.opts)
			require.Len(t, got, len(tt.want), "%v", got)
			for i, w := range tt.want {
				assert.Contains(t, got[i].Error(), w)
			}
		})
	}
}

// buildC compiles a C probe with the flags gate.h documents.
func buildC(t *testing.T, src string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "probe.wasm")
	cmd := exec.Command("clang", "--target=wasm32", "-mcpu=mvp", "-nostdlib", "-ffreestanding", "-Oz",
		"-I", filepath.Join("..", "include"),
		"-Wl,--no-entry", "-Wl,--export=probe", "-Wl,--strip-all",
		"-Wl,--initial-memory=65536", "-Wl,--max-memory=65536",
		"-Wl,--stack-first", "-Wl,-z,stack-size=8192", "-o", out, src)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "clang (apt-get install clang lld):\n%s", b)
	return must(os.ReadFile(out))
}

// A protocol probe, tested against scripted peers only: every outcome a
// Redis-like PING can give, with a secret the probe sends and never sees.
func TestScriptedPeers(t *testing.T) {
	ping := buildC(t, filepath.Join("testdata", "ping.c"))
	const addr = "127.0.0.1:6379"
	auth := map[string]string{"secret": "TOKEN"}
	token := map[string]string{"TOKEN": "s3cret-value"}
	probetest.Test(t, ping, probetest.Options{
		Grants: hostfuncs.Grants{Dial: []string{addr}, Secrets: map[string][]string{"TOKEN": {addr}}},
		Config: map[string]string{"addr": addr},
		Cases: []probetest.Case{
			{Name: "pong", Want: runtime.Available,
				Peers: map[string]probetest.Peer{addr: probetest.Script(probetest.Expect("PING\r\n"), probetest.Send("+PONG\r\n"))}},
			{Name: "auth, the secret substituted", Config: auth, Secrets: token, Want: runtime.Available,
				Peers: map[string]probetest.Peer{addr: probetest.Script(
					probetest.Expect("AUTH ${secret:TOKEN}\r\nPING\r\n"), probetest.Send("+OK\r\n+PONG\r\n"))}},
			// The peer echoes the secret into the line the probe would
			// make its reason: the host withholds the read whole, and the
			// probe, its recv failed, raises; rule "secret" holds.
			{Name: "auth rejected, the echo withheld", Config: auth, Secrets: token, Want: runtime.Failed,
				Peers: map[string]probetest.Peer{addr: probetest.Script(
					probetest.Expect("AUTH ${secret:TOKEN}\r\n"), probetest.Send("-WRONGPASS ${secret:TOKEN} is not it\r\n"))}},
			{Name: "server error", Want: runtime.Unavailable,
				Peers: map[string]probetest.Peer{addr: probetest.Script(probetest.Expect("PING\r\n"), probetest.Send("-ERR unknown command\r\n"))}},
			{Name: "refused", Want: runtime.Unavailable, Peers: map[string]probetest.Peer{addr: probetest.Refuse()}},
			{Name: "no peer refuses", Want: runtime.Unavailable},
			{Name: "hangs: the probe raises", Want: runtime.Failed, Peers: map[string]probetest.Peer{addr: probetest.Script(probetest.Hang())}},
			{Name: "closes: the probe raises", Want: runtime.Failed,
				Peers: map[string]probetest.Peer{addr: probetest.Script(probetest.Expect("PING\r\n"), probetest.Close())}},
		},
	})
}

// What goes wrong with peers and secrets is reported, each once, naming
// the case, the peer and the step, never a secret's value.
func TestCheckReportsPeerViolations(t *testing.T) {
	ping := buildC(t, filepath.Join("testdata", "ping.c"))
	const addr = "127.0.0.1:6379"
	pong := map[string]probetest.Peer{addr: probetest.Script(probetest.Expect("PING\r\n"), probetest.Send("+PONG\r\n"))}
	for _, tt := range []struct {
		name string
		opts probetest.Options
		want []string
	}{
		{
			name: "the peer expects other bytes",
			opts: probetest.Options{Cases: []probetest.Case{{Name: "hello", Want: runtime.Available,
				Peers: map[string]probetest.Peer{addr: probetest.Script(probetest.Expect("HELLO\r\n"), probetest.Send("+PONG\r\n"))}}}},
			want: []string{
				`case "hello": probe "probe" raised: connection closed before a reply`,
				`case "hello": peer 127.0.0.1:6379: step 1, Expect("HELLO\r\n"): received "PING\r\n"`,
			},
		},
		{
			name: "a secret read as a variable and logged",
			opts: probetest.Options{
				Grants: hostfuncs.Grants{Dial: []string{addr}, Env: []string{"TOKEN"}},
				Cases: []probetest.Case{{Name: "leak", Config: map[string]string{"leak": "1"}, Secrets: map[string]string{"TOKEN": "s3cret-value"},
					Peers: pong, Want: runtime.Available}},
			},
			want: []string{`case "leak": the value of secret TOKEN leaked into the run's logs`},
		},
		{
			// The grant the manifest would need is a destination of the
			// secret: the denial names it, and the peer receives nothing.
			name: "a secret sent where it is not bound",
			opts: probetest.Options{
				Grants: hostfuncs.Grants{Dial: []string{addr}, Secrets: map[string][]string{"TOKEN": {"tls:" + addr, "https://api.example.com/v1/"}}},
				Cases: []probetest.Case{{Name: "elsewhere", Config: map[string]string{"secret": "TOKEN"}, Secrets: map[string]string{"TOKEN": "s3cret-value"},
					Want: runtime.Available, Peers: map[string]probetest.Peer{addr: probetest.Script(
						probetest.Expect("AUTH ${secret:TOKEN}\r\nPING\r\n"), probetest.Send("+OK\r\n+PONG\r\n"))}}},
			},
			want: []string{
				`case "elsewhere": answers unavailable`,
				`case "elsewhere": secret "TOKEN" not granted to probe "probe" for "127.0.0.1:6379" (bind it there if the probe must send it there: secrets = { TOKEN = ["127.0.0.1:6379"] })`,
				`case "elsewhere": peer 127.0.0.1:6379: step 1, Expect("AUTH ${secret:TOKEN}\r\nPING\r\n"): the probe closed the connection without sending anything`,
			},
		},
		{
			name: "want a raise, get an answer",
			opts: probetest.Options{Cases: []probetest.Case{{Name: "raise", Peers: pong, Want: runtime.Failed}}},
			want: []string{`case "raise": answers available (""), want error`},
		},
		{
			name: "a peer key that is no address",
			opts: probetest.Options{Cases: []probetest.Case{{Name: "bad key", Peers: map[string]probetest.Peer{"https://h/v1": probetest.Refuse()}}}},
			want: []string{`case "bad key": peer "https://h/v1": an http(s) peer is an origin`},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Config = map[string]string{"addr": addr}
			if tt.opts.Grants.Dial == nil {
				tt.opts.Grants.Dial = []string{addr}
			}
			got := probetest.Check(context.Background(), ping, tt.opts)
			require.Len(t, got, len(tt.want), "%v", got)
			for i, w := range tt.want {
				assert.Contains(t, got[i].Error(), w)
				assert.NotContains(t, got[i].Error(), "s3cret-value")
			}
		})
	}
}
