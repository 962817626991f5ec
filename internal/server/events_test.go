package server

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/gate-dev/gate/internal/statusview"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flipManifest gates a tool, a server and (through the tool) a skill on
// one loopback listener, with a short TTL so that the refresher notices a
// flip within about 100 ms.
const flipManifest = `
[runtime]
ttl = "100ms"
grace = "0s"

[[tools]]
name = "db_query"
description = "Query the database."
probe = "tcp:%[1]s"

[[tools]]
name = "echo"
description = "Always here."

[[servers]]
name = "mcp:db"
probe = "tcp:%[1]s"

[skills]
paths = ["skills"]
`

const dbSkill = `---
name: db-report
description: Report on the database.
requires_tools: [db_query]
---
`

func flipFixture(t *testing.T, metrics *Metrics, opts Options) (*fixture, net.Listener) {
	t.Helper()
	l := testnet.Listen(t, "tcp", "127.0.0.1:0")
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "skills", "db-report"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "skills", "db-report", "SKILL.md"), []byte(dbSkill), 0o644))
	path := writeManifest(t, dir, fmt.Sprintf(flipManifest, l.Addr()))
	svc := openService(t, path, metrics, serviceConfig(metrics, nil))
	runService(t, svc)
	return serve(t, svc, metrics, opts), l
}

func changeOf(t testing.TB, e sseEvent) runtime.Event {
	t.Helper()
	var ev statusview.Event
	require.NoError(t, json.Unmarshal([]byte(e.Data), &ev), e.Data)
	return ev.Read()
}

func isChange(typ, name string) func(sseEvent) bool {
	return func(e sseEvent) bool {
		if e.Event != "change" {
			return false
		}
		var ev runtime.Event
		return json.Unmarshal([]byte(e.Data), &ev) == nil && ev.Type == typ && ev.Name == name
	}
}

// TestEventsDeliverFlip: a tool whose service goes away is announced on
// the stream within one probe round, with its server and the skill that
// needs it; the tools endpoint agrees.
func TestEventsDeliverFlip(t *testing.T) {
	metrics := NewMetrics()
	f, l := flipFixture(t, metrics, Options{PingInterval: 50 * time.Millisecond})

	c := openEvents(t, f, "")
	hello := c.waitFor(t, 3*time.Second, "hello", isEvent("hello"))
	assert.JSONEq(t, `{"generation": 0}`, hello.Data)
	assert.Contains(t, f.get(t, "/v1/tools").body, `"db_query"`)

	l.Close()
	closed := time.Now()
	// About TTL + one tick; the deadline is generous for a loaded machine.
	e := c.waitFor(t, 3*time.Second, "a change of db_query", isChange("tool", "db_query"))
	t.Logf("the flip arrived %v after the listener closed", time.Since(closed).Round(time.Millisecond))
	ev := changeOf(t, e)
	assert.Equal(t, "unavailable", ev.State)
	assert.False(t, ev.Available)
	assert.Contains(t, ev.Reason, "connection refused")
	assert.NotEmpty(t, e.ID)
	var codes struct {
		Code      string `json:"code"`
		Retryable *bool  `json:"retryable"`
		Action    string `json:"action"`
	}
	require.NoError(t, json.Unmarshal([]byte(e.Data), &codes))
	assert.Equal(t, "refused", codes.Code, "the host saw the dial refused")
	assert.Equal(t, runtime.CodeRefused, ev.Code, "a Go client reads the code back")
	if assert.NotNil(t, codes.Retryable) {
		assert.True(t, *codes.Retryable)
	}
	assert.Equal(t, runtime.CodeRefused.Action(), codes.Action)

	c.waitFor(t, 3*time.Second, "a change of mcp:db", isChange("server", "mcp:db"))
	skill := changeOf(t, c.waitFor(t, 3*time.Second, "a change of the skill db-report", isChange("skill", "db-report")))
	assert.Equal(t, "degraded", skill.State)
	c.waitFor(t, 3*time.Second, "a ping", func(e sseEvent) bool { return e.Comment == ": ping" })

	var tools toolsAnswer
	require.NoError(t, json.Unmarshal([]byte(f.get(t, "/v1/tools").body), &tools))
	assert.GreaterOrEqual(t, tools.Generation, uint64(3))
	for _, tool := range tools.Tools {
		assert.NotEqual(t, "db_query", tool.Name)
	}
	assert.Equal(t, 1.0, value(t, metrics.stateChanges.WithLabelValues("tool")))
	assert.Equal(t, 1.0, value(t, metrics.stateChanges.WithLabelValues("server")))
	assert.Equal(t, 1.0, value(t, metrics.stateChanges.WithLabelValues("skill")))

	// A second stream starts after what the first saw: its hello says so.
	c2 := openEvents(t, f, "")
	var hello2 struct{ Generation uint64 }
	require.NoError(t, json.Unmarshal([]byte(c2.waitFor(t, 3*time.Second, "hello", isEvent("hello")).Data), &hello2))
	assert.GreaterOrEqual(t, hello2.Generation, uint64(3))
}

// TestBrokenReload: a manifest edit with a syntax error is refused and
// reported, and the configuration read before keeps serving; fixing it
// takes effect.
func TestBrokenReload(t *testing.T) {
	metrics := NewMetrics()
	dir := t.TempDir()
	path := writeManifest(t, dir, "[[tools]]\nname = \"alpha\"\n\n[[tools]]\nname = \"beta\"\n")
	svc := openService(t, path, metrics, serviceConfig(metrics, nil))
	runService(t, svc)
	f := serve(t, svc, metrics, Options{})
	c := openEvents(t, f, "")
	c.waitFor(t, 3*time.Second, "hello", isEvent("hello"))
	var before statusAnswer
	require.NoError(t, json.Unmarshal([]byte(f.get(t, "/v1/status").body), &before))

	writeManifest(t, dir, "[[tools]\nname = \"alpha\"\n")
	err := svc.Reload(context.Background())
	require.Error(t, err)

	e := changeOf(t, c.waitFor(t, 3*time.Second, "a reload event", isChange("reload", path)))
	assert.Equal(t, "error", e.State)
	assert.Contains(t, e.Reason, "gate.toml:1:")

	var st statusAnswer
	require.NoError(t, json.Unmarshal([]byte(f.get(t, "/v1/status").body), &st))
	require.NotNil(t, st.Service.ReloadError)
	assert.Contains(t, *st.Service.ReloadError, "gate.toml:1:")
	assert.Equal(t, before.Service.LastReload, st.Service.LastReload, "the last good read is still the one serving")
	assert.Len(t, st.Tools, 2)
	assert.JSONEq(t, `{"tools": [{"name": "alpha", "description": "", "parameters": null}, {"name": "beta", "description": "", "parameters": null}], "generation": 1}`,
		f.get(t, "/v1/tools").body)
	assert.Equal(t, 1.0, value(t, metrics.reloads.WithLabelValues("error")))

	// Fixed: beta goes, gamma comes, and the error is gone.
	writeManifest(t, dir, "[[tools]]\nname = \"alpha\"\n\n[[tools]]\nname = \"gamma\"\n")
	require.NoError(t, svc.Reload(context.Background()))
	removed := changeOf(t, c.waitFor(t, 3*time.Second, "beta removed", isChange("tool", "beta")))
	assert.Equal(t, "removed", removed.State)
	assert.Equal(t, "available", changeOf(t, c.waitFor(t, 3*time.Second, "gamma added", isChange("tool", "gamma"))).State)
	assert.Equal(t, "ok", changeOf(t, c.waitFor(t, 3*time.Second, "the reload event", isChange("reload", path))).State)
	require.NoError(t, json.Unmarshal([]byte(f.get(t, "/v1/status").body), &st))
	assert.Nil(t, st.Service.ReloadError)
	assert.Contains(t, f.get(t, "/v1/tools").body, `"gamma"`)
	assert.Equal(t, 1.0, value(t, metrics.reloads.WithLabelValues("ok")))
}

// TestReadyz: not ready until the first round of probes has answered; a
// request before then still gets an answer.
func TestReadyz(t *testing.T) {
	t.Setenv("GATE_SERVER_TEST_KEY", "k")
	loop, err := filepath.Abs(filepath.Join("..", "..", "runtime", "testdata", "hostile", "loop_probe.wasm"))
	require.NoError(t, err)
	path := writeManifest(t, t.TempDir(), fmt.Sprintf(`
[[tools]]
name = "search_web"
probe = "env:GATE_SERVER_TEST_KEY"

[[tools]]
name = "spin"
probe = { module = %q, budget = "50ms" }
`, loop))
	svc := openService(t, path, nil, serviceConfig(nil, nil))
	f := serve(t, svc, nil, Options{})

	r := f.get(t, "/readyz")
	assert.Equal(t, 503, r.code)
	assert.Equal(t, "not ready: the first round of probes is running\n", r.body)
	assert.Equal(t, 200, f.get(t, "/healthz").code, "alive all the same")
	assert.Contains(t, f.get(t, "/v1/tools").body, `"search_web"`, "a request before the first round is answered")
	assert.Contains(t, f.get(t, "/v1/status").body, `"ready": false`)

	runService(t, svc)
	r = f.get(t, "/readyz")
	assert.Equal(t, 200, r.code)
	assert.Equal(t, "ready\n", r.body)
}

// TestShutdownEndsStreams: closing Options.Done ends every stream, so that
// http.Server.Shutdown can finish.
func TestShutdownEndsStreams(t *testing.T) {
	path := writeManifest(t, t.TempDir(), "[[tools]]\nname = \"alpha\"\n")
	svc := openService(t, path, nil, serviceConfig(nil, nil))
	f := serve(t, svc, nil, Options{})
	c := openEvents(t, f, "")
	c.waitFor(t, 3*time.Second, "hello", isEvent("hello"))
	f.shutdown()
	timeout := time.After(3 * time.Second)
	for {
		select {
		case e, ok := <-c.events:
			if !ok {
				return // ended
			}
			assert.Fail(t, "an event after shutdown", "%+v", e)
		case <-timeout:
			t.Fatal("the stream did not end at shutdown")
		}
	}
}

// TestSlowClient: a client that never reads its stream neither blocks the
// service nor the other clients; it falls behind, its stream overflows and
// the server drops it.
func TestSlowClient(t *testing.T) {
	metrics := NewMetrics()
	dir := t.TempDir()
	// Two manifests of 150 tools with long names: each reload from one to
	// the other publishes 301 events (150 removed, 150 added, the reload).
	manifests := [2]string{}
	for i := range manifests {
		var b strings.Builder
		for n := range 150 {
			fmt.Fprintf(&b, "[[tools]]\nname = \"tool_%d_%03d_%s\"\n\n", i, n, strings.Repeat("x", 50))
		}
		manifests[i] = b.String()
	}
	path := writeManifest(t, dir, manifests[0])
	svc := openService(t, path, metrics, serviceConfig(metrics, nil))
	runService(t, svc)
	f := serve(t, svc, metrics, Options{StreamBuffer: 512, WriteTimeout: 500 * time.Millisecond})

	good := openEvents(t, f, "")
	good.waitFor(t, 3*time.Second, "hello", isEvent("hello"))
	dialSlow(t, f.url)
	deadline := time.Now().Add(3 * time.Second)
	for f.srv.hub.count() < 2 {
		require.True(t, time.Now().Before(deadline), "the slow client did not connect")
		time.Sleep(5 * time.Millisecond)
	}

	reloads := 0
	deadline = time.Now().Add(30 * time.Second)
	for value(t, metrics.overflows) == 0 {
		require.True(t, time.Now().Before(deadline), "the slow stream never overflowed in %d reloads", reloads)
		start := time.Now()
		writeManifest(t, dir, manifests[(reloads+1)%2])
		require.NoError(t, svc.Reload(context.Background()))
		// Not a performance threshold: a reload blocked on a stream would
		// wait for its write timeout, 500 ms, on every event.
		require.Less(t, time.Since(start), 5*time.Second, "a reload took too long: is the service waiting for a client?")
		reloads++
		// The good client keeps up: it receives every event of the burst.
		gen := f.srv.hub.generation()
		good.waitFor(t, 5*time.Second, fmt.Sprintf("event %d", gen), func(e sseEvent) bool { return e.ID == fmt.Sprint(gen) })
	}
	t.Logf("the slow stream overflowed after %d reloads (%d events)", reloads, f.srv.hub.generation())

	// The slow stream's handler gives up at its write timeout and hangs up.
	deadline = time.Now().Add(5 * time.Second)
	for f.srv.hub.count() != 1 || value(t, metrics.streams) != 1 {
		require.True(t, time.Now().Before(deadline), "the slow stream was not dropped: %d streams", f.srv.hub.count())
		time.Sleep(10 * time.Millisecond)
	}

	// The good one is still served.
	writeManifest(t, dir, manifests[reloads%2])
	require.NoError(t, svc.Reload(context.Background()))
	good.waitFor(t, 3*time.Second, "the last reload", isChange("reload", path))
}

// dialSlow opens /v1/events with a tiny receive buffer and never reads.
func dialSlow(t *testing.T, url string) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1024)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	conn, err := d.Dial("tcp", strings.TrimPrefix(url, "http://"))
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	_, err = fmt.Fprintf(conn, "GET /v1/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
	require.NoError(t, err)
	return conn
}

// The gateway's events (its upstreams' states, its breakers) count as
// state changes, by type; a reload is counted by its outcome instead.
func TestMetricsCountGatewayEvents(t *testing.T) {
	metrics := NewMetrics()
	for _, e := range []runtime.Event{
		{Type: "upstream", Name: "web", State: "down"},
		{Type: "breaker", Name: "web", State: "open"},
		{Type: "breaker", Name: "web", State: "closed"},
		{Type: "reload", State: "ok"},
	} {
		metrics.event(e)
	}
	assert.Equal(t, 1.0, value(t, metrics.stateChanges.WithLabelValues("upstream")))
	assert.Equal(t, 2.0, value(t, metrics.stateChanges.WithLabelValues("breaker")))
	assert.Equal(t, 0.0, value(t, metrics.stateChanges.WithLabelValues("reload")))
}
