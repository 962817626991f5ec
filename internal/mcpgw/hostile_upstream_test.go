package mcpgw_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/gate-dev/gate/internal/mcptest"
	gate "github.com/gate-dev/gate/runtime"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The upstreams here misbehave on purpose; each test checks that the one
// that does is failed with a reason that says what it did, that gate does
// not hold what it sent, and that the others are served meanwhile.

// hostileServer is the manifest entry of a hostile stdio upstream (see
// mcptest.RunHostile), prefixed with its name.
func hostileServer(t *testing.T, name, mode string, env ...string) string {
	extra := ""
	for i := 0; i+1 < len(env); i += 2 {
		extra += fmt.Sprintf(", %s = %q", env[i], env[i+1])
	}
	return fmt.Sprintf("[[servers]]\nname = %q\nprefix = \"%s_\"\ncommand = [%q]\nenv = { %s = %q%s }\n\n",
		name, name, exe(t), mcptest.HostileEnv, mode, extra)
}

// httpServer is the manifest entry of an HTTP upstream, prefixed with its
// name.
func httpServer(name, url string) string {
	return fmt.Sprintf("[[servers]]\nname = %q\nprefix = \"%s_\"\nurl = %q\n\n", name, name, url)
}

// serveHTTP serves h on loopback until the test ends, and returns its URL.
func serveHTTP(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv.URL
}

// sdkHandler is mcptest.Server over streamable HTTP.
func sdkHandler(stateless bool) http.Handler {
	s := mcptest.Server()
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: stateless})
}

// waitDown waits until server has been down with a reason that has want,
// and returns the reason.
func waitDown(t *testing.T, h *harness, server, want string) string {
	t.Helper()
	var e gate.Event
	if !assert.Eventually(t, func() bool {
		var ok bool
		e, ok = h.states.find(server, mcpgw.StateDown, want)
		return ok
	}, waitFor, 5*time.Millisecond) {
		t.Fatalf("server %s was never down with %q; it was %q", server, want, h.states.of(server))
	}
	return e.Reason
}

// echoes checks that the tool answers, the sign that its upstream is
// served whatever the others do.
func echoes(t *testing.T, c *client, tool string) {
	t.Helper()
	res, err := c.call(t, tool, map[string]any{"text": "still here"})
	require.NoError(t, err)
	assert.Equal(t, "echo: still here", textOf(res))
}

// endlessAnswer answers the first tools/call with a body, JSON or an event
// stream, that goes on past any cap (up to limit bytes, so that a gate
// that reads it all still ends), counting what it wrote. done is closed
// once it has stopped writing: gate closed the connection, or it wrote
// limit bytes.
type endlessAnswer struct {
	sse   bool
	limit int64
	wrote atomic.Int64
	done  chan struct{}
	once  sync.Once
	next  http.Handler
}

func (e *endlessAnswer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if mcptest.RPCMethod(r) != "tools/call" {
		e.next.ServeHTTP(w, r)
		return
	}
	defer e.once.Do(func() { close(e.done) })
	head := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`
	if e.sse {
		w.Header().Set("Content-Type", "text/event-stream")
		head = "data: " + head
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, head)
	chunk := []byte(strings.Repeat("x", 64<<10))
	for e.wrote.Load() < e.limit {
		n, err := w.Write(chunk)
		e.wrote.Add(int64(n))
		if err != nil {
			return
		}
	}
}

// Every read from an upstream is capped before it is buffered, whatever
// its transport: an answer that never ends fails the call and the
// session, the upstream is down with a reason that names the cap, gate
// stopped reading it near the cap, and the other upstream is served.
func TestEndlessMessagesAreCapped(t *testing.T) {
	const limit = 96 << 20 // what a gate without a cap reads, and fails on
	for _, tc := range []struct{ name, transport string }{
		{"a JSON body", "json"},
		{"an event-stream line", "sse"},
		{"a stdio line", "stdio"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e *endlessAnswer
			manifest := hostileServer(t, "other", "plain")
			if tc.transport == "stdio" {
				manifest += hostileServer(t, "big", "endless-line")
			} else {
				e = &endlessAnswer{sse: tc.transport == "sse", limit: limit, done: make(chan struct{}), next: sdkHandler(false)}
				manifest += httpServer("big", serveHTTP(t, e))
			}
			h := start(t, manifest, fastConfig().WithMaxMessageBytes(1<<20))
			c := h.client()
			c.WaitTools(t, "big_echo", "big_wait", "other_echo", "other_wait")

			_, err := c.call(t, "big_echo", map[string]any{"text": "x"})
			require.Error(t, err, "a call answered with more than the cap")
			why := waitDown(t, h, "big", "over gate's cap of 1048576 bytes")
			t.Logf("down: %s", why)
			if e != nil {
				select {
				case <-e.done:
				case <-time.After(waitFor):
					t.Fatal("gate never closed the connection of the answer it would not read")
				}
				// Loopback's socket buffers hold some MiB beyond what
				// gate read; a gate without the cap reads it all.
				t.Logf("the upstream wrote %d bytes before gate closed the connection", e.wrote.Load())
				assert.Less(t, e.wrote.Load(), int64(limit/2), "gate read %d bytes of an answer capped at 1 MiB", e.wrote.Load())
			}
			echoes(t, c, "other_echo")
		})
	}
}

// deafOverHTTP is an HTTP upstream that, once it has answered its first
// tools/list, sends ping requests without end on its event stream and
// takes none of gate's answers (each POST of one waits until gate gives
// up on it).
type deafOverHTTP struct {
	next   http.Handler
	listed chan struct{}
	once   sync.Once
	// answers counts gate's answers being sent now; most is the most at
	// once.
	answers, most atomic.Int64
}

func (d *deafOverHTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method := mcptest.RPCMethod(r)
	switch {
	case r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		rc := http.NewResponseController(w)
		_ = rc.Flush()
		select {
		case <-d.listed:
		case <-r.Context().Done():
			return
		}
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":\"flood-%d\",\"method\":\"ping\"}\n\n", i); err != nil {
				return
			}
			if rc.Flush() != nil {
				return
			}
		}
	case r.Method == http.MethodPost && method == "": // an answer of gate's
		n := d.answers.Add(1)
		defer d.answers.Add(-1)
		for m := d.most.Load(); n > m && !d.most.CompareAndSwap(m, n); m = d.most.Load() {
		}
		<-r.Context().Done()
	default:
		d.next.ServeHTTP(w, r)
		if method == "tools/list" {
			d.once.Do(func() { close(d.listed) })
		}
	}
}

// An upstream that sends request after request and takes none of the
// answers is failed at the write timeout, over stdio and over HTTP;
// meanwhile gate holds no more of its requests than the cap (no
// goroutine per request without bound), and the other upstream is
// served.
func TestUpstreamThatStopsReadingIsFailed(t *testing.T) {
	for _, tc := range []struct{ transport, want string }{
		{"stdio", "it read nothing of its stdin for 300ms (the write timeout)"},
		{"http", "it did not take an answer to its request within 300ms (the write timeout)"},
	} {
		t.Run(tc.transport, func(t *testing.T) {
			before := runtime.NumGoroutine()
			var peak atomic.Int64
			stopWatch := make(chan struct{})
			var watched sync.WaitGroup
			watched.Add(1)
			go func() {
				defer watched.Done()
				for {
					if n := int64(runtime.NumGoroutine()); n > peak.Load() {
						peak.Store(n)
					}
					select {
					case <-stopWatch:
						return
					case <-time.After(time.Millisecond):
					}
				}
			}()
			manifest := hostileServer(t, "deaf", "deaf")
			deaf := &deafOverHTTP{next: sdkHandler(false), listed: make(chan struct{})}
			if tc.transport == "http" {
				manifest = httpServer("deaf", serveHTTP(t, deaf))
			}
			h := start(t, manifest+hostileServer(t, "other", "plain"),
				fastConfig().WithUpstreamWriteTimeout(300*time.Millisecond).WithMaxPending(64))
			c := h.client()
			t.Logf("down: %s", waitDown(t, h, "deaf", tc.want))
			c.WaitTools(t, "other_echo", "other_wait")
			echoes(t, c, "other_echo")
			close(stopWatch)
			watched.Wait()
			t.Logf("goroutines: %d before, %d at the peak", before, peak.Load())
			// A few hundred: the gateway's own, the cap's, and the SDK's
			// per session. A gate that takes every request reaches tens of
			// thousands.
			assert.Less(t, peak.Load()-int64(before), int64(1000), "goroutines: %d before, %d at the peak", before, peak.Load())
			if tc.transport == "http" {
				// The cap: an event stream is given out no further than
				// the event that fills it (one read brings hundreds of
				// small events; unguarded, each read's worth was let
				// through, up to 3,400 goroutines). The upstream learns
				// that gate gave up on an answer (its request closed)
				// a moment after gate has, and gate may post the next
				// meanwhile: on a loaded machine the upstream counted 65
				// once. So it may count a few that gate has let go.
				assert.LessOrEqual(t, deaf.most.Load(), int64(64+64/8), "answers to the upstream's requests at once")
			}
		})
	}
}

// hangAfterList wraps an HTTP upstream: once it has answered its first
// tools/list, it answers nothing more (each request waits until the
// client gives up). It records the protocol version gate spoke.
type hangAfterList struct {
	next    http.Handler
	listed  atomic.Bool
	version atomic.Value // string
	pings   atomic.Int64
}

func (h *hangAfterList) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method := mcptest.RPCMethod(r)
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" {
		h.version.Store(v)
	}
	if method == "ping" {
		h.pings.Add(1)
	}
	if h.listed.Load() {
		<-r.Context().Done()
		return
	}
	h.next.ServeHTTP(w, r)
	if method == "tools/list" {
		h.listed.Store(true)
	}
}

// countPings wraps an HTTP upstream and counts the pings it is sent.
type countPings struct {
	next  http.Handler
	pings atomic.Int64
}

func (c *countPings) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if mcptest.RPCMethod(r) == "ping" {
		c.pings.Add(1)
	}
	c.next.ServeHTTP(w, r)
}

// An upstream that answers the handshake, then hangs, is found by the
// keepalive whatever protocol version it speaks (the 2026-07-28 one has
// no ping; the SDK pings only older sessions), and one that is alive
// stays ready through many pings.
func TestKeepAliveFindsAHungUpstream(t *testing.T) {
	// The SDK's HTTP server speaks 2026-07-28 only when stateless.
	hung := &hangAfterList{next: sdkHandler(true)}
	alive := &countPings{next: sdkHandler(true)}
	older := &countPings{next: sdkHandler(false)}
	h := start(t, hostileServer(t, "stdio", "hang-after-list")+httpServer("web", serveHTTP(t, hung))+
		httpServer("alive", serveHTTP(t, alive))+httpServer("older", serveHTTP(t, older)),
		fastConfig().WithKeepAlive(100*time.Millisecond))
	for _, server := range []string{"stdio", "web"} {
		why := waitDown(t, h, server, "no answer to a ping within 100ms")
		t.Logf("%s down: %s", server, why)
	}
	assert.Equal(t, "2026-07-28", hung.version.Load(), "the protocol gate spoke to the hung upstream")
	require.Eventually(t, func() bool { return alive.pings.Load() >= 10 && older.pings.Load() >= 10 }, waitFor, 10*time.Millisecond)
	for _, u := range h.gw.Upstreams() {
		if u.Server == "alive" || u.Server == "older" {
			assert.Equal(t, mcpgw.StateReady, u.State, "an upstream that answers pings: %s", u.Error)
			assert.Equal(t, uint64(1), u.Listings, "it was never reconnected")
		}
	}
}

// blockedLog is a log nobody reads: every write waits until release.
type blockedLog struct {
	released chan struct{}
	mu       sync.Mutex
	buf      bytes.Buffer
}

func (l *blockedLog) Write(p []byte) (int, error) {
	<-l.released
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *blockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// A stdio upstream that writes much on stderr is served while gate's own
// log is not drained: its stderr is read all the same, what the log
// cannot take is dropped and counted, and the count is logged once the
// log takes lines again.
func TestUpstreamStderrWhileTheLogIsBlocked(t *testing.T) {
	log := &blockedLog{released: make(chan struct{})}
	h := start(t, hostileServer(t, "chatty", "chatty"), fastConfig().WithLog(log))
	c := h.client()
	c.WaitTools(t, "chatty_echo", "chatty_wait")
	echoes(t, c, "chatty_echo")
	close(log.released)
	require.Eventually(t, func() bool { return strings.Contains(log.String(), "line(s) not logged: the log was not keeping up") },
		waitFor, 10*time.Millisecond, "log:\n%.2000s", log.String())
	assert.Contains(t, log.String(), "gate mcp: upstream chatty: chatter chatter")
}

// An upstream runs in a process group of its own, which gate ends as a
// whole: a child it started (that holds its stdout and stderr, and
// ignores SIGTERM) ends with it when it is restarted, and when the
// gateway stops; neither waits on the pipes the child holds.
func TestUpstreamChildrenEndWithIt(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "orphan.pid")
	server := func(generation string) string {
		return hostileServer(t, "forker", "forker", mcptest.PIDFileEnv, pidFile, "GENERATION", generation)
	}
	h := start(t, server("1"), fastConfig().WithStopGrace(200*time.Millisecond))
	c := h.client()
	c.WaitTools(t, "forker_echo", "forker_wait")
	first := mcptest.ReadPID(t, pidFile, 0)
	require.False(t, mcptest.ProcessGone(first), "the upstream's child (pid %d) is not running", first)

	h.rewrite(server("2")) // another environment: the upstream is restarted
	second := mcptest.ReadPID(t, pidFile, first)
	c.WaitTools(t, "forker_echo", "forker_wait")
	echoes(t, c, "forker_echo")
	require.Eventually(t, func() bool { return mcptest.ProcessGone(first) }, waitFor, 10*time.Millisecond,
		"the first upstream's child (pid %d) outlived its restart", first)

	h.stop()
	require.Eventually(t, func() bool { return mcptest.ProcessGone(second) }, waitFor, 10*time.Millisecond,
		"the upstream's child (pid %d) outlived the gateway", second)
}

// A failed connect says what happened, not only that initialize was not
// answered.
func TestConnectFailuresSayWhatHappened(t *testing.T) {
	refused, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closedURL := "http://" + refused.Addr().String() + "/mcp"
	require.NoError(t, refused.Close())
	status := func(code int) string {
		return serveHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", code) }))
	}
	for _, tc := range []struct{ name, manifest, want string }{
		{"missing", "[[servers]]\nname = \"missing\"\ncommand = [\"gate-test-no-such-command\"]\n", `the command "gate-test-no-such-command" is not found on gate's PATH`},
		{"exits", hostileServer(t, "exits", "exit"), "the command exited with status 3 before answering initialize; its last line on stderr: boom: cannot open the database"},
		{"refused", httpServer("refused", closedURL), "nothing accepts connections at " + closedURL + " (connection refused)"},
		{"unauthorized", httpServer("unauthorized", status(http.StatusUnauthorized)), `with HTTP 401 Unauthorized`},
		{"notfound", httpServer("notfound", status(http.StatusNotFound)), `with HTTP 404 Not Found`},
		{"mute", "[[servers]]\nname = \"mute\"\n" + stdioCommand("hang", ""), "no answer to initialize within 300ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Only the mute server is to be timed out: the others fail at
			// once, however long a loaded machine takes to start them.
			timeout := 300 * time.Millisecond
			if tc.name != "mute" {
				timeout = time.Minute
			}
			h := start(t, tc.manifest, fastConfig().WithConnectTimeout(timeout))
			t.Logf("down: %s", waitDown(t, h, tc.name, tc.want))
		})
	}
}

// On shutdown (the end of Run's context, here) every forwarded call in
// flight, on a stdio upstream as on an HTTP one, is answered at once with
// an error that says gate is shutting down, the upstream's calls are
// cancelled, and Run returns.
func TestShutdownAnswersCallsOnEveryUpstream(t *testing.T) {
	web := &mcptest.CallsInFlight{Next: sdkHandler(false)}
	h := start(t, httpServer("web", serveHTTP(t, web))+hostileServer(t, "local", "plain"), fastConfig())
	c := h.client()
	c.WaitTools(t, "local_echo", "local_wait", "web_echo", "web_wait")
	const calls = 20
	errs := c.StartCalls(calls, "web_wait", "local_wait")
	require.Eventually(t, func() bool { return web.N() == calls/2 }, waitFor, 10*time.Millisecond)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		h.stop()
	}()
	for range calls {
		select {
		case err := <-errs:
			var je *jsonrpc.Error
			require.ErrorAs(t, err, &je)
			assert.Contains(t, je.Message, "gate is shutting down")
		case <-time.After(waitFor):
			t.Fatal("a call in flight was not answered on shutdown")
		}
	}
	select {
	case <-stopped:
	case <-time.After(waitFor):
		t.Fatal("the gateway's Run did not return")
	}
	require.Eventually(t, func() bool { return web.N() == 0 }, waitFor, 10*time.Millisecond, "the upstream's calls were never cancelled")
}

// stallAnswers wraps an HTTP upstream: its answer to a tools/call of
// "wait" is a JSON body of nearly size bytes that never ends (until gate
// closes it); every other request goes to next. It counts the answers it
// has begun.
type stallAnswers struct {
	next  http.Handler
	size  int
	begun atomic.Int64
}

func (s *stallAnswers) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if mcptest.RPCMethod(r) != "tools/call" || toolCalled(r) != "wait" {
		s.next.ServeHTTP(w, r)
		return
	}
	s.begun.Add(1)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`)
	chunk := strings.Repeat("x", 16<<10)
	for range s.size/len(chunk) - 1 {
		if _, err := io.WriteString(w, chunk); err != nil {
			return
		}
	}
	_ = http.NewResponseController(w).Flush()
	<-r.Context().Done()
}

// toolCalled is the tool a tools/call request to an HTTP upstream calls;
// the body is put back for the next handler.
func toolCalled(r *http.Request) string {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var m struct{ Params struct{ Name string } }
	_ = json.Unmarshal(body, &m)
	return m.Params.Name
}

// sdkServer serves s over streamable HTTP.
func sdkServer(s *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
}

// heapPeak samples the heap in use until stop is closed, and returns the
// most it saw.
func heapPeak(stop <-chan struct{}) func() uint64 {
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() uint64 { <-done; return peak.Load() }
}

// An HTTP upstream that sends each answer nearly whole, then stalls it,
// makes gate hold no more of them together than four messages at the
// cap: past that, gate reads no further but the oldest, until answers
// end. Its small answers are still read meanwhile, and the other
// upstreams are served. An honest upstream's many large answers at once
// all arrive. (On main each call held its answer: 40 calls of 4 MiB took
// 280 MiB.)
func TestUnfinishedAnswersAreBounded(t *testing.T) {
	const msgCap = 1 << 20
	stall := &stallAnswers{next: sdkHandler(false), size: msgCap - 64<<10}
	// Its 60 calls that time out in a row would open web's breaker, and
	// hide web_echo, which the test calls after them: the breaker is off.
	// The honest server's large answers are not to be timed out by the
	// machine's load: its own call_timeout is long.
	honest := strings.TrimSuffix(httpServer("honest", serveHTTP(t, sdkServer(newUpstreamServer("")))), "\n") + "call_timeout = \"2m\"\n\n"
	h := start(t, httpServer("web", serveHTTP(t, stall))+honest+hostileServer(t, "other", "plain"),
		fastConfig().WithMaxMessageBytes(msgCap).WithCallTimeout(10*time.Second).WithMaxSessionRequests(100).WithBreaker(0, 0, 0))
	c := h.client()
	c.WaitTools(t, append(append(prefixed("honest_", upstreamTools...), "other_echo", "other_wait"), "web_echo", "web_wait")...)

	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.HeapInuse
	stop := make(chan struct{})
	peak := heapPeak(stop)
	const calls = 60
	errs := c.StartCalls(calls, "web_wait")
	require.Eventually(t, func() bool { return stall.begun.Load() == calls }, waitFor, 10*time.Millisecond, "answers begun: %d", &stall.begun)
	// The answers come as fast as gate takes them: a second is plenty. A
	// loaded machine only makes them press less, never fails the bound.
	time.Sleep(time.Second)
	echoes(t, c, "web_echo")
	echoes(t, c, "other_echo")
	close(stop)
	grew := int64(peak()) - int64(before)
	t.Logf("heap in use grew by %d KiB with %d answers of %d KiB stalled", grew>>10, calls, stall.size>>10)
	// Four messages at the cap, each held about twice on its way (the
	// read-ahead, the SDK's buffer), and the first 64 KiB of each other
	// message: about 16 MiB. Without the bound it is 100 MiB.
	assert.Less(t, grew, int64(40<<20), "heap in use grew by %d KiB", grew>>10)
	// The stalled calls end at their timeout, each alone.
	for range calls {
		select {
		case err := <-errs:
			require.Error(t, err)
			assert.Contains(t, err.Error(), "did not answer the call of web_wait within")
		case <-time.After(2 * waitFor):
			t.Fatal("a stalled call did not end at its timeout")
		}
	}
	echoes(t, c, "web_echo")

	// An honest upstream's large answers, many at once (more than the
	// bound together), all arrive: each in its own time, which under the
	// race detector on a loaded machine may be longer than one wait.
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 4*waitFor)
			defer cancel()
			res, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "honest_big", Arguments: map[string]any{"bytes": 500 << 10}})
			if assert.NoError(t, err) {
				assert.Len(t, textOf(res), 500<<10)
			}
		})
	}
	wg.Wait()
	for _, u := range h.gw.Upstreams() {
		assert.Equal(t, mcpgw.StateReady, u.State, "%s: %s", u.Server, u.Error)
		assert.Equal(t, uint64(1), u.Listings, "%s was reconnected", u.Server)
	}
}

// newMetaServer is an upstream whose tool "meta" sends "steps" progress
// notifications, each with 1 MiB of _meta, then answers.
func newMetaServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "meta", Version: "1"}, nil)
	pad := strings.Repeat("m", 1<<20)
	type metaArgs struct {
		Steps int `json:"steps"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "meta"}, func(ctx context.Context, req *mcp.CallToolRequest, in metaArgs) (*mcp.CallToolResult, any, error) {
		tok := req.Params.GetProgressToken()
		for i := 1; i <= in.Steps; i++ {
			if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{Meta: mcp.Meta{"pad": pad}, ProgressToken: tok, Progress: float64(i), Message: "step"}); err != nil {
				return nil, nil, err
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	return s
}

// A client is told of an upstream's progress its step, total and message
// (cleaned, capped), not the upstream's _meta, which has no bound. On
// main it was passed on: 300 notifications with 1 MiB of it each, to a
// session that read nothing, made gate hold 580 MiB, waiting in the
// session's queue.
func TestProgressMetaIsNotPassedOn(t *testing.T) {
	url, _ := httpUpstream(t, newMetaServer())
	h := start(t, httpServer("up", url), fastConfig())
	c := h.client()
	c.WaitTools(t, "up_meta")

	params := &mcp.CallToolParams{Name: "up_meta", Arguments: map[string]any{"steps": 3}}
	params.SetProgressToken("honest")
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	res, err := c.Session.CallTool(ctx, params)
	require.NoError(t, err)
	assert.Equal(t, "done", textOf(res))
	for range 3 {
		select {
		case p := <-c.Progress:
			assert.Zero(t, len(p.Meta), "the upstream's _meta reached the client")
			assert.Equal(t, "step", p.Message)
		case <-time.After(waitFor):
			t.Fatal("no progress")
		}
	}
}

// dripAnswer wraps an HTTP upstream: it answers a tools/call of "echo"
// with a JSON body written a byte every 10 ms (a second in all), and
// counts the answers it has begun.
type dripAnswer struct {
	next  http.Handler
	begun atomic.Int64
}

func (d *dripAnswer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if mcptest.RPCMethod(r) != "tools/call" || toolCalled(r) != "echo" {
		d.next.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m struct{ ID json.RawMessage }
	_ = json.Unmarshal(body, &m)
	d.begun.Add(1)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	answer := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"content":[{"type":"text","text":"dripped"}]}}`
	rc := http.NewResponseController(w)
	for i := range answer {
		if _, err := io.WriteString(w, answer[i:i+1]); err != nil || rc.Flush() != nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A call that ends while its upstream's JSON answer is coming (a client
// cancels it, or it times out) ends alone: the upstream's session, and
// another client's call on it, go on. On main the SDK's reading of that
// answer failed, which broke the session's connection: the other call got
// no answer, and the upstream's next call found it closed.
func TestACallEndingMidAnswerEndsAlone(t *testing.T) {
	d := &dripAnswer{next: sdkHandler(false)}
	h := start(t, httpServer("web", serveHTTP(t, d)), fastConfig())
	a, b := h.client(), h.client()
	a.WaitTools(t, "web_echo", "web_wait")
	errs := b.StartCalls(1, "web_wait")
	require.Eventually(t, func() bool { return h.gw.InFlight() == 1 }, waitFor, 5*time.Millisecond)

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for d.begun.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond) // into the answer
		cancel()
	}()
	_, err := a.Session.CallTool(ctx, &mcp.CallToolParams{Name: "web_echo"})
	require.ErrorIs(t, err, context.Canceled)

	// The other call is still in flight, and the session serves calls.
	select {
	case err := <-errs:
		t.Fatalf("another client's call ended with the cancelled one: %v", err)
	case <-time.After(500 * time.Millisecond):
	}
	res, err := b.call(t, "web_echo", nil)
	require.NoError(t, err)
	assert.Equal(t, "dripped", textOf(res))
	ups := h.gw.Upstreams()
	require.Len(t, ups, 1)
	assert.Equal(t, mcpgw.StateReady, ups[0].State, ups[0].Error)
	assert.Equal(t, uint64(1), ups[0].Listings, "the session was not replaced")
	h.gw.CloseSessions()
	select {
	case err := <-errs:
		assert.ErrorContains(t, err, "gate is shutting down")
	case <-time.After(waitFor):
		t.Fatal("the other call was never answered")
	}
}

// errThenHang wraps an HTTP upstream: once it has listed its tools, it
// drops the connection of the first ping without an answer (a reset, as
// a proxy restarting would), and after that hangs on every request.
type errThenHang struct {
	next   http.Handler
	listed atomic.Bool
	pings  atomic.Int64
}

func (h *errThenHang) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method := mcptest.RPCMethod(r)
	if h.listed.Load() {
		if method == "ping" && h.pings.Add(1) == 1 {
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		if method != "" {
			<-r.Context().Done()
			return
		}
	}
	h.next.ServeHTTP(w, r)
	if method == "tools/list" {
		h.listed.Store(true)
	}
}

// An upstream whose ping fails at the transport (a dropped connection),
// without the session ending, is still pinged: when it then hangs, the keepalive
// finds it, as it finds any hung upstream.
func TestKeepAliveGoesOnAfterAFailedPing(t *testing.T) {
	flaky := &errThenHang{next: sdkHandler(false)}
	h := start(t, httpServer("flaky", serveHTTP(t, flaky)), fastConfig().WithKeepAlive(100*time.Millisecond))
	why := waitDown(t, h, "flaky", "no answer to a ping within 100ms")
	t.Logf("flaky down: %s", why)
	assert.GreaterOrEqual(t, flaky.pings.Load(), int64(2), "pinged again after the failed ping")
}

// A call that reaches gate once shutdown has begun is answered that gate
// is shutting down, even for a tool that is not offered (one hidden as
// its upstream is being closed comes this way), not that it is
// unavailable.
func TestCallAfterShutdownSaysSo(t *testing.T) {
	h := start(t, hostileServer(t, "local", "plain"), fastConfig())
	c := h.client()
	c.WaitTools(t, "local_echo", "local_wait")
	h.gw.Shutdown()
	for _, name := range []string{"local_echo", "not_offered"} {
		_, err := c.call(t, name, nil)
		var je *jsonrpc.Error
		require.ErrorAs(t, err, &je, name)
		assert.Contains(t, je.Message, "gate is shutting down", name)
	}
}
