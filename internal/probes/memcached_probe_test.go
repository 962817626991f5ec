package probes_test

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/probes"
	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/internal/testsvc"
	"github.com/gate-dev/gate/runtime"
)

// mcSetup is a run against addr ("host:port" or "unix:/path"), granted to
// connect there, as the memcached shorthand grants.
func mcSetup(addr string, config map[string]string) setup {
	cfg := map[string]string{"addr": addr}
	for k, v := range config {
		cfg[k] = v
	}
	return setup{config: cfg, grants: hostfuncs.Grants{Dial: []string{addr}}}
}

// mcVersion asks the memcached server at addr its version directly, as
// the probe's answer must report it, and returns the connection, still
// open (the caller closes it).
func mcVersion(t *testing.T, network, addr string) (string, net.Conn) {
	t.Helper()
	c, err := net.DialTimeout(network, addr, 5*time.Second)
	require.NoError(t, err)
	require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
	_, err = c.Write([]byte("version\r\n"))
	require.NoError(t, err)
	line, err := bufio.NewReader(c).ReadString('\n')
	require.NoError(t, err)
	require.NoError(t, c.SetDeadline(time.Time{}))
	return strings.TrimSuffix(line, "\r\n"), c
}

func TestMemcachedProbeRealServer(t *testing.T) {
	addr, stop := testsvc.Memcached(t)
	line, c := mcVersion(t, "tcp", addr)
	c.Close()
	version, ok := strings.CutPrefix(line, "VERSION ")
	require.True(t, ok, "memcached answered version with %q", line)
	sock := testsvc.MemcachedUnix(t)
	runProbeCases(t, probes.Memcached, []probeCase{
		{"answers", mcSetup(addr, nil), runtime.Available, "memcached " + addr + ": version " + version},
		{"answers on a unix socket", mcSetup("unix:"+sock, nil), runtime.Available,
			"memcached unix:" + sock + ": version " + version},
		{"with a timeout", mcSetup(addr, map[string]string{"timeout_ms": "5000"}), runtime.Available,
			"memcached " + addr + ": version " + version},
	})

	// The manifest's way: the shorthand, its grants and nothing more.
	runReal(t, newEngine(t), runtime.ProbeConfig{}, []realCase{
		{shorthand: "memcached:" + addr, outcome: runtime.Available},
		{shorthand: "memcached:unix:" + sock + " timeout_ms=5000", outcome: runtime.Available},
	})

	// Stopped: the port refuses, an honest "unavailable".
	stop()
	runProbeCases(t, probes.Memcached, []probeCase{
		{"stopped", mcSetup(addr, nil), runtime.Unavailable, "memcached " + addr + ": connection refused"},
	})
}

// TestMemcachedProbeConnectionLimit fills a real server's connections
// (-c): it turns the next one away with "ERROR Too many open
// connections", which the probe raises on, and serves again once one
// closes.
func TestMemcachedProbeConnectionLimit(t *testing.T) {
	// One worker thread, so that the server's own descriptors are few
	// and the limit is reached with a handful of connections.
	addr, _ := testsvc.Memcached(t, "-c", "20", "-t", "1")
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	full := false
	for range 20 {
		line, c := mcVersion(t, "tcp", addr)
		if line == "ERROR Too many open connections" {
			c.Close()
			full = true
			break
		}
		require.True(t, strings.HasPrefix(line, "VERSION "), line)
		held = append(held, c)
	}
	require.True(t, full, "memcached -c 20 took %d connections without turning one away", len(held))
	runProbeCases(t, probes.Memcached, []probeCase{
		{"at its limit", mcSetup(addr, nil), runtime.Failed,
			"memcached " + addr + ": not ready (ERROR Too many open connections)"},
	})

	held[0].Close()
	held = held[1:]
	// The server sees the close in a moment, later on a loaded machine.
	// (runProbe may fail the test, so it runs here, not in Eventually's
	// goroutine.)
	var got outcome
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got = runProbe(t, probes.Memcached, mcSetup(addr, nil)); got.Outcome == runtime.Available {
			break
		}
	}
	assert.Equal(t, runtime.Available.String(), got.Outcome.String(), "after a connection closed: %q", got.Reason)
}

// TestMemcachedProbePeers covers what a real server says only by
// accident, and peers that are not there, break off or never answer. A
// scripted peer answers only once it has read "version\r\n": the probe
// must have sent exactly that.
func TestMemcachedProbePeers(t *testing.T) {
	script := func(reply string) string { return testsvc.Script(t, "version\r\n", []byte(reply)) }
	oom := script("SERVER_ERROR out of memory reading request\r\n")
	oomCapital := script("SERVER_ERROR Out of memory allocating item\r\n")
	tooMany := script("ERROR Too many open connections\r\n")
	tooLarge := script("SERVER_ERROR object too large for cache\r\n")
	bare := script("SERVER_ERROR\r\n")
	unauth := script("CLIENT_ERROR unauthenticated\r\n")
	unknown := script("ERROR\r\n")
	noVersion := script("VERSION \r\n")
	versionWord := script("VERSIONS 1.6\r\n")
	redis := script("-ERR unknown command 'version'\r\n")
	long := script("SERVER_ERROR " + strings.Repeat("x", 5000) + "\r\n")
	refused := testnet.ClosedAddr(t)
	// Hangs up once it has read the request: the probe reads the end of
	// the stream, not a reset.
	hangup := testsvc.Serve(t, func(c net.Conn) { _, _ = c.Read(make([]byte, 64)) })
	// Resets the connection once it has read the request.
	reset := testsvc.Serve(t, func(c net.Conn) {
		_, _ = c.Read(make([]byte, 64))
		_ = c.(*net.TCPConn).SetLinger(0)
	})
	// Answers in pieces, so that the "\r\n" arrives apart.
	trickle := testsvc.Serve(t, func(c net.Conn) {
		_, _ = c.Read(make([]byte, 64))
		if !writePieces(c, []byte("VERSION 1.6.18\r\n"), 3, 9, 15) {
			return
		}
		_, _ = c.Read(make([]byte, 1))
	})
	p := func(addr string) string { return "memcached " + addr + ": " }
	runProbeCases(t, probes.Memcached, []probeCase{
		{"out of memory", mcSetup(oom, nil), runtime.Failed,
			p(oom) + "not ready (SERVER_ERROR out of memory reading request)"},
		{"Out of memory", mcSetup(oomCapital, nil), runtime.Failed,
			p(oomCapital) + "not ready (SERVER_ERROR Out of memory allocating item)"},
		{"too many connections", mcSetup(tooMany, nil), runtime.Failed,
			p(tooMany) + "not ready (ERROR Too many open connections)"},
		{"other server error", mcSetup(tooLarge, nil), runtime.Unavailable,
			p(tooLarge) + "SERVER_ERROR object too large for cache"},
		{"server error without words", mcSetup(bare, nil), runtime.Unavailable, p(bare) + "SERVER_ERROR"},
		{"wants authentication", mcSetup(unauth, nil), runtime.Unavailable, p(unauth) + "CLIENT_ERROR unauthenticated"},
		{"unknown command", mcSetup(unknown, nil), runtime.Unavailable,
			p(unknown) + "unexpected answer to version; is it a memcached server? (ERROR)"},
		{"VERSION without one", mcSetup(noVersion, nil), runtime.Unavailable,
			p(noVersion) + "unexpected answer to version; is it a memcached server? (VERSION )"},
		{"not the word VERSION", mcSetup(versionWord, nil), runtime.Unavailable,
			p(versionWord) + "unexpected answer to version; is it a memcached server? (VERSIONS 1.6)"},
		{"a Redis server", mcSetup(redis, nil), runtime.Unavailable,
			p(redis) + "unexpected answer to version; is it a memcached server? (-ERR unknown command 'version')"},
		{"refused", mcSetup(refused, nil), runtime.Unavailable, p(refused) + "connection refused"},
		{"closed before answering", mcSetup(hangup, nil), runtime.Failed, p(hangup) + "closed the connection before answering"},
		{"answer in pieces", mcSetup(trickle, nil), runtime.Available, p(trickle) + "version 1.6.18"},
		{"addr not set", setup{}, runtime.Failed, `memcached probe: config "addr" is not set`},
		{"bad timeout", mcSetup(refused, map[string]string{"timeout_ms": "soon"}), runtime.Failed,
			`memcached probe: config "timeout_ms" must be a whole number of milliseconds (0 to 2147483647), not "soon"`},
		{"addr too long", setup{config: map[string]string{"addr": "h:" + strings.Repeat("1", 600)}}, runtime.Failed,
			`memcached probe: config "addr" is too long (602 bytes; the limit is 512)`},
	})

	t.Run("reset", func(t *testing.T) {
		got := runProbe(t, probes.Memcached, mcSetup(reset, nil))
		assert.Equal(t, runtime.Failed.String(), got.Outcome.String(), "reason %q", got.Reason)
		assert.True(t, strings.HasPrefix(got.Reason, p(reset)+"connection reset while waiting for an answer ("), got.Reason)
	})
	t.Run("address not granted", func(t *testing.T) {
		s := mcSetup(refused, nil)
		s.grants.Dial = nil
		got := runProbe(t, probes.Memcached, s)
		assert.Equal(t, runtime.Unavailable, got.Outcome)
		// The probe sets no reason: the host's denial is the reason.
		assert.Equal(t, `dial "`+refused+`" not granted to probe "memcached"`, got.Reason)
	})
	t.Run("long line", func(t *testing.T) {
		got := runProbe(t, probes.Memcached, mcSetup(long, nil))
		assert.Equal(t, runtime.Unavailable, got.Outcome)
		assert.True(t, strings.HasPrefix(got.Reason, p(long)+"SERVER_ERROR xxx"), got.Reason)
		assert.True(t, strings.HasSuffix(got.Reason, "..."), got.Reason)
		assert.LessOrEqual(t, len(got.Reason), 1024)
	})
	t.Run("never answers", func(t *testing.T) {
		mute := testsvc.Mute(t)
		requireTimedOut(t, runProbeOnce(t, probes.Memcached, mcSetup(mute, nil)), p(mute))
	})
}

// FuzzMemcachedReply answers the probe's version with arbitrary bytes,
// then ends the connection, or holds it open when hang is set. Whatever
// they are, the probe answers (it never traps or overruns on its own), says
// why when it is not available, and is available only on a "VERSION x"
// line.
func FuzzMemcachedReply(f *testing.F) {
	for _, seed := range []string{"VERSION 1.6.18\r\n", "VERSION 1.6.18", "VERSION \r\n", "VERSION\r\n",
		"SERVER_ERROR out of memory\r\n", "ERROR Too many open connections\r\n", "ERROR\r\n", "\r\n", "\r",
		"CLIENT_ERROR " + strings.Repeat("y", 3000) + "\r\n", "\xff\xfe\r\n", "SERVER_ERROR out of memor\r\n"} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	r := newProbeRunner(f, probes.Memcached, nil)
	f.Cleanup(r.close)
	f.Fuzz(func(t *testing.T, reply []byte, hang bool) {
		addr := scriptReply(t, "version\r\n", reply, hang)
		// A reply without its "\r\n" waits, when the peer holds the
		// connection: not for the whole budget.
		got := r.run(t, mcSetup(addr, map[string]string{"timeout_ms": "20"}))
		requireAnswered(t, got, "memcached "+addr+": ")
		if got.Outcome == runtime.Available {
			r := string(reply)
			assert.True(t, strings.HasPrefix(r, "VERSION ") && !strings.HasPrefix(r[8:], "\r\n"), "available on %q", reply)
			if line, _, ok := strings.Cut(r, "\r\n"); ok && len(line) < 512 && utf8.ValidString(line) {
				assert.Equal(t, "memcached "+addr+": version "+line[8:], got.Reason)
			}
		}
	})
}
