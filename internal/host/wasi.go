package host

import (
	"context"
	"encoding/binary"

	"github.com/tetratelabs/wazero/api"
)

// WASIModuleName is the import module of WASI preview 1, which gate
// provides itself (InstantiateWASI) instead of wazero's: wazero's functions
// never check the deadline and do work proportional to guest-given sizes in
// one go, so a probe could escape its budget through them.
const WASIModuleName = "wasi_snapshot_preview1"

// Bounds on one WASI call: POSIX's own limit where it has one, and far
// above what Go's runtime or wasi-libc pass for a probe, which has three
// file descriptors.
const (
	// WASIMaxIOVecs is the most iovecs one fd_read or fd_write takes
	// (IOV_MAX on Linux); more is EINVAL, as for readv(2).
	WASIMaxIOVecs = 1024
	// WASIMaxSubscriptions is the most subscriptions one poll_oneoff takes;
	// more (or none) is EINVAL. Go's runtime polls one clock plus one per
	// waiting descriptor, wasi-libc's poll() two per descriptor.
	WASIMaxSubscriptions = 1024
)

// How much work a WASI call does between two budget checks. A call never
// runs past the deadline by more than one chunk, a small fraction of a
// budget even for the slowest (64 KiB from crypto/rand).
const (
	wasiChunkBytes = 64 << 10
	wasiChunkIOVs  = 64
	wasiChunkSubs  = 64
)

// errno is a WASI preview 1 error number.
type errno uint16

// The errnos gate's WASI returns (numbering from the WASI preview 1 spec).
const (
	errnoSuccess errno = 0
	errnoBadf    errno = 8
	errnoFault   errno = 21
	errnoInval   errno = 28
	errnoIO      errno = 29
	errnoNosys   errno = 52
	errnoNotdir  errno = 54
	errnoNotsock errno = 57
	errnoNotsup  errno = 58
	errnoSpipe   errno = 70
)

var le = binary.LittleEndian

var i64 = api.ValueTypeI64

// wasiCall is what one WASI function sees of its call. It is passed by
// value so that a call allocates nothing.
type wasiCall struct {
	ctx   context.Context
	c     *Call
	mem   api.Memory // nil when the probe has no memory
	where string     // "wasi.<name>", for interruptions
}

// check stops the guest if its budget is spent or the run is cancelled.
func (w *wasiCall) check() { w.c.Check(w.ctx, w.where) }

// span returns the guest bytes [ptr, ptr+n) without copying, or false if
// they do not all lie in memory. n is a uint64 so that callers compute
// sizes without overflow.
func (w *wasiCall) span(ptr uint32, n uint64) ([]byte, bool) {
	if w.mem == nil || n > 1<<32-1 {
		return nil, false
	}
	return w.mem.Read(ptr, uint32(n))
}

// wasiImpl is one WASI function: it reads its parameters from stack and
// answers an errno, which wasiFunc stores as the result.
type wasiImpl func(w wasiCall, stack []uint64) errno

// wasiDef is one function of the WASI module as wazero's builder wants it.
type wasiDef struct {
	name     string
	params   []string // names, for wasm stack traces; all i32 unless in i64s
	i64s     []int    // indexes of the i64 parameters
	noResult bool     // proc_exit
	impl     wasiImpl // nil only for proc_exit
	doc      string
}

// wasiFunc wraps an implementation: every WASI function answers an errno
// and checks the budget before it returns, so no import is free for a
// probe looping on it.
func wasiFunc(name string, impl wasiImpl) api.GoModuleFunc {
	where := "wasi." + name
	return func(ctx context.Context, m api.Module, stack []uint64) {
		w := wasiCall{ctx: ctx, c: callFrom(ctx, where), mem: memoryOf(m), where: where}
		e := impl(w, stack)
		w.check()
		stack[0] = uint64(e)
	}
}

// WASIFuncs lists the functions of gate's wasi_snapshot_preview1: the same
// names and signatures as wazero's, so that every module that linked
// against wazero's links against gate's. Only what Go's wasip1 runtime and
// wasi-libc need does real work; there is no file system, socket, argument
// or environment variable behind it. See docs/ABI.md, "The sandbox". Its
// functions read the run's Call from the context like the gate module's;
// they never read wazero's per-module system context (args, environ,
// clocks, files).
var WASIFuncs = func() []Func {
	out := make([]Func, len(wasiDefs))
	for i, d := range wasiDefs {
		f := Func{Name: d.name, Doc: d.doc, paramNames: d.params}
		for range d.params {
			f.Params = append(f.Params, i32)
		}
		for _, j := range d.i64s {
			f.Params[j] = i64
		}
		if d.noResult {
			f.fn = hostProcExit
		} else {
			f.Results = []api.ValueType{i32}
			f.resultNames = []string{"errno"}
			f.fn = wasiFunc(d.name, d.impl)
		}
		out[i] = f
	}
	return out
}()

// wasiDefs is in the order of the WASI preview 1 spec, as wazero's is.
var wasiDefs = []wasiDef{
	{name: "args_get", params: []string{"argv", "argv_buf"}, impl: wasiNothing,
		doc: "args_get: no arguments; writes nothing"},
	{name: "args_sizes_get", params: []string{"result.argc", "result.argv_len"}, impl: wasiZeroSizes,
		doc: "args_sizes_get: 0 arguments of 0 bytes"},
	{name: "environ_get", params: []string{"environ", "environ_buf"}, impl: wasiNothing,
		doc: "environ_get: no environment (use gate.env); writes nothing"},
	{name: "environ_sizes_get", params: []string{"result.environc", "result.environv_len"}, impl: wasiZeroSizes,
		doc: "environ_sizes_get: 0 variables of 0 bytes"},
	{name: "clock_res_get", params: []string{"id", "result.resolution"}, impl: wasiClockResGet,
		doc: "clock_res_get: 1 ns for realtime (0) and monotonic (1); EINVAL for other clocks"},
	{name: "clock_time_get", params: []string{"id", "precision", "result.timestamp"}, i64s: []int{1}, impl: wasiClockTimeGet,
		doc: "clock_time_get: the host's real clocks, realtime (0) and monotonic (1); EINVAL for other clocks"},
	{name: "fd_advise", params: []string{"fd", "offset", "len", "advice"}, i64s: []int{1, 2}, impl: wasiStubFd(errnoSpipe),
		doc: "fd_advise: ESPIPE on 0-2, EBADF on any other fd"},
	{name: "fd_allocate", params: []string{"fd", "offset", "len"}, i64s: []int{1, 2}, impl: wasiStubFd(errnoSpipe),
		doc: "fd_allocate: ESPIPE on 0-2, EBADF on any other fd"},
	{name: "fd_close", params: []string{"fd"}, impl: wasiFdClose,
		doc: "fd_close: 0 on 0-2 (which stay usable), EBADF on any other fd"},
	{name: "fd_datasync", params: []string{"fd"}, impl: wasiStubFd(errnoInval),
		doc: "fd_datasync: EINVAL on 0-2 (a character device), EBADF on any other fd"},
	{name: "fd_fdstat_get", params: []string{"fd", "result.stat"}, impl: wasiFdFdstatGet,
		doc: "fd_fdstat_get: 0-2 are character devices (0 readable, 1 and 2 writable); EBADF on any other fd"},
	{name: "fd_fdstat_set_flags", params: []string{"fd", "flags"}, impl: wasiFdFdstatSetFlags,
		doc: "fd_fdstat_set_flags: accepted and without effect on 0-2 (I/O on them never blocks); EINVAL for unknown flags; EBADF on any other fd"},
	{name: "fd_fdstat_set_rights", params: []string{"fd", "fs_rights_base", "fs_rights_inheriting"}, i64s: []int{1, 2}, impl: wasiStubFd(errnoNotsup),
		doc: "fd_fdstat_set_rights: ENOTSUP on 0-2, EBADF on any other fd"},
	{name: "fd_filestat_get", params: []string{"fd", "result.filestat"}, impl: wasiFdFilestatGet,
		doc: "fd_filestat_get: 0-2 are empty character devices; EBADF on any other fd"},
	{name: "fd_filestat_set_size", params: []string{"fd", "size"}, i64s: []int{1}, impl: wasiStubFd(errnoInval),
		doc: "fd_filestat_set_size: EINVAL on 0-2 (not a regular file), EBADF on any other fd"},
	{name: "fd_filestat_set_times", params: []string{"fd", "atim", "mtim", "fst_flags"}, i64s: []int{1, 2}, impl: wasiStubFd(errnoNotsup),
		doc: "fd_filestat_set_times: ENOTSUP on 0-2, EBADF on any other fd"},
	{name: "fd_pread", params: []string{"fd", "iovs", "iovs_len", "offset", "result.nread"}, i64s: []int{3}, impl: wasiStubFd(errnoSpipe),
		doc: "fd_pread: ESPIPE on 0-2, EBADF on any other fd"},
	{name: "fd_prestat_get", params: []string{"fd", "result.prestat"}, impl: wasiBadf,
		doc: "fd_prestat_get: EBADF for every fd: there are no preopened directories"},
	{name: "fd_prestat_dir_name", params: []string{"fd", "result.path", "result.path_len"}, impl: wasiBadf,
		doc: "fd_prestat_dir_name: EBADF for every fd"},
	{name: "fd_pwrite", params: []string{"fd", "iovs", "iovs_len", "offset", "result.nwritten"}, i64s: []int{3}, impl: wasiStubFd(errnoSpipe),
		doc: "fd_pwrite: ESPIPE on 0-2, EBADF on any other fd"},
	{name: "fd_read", params: []string{"fd", "iovs", "iovs_len", "result.nread"}, impl: wasiFdRead,
		doc: "fd_read: fd 0 is at end of file (0 bytes read); EBADF on any other fd; EINVAL over 1024 iovecs"},
	{name: "fd_readdir", params: []string{"fd", "buf", "buf_len", "cookie", "result.bufused"}, i64s: []int{3}, impl: wasiStubFd(errnoNotdir),
		doc: "fd_readdir: ENOTDIR on 0-2, EBADF on any other fd"},
	{name: "fd_renumber", params: []string{"fd", "to"}, impl: wasiFdRenumber,
		doc: "fd_renumber: ENOTSUP between 0-2, EBADF if either fd is another"},
	{name: "fd_seek", params: []string{"fd", "offset", "whence", "result.newoffset"}, i64s: []int{1}, impl: wasiStubFd(errnoSpipe),
		doc: "fd_seek: ESPIPE on 0-2, EBADF on any other fd"},
	{name: "fd_sync", params: []string{"fd"}, impl: wasiStubFd(errnoInval),
		doc: "fd_sync: EINVAL on 0-2 (a character device), EBADF on any other fd"},
	{name: "fd_tell", params: []string{"fd", "result.offset"}, impl: wasiStubFd(errnoSpipe),
		doc: "fd_tell: ESPIPE on 0-2, EBADF on any other fd"},
	{name: "fd_write", params: []string{"fd", "iovs", "iovs_len", "result.nwritten"}, impl: wasiFdWrite,
		doc: "fd_write: fds 1 and 2 go to the run's bounded output; EBADF on any other fd; EINVAL over 1024 iovecs or 2 GiB"},
	{name: "path_create_directory", params: []string{"fd", "path", "path_len"}, impl: wasiBadf,
		doc: "path_create_directory: EBADF: there is no directory to resolve a path in"},
	{name: "path_filestat_get", params: []string{"fd", "flags", "path", "path_len", "result.filestat"}, impl: wasiBadf,
		doc: "path_filestat_get: EBADF"},
	{name: "path_filestat_set_times", params: []string{"fd", "flags", "path", "path_len", "atim", "mtim", "fst_flags"}, i64s: []int{4, 5}, impl: wasiBadf,
		doc: "path_filestat_set_times: EBADF"},
	{name: "path_link", params: []string{"old_fd", "old_flags", "old_path", "old_path_len", "new_fd", "new_path", "new_path_len"}, impl: wasiBadf,
		doc: "path_link: EBADF"},
	{name: "path_open", params: []string{"fd", "dirflags", "path", "path_len", "oflags", "fs_rights_base", "fs_rights_inheriting", "fdflags", "result.opened_fd"}, i64s: []int{5, 6}, impl: wasiBadf,
		doc: "path_open: EBADF"},
	{name: "path_readlink", params: []string{"fd", "path", "path_len", "buf", "buf_len", "result.bufused"}, impl: wasiBadf,
		doc: "path_readlink: EBADF"},
	{name: "path_remove_directory", params: []string{"fd", "path", "path_len"}, impl: wasiBadf,
		doc: "path_remove_directory: EBADF"},
	{name: "path_rename", params: []string{"fd", "old_path", "old_path_len", "new_fd", "new_path", "new_path_len"}, impl: wasiBadf,
		doc: "path_rename: EBADF"},
	{name: "path_symlink", params: []string{"old_path", "old_path_len", "fd", "new_path", "new_path_len"}, impl: wasiBadf,
		doc: "path_symlink: EBADF"},
	{name: "path_unlink_file", params: []string{"fd", "path", "path_len"}, impl: wasiBadf,
		doc: "path_unlink_file: EBADF"},
	{name: "poll_oneoff", params: []string{"in", "out", "nsubscriptions", "result.nevents"}, impl: wasiPollOneoff,
		doc: "poll_oneoff: clock subscriptions sleep (never past the budget); fd_read on 0 and fd_write on 1-2 are ready at once; EINVAL for 0 or over 1024 subscriptions"},
	{name: "proc_exit", params: []string{"rval"}, noResult: true,
		doc: "proc_exit: ends the run with that exit code"},
	{name: "proc_raise", params: []string{"sig"}, impl: wasiConst(errnoNosys),
		doc: "proc_raise: ENOSYS, as in wazero: there are no signals"},
	{name: "sched_yield", impl: wasiConst(errnoSuccess),
		doc: "sched_yield: 0 (a probe has one thread)"},
	{name: "random_get", params: []string{"buf", "buf_len"}, impl: wasiRandomGet,
		doc: "random_get: the host's crypto/rand"},
	{name: "sock_accept", params: []string{"fd", "flags", "result.fd"}, impl: wasiStubFd(errnoNotsock),
		doc: "sock_accept: ENOTSOCK on 0-2, EBADF on any other fd"},
	{name: "sock_recv", params: []string{"fd", "ri_data", "ri_data_len", "ri_flags", "result.ro_datalen", "result.ro_flags"}, impl: wasiStubFd(errnoNotsock),
		doc: "sock_recv: ENOTSOCK on 0-2, EBADF on any other fd"},
	{name: "sock_send", params: []string{"fd", "si_data", "si_data_len", "si_flags", "result.so_datalen"}, impl: wasiStubFd(errnoNotsock),
		doc: "sock_send: ENOTSOCK on 0-2, EBADF on any other fd"},
	{name: "sock_shutdown", params: []string{"fd", "how"}, impl: wasiStubFd(errnoNotsock),
		doc: "sock_shutdown: ENOTSOCK on 0-2, EBADF on any other fd"},
}
