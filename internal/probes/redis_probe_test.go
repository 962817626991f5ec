package probes_test

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/probes"
	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/internal/testsvc"
	"github.com/gate-dev/gate/runtime"
)

// setup is the world of one run of a standard probe.
type setup struct {
	config map[string]string
	grants hostfuncs.Grants
	env    map[string]string // what the engine's environment holds
	roots  *x509.CertPool    // ProbeConfig.TLSRootCAs
}

// outcome is what a run answered. Reason is the probe's own reason, also
// when it raised.
type outcome struct {
	Outcome runtime.Outcome
	Reason  string
	Err     error
}

// runProbe runs the embedded standard probe kind against a peer that
// answers (in time, when the machine is not late): a run that timed out was
// run too late by a loaded machine, not judged by the probe, and is run
// again (five times at most). The peers that never answer are run once,
// with runProbeOnce.
func runProbe(t testing.TB, kind probes.Kind, s setup) outcome {
	t.Helper()
	for attempt := 1; ; attempt++ {
		got := runProbeOnce(t, kind, s)
		late := got.Outcome == runtime.Failed &&
			(errors.Is(got.Err, context.DeadlineExceeded) || strings.Contains(got.Reason, ": timed out "))
		if !late || attempt == 5 {
			return got
		}
		t.Logf("attempt %d: the machine was late (%q, %v); running again", attempt, got.Reason, got.Err)
	}
}

// runProbeOnce runs the embedded standard probe kind once, in an engine of
// its own whose environment is s.env.
func runProbeOnce(t testing.TB, kind probes.Kind, s setup) outcome {
	t.Helper()
	r := newProbeRunner(t, kind, s.env)
	defer r.close()
	return r.run(t, s)
}

// probeRunner runs the embedded standard probe kind as many times as
// asked, in one engine, whose environment is env, that compiled it once.
// The fuzzers use one: an engine and a compilation cost 15 to 35 ms, where
// a run against a peer that answers at once takes under one.
type probeRunner struct {
	kind probes.Kind
	e    *runtime.Engine
	m    *runtime.Module
}

func newProbeRunner(t testing.TB, kind probes.Kind, env map[string]string) *probeRunner {
	t.Helper()
	ctx := context.Background()
	e, err := runtime.NewEngine(ctx, runtime.NewEngineConfig().WithLookupEnv(func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}))
	require.NoError(t, err)
	wasm, ok := probes.Wasm(kind)
	require.True(t, ok)
	m, err := e.Compile(ctx, string(kind)+".wasm", wasm)
	if err != nil {
		_ = e.Close(ctx)
	}
	require.NoError(t, err)
	return &probeRunner{kind: kind, e: e, m: m}
}

func (r *probeRunner) close() { _ = r.e.Close(context.Background()) }

// run runs a probe of r's kind set up by s (s.env aside: the engine's is
// r's), then closes it.
func (r *probeRunner) run(t testing.TB, s setup) outcome {
	t.Helper()
	ctx := context.Background()
	p, err := r.e.NewProbe(ctx, string(r.kind), r.m, runtime.ProbeConfig{Grants: s.grants, Config: s.config, TLSRootCAs: s.roots})
	require.NoError(t, err)
	defer p.Close(ctx)
	res := p.Run(ctx)
	o := outcome{Outcome: res.Outcome, Reason: res.Reason, Err: res.Err}
	var perr *runtime.ProbeError
	if errors.As(res.Err, &perr) && perr.Kind == runtime.KindStatus {
		o.Reason = perr.Reason
	}
	return o
}

// scriptReply is testsvc.Script's peer when hang is set. Otherwise, once it
// has replied, it ends its side of the connection, and reads and drops
// until the client closes it: the probe reads the reply, then the end of
// the stream, at once. A fuzzer gives most replies without the end the
// probe waits for; held open, each would cost the probe's whole timeout.
func scriptReply(t testing.TB, until string, reply []byte, hang bool) string {
	t.Helper()
	if hang {
		return testsvc.Script(t, until, reply)
	}
	return testsvc.Serve(t, func(c net.Conn) {
		var seen []byte
		buf := make([]byte, 4096)
		for !strings.Contains(string(seen), until) {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			seen = append(seen, buf[:n]...)
		}
		if _, err := c.Write(reply); err != nil {
			return
		}
		// Half closed, not closed: a close with the probe's next bytes
		// unread would reset the connection, and the probe might lose the
		// reply.
		_ = c.(*net.TCPConn).CloseWrite()
		_, _ = io.Copy(io.Discard, c)
	})
}

// probeCase is one run and the answer it must give.
type probeCase struct {
	name   string
	setup  setup
	want   runtime.Outcome
	reason string // the exact reason; "" for none (available)
}

func runProbeCases(t *testing.T, kind probes.Kind, cases []probeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := runProbe(t, kind, tc.setup)
			assert.Equal(t, tc.want.String(), got.Outcome.String(), "reason %q, err %v", got.Reason, got.Err)
			assert.Equal(t, tc.reason, got.Reason)
		})
	}
}

// requireTimedOut checks that a run against a peer that never answers
// raised because the wait ended with the budget: the probe says "timed
// out". Should the machine have run the probe so late that the budget
// itself stopped it, that is an overrun and still a raise, and says so.
func requireTimedOut(t *testing.T, got outcome, prefix string) {
	t.Helper()
	require.Equal(t, runtime.Failed.String(), got.Outcome.String(), "reason %q", got.Reason)
	if errors.Is(got.Err, context.DeadlineExceeded) {
		t.Logf("the machine was late: the budget stopped the probe before it could say it timed out: %v", got.Err)
		return
	}
	assert.True(t, strings.HasPrefix(got.Reason, prefix+"timed out "), "reason %q", got.Reason)
}

// redisSetup is a run against addr, granted to connect there and to send
// the secret REDIS_PASSWORD there, as the redis shorthand grants.
func redisSetup(addr string, config map[string]string, env map[string]string) setup {
	cfg := map[string]string{"addr": addr}
	for k, v := range config {
		cfg[k] = v
	}
	dial := strings.TrimPrefix(addr, "tls:")
	return setup{config: cfg, env: env,
		grants: hostfuncs.Grants{Dial: []string{dial}, Secrets: map[string][]string{"REDIS_PASSWORD": {addr}}}}
}

func TestRedisProbeRealServer(t *testing.T) {
	open := testsvc.Redis(t, "")
	// Spaces, double quotes and backslashes: all sent as they are.
	const password = `right "horse" \ battery`
	locked := testsvc.Redis(t, password)
	pw := map[string]string{"password": "REDIS_PASSWORD"}
	right := map[string]string{"REDIS_PASSWORD": password}
	runProbeCases(t, probes.Redis, []probeCase{
		{"no password", redisSetup(open, nil, nil), runtime.Available, ""},
		{"password right", redisSetup(locked, pw, right), runtime.Available, ""},
		{"ACL user and password right",
			redisSetup(locked, map[string]string{"password": "REDIS_PASSWORD", "user": "default"}, right),
			runtime.Available, ""},
		{"password wrong",
			redisSetup(locked, pw, map[string]string{"REDIS_PASSWORD": "wrong"}), runtime.Unavailable,
			"redis " + locked + ": credentials rejected (WRONGPASS invalid username-password pair or user is disabled.)"},
		{"password missing", redisSetup(locked, nil, nil), runtime.Unavailable,
			"redis " + locked + ": authentication required (NOAUTH); set password="},
		{"password where none is set", redisSetup(open, pw, right), runtime.Unavailable,
			"redis " + open + ": credentials rejected (ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?)"},
	})
}

// TestRedisProbePeers covers what a real server says only by accident, and
// peers that are not there or never answer.
func TestRedisProbePeers(t *testing.T) {
	script := func(reply string) string { return testsvc.Script(t, "PING\r\n", []byte(reply)) }
	loading, busy, masterdown, tryagain := script("-LOADING Redis is loading the dataset in memory\r\n"),
		script("-BUSY Redis is busy running a script.\r\n"), script("-MASTERDOWN Link with MASTER is down\r\n"),
		script("-TRYAGAIN Multiple keys request during rehashing of slot\r\n")
	busykey := script("-BUSYKEY Target key name already exists.\r\n")
	unknown := script("-ERR unknown command 'PING'\r\n")
	http := script("HTTP/1.1 400 Bad Request\r\n\r\n")
	long := script("-ERR " + strings.Repeat("x", 5000) + "\r\n")
	refused := testnet.ClosedAddr(t)
	// Hangs up once it has read the request: the probe reads the end of
	// the stream, not a reset.
	hangup := testsvc.Serve(t, func(c net.Conn) { _, _ = c.Read(make([]byte, 64)) })
	// Answers in pieces, so that the "\r\n" and the two replies arrive
	// apart.
	trickle := testsvc.Serve(t, func(c net.Conn) {
		_, _ = c.Read(make([]byte, 256))
		if !writePieces(c, []byte("+OK\r\n+PONG\r\n"), 3, 4, 8, 11) {
			return
		}
		_, _ = c.Read(make([]byte, 1))
	})
	pw := map[string]string{"password": "REDIS_PASSWORD"}
	right := map[string]string{"REDIS_PASSWORD": "right horse"}
	runProbeCases(t, probes.Redis, []probeCase{
		{"LOADING", redisSetup(loading, nil, nil), runtime.Failed,
			"redis " + loading + ": not ready (LOADING Redis is loading the dataset in memory)"},
		{"BUSY", redisSetup(busy, nil, nil), runtime.Failed,
			"redis " + busy + ": not ready (BUSY Redis is busy running a script.)"},
		{"MASTERDOWN", redisSetup(masterdown, nil, nil), runtime.Failed,
			"redis " + masterdown + ": not ready (MASTERDOWN Link with MASTER is down)"},
		{"TRYAGAIN", redisSetup(tryagain, nil, nil), runtime.Failed,
			"redis " + tryagain + ": not ready (TRYAGAIN Multiple keys request during rehashing of slot)"},
		{"BUSYKEY is not BUSY", redisSetup(busykey, nil, nil), runtime.Unavailable,
			"redis " + busykey + ": BUSYKEY Target key name already exists."},
		{"other error", redisSetup(unknown, nil, nil), runtime.Unavailable,
			"redis " + unknown + ": ERR unknown command 'PING'"},
		{"not redis", redisSetup(http, nil, nil), runtime.Unavailable,
			"redis " + http + ": unexpected answer to PING; is it a Redis server? (HTTP/1.1 400 Bad Request)"},
		{"refused", redisSetup(refused, nil, nil), runtime.Unavailable, "redis " + refused + ": connection refused"},
		{"closed before answering", redisSetup(hangup, nil, nil), runtime.Failed,
			"redis " + hangup + ": closed the connection before answering"},
		{"answer in pieces", redisSetup(trickle, pw, right), runtime.Available, ""},
		{"addr not set", setup{}, runtime.Failed, `redis probe: config "addr" is not set`},
		{"user without password", redisSetup(refused, map[string]string{"user": "u"}, nil), runtime.Failed,
			`redis probe: config "user" needs "password" too`},
		{"password not a name", redisSetup(refused, map[string]string{"password": "a b"}, nil), runtime.Failed,
			`redis probe: config "password" must name a secret (an environment variable: letters, digits and _)`},
		{"bad timeout", redisSetup(refused, map[string]string{"timeout_ms": "soon"}, nil), runtime.Failed,
			`redis probe: config "timeout_ms" must be a whole number of milliseconds (0 to 2147483647), not "soon"`},
	})

	t.Run("secret not set", func(t *testing.T) {
		open := testsvc.Script(t, "PING\r\n", []byte("+PONG\r\n"))
		got := runProbe(t, probes.Redis, redisSetup(open, pw, nil))
		assert.Equal(t, runtime.Unavailable, got.Outcome)
		// The host's words name the variable.
		assert.True(t, strings.HasPrefix(got.Reason, "redis "+open+": "), got.Reason)
		assert.Contains(t, got.Reason, "REDIS_PASSWORD")
	})
	t.Run("secret not granted", func(t *testing.T) {
		open := testsvc.Script(t, "PING\r\n", []byte("+PONG\r\n"))
		s := redisSetup(open, pw, right)
		s.grants.Secrets = nil
		got := runProbe(t, probes.Redis, s)
		assert.Equal(t, runtime.Unavailable, got.Outcome)
		// The probe sets no reason: the host's denial is the reason.
		assert.Equal(t, `secret "REDIS_PASSWORD" not granted to probe "redis"`, got.Reason)
	})
	t.Run("secret bound elsewhere", func(t *testing.T) {
		// Granted to dial the peer, but the password only to another
		// address: AUTH is never sent, and the denial says where it would
		// have gone.
		read := make(chan int, 8)
		peer := testsvc.Serve(t, func(c net.Conn) {
			// Until the run's end closes the stream.
			n, _ := io.ReadFull(c, make([]byte, 256))
			read <- n
		})
		s := redisSetup(peer, pw, right)
		s.grants.Secrets = map[string][]string{"REDIS_PASSWORD": {refused}}
		res := runProbe(t, probes.Redis, s)
		assert.Equal(t, runtime.Unavailable, res.Outcome)
		assert.Equal(t, `secret "REDIS_PASSWORD" not granted to probe "redis" for "`+peer+`"`, res.Reason)
		select {
		case n := <-read:
			assert.Zero(t, n, "the peer the secret is not bound to got bytes")
		case <-time.After(10 * time.Second):
			t.Fatal("the run ended but its stream to the peer stayed open")
		}
	})
	t.Run("address not granted", func(t *testing.T) {
		s := redisSetup(refused, nil, nil)
		s.grants.Dial = nil
		got := runProbe(t, probes.Redis, s)
		assert.Equal(t, runtime.Unavailable, got.Outcome)
		assert.Equal(t, `dial "`+refused+`" not granted to probe "redis"`, got.Reason)
	})
	t.Run("long line", func(t *testing.T) {
		got := runProbe(t, probes.Redis, redisSetup(long, nil, nil))
		assert.Equal(t, runtime.Unavailable, got.Outcome)
		assert.True(t, strings.HasPrefix(got.Reason, "redis "+long+": ERR xxx"), got.Reason)
		assert.LessOrEqual(t, len(got.Reason), 1024)
	})
	t.Run("never answers", func(t *testing.T) {
		mute := testsvc.Mute(t)
		requireTimedOut(t, runProbeOnce(t, probes.Redis, redisSetup(mute, nil, nil)), "redis "+mute+": ")
	})
}

// FuzzRedisReply answers the probe's PING with arbitrary bytes, then ends
// the connection, or holds it open when hang is set. Whatever they are,
// the probe answers (it never traps or overruns on its own), says why when
// it is not available, and is available only on "+PONG\r\n".
func FuzzRedisReply(f *testing.F) {
	for _, seed := range []string{"+PONG\r\n", "+PONG", "-NOAUTH Authentication required.\r\n",
		"-LOADING x\r\n", "-BUSY\r\n", "-\r\n", "\r\n", "+PONG\r", "-ERR " + strings.Repeat("y", 3000) + "\r\n",
		"+OK\r\n+PONG\r\n", "\xff\xfe\r\n"} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	r := newProbeRunner(f, probes.Redis, nil)
	f.Cleanup(r.close)
	f.Fuzz(func(t *testing.T, reply []byte, hang bool) {
		addr := scriptReply(t, "PING\r\n", reply, hang)
		// A reply without its "\r\n" waits, when the peer holds the
		// connection: not for the whole budget.
		got := r.run(t, redisSetup(addr, map[string]string{"timeout_ms": "20"}, nil))
		requireAnswered(t, got, "redis "+addr+": ")
		if got.Outcome == runtime.Available {
			assert.True(t, strings.HasPrefix(string(reply), "+PONG\r\n"), "available on %q", reply)
		}
	})
}

// requireAnswered checks a run against a peer that says anything: the
// probe answered by itself (a probe that raised did so on purpose, or the
// machine ran it too late) and gave a reason naming the target when it did
// not say available.
func requireAnswered(t *testing.T, got outcome, prefix string) {
	t.Helper()
	var perr *runtime.ProbeError
	if got.Outcome == runtime.Failed && !errors.Is(got.Err, context.DeadlineExceeded) {
		require.ErrorAs(t, got.Err, &perr)
		require.Equal(t, runtime.KindStatus, perr.Kind, "%v", got.Err)
	}
	if got.Outcome != runtime.Available && !errors.Is(got.Err, context.DeadlineExceeded) {
		assert.True(t, strings.HasPrefix(got.Reason, prefix), "reason %q", got.Reason)
		assert.LessOrEqual(t, len(got.Reason), 1024)
	}
}

// TestRedisProbeTLS speaks to Redis over TLS ("tls:HOST:PORT"), verified
// against the manifest's tls_ca.
func TestRedisProbeTLS(t *testing.T) {
	ca := testsvc.NewCA(t)
	pong := func(c net.Conn) {
		_, _ = c.Read(make([]byte, 256))
		_, _ = c.Write([]byte("+PONG\r\n"))
		_, _ = c.Read(make([]byte, 1))
	}
	addr := "tls:" + testsvc.ServeTLSWith(t, ca.Server(t, 30*testsvc.Day), pong)
	withCA := redisSetup(addr, nil, nil)
	withCA.roots = ca.Pool()
	runProbeCases(t, probes.Redis, []probeCase{{"verified", withCA, runtime.Available, ""}})

	got := runProbe(t, probes.Redis, redisSetup(addr, nil, nil))
	assert.Equal(t, runtime.Unavailable, got.Outcome)
	assert.True(t, strings.HasPrefix(got.Reason, "redis "+addr+": TLS: "), got.Reason)
	assert.Contains(t, got.Reason, "certificate signed by unknown authority")
}
