package probes

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// fakeGate is a stand-in for the real "gate" host module, built over maps,
// so these tests check the probes' own logic (what they ask, what they
// answer, which reason they set) without the real engine. Dials that no
// map entry scripts go to the real network, loopback only.
type fakeGate struct {
	env        map[string]string // set variables
	deniedEnv  map[string]bool   // variables the probe may not read
	config     map[string]string // the probe's config
	dial       map[string]int32  // scripted dial results by address
	imports    map[string]int32  // import results by spec; absent: -1
	dialBudget time.Duration     // what timeout_ms <= 0 means; default 100ms

	// ABI v2. http answers each gate.http call (nil: every request is
	// refused); streams scripts gate.connect by address (absent: refused).
	http    func(req httpReq) httpResp
	streams map[string]*fakeStream

	mu        sync.Mutex
	reason    string
	reasonSet bool
	logs      []string
	envCaps   []uint32 // buf_cap of every env call
	dialCalls []dialCall
	httpCalls []httpReq     // every gate.http call, as the probe wrote it
	handles   map[int32]any // open handles: *httpResp or *fakeStream
	nextH     int32         // the last handle given out
	closed    []int32       // handles the probe closed
	lastError string        // what gate.last_error answers; "" means none
}

// httpReq is one gate.http call, parsed as the host would parse it.
type httpReq struct {
	method, url string
	headers     []string // "Name: value" lines, as written
	body        string
	flags       int32
	timeoutMS   int32
}

// header returns the value of the request's header name (the first one),
// or "".
func (r httpReq) header(name string) string {
	for _, h := range r.headers {
		if n, v, ok := strings.Cut(h, ":"); ok && strings.EqualFold(n, name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// httpResp is the fake host's answer to one gate.http call.
type httpResp struct {
	fail    int32             // < 0: gate.http answers this, no response
	lastErr string            // gate.last_error after the call ("" for fail: "failed")
	status  int32             // the response's status
	headers map[string]string // response headers; names matched case-insensitively
	body    string
	tls     *fakeTLS // the facts gate.tls reports; nil: not https
}

// fakeStream scripts one gate.connect address.
type fakeStream struct {
	connect int32    // < 0: gate.connect answers this
	lastErr string   // gate.last_error after a failed connect
	replies []string // what gate.recv returns, one call each (cut to its cap)
	end     int32    // what gate.recv answers after the replies: 0 (closed) or a status
	sendErr int32    // if < 0, gate.send answers it
	tls     *fakeTLS // the facts gate.tls reports; nil: not TLS

	mu   sync.Mutex
	sent []string // what the probe sent, placeholders and all
	next int      // the next reply
}

// fakeTLS is what gate.tls answers for a handle.
type fakeTLS struct {
	verified       int32
	notAfter, left int64
}

// dialCall records one dial: the address and timeout_ms as passed.
type dialCall struct {
	addr      string
	timeoutMS int32
}

type fakeGateKey struct{}

// gateOf returns the fakeGate a probe call runs against (set by run).
func gateOf(ctx context.Context) *fakeGate {
	return ctx.Value(fakeGateKey{}).(*fakeGate)
}

// read returns a copy of the probe's memory [ptr, ptr+n); out of bounds
// panics, which wazero turns into an error for the probe call, as a real
// host would trap.
func read(m api.Module, ptr, n uint32) string {
	b, ok := m.Memory().Read(ptr, n)
	if !ok {
		panic(fmt.Sprintf("fake gate: read [%d, +%d) out of bounds", ptr, n))
	}
	return string(b)
}

// lookupInto implements the env/config copy-out convention: the value's
// full length, with min(len, cap) bytes copied to buf.
func lookupInto(m api.Module, v string, buf, cap uint32) int32 {
	n := min(uint32(len(v)), cap)
	if n > 0 && !m.Memory().Write(buf, []byte(v[:n])) {
		panic(fmt.Sprintf("fake gate: write [%d, +%d) out of bounds", buf, n))
	}
	return int32(len(v))
}

// newFakeHost returns a runtime with WASI and the fake "gate" module; the
// gate functions act on the *fakeGate in the call's context.
func newFakeHost(t testing.TB) wazero.Runtime {
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	t.Cleanup(func() { r.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	b := r.NewHostModuleBuilder("gate").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, name, nameLen, buf, cap uint32) int32 {
		g := gateOf(ctx)
		n := read(m, name, nameLen)
		g.mu.Lock()
		g.envCaps = append(g.envCaps, cap)
		g.mu.Unlock()
		if g.deniedEnv[n] {
			return -2
		}
		v, ok := g.env[n]
		if !ok {
			return -1
		}
		return lookupInto(m, v, buf, cap)
	}).Export("env").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, addr, addrLen uint32, timeoutMS int32) int32 {
		g := gateOf(ctx)
		a := read(m, addr, addrLen)
		g.mu.Lock()
		g.dialCalls = append(g.dialCalls, dialCall{a, timeoutMS})
		g.mu.Unlock()
		if status, ok := g.dial[a]; ok {
			return status
		}
		return g.realDial(a, timeoutMS)
	}).Export("dial").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, spec, specLen uint32) int32 {
		g := gateOf(ctx)
		if status, ok := g.imports[read(m, spec, specLen)]; ok {
			return status
		}
		return -1
	}).Export("import").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, key, keyLen, buf, cap uint32) int32 {
		v, ok := gateOf(ctx).config[read(m, key, keyLen)]
		if !ok {
			return -1
		}
		return lookupInto(m, v, buf, cap)
	}).Export("config").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, msg, msgLen uint32) {
		g := gateOf(ctx)
		s := read(m, msg, msgLen)
		g.mu.Lock()
		defer g.mu.Unlock()
		g.reason, g.reasonSet = s, true
	}).Export("reason").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, level int32, msg, msgLen uint32) {
		g := gateOf(ctx)
		s := read(m, msg, msgLen)
		g.mu.Lock()
		defer g.mu.Unlock()
		g.logs = append(g.logs, fmt.Sprintf("%d %s", level, s))
	}).Export("log")
	addV2(b)
	_, err := b.Instantiate(ctx)
	require.NoError(t, err)
	return r
}

// realDial dials a loopback address for real and maps the outcome to ABI
// statuses; anything but loopback is denied, so no test leaves the host.
func (g *fakeGate) realDial(addr string, timeoutMS int32) int32 {
	timeout := g.dialBudget
	if timeout == 0 {
		timeout = 100 * time.Millisecond
	}
	if timeoutMS > 0 {
		timeout = min(timeout, time.Duration(timeoutMS)*time.Millisecond)
	}
	network := "tcp"
	if p, ok := strings.CutPrefix(addr, "unix:"); ok {
		network, addr = "unix", p
	} else {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return -6
		}
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return -2
		}
	}
	c, err := net.DialTimeout(network, addr, timeout)
	var ne net.Error
	switch {
	case err == nil:
		c.Close()
		return 0
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENOENT):
		return -3
	case errors.As(err, &ne) && ne.Timeout():
		return -4
	default:
		return -5
	}
}

// withGate returns a context whose gate calls act on g.
func withGate(g *fakeGate) context.Context {
	return context.WithValue(context.Background(), fakeGateKey{}, g)
}

// moduleConfig configures an anonymous instance (so that many can exist
// at once) that runs the given start functions, and no others.
func moduleConfig(start ...string) wazero.ModuleConfig {
	return wazero.NewModuleConfig().WithName("").WithStartFunctions(start...)
}

// probeRun is what one probe call did.
type probeRun struct {
	result    int32
	reason    string
	reasonSet bool
	logs      []string
}

// run instantiates a fresh copy of compiled (as gate does for every
// check), calls its "probe" export against g and returns what happened.
// start names the start functions ("_initialize" for a Go reactor).
func run(t testing.TB, r wazero.Runtime, compiled wazero.CompiledModule, g *fakeGate, start ...string) probeRun {
	t.Helper()
	ctx := withGate(g)
	mod, err := r.InstantiateModule(ctx, compiled, moduleConfig(start...))
	require.NoError(t, err)
	defer mod.Close(ctx)
	res, err := mod.ExportedFunction("probe").Call(ctx)
	require.NoError(t, err)
	require.Len(t, res, 1)
	g.mu.Lock()
	defer g.mu.Unlock()
	return probeRun{result: api.DecodeI32(res[0]), reason: g.reason, reasonSet: g.reasonSet, logs: g.logs}
}

// compile compiles the embedded standard probe k in r.
func compile(t testing.TB, r wazero.Runtime, k Kind) wazero.CompiledModule {
	t.Helper()
	wasm, ok := Wasm(k)
	require.True(t, ok, k)
	compiled, err := r.CompileModule(context.Background(), wasm)
	require.NoError(t, err)
	return compiled
}

// fail records why a call failed, for gate.last_error, and returns status.
func (g *fakeGate) fail(status int32, why string) int32 {
	if why == "" {
		why = "failed"
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.lastError = why
	return status
}

// open gives out the next handle for v.
func (g *fakeGate) open(v any) int32 {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.handles == nil {
		g.handles = map[int32]any{}
	}
	g.nextH++
	g.handles[g.nextH] = v
	return g.nextH
}

// handle returns the open handle h, or nil.
func (g *fakeGate) handle(h int32) any {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.handles[h]
}

// parseHTTPRequest reads a gate.http request as docs/ABI.md writes it.
func parseHTTPRequest(text string) (httpReq, bool) {
	head, body, _ := strings.Cut(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n")
	lines := strings.Split(strings.TrimSuffix(head, "\n"), "\n")
	method, url, ok := strings.Cut(lines[0], " ")
	if !ok || method == "" || url == "" || strings.Contains(url, " ") {
		return httpReq{}, false
	}
	req := httpReq{method: method, url: url, body: body}
	for _, l := range lines[1:] {
		if !strings.Contains(l, ":") {
			return httpReq{}, false
		}
		req.headers = append(req.headers, l)
	}
	return req, true
}

// addV2 adds the ABI v2 functions to the fake host module.
func addV2(b wazero.HostModuleBuilder) {
	b.NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, addr, addrLen uint32, flags, timeoutMS int32) int32 {
		g := gateOf(ctx)
		s, ok := g.streams[read(m, addr, addrLen)]
		if !ok {
			return g.fail(-3, "connection refused")
		}
		if s.connect < 0 {
			return g.fail(s.connect, s.lastErr)
		}
		return g.open(s)
	}).Export("connect").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, h int32, buf, n uint32) int32 {
		g := gateOf(ctx)
		s, ok := g.handle(h).(*fakeStream)
		if !ok {
			return g.fail(-10, "bad handle")
		}
		data := read(m, buf, n)
		if s.sendErr < 0 {
			return g.fail(s.sendErr, "send failed")
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.sent = append(s.sent, data)
		return int32(n)
	}).Export("send").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, h int32, buf, cap uint32, timeoutMS int32) int32 {
		g := gateOf(ctx)
		s, ok := g.handle(h).(*fakeStream)
		if !ok {
			return g.fail(-10, "bad handle")
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.next >= len(s.replies) {
			if s.end < 0 {
				return g.fail(s.end, "recv failed")
			}
			return s.end
		}
		r := s.replies[s.next]
		if uint32(len(r)) > cap {
			s.replies[s.next] = r[cap:]
			r = r[:cap]
		} else {
			s.next++
		}
		if !m.Memory().Write(buf, []byte(r)) {
			panic("fake gate: recv out of bounds")
		}
		return int32(len(r))
	}).Export("recv").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, h int32) int32 {
		g := gateOf(ctx)
		g.mu.Lock()
		defer g.mu.Unlock()
		if _, ok := g.handles[h]; !ok {
			return -10
		}
		delete(g.handles, h)
		g.closed = append(g.closed, h)
		return 0
	}).Export("close").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, ptr, n uint32, flags, timeoutMS int32) int32 {
		g := gateOf(ctx)
		req, ok := parseHTTPRequest(read(m, ptr, n))
		if !ok {
			return g.fail(-6, "malformed request")
		}
		req.flags, req.timeoutMS = flags, timeoutMS
		g.mu.Lock()
		g.httpCalls = append(g.httpCalls, req)
		g.mu.Unlock()
		if g.http == nil {
			return g.fail(-3, "connection refused")
		}
		resp := g.http(req)
		if resp.fail < 0 {
			return g.fail(resp.fail, resp.lastErr)
		}
		return g.open(&resp)
	}).Export("http").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, h int32) int32 {
		r, ok := gateOf(ctx).handle(h).(*httpResp)
		if !ok {
			return -10
		}
		return r.status
	}).Export("http_status").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, h int32, name, nameLen, buf, cap uint32) int32 {
		r, ok := gateOf(ctx).handle(h).(*httpResp)
		if !ok {
			return -10
		}
		n := read(m, name, nameLen)
		for k, v := range r.headers {
			if strings.EqualFold(k, n) {
				return lookupInto(m, v, buf, cap)
			}
		}
		return -1
	}).Export("http_header").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, h int32, buf, cap uint32) int32 {
		r, ok := gateOf(ctx).handle(h).(*httpResp)
		if !ok {
			return -10
		}
		return lookupInto(m, r.body, buf, cap)
	}).Export("http_body").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, h int32, out uint32) int32 {
		var t *fakeTLS
		switch v := gateOf(ctx).handle(h).(type) {
		case *fakeStream:
			t = v.tls
		case *httpResp:
			t = v.tls
		default:
			return -10
		}
		if t == nil {
			return -1
		}
		var b [16]byte
		binary.LittleEndian.PutUint64(b[:8], uint64(t.notAfter))
		binary.LittleEndian.PutUint64(b[8:], uint64(t.left))
		if !m.Memory().Write(out, b[:]) {
			panic("fake gate: tls out of bounds")
		}
		return t.verified
	}).Export("tls").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, buf, cap uint32) int32 {
		g := gateOf(ctx)
		g.mu.Lock()
		e := g.lastError
		g.mu.Unlock()
		if e == "" {
			return -1
		}
		return lookupInto(m, e, buf, cap)
	}).Export("last_error")
}
