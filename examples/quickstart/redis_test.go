package quickstart_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/runtime"
)

// redis is a real Redis server on a loopback port, started and stopped by
// the test (Debian's redis-server; .ci/run installs it).
type redis struct {
	t    *testing.T
	port int
	cmd  *exec.Cmd
}

func newRedis(t *testing.T) *redis {
	t.Helper()
	_, err := exec.LookPath("redis-server")
	require.NoError(t, err, "redis-server is needed for this test: apt-get install redis-server")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	r := &redis{t: t, port: port}
	t.Cleanup(r.stop)
	return r
}

func (r *redis) addr() string { return "127.0.0.1:" + strconv.Itoa(r.port) }

// start runs redis-server and waits until it answers PING with PONG.
func (r *redis) start() {
	r.t.Helper()
	r.cmd = exec.Command("redis-server", "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", r.t.TempDir())
	require.NoError(r.t, r.cmd.Start())
	require.Eventually(r.t, r.ping, 5*time.Second, 20*time.Millisecond, "redis did not come up on %s", r.addr())
}

func (r *redis) ping() bool {
	c, err := net.DialTimeout("tcp", r.addr(), 100*time.Millisecond)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && line == "+PONG\r\n"
}

// stop shuts redis down and waits until the port refuses connections.
func (r *redis) stop() {
	if r.cmd == nil || r.cmd.Process == nil {
		return
	}
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	_ = r.cmd.Wait()
	r.cmd = nil
}

// TestRedisGatedTool gates a tool on a real Redis server: available while
// it runs; after it stops, served on its last good answer through the
// grace window (the probe treats a refused connection as transient, so it
// raises), then hidden; available again once Redis is back. The standard
// tcp probe, for comparison, hides the tool as soon as it sees the
// refusal: an honest "unavailable" is final for its TTL.
func TestRedisGatedTool(t *testing.T) {
	rd := newRedis(t)
	rd.start()
	wasm, err := os.ReadFile(filepath.Join("probes", "requires.wasm"))
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "probes"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "probes", "requires.wasm"), wasm, 0o644))
	const ttl, grace = 300 * time.Millisecond, time.Second
	manifest := filepath.Join(dir, "gate.toml")
	require.NoError(t, os.WriteFile(manifest, []byte(fmt.Sprintf(`
[runtime]
ttl = "%v"
grace = "%v"

[[tools]]
name = "cache_data"
description = "Cache data in Redis."
[tools.probe]
module = "probes/requires.wasm"
config = { dial = "%[3]s", transient = "refused", reason_dial = "Redis at %[3]s is not answering" }
grants = { dial = ["%[3]s"] }

[[tools]]
name = "cache_data_strict"
description = "The same, with the standard tcp probe."
probe = "tcp:%[3]s"
`, ttl, grace, rd.addr())), 0o644))

	ctx := context.Background()
	g, err := runtime.Open(ctx, manifest, runtime.NewGateConfig())
	require.NoError(t, err)
	defer g.Close(ctx)
	var mu sync.Mutex
	var changes []string
	defer g.OnChange(func(c runtime.Change) {
		mu.Lock()
		changes = append(changes, fmt.Sprintf("%s available=%v", c.Name, c.Available))
		mu.Unlock()
	})()
	status := func(name string) runtime.Status {
		st, err := g.Tools().Status(ctx, name)
		require.NoError(t, err)
		return st[0]
	}

	// Redis runs: both tools are offered. The success is recorded some
	// time after this clock reading (later still on a loaded machine), so
	// the grace window closes no earlier than lastSuccess + ttl + grace.
	lastSuccess := time.Now()
	require.Equal(t, runtime.StateAvailable, status("cache_data").State)
	require.Equal(t, runtime.StateAvailable, status("cache_data_strict").State)

	// Redis stops. Once the cached answer expires, the strict tool is
	// hidden at once; the other is served last-good until last success +
	// TTL + grace, then hidden.
	rd.stop()
	// The clock must move past both cached answers' TTL: the scenario, not
	// a wait for an event (each tool's answer expires on its own).
	time.Sleep(ttl + 50*time.Millisecond)
	strict := status("cache_data_strict")
	assert.Equal(t, runtime.StateUnavailable, strict.State)
	assert.Equal(t, rd.addr()+": connection refused", strict.Reason)

	st := status("cache_data")
	require.Equal(t, runtime.StateAvailable, st.State)
	require.True(t, st.Graced, "served on its last good answer: %+v", st)
	assert.EqualError(t, st.Err, `probe "cache_data" raised: Redis at `+rd.addr()+` is not answering`)

	var hiddenAt time.Time
	require.Eventually(t, func() bool {
		if status("cache_data").State == runtime.StateError {
			hiddenAt = time.Now()
			return true
		}
		return false
	}, 5*time.Second, 20*time.Millisecond, "the tool must be hidden once the grace window closes")
	assert.GreaterOrEqual(t, hiddenAt.Sub(lastSuccess), ttl+grace, "hidden before the grace window closed")

	// Redis comes back; once the negative answer expires, both tools are
	// offered again.
	rd.start()
	require.Eventually(t, func() bool {
		return status("cache_data").Available() && status("cache_data_strict").Available()
	}, 5*time.Second, 20*time.Millisecond)

	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{
		"cache_data_strict available=false",
		"cache_data available=false",
		"cache_data available=true",
		"cache_data_strict available=true",
	}, sortedByFirstSeen(changes))
}

// sortedByFirstSeen keeps changes in the order they happened but puts the
// two tools' simultaneous recoveries in a fixed order: which of the two
// the last poll reached first is up to the scheduler.
func sortedByFirstSeen(changes []string) []string {
	out := append([]string(nil), changes...)
	if n := len(out); n >= 2 && out[n-2] == "cache_data_strict available=true" && out[n-1] == "cache_data available=true" {
		out[n-2], out[n-1] = out[n-1], out[n-2]
	}
	return out
}
