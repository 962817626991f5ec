package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/golden"
	"github.com/gate-dev/gate/runtime"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/require"
)

// cacheDir is one compilation cache for every test, so that opening a
// service (and every reload) compiles the standard probes once per run.
var cacheDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gate-server-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cacheDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// writeManifest writes body as dir/gate.toml and returns its path.
func writeManifest(t testing.TB, dir, body string) string {
	t.Helper()
	path := filepath.Join(dir, "gate.toml")
	require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
	return path
}

// serviceConfig is what gatectl serve passes: metrics as the registries'
// observer. tune, when not nil, has the last word.
func serviceConfig(metrics *Metrics, tune func(runtime.GateConfig) runtime.GateConfig) runtime.ServiceConfig {
	g := runtime.NewGateConfig().WithEngine(runtime.NewEngineConfig().WithCacheDir(cacheDir))
	if metrics != nil {
		g = g.WithObserver(metrics)
	}
	if tune != nil {
		g = tune(g)
	}
	return runtime.NewServiceConfig().WithGate(g).WithWatchInterval(0).WithRetireDelay(50 * time.Millisecond)
}

// openService opens the manifest at path as gatectl serve would, with
// metrics watching it, and closes it when the test ends.
func openService(t testing.TB, path string, metrics *Metrics, cfg runtime.ServiceConfig) *runtime.Service {
	t.Helper()
	svc, err := runtime.OpenService(context.Background(), path, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { svc.Close(context.Background()) })
	if metrics != nil {
		stop := metrics.Watch(svc)
		t.Cleanup(stop)
	}
	return svc
}

// runService runs svc until the test ends and waits for its first round.
func runService(t testing.TB, svc *runtime.Service) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		_ = svc.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-stopped
	})
	deadline := time.Now().Add(10 * time.Second)
	for !svc.Ready() {
		if time.Now().After(deadline) {
			t.Fatal("the service did not finish its first round of probes in 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// fixture is a real HTTP server on 127.0.0.1 over a service.
type fixture struct {
	svc      *runtime.Service
	srv      *server
	listener *limitListener
	url      string
	client   *http.Client
	shutdown func() // closes Options.Done; idempotent
}

// serve starts the API over svc on a loopback port, as gatectl serve
// does (NewHTTPServer, Listen) with the default limits; the streams end
// and the server closes when the test ends.
func serve(t testing.TB, svc *runtime.Service, metrics *Metrics, opts Options) *fixture {
	t.Helper()
	return serveWith(t, svc, metrics, opts, ServerOptions{})
}

// serveWith is serve with the given limits.
func serveWith(t testing.TB, svc *runtime.Service, metrics *Metrics, opts Options, sopts ServerOptions) *fixture {
	t.Helper()
	done := make(chan struct{})
	opts.Done = done
	h := New(svc, metrics, opts)
	l, err := Listen("tcp", "127.0.0.1:0", sopts)
	require.NoError(t, err)
	ts := &httptest.Server{Listener: l, Config: NewHTTPServer(h, sopts)}
	ts.Start()
	f := &fixture{svc: svc, srv: h.(*server), listener: l.(*limitListener), url: ts.URL, client: ts.Client(), shutdown: sync.OnceFunc(func() { close(done) })}
	t.Cleanup(func() {
		f.shutdown()
		ts.Close()
	})
	return f
}

// response is one answer, read whole.
type response struct {
	code   int
	header http.Header
	body   string
}

// do sends method path with the token (none when empty).
func (f *fixture) do(t testing.TB, method, path, token string) response {
	t.Helper()
	if token != "" {
		token = "Bearer " + token
	}
	return f.doAuth(t, method, path, token)
}

// doAuth sends method path with an Authorization header (none when
// empty).
func (f *fixture) doAuth(t testing.TB, method, path, authorization string) response {
	t.Helper()
	req, err := http.NewRequest(method, f.url+path, nil)
	require.NoError(t, err)
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	return f.send(t, req)
}

// send sends req and reads the whole answer.
func (f *fixture) send(t testing.TB, req *http.Request) response {
	t.Helper()
	resp, err := f.client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{code: resp.StatusCode, header: resp.Header, body: string(body)}
}

func (f *fixture) get(t testing.TB, path string) response {
	t.Helper()
	return f.do(t, http.MethodGet, path, "")
}

// sseEvent is one event of a stream, or one comment (Comment set).
type sseEvent struct {
	ID, Event, Data string
	Comment         string
}

// sseClient follows /v1/events, parsing it as a browser's EventSource
// would, and hands each event to a channel.
type sseClient struct {
	resp    *http.Response
	events  chan sseEvent
	cancel  context.CancelFunc
	pending []sseEvent // read, not yet matched by waitFor
}

func openEvents(t testing.TB, f *fixture, token string) *sseClient {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.url+"/v1/events", nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	// Its own transport: a stream holds its connection for good.
	client := &http.Client{Transport: &http.Transport{}}
	resp, err := client.Do(req)
	if err != nil {
		cancel()
		require.NoError(t, err)
	}
	require.Equal(t, http.StatusOK, resp.StatusCode)
	c := &sseClient{resp: resp, events: make(chan sseEvent, 4096), cancel: cancel}
	go c.read()
	// Not t.Cleanup(c.close): that would keep c, and its buffer, until the
	// test ends, however often the test opens and closes streams.
	body := resp.Body
	t.Cleanup(func() {
		cancel()
		body.Close()
	})
	return c
}

func (c *sseClient) close() {
	c.cancel()
	c.resp.Body.Close()
}

func (c *sseClient) read() {
	defer close(c.events)
	sc := bufio.NewScanner(c.resp.Body)
	var e sseEvent
	var data []string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if e.Event != "" || len(data) > 0 {
				e.Data = strings.Join(data, "\n")
				c.events <- e
			}
			e, data = sseEvent{}, nil
		case strings.HasPrefix(line, ":"):
			c.events <- sseEvent{Comment: line}
		default:
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "id":
				e.ID = value
			case "event":
				e.Event = value
			case "data":
				data = append(data, value)
			}
		}
	}
}

// waitFor returns the first event that match accepts, failing the test
// if none arrives within d or the stream ends first. Events it passes over
// are kept for later calls: events about different things may come in any
// order.
func (c *sseClient) waitFor(t testing.TB, d time.Duration, what string, match func(sseEvent) bool) sseEvent {
	t.Helper()
	for i, e := range c.pending {
		if match(e) {
			c.pending = append(c.pending[:i:i], c.pending[i+1:]...)
			return e
		}
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		select {
		case e, ok := <-c.events:
			if !ok {
				t.Fatalf("the stream ended before %s", what)
			}
			if match(e) {
				return e
			}
			c.pending = append(c.pending, e)
		case <-timer.C:
			t.Fatalf("no %s within %v", what, d)
		}
	}
}

func isEvent(name string) func(sseEvent) bool {
	return func(e sseEvent) bool { return e.Event == name }
}

// assertGolden compares got with testdata/name, or rewrites it with -update.
func assertGolden(t testing.TB, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join(goldenDir, name), []byte(got))
}

// goldenDir is absolute, so tests that change directory still find it.
var goldenDir = func() string {
	d, err := filepath.Abs("testdata")
	if err != nil {
		panic(err)
	}
	return d
}()

var timings = regexp.MustCompile(`"(latency_ms|age_seconds)": [0-9.e+-]+|"(checked_at|last_reload|at)": "[^"]+"`)

// maskTimings replaces what differs from run to run: timings, times and
// the test's temporary directory.
func maskTimings(s, dir string) string {
	s = timings.ReplaceAllStringFunc(s, func(m string) string {
		key, _, _ := strings.Cut(m, ":")
		if strings.HasSuffix(m, `"`) {
			return key + `: "<time>"`
		}
		return key + ": 0"
	})
	if dir != "" {
		s = strings.ReplaceAll(s, dir, "$DIR")
	}
	return s
}

// value reads a counter or gauge (what prometheus/testutil.ToFloat64 does,
// without the dependencies testutil brings).
func value(t testing.TB, c prometheus.Metric) float64 {
	t.Helper()
	var m dto.Metric
	require.NoError(t, c.Write(&m))
	switch {
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	}
	t.Fatalf("not a counter or a gauge: %v", &m)
	return 0
}
