package host

import (
	"bytes"
	"context"
	"errors"
	"github.com/gate-dev/gate/internal/resolve"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/testnet"
)

// guest is the trampoline module instantiated against the real gate host
// module: each export forwards its arguments to the gate function of the
// same name.
type guest struct {
	mod api.Module
}

func newGuest(t testing.TB) *guest {
	return &guest{mod: instantiateTrampoline(t, importNamed(ModuleName).Instantiate, "trampoline.wasm")}
}

// instantiateTrampoline instantiates a host module (the real one, with
// host) and then the trampoline module testdata/file against it, in a
// runtime of its own.
func instantiateTrampoline(t testing.TB, host func(context.Context, wazero.Runtime) (api.Module, error), file string) api.Module {
	t.Helper()
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	t.Cleanup(func() { r.Close(ctx) })
	_, err := host(ctx, r)
	require.NoError(t, err)
	wasm, err := os.ReadFile(filepath.Join("testdata", file))
	require.NoError(t, err)
	mod, err := r.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().WithName(""))
	require.NoError(t, err)
	return mod
}

func (g *guest) call(c *Call, fn string, args ...uint32) (int32, error) {
	stack := make([]uint64, len(args))
	for i, a := range args {
		stack[i] = api.EncodeU32(a)
	}
	res, err := g.mod.ExportedFunction(fn).Call(WithCall(context.Background(), c), stack...)
	if err != nil || len(res) == 0 {
		return 0, err
	}
	return api.DecodeI32(res[0]), nil
}

// put writes s at ptr and returns (ptr, len).
func (g *guest) put(t testing.TB, ptr uint32, s string) (uint32, uint32) {
	require.True(t, g.mod.Memory().Write(ptr, []byte(s)))
	return ptr, uint32(len(s))
}

func (g *guest) read(ptr, n uint32) string {
	b, _ := g.mod.Memory().Read(ptr, n)
	return string(b)
}

func testCall(t testing.TB, g Grants) *Call {
	p, err := g.Compile()
	require.NoError(t, err)
	return &Call{
		Probe:  "t",
		Policy: p,
		Config: NewConfig(map[string]string{"vars": "A,B", "empty": ""}),
		LookupEnv: func(k string) (string, bool) {
			v, ok := map[string]string{"HOME_X": "/home/x", "EMPTY": ""}[k]
			return v, ok
		},
		Resolvers: resolve.NewResolvers(resolve.Options{}),
		Deadline:  time.Now().Add(time.Second),
		Reserve:   5 * time.Millisecond,
	}
}

func TestEnv(t *testing.T) {
	g := newGuest(t)
	c := testCall(t, Grants{Env: []string{"HOME_X", "EMPTY", "UNSET"}})
	tests := []struct {
		name   string
		cap    uint32
		want   int32
		copied string
	}{
		{"HOME_X", 64, 7, "/home/x"},
		{"HOME_X", 3, 7, "/ho"}, // full length back, what fits copied
		{"HOME_X", 0, 7, ""},
		{"EMPTY", 8, 0, ""},
		{"UNSET", 8, StatusNotFound, ""},
		{"SECRET", 8, StatusDenied, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g.mod.Memory().Write(1024, bytes.Repeat([]byte{'.'}, 64))
			p, n := g.put(t, 0, tt.name)
			got, err := g.call(c, "env", p, n, 1024, tt.cap)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.copied, g.read(1024, uint32(len(tt.copied))))
			assert.Equal(t, ".", g.read(1024+uint32(len(tt.copied)), 1), "wrote past what it reported")
		})
	}
	assert.Equal(t, []string{`env "SECRET" not granted to probe "t"`}, c.Denials())
}

func TestConfigReasonLog(t *testing.T) {
	g := newGuest(t)
	c := testCall(t, Grants{})
	p, n := g.put(t, 0, "vars")
	got, err := g.call(c, "config", p, n, 1024, 16)
	require.NoError(t, err)
	assert.Equal(t, int32(3), got)
	assert.Equal(t, "A,B", g.read(1024, 3))
	p, n = g.put(t, 0, "nope")
	got, _ = g.call(c, "config", p, n, 1024, 16)
	assert.Equal(t, StatusNotFound, got)

	p, n = g.put(t, 0, "first")
	_, err = g.call(c, "reason", p, n)
	require.NoError(t, err)
	p, n = g.put(t, 0, "second\xff")
	_, _ = g.call(c, "reason", p, n)
	reason, set := c.Reason()
	assert.True(t, set)
	assert.Equal(t, "second\uFFFD", reason, "a later reason replaces an earlier one and is made valid UTF-8")

	p, n = g.put(t, 0, "hello")
	for _, level := range []uint32{0, 3, 9, 0xffffffff} {
		_, err = g.call(c, "log", level, p, n)
		require.NoError(t, err)
	}
	assert.Equal(t, []LogEntry{{Level: LevelDebug, Message: "hello"}, {Level: LevelError, Message: "hello"}, {Level: LevelError, Message: "hello"}, {Level: LevelDebug, Message: "hello"}}, c.Logs())
}

func TestDial(t *testing.T) {
	g := newGuest(t)
	open := testnet.Listen(t, "tcp", "127.0.0.1:0")
	closedAddr := testnet.ClosedAddr(t)

	c := testCall(t, Grants{Dial: []string{"127.0.0.1:*", "unix:/nonexistent/*"}})
	tests := []struct {
		addr string
		want int32
	}{
		{open.Addr().String(), StatusOK},
		{closedAddr, StatusRefused},
		{"unix:/nonexistent/sock", StatusRefused},
		{"10.0.0.1:22", StatusDenied},
		{"127.0.0.1:0", StatusBadRequest},
		{"127.0.0.1:99999", StatusBadRequest},
		{"no-port", StatusBadRequest},
		{"unix:", StatusBadRequest},
		{strings.Repeat("a", MaxName+1), StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.addr[:min(len(tt.addr), 40)], func(t *testing.T) {
			p, n := g.put(t, 0, tt.addr)
			got, err := g.call(c, "dial", p, n, 0)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestDialStopsShortOfTheBudget: a dial that would wait forever returns
// "timed out" before the deadline, leaving the probe its reserve to answer.
func TestDialStopsShortOfTheBudget(t *testing.T) {
	g := newGuest(t)
	addr := testnet.BlackHole(t)
	c := testCall(t, Grants{Dial: []string{"127.0.0.1:*"}})
	c.Deadline = time.Now().Add(50 * time.Millisecond)
	p, n := g.put(t, 0, addr)
	got, err := g.call(c, "dial", p, n, 600000)
	require.NoError(t, err)
	assert.Equal(t, StatusTimedOut, got)
	assert.Greater(t, c.Remaining(), time.Duration(0), "the probe still has time to answer")
}

func TestImport(t *testing.T) {
	g := newGuest(t)
	c := testCall(t, Grants{Import: []string{"test:*", "nope:x", "bin:sh"}})
	require.NoError(t, c.Resolvers.Register("test", hostfuncs.ResolverFunc(func(_ context.Context, name string) (bool, error) {
		if name == "broken" {
			return false, errors.New("cluster unreachable")
		}
		return name == "yes", nil
	})))
	assertImports(t, g, c, []importCase{
		{"test:yes", StatusOK},
		{"test:no", StatusNotFound},
		{"test:broken", StatusNotFound},
		{"nope:x", StatusBadRequest},
		{"bin:sh", StatusOK},
		{"bin:ls", StatusDenied},
	})
	assert.Equal(t, []string{"test:broken: cluster unreachable"}, c.Notes())
}

// TestBadPointersTrap: a range outside the probe's memory stops the call
// with a *MemoryError naming the function, never a host panic or a read
// outside the probe.
func TestBadPointersTrap(t *testing.T) {
	g := newGuest(t)
	c := testCall(t, Grants{Env: []string{"*"}})
	tests := []struct {
		fn   string
		args []uint32
		want string
	}{
		{"env", []uint32{65530, 16, 0, 0}, "gate.env: name (ptr=0xfffa, len=16) is outside the probe's memory of 65536 bytes"},
		{"env", []uint32{0, 4, 65000, 1000}, "gate.env: buf (ptr=0xfde8, len=1000) is outside the probe's memory of 65536 bytes"},
		{"env", []uint32{0xffffffff, 0xffffffff, 0, 0}, "gate.env: name (ptr=0xffffffff, len=4294967295)"},
		{"config", []uint32{0, 70000, 0, 0}, "gate.config: key"},
		{"dial", []uint32{65536, 1, 0}, "gate.dial: addr"},
		{"import", []uint32{1 << 31, 1}, "gate.import: spec"},
		{"reason", []uint32{0, 1 << 20}, "gate.reason: text"},
		{"log", []uint32{0, 0, 1 << 20}, "gate.log: message"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := g.call(c, tt.fn, tt.args...)
			var me *MemoryError
			require.ErrorAs(t, err, &me)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestChecksDeadlineAfterCall: a host call that returns after the deadline
// stops the guest with an *Interrupt that is a DeadlineExceeded.
func TestChecksDeadlineAfterCall(t *testing.T) {
	g := newGuest(t)
	c := testCall(t, Grants{})
	c.Deadline = time.Now().Add(-time.Millisecond)
	p, n := g.put(t, 0, "vars")
	_, err := g.call(c, "config", p, n, 0, 0)
	var intr *Interrupt
	require.ErrorAs(t, err, &intr)
	assert.True(t, intr.Budget)
	assert.Equal(t, "gate.config", intr.Where)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

// TestTrampolinesAreFresh rebuilds each trampoline from its .wat and fails
// when the committed .wasm differs, so the sources stay the truth.
func TestTrampolinesAreFresh(t *testing.T) {
	_, err := exec.LookPath("wat2wasm")
	require.NoError(t, err, "wat2wasm is needed: apt-get install wabt")
	for _, name := range []string{"trampoline", "wasi_trampoline"} {
		out := filepath.Join(t.TempDir(), name+".wasm")
		require.NoError(t, exec.Command("wat2wasm", filepath.Join("testdata", name+".wat"), "-o", out).Run())
		built, _ := os.ReadFile(out)
		committed, _ := os.ReadFile(filepath.Join("testdata", name+".wasm"))
		assert.Equal(t, built, committed, "testdata/%s.wasm is stale: wat2wasm testdata/%[1]s.wat -o testdata/%[1]s.wasm", name)
	}
}

// importCase is a spec for gate.import and the status it must answer.
type importCase struct {
	spec string
	want int32
}

// assertImports asks gate.import for each spec through the trampoline, in
// order (denials are recorded in it), and checks its status.
func assertImports(t *testing.T, g *guest, c *Call, tests []importCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			p, n := g.put(t, 0, tt.spec)
			got, err := g.call(c, "import", p, n)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
