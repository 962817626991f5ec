package probes

import (
	"context"
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

	mu        sync.Mutex
	reason    string
	reasonSet bool
	logs      []string
	envCaps   []uint32 // buf_cap of every env call
	dialCalls []dialCall
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
	_, err := r.NewHostModuleBuilder("gate").
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
	}).Export("log").
		Instantiate(ctx)
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
