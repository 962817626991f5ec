package host

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// TestWASIMatchesWazero: gate's WASI has exactly the functions of wazero's,
// with the same names, signatures and parameter names, so that every module
// that linked against wazero's still links, and wasm stack traces read the
// same.
func TestWASIMatchesWazero(t *testing.T) {
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer r.Close(ctx)
	theirs, err := wasi_snapshot_preview1.NewBuilder(r).Compile(ctx)
	require.NoError(t, err)
	ours, err := importNamed(WASIModuleName).builder(r).Compile(ctx)
	require.NoError(t, err)

	type sig struct {
		Params, Results         []api.ValueType
		ParamNames, ResultNames []string
	}
	defs := func(cm wazero.CompiledModule) map[string]sig {
		out := map[string]sig{}
		for name, d := range cm.ExportedFunctions() {
			out[name] = sig{d.ParamTypes(), d.ResultTypes(), d.ParamNames(), d.ResultNames()}
		}
		return out
	}
	want, got := defs(theirs), defs(ours)
	require.Len(t, want, 46, "wazero's WASI changed size: review gate's table")
	var names []string
	for name := range want {
		names = append(names, name)
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		assert.Equal(t, want[name], got[name], "wasi_snapshot_preview1.%s", name)
	}

	for _, f := range WASIFuncs {
		assert.NotEmpty(t, f.Doc, f.Name)
		lf, ok := importNamed(WASIModuleName).Lookup(f.Name)
		assert.True(t, ok && lf.Name == f.Name, f.Name)
	}
	_, ok := importNamed(WASIModuleName).Lookup("sock_open")
	assert.False(t, ok)
}

// wasiGuest is the WASI trampoline instantiated against gate's WASI: each
// export forwards its arguments to the WASI function of the same name.
type wasiGuest struct {
	mod api.Module
}

const guestMemory = 4 << 16 // the trampoline's 4 pages

func newWASIGuest(t testing.TB) *wasiGuest {
	return &wasiGuest{mod: instantiateTrampoline(t, importNamed(WASIModuleName).Instantiate, "wasi_trampoline.wasm")}
}

// call calls fn with args (i64 parameters take the whole value) and
// returns its errno.
func (g *wasiGuest) call(c *Call, fn string, args ...uint64) (errno, error) {
	return g.callCtx(context.Background(), c, fn, args...)
}

func (g *wasiGuest) callCtx(ctx context.Context, c *Call, fn string, args ...uint64) (errno, error) {
	res, err := g.mod.ExportedFunction(fn).Call(WithCall(ctx, c), args...)
	if err != nil || len(res) == 0 {
		return 0, err
	}
	return errno(res[0]), nil
}

func (g *wasiGuest) mem() api.Memory { return g.mod.Memory() }

func (g *wasiGuest) bytes(t testing.TB, ptr, n uint32) []byte {
	t.Helper()
	b, ok := g.mem().Read(ptr, n)
	require.True(t, ok)
	return bytes.Clone(b)
}

func (g *wasiGuest) u32(t testing.TB, ptr uint32) uint32 {
	t.Helper()
	v, ok := g.mem().ReadUint32Le(ptr)
	require.True(t, ok)
	return v
}

func (g *wasiGuest) u64(t testing.TB, ptr uint32) uint64 {
	t.Helper()
	v, ok := g.mem().ReadUint64Le(ptr)
	require.True(t, ok)
	return v
}

// fill sets [ptr, ptr+n) to b, so a test can see what the host wrote.
func (g *wasiGuest) fill(t testing.TB, ptr, n uint32, b byte) {
	t.Helper()
	require.True(t, g.mem().Write(ptr, bytes.Repeat([]byte{b}, int(n))))
}

// iovecs writes an iovec array at ptr.
func (g *wasiGuest) iovecs(t testing.TB, ptr uint32, vecs ...[2]uint32) {
	t.Helper()
	b := make([]byte, 0, 8*len(vecs))
	for _, v := range vecs {
		b = binary.LittleEndian.AppendUint32(b, v[0])
		b = binary.LittleEndian.AppendUint32(b, v[1])
	}
	require.True(t, g.mem().Write(ptr, b))
}

func wasiCallState(t testing.TB) *Call {
	return testCall(t, Grants{})
}

// badPtr is a pointer whose 4 bytes cross the end of the memory.
const badPtr = guestMemory - 2

func TestWASIArgsAndEnviron(t *testing.T) {
	g := newWASIGuest(t)
	c := wasiCallState(t)
	for _, fn := range []string{"args_sizes_get", "environ_sizes_get"} {
		g.fill(t, 0, 8, 0xff)
		e, err := g.call(c, fn, 0, 4)
		require.NoError(t, err)
		assert.Equal(t, errnoSuccess, e, fn)
		assert.Equal(t, make([]byte, 8), g.bytes(t, 0, 8), "%s: no entries of no bytes", fn)
		for _, args := range [][]uint64{{badPtr, 0}, {0, badPtr}, {0xffffffff, 0}} {
			e, err = g.call(c, fn, args...)
			require.NoError(t, err)
			assert.Equal(t, errnoFault, e, "%s%v", fn, args)
		}
	}
	for _, fn := range []string{"args_get", "environ_get"} {
		g.fill(t, 0, 16, 0xff)
		e, err := g.call(c, fn, 0, 8)
		require.NoError(t, err)
		assert.Equal(t, errnoSuccess, e, fn)
		assert.Equal(t, bytes.Repeat([]byte{0xff}, 16), g.bytes(t, 0, 16), "%s wrote with nothing to write", fn)
	}
}

func TestWASIClocks(t *testing.T) {
	g := newWASIGuest(t)
	c := wasiCallState(t)

	e, err := g.call(c, "clock_time_get", clockRealtime, 0, 0)
	require.NoError(t, err)
	require.Equal(t, errnoSuccess, e)
	assert.WithinDuration(t, time.Now(), time.Unix(0, int64(g.u64(t, 0))), time.Minute, "realtime is the host's")

	_, err = g.call(c, "clock_time_get", clockMonotonic, 0, 0)
	require.NoError(t, err)
	first := g.u64(t, 0)
	time.Sleep(time.Millisecond) // the clock must move: not a wait for an event
	_, err = g.call(c, "clock_time_get", clockMonotonic, 1000, 8)
	require.NoError(t, err)
	assert.NotZero(t, first, "Go's runtime throws on a zero monotonic clock")
	assert.GreaterOrEqual(t, g.u64(t, 8)-first, uint64(time.Millisecond), "monotonic time passes")

	for _, id := range []uint64{clockRealtime, clockMonotonic} {
		g.fill(t, 16, 8, 0xff)
		e, err = g.call(c, "clock_res_get", id, 16)
		require.NoError(t, err)
		assert.Equal(t, errnoSuccess, e)
		assert.Equal(t, uint64(1), g.u64(t, 16))
	}

	tests := []struct {
		fn   string
		args []uint64
		want errno
	}{
		{"clock_time_get", []uint64{2, 0, 0}, errnoInval}, // process CPU time: dropped from WASI
		{"clock_time_get", []uint64{0xffffffff, 0, 0}, errnoInval},
		{"clock_time_get", []uint64{clockRealtime, 0, guestMemory - 4}, errnoFault},
		{"clock_res_get", []uint64{3, 0}, errnoInval},
		{"clock_res_get", []uint64{clockMonotonic, 0xffffffff}, errnoFault},
	}
	for _, tt := range tests {
		e, err := g.call(c, tt.fn, tt.args...)
		require.NoError(t, err)
		assert.Equal(t, tt.want, e, "%s%v", tt.fn, tt.args)
	}
}

func TestWASIRandomGet(t *testing.T) {
	g := newWASIGuest(t)
	c := wasiCallState(t)
	g.fill(t, 0, guestMemory, 0)
	e, err := g.call(c, "random_get", 1000, 3*wasiChunkBytes+5)
	require.NoError(t, err)
	require.Equal(t, errnoSuccess, e)
	all := g.bytes(t, 0, guestMemory)
	assert.Equal(t, make([]byte, 1000), all[:1000], "wrote before the buffer")
	end := 1000 + 3*wasiChunkBytes + 5
	assert.Equal(t, make([]byte, guestMemory-end), all[end:], "wrote after the buffer")
	for i := 1000; i < end; i += wasiChunkBytes {
		assert.NotEqual(t, make([]byte, 5), all[i:i+5], "chunk at %d not filled", i)
	}
	assert.NotEqual(t, make([]byte, 5), all[end-5:end], "the tail was not filled")

	for _, args := range [][]uint64{{guestMemory - 10, 11}, {0, guestMemory + 1}, {0xffffffff, 0xffffffff}} {
		e, err = g.call(c, "random_get", args...)
		require.NoError(t, err)
		assert.Equal(t, errnoFault, e, "random_get%v", args)
	}
	e, err = g.call(c, "random_get", 0xffffffff, 0)
	require.NoError(t, err)
	assert.Equal(t, errnoSuccess, e, "an empty buffer is valid anywhere")
}

// TestWASIChecksBetweenChunks: work that depends on a guest-given size
// stops at the first check past the deadline, one chunk in, instead of
// finishing the call.
func TestWASIChecksBetweenChunks(t *testing.T) {
	g := newWASIGuest(t)
	expired := func() (*Call, *bytes.Buffer) {
		c := wasiCallState(t)
		c.Deadline = time.Now().Add(-time.Millisecond)
		var out bytes.Buffer
		c.Output = &out
		return c, &out
	}

	c, _ := expired()
	g.fill(t, 0, guestMemory, 0)
	_, err := g.call(c, "random_get", 0, guestMemory)
	assertInterrupted(t, err, "wasi.random_get", true)
	filled := g.bytes(t, 0, guestMemory)
	assert.NotEqual(t, make([]byte, 16), filled[wasiChunkBytes-16:wasiChunkBytes], "the first chunk is done")
	assert.Equal(t, make([]byte, guestMemory-wasiChunkBytes), filled[wasiChunkBytes:], "nothing after the first chunk")

	c, out := expired()
	g.iovecs(t, 0, [2]uint32{0, wasiChunkBytes}, [2]uint32{0, wasiChunkBytes}, [2]uint32{0, wasiChunkBytes})
	_, err = g.call(c, "fd_write", 1, 0, 3, 64)
	assertInterrupted(t, err, "wasi.fd_write", true)
	assert.Equal(t, wasiChunkBytes, out.Len(), "one chunk of bytes is written")

	c, out = expired()
	vecs := make([][2]uint32, 3*wasiChunkIOVs)
	for i := range vecs {
		vecs[i] = [2]uint32{uint32(i), 1}
	}
	g.iovecs(t, 4096, vecs...)
	_, err = g.call(c, "fd_write", 2, 4096, uint64(len(vecs)), 64)
	assertInterrupted(t, err, "wasi.fd_write", true)
	assert.Equal(t, wasiChunkIOVs, out.Len(), "one chunk of iovecs is written")
}

func assertInterrupted(t *testing.T, err error, where string, budget bool) {
	t.Helper()
	var intr *Interrupt
	require.ErrorAs(t, err, &intr)
	assert.Equal(t, where, intr.Where)
	assert.Equal(t, budget, intr.Budget)
	if budget {
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	}
}

func TestWASIFdWrite(t *testing.T) {
	g := newWASIGuest(t)
	c := wasiCallState(t)
	var out bytes.Buffer
	c.Output = &out
	require.True(t, g.mem().Write(1000, []byte("hello, world\n")))

	g.iovecs(t, 0, [2]uint32{1000, 7}, [2]uint32{0xffffffff, 0}, [2]uint32{1007, 6})
	for _, fd := range []uint64{1, 2} {
		out.Reset()
		g.fill(t, 64, 4, 0xff)
		e, err := g.call(c, "fd_write", fd, 0, 3, 64)
		require.NoError(t, err)
		assert.Equal(t, errnoSuccess, e)
		assert.Equal(t, "hello, world\n", out.String(), "fd %d, and an empty iovec is valid anywhere", fd)
		assert.Equal(t, uint32(13), g.u32(t, 64))
	}

	c.Output = nil
	e, err := g.call(c, "fd_write", 1, 0, 3, 64)
	require.NoError(t, err)
	assert.Equal(t, errnoSuccess, e, "a nil Output discards")
	assert.Equal(t, uint32(13), g.u32(t, 64))
	c.Output = &out

	out.Reset()
	g.iovecs(t, 128, [2]uint32{1000, 5}, [2]uint32{guestMemory - 4, 5})
	tests := []struct {
		name string
		args []uint64
		want errno
	}{
		{"stdin", []uint64{0, 0, 1, 64}, errnoBadf},
		{"fd 3", []uint64{3, 0, 1, 64}, errnoBadf},
		{"fd -1", []uint64{0xffffffff, 0, 1, 64}, errnoBadf},
		{"over IOV_MAX", []uint64{1, 0, WASIMaxIOVecs + 1, 64}, errnoInval},
		{"4M iovecs", []uint64{1, 0, 4 << 20, 64}, errnoInval},
		{"array outside", []uint64{1, guestMemory - 8, 2, 64}, errnoFault},
		{"result outside", []uint64{1, 0, 1, badPtr}, errnoFault},
		{"second buffer outside", []uint64{1, 128, 2, 64}, errnoFault},
	}
	for _, tt := range tests {
		e, err := g.call(c, "fd_write", tt.args...)
		require.NoError(t, err)
		assert.Equal(t, tt.want, e, tt.name)
	}
	assert.Empty(t, out.String(), "a refused write writes nothing")
}

// TestWASIFdWriteOver2GiB: a total that does not fit a 32-bit ssize_t is
// EINVAL, as for writev(2), and is computed without overflow.
func TestWASIFdWriteOver2GiB(t *testing.T) {
	g := newWASIGuest(t)
	c := wasiCallState(t)
	_, ok := g.mem().Grow(33 - guestMemory>>16) // 33 pages: each iovec can be 2 MiB + 1
	require.True(t, ok)
	vecs := make([][2]uint32, WASIMaxIOVecs)
	for i := range vecs {
		vecs[i] = [2]uint32{0, 2<<20 + 1}
	}
	g.iovecs(t, 0, vecs...)
	var out bytes.Buffer
	c.Output = &out
	// The budget is not what is tested: setting up 66 MiB of iovecs can
	// take a loaded machine past testCall's.
	c.Deadline = time.Now().Add(time.Minute)
	e, err := g.call(c, "fd_write", 1, 0, WASIMaxIOVecs, 1<<20)
	require.NoError(t, err)
	assert.Equal(t, errnoInval, e)
	assert.Zero(t, out.Len())
}

func TestWASIFdRead(t *testing.T) {
	g := newWASIGuest(t)
	c := wasiCallState(t)
	g.iovecs(t, 0, [2]uint32{100, 10})
	g.fill(t, 64, 4, 0xff)
	g.fill(t, 100, 10, 'x')
	e, err := g.call(c, "fd_read", 0, 0, 1, 64)
	require.NoError(t, err)
	assert.Equal(t, errnoSuccess, e)
	assert.Equal(t, uint32(0), g.u32(t, 64), "stdin is at end of file")
	assert.Equal(t, bytes.Repeat([]byte("x"), 10), g.bytes(t, 100, 10))

	tests := []struct {
		name string
		args []uint64
		want errno
	}{
		{"stdout", []uint64{1, 0, 1, 64}, errnoBadf},
		{"fd 9", []uint64{9, 0, 1, 64}, errnoBadf},
		{"over IOV_MAX", []uint64{0, 0, WASIMaxIOVecs + 1, 64}, errnoInval},
		{"array outside", []uint64{0, guestMemory - 4, 1, 64}, errnoFault},
		{"result outside", []uint64{0, 0, 1, badPtr}, errnoFault},
	}
	for _, tt := range tests {
		e, err := g.call(c, "fd_read", tt.args...)
		require.NoError(t, err)
		assert.Equal(t, tt.want, e, tt.name)
	}
}

// TestWASIStdio: what Go's runtime and os package ask about fds 0-2 at
// start, and wasi-libc's isatty: character devices that cannot seek.
func TestWASIStdio(t *testing.T) {
	g := newWASIGuest(t)
	c := wasiCallState(t)
	for fd := range uint64(3) {
		g.fill(t, 0, 64, 0xff)
		e, err := g.call(c, "fd_fdstat_get", fd, 0)
		require.NoError(t, err)
		require.Equal(t, errnoSuccess, e)
		st := g.bytes(t, 0, 24)
		assert.Equal(t, byte(filetypeCharacterDevice), st[0], "fd %d", fd)
		assert.Equal(t, uint16(0), binary.LittleEndian.Uint16(st[2:]), "fd %d: blocking", fd)
		rights := binary.LittleEndian.Uint64(st[8:])
		assert.Zero(t, rights&(1<<2|1<<5), "fd %d: no seek or tell right (isatty)", fd)
		assert.Equal(t, fd == 0, rights&rightFdRead != 0, "fd %d", fd)
		assert.Equal(t, fd != 0, rights&rightFdWrite != 0, "fd %d", fd)
		assert.Zero(t, binary.LittleEndian.Uint64(st[16:]))

		g.fill(t, 0, 64, 0xff)
		e, err = g.call(c, "fd_filestat_get", fd, 0)
		require.NoError(t, err)
		require.Equal(t, errnoSuccess, e)
		want := make([]byte, 64)
		want[16], want[24] = filetypeCharacterDevice, 1
		assert.Equal(t, want, g.bytes(t, 0, 64), "fd %d", fd)
	}

	tests := []struct {
		fn   string
		args []uint64
		want errno
	}{
		{"fd_fdstat_get", []uint64{3, 0}, errnoBadf},
		{"fd_fdstat_get", []uint64{1, guestMemory - 23}, errnoFault},
		{"fd_filestat_get", []uint64{0xffffffff, 0}, errnoBadf},
		{"fd_filestat_get", []uint64{2, guestMemory - 63}, errnoFault},
		{"fd_fdstat_set_flags", []uint64{1, 4}, errnoSuccess}, // Go sets O_NONBLOCK at start
		{"fd_fdstat_set_flags", []uint64{0, 31}, errnoSuccess},
		{"fd_fdstat_set_flags", []uint64{1, 32}, errnoInval},
		{"fd_fdstat_set_flags", []uint64{3, 0}, errnoBadf},
		{"fd_close", []uint64{2}, errnoSuccess},
		{"fd_close", []uint64{3}, errnoBadf},
		{"fd_prestat_get", []uint64{3, 0}, errnoBadf}, // Go's syscall init loops until EBADF
		{"fd_prestat_get", []uint64{0, 0}, errnoBadf},
		{"fd_prestat_dir_name", []uint64{3, 0, 10}, errnoBadf},
		{"fd_seek", []uint64{1, 0, 0, 0}, errnoSpipe},
		{"fd_tell", []uint64{0, 0}, errnoSpipe},
		{"fd_seek", []uint64{4, 0, 0, 0}, errnoBadf},
	}
	for _, tt := range tests {
		e, err := g.call(c, tt.fn, tt.args...)
		require.NoError(t, err)
		assert.Equal(t, tt.want, e, "%s%v", tt.fn, tt.args)
	}

	var out bytes.Buffer
	c.Output = &out
	require.True(t, g.mem().Write(100, []byte("still here")))
	g.iovecs(t, 0, [2]uint32{100, 10})
	e, err := g.call(c, "fd_write", 2, 0, 1, 64)
	require.NoError(t, err)
	assert.Equal(t, errnoSuccess, e)
	assert.Equal(t, "still here", out.String(), "a closed standard stream stays usable")
}

// TestWASIStubs: every function gate does not implement answers at once,
// EBADF for a descriptor that is not 0-2, a fitting errno for 0-2, and
// EBADF for every path_* whatever the dirfd.
func TestWASIStubs(t *testing.T) {
	g := newWASIGuest(t)
	c := wasiCallState(t)
	onStdio := map[string]errno{
		"fd_advise": errnoSpipe, "fd_allocate": errnoSpipe, "fd_pread": errnoSpipe, "fd_pwrite": errnoSpipe,
		"fd_seek": errnoSpipe, "fd_tell": errnoSpipe,
		"fd_datasync": errnoInval, "fd_sync": errnoInval, "fd_filestat_set_size": errnoInval,
		"fd_fdstat_set_rights": errnoNotsup, "fd_filestat_set_times": errnoNotsup, "fd_renumber": errnoNotsup,
		"fd_readdir":  errnoNotdir,
		"sock_accept": errnoNotsock, "sock_recv": errnoNotsock, "sock_send": errnoNotsock, "sock_shutdown": errnoNotsock,
	}
	for name, want := range onStdio {
		f, ok := importNamed(WASIModuleName).Lookup(name)
		require.True(t, ok, name)
		args := make([]uint64, len(f.Params))
		for _, fd := range []uint64{0, 1, 2} {
			args[0] = fd
			e, err := g.call(c, name, args...)
			require.NoError(t, err)
			assert.Equal(t, want, e, "%s on fd %d", name, fd)
		}
		for _, fd := range []uint64{3, 100, 0xffffffff} {
			args[0] = fd
			e, err := g.call(c, name, args...)
			require.NoError(t, err)
			assert.Equal(t, errnoBadf, e, "%s on fd %d", name, fd)
		}
	}
	e, err := g.call(c, "fd_renumber", 1, 5)
	require.NoError(t, err)
	assert.Equal(t, errnoBadf, e, "fd_renumber to a descriptor that is not there")

	for _, f := range WASIFuncs {
		if len(f.Name) < 5 || f.Name[:5] != "path_" {
			continue
		}
		args := make([]uint64, len(f.Params))
		for _, dirfd := range []uint64{0, 1, 2, 3, 4} {
			for i := range args {
				args[i] = dirfd // every descriptor parameter, whatever its position
			}
			e, err := g.call(c, f.Name, args...)
			require.NoError(t, err)
			assert.Equal(t, errnoBadf, e, "%s with dirfd %d", f.Name, dirfd)
		}
	}

	e, err = g.call(c, "proc_raise", 6)
	require.NoError(t, err)
	assert.Equal(t, errnoNosys, e)
	e, err = g.call(c, "sched_yield")
	require.NoError(t, err)
	assert.Equal(t, errnoSuccess, e)
}

// TestWASIChecksDeadline: every WASI function, whatever it answers, stops a
// guest whose budget is spent, so that no import is a free way around it.
func TestWASIChecksDeadline(t *testing.T) {
	g := newWASIGuest(t)
	for _, f := range WASIFuncs {
		t.Run(f.Name, func(t *testing.T) {
			c := wasiCallState(t)
			c.Deadline = time.Now().Add(-time.Millisecond)
			_, err := g.call(c, f.Name, make([]uint64, len(f.Params))...)
			assertInterrupted(t, err, "wasi."+f.Name, true)
		})
	}
}

// TestWASIHonoursCallerAndStop: a cancelled caller context or a closing
// engine stops the guest at its next WASI call too.
func TestWASIHonoursCallerAndStop(t *testing.T) {
	g := newWASIGuest(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := g.callCtx(ctx, wasiCallState(t), "sched_yield")
	assertInterrupted(t, err, "wasi.sched_yield", false)
	assert.ErrorIs(t, err, context.Canceled)

	c := wasiCallState(t)
	stop := make(chan struct{})
	close(stop)
	c.Stop = StopChan(stop)
	_, err = g.call(c, "random_get", 0, 16)
	assertInterrupted(t, err, "wasi.random_get", false)
	assert.ErrorIs(t, err, ErrStopped)
}

// TestWASIProcExit: proc_exit reaches the caller as a *sys.ExitError with
// its code, and leaves closing the instance to the engine.
func TestWASIProcExit(t *testing.T) {
	g := newWASIGuest(t)
	for _, code := range []uint64{0, 1, 3, 0xffffffff} {
		_, err := g.call(wasiCallState(t), "proc_exit", code)
		var exit *sys.ExitError
		require.True(t, errors.As(err, &exit), "%v", err)
		assert.Equal(t, uint32(code), exit.ExitCode())
		assert.False(t, g.mod.IsClosed())
	}
}

// TestWASIWithoutMemory: a module that imports WASI but has no memory gets
// EFAULT for anything that needs one, never a host panic.
func TestWASIWithoutMemory(t *testing.T) {
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	defer r.Close(ctx)
	_, err := importNamed(WASIModuleName).Instantiate(ctx, r)
	require.NoError(t, err)
	// (module (import "wasi_snapshot_preview1" "random_get" (func (param i32 i32) (result i32)))
	//   (func (export "f") (param i32 i32) (result i32) (call 0 (local.get 0) (local.get 1))))
	wasm := []byte{0, 'a', 's', 'm', 1, 0, 0, 0,
		1, 7, 1, 0x60, 2, 0x7f, 0x7f, 1, 0x7f,
		2, 0x25, 1, 22, 'w', 'a', 's', 'i', '_', 's', 'n', 'a', 'p', 's', 'h', 'o', 't', '_', 'p', 'r', 'e', 'v', 'i', 'e', 'w', '1',
		10, 'r', 'a', 'n', 'd', 'o', 'm', '_', 'g', 'e', 't', 0, 0,
		3, 2, 1, 0,
		7, 5, 1, 1, 'f', 0, 1,
		10, 10, 1, 8, 0, 0x20, 0, 0x20, 1, 0x10, 0, 0x0b}
	mod, err := r.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().WithName(""))
	require.NoError(t, err)
	for _, args := range [][]uint64{{0, 1}, {0, 0}} {
		res, err := mod.ExportedFunction("f").Call(WithCall(ctx, wasiCallState(t)), args...)
		require.NoError(t, err)
		want := errnoFault
		if args[1] == 0 {
			want = errnoSuccess
		}
		assert.Equal(t, want, errno(res[0]), "random_get%v", args)
	}
}
