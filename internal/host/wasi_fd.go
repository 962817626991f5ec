package host

import (
	"io"
	"math"
)

// A probe has three file descriptors, 0-2, and nothing else: stdin at end
// of file, stdout and stderr into the run's bounded output (Call.Output).
// They are character devices, like a terminal, so that Go's os package and
// wasi-libc treat them as unseekable streams.

const (
	filetypeCharacterDevice = 2

	rightFdRead          = 1 << 1
	rightFdstatSetFlags  = 1 << 3
	rightFdWrite         = 1 << 6
	rightFdFilestatGet   = 1 << 21
	rightPollFdReadwrite = 1 << 27

	// The fdflags that fd_fdstat_set_flags knows: append, dsync, nonblock,
	// rsync, sync.
	fdflagsAll = 1<<5 - 1
)

func stdio(fd uint32) bool { return fd <= 2 }

// wasiStubFd answers a function gate does not implement: EBADF for an fd
// that is not 0-2, as there is no file or socket to act on, and onStdio for
// the standard streams.
func wasiStubFd(onStdio errno) wasiImpl {
	return func(_ wasiCall, s []uint64) errno {
		if !stdio(uint32(s[0])) {
			return errnoBadf
		}
		return onStdio
	}
}

// wasiConst answers e whatever the arguments.
func wasiConst(e errno) wasiImpl {
	return func(wasiCall, []uint64) errno { return e }
}

// wasiBadf is every path_* function (no preopened directory for a dirfd to
// name) and fd_prestat_*: Go's syscall package probes fds from 3 up until
// fd_prestat_get answers EBADF, so anything else would loop.
func wasiBadf(wasiCall, []uint64) errno { return errnoBadf }

// fd_close accepts the standard streams and keeps them: the host module has
// no per-instance state to close them in, and a probe that closes stdout
// loses nothing by still having it.
func wasiFdClose(_ wasiCall, s []uint64) errno {
	if !stdio(uint32(s[0])) {
		return errnoBadf
	}
	return errnoSuccess
}

func wasiFdRenumber(_ wasiCall, s []uint64) errno {
	if !stdio(uint32(s[0])) || !stdio(uint32(s[1])) {
		return errnoBadf
	}
	return errnoNotsup
}

func wasiFdFdstatGet(w wasiCall, s []uint64) errno {
	fd := uint32(s[0])
	if !stdio(fd) {
		return errnoBadf
	}
	b, ok := w.span(uint32(s[1]), 24)
	if !ok {
		return errnoFault
	}
	rights := uint64(rightFdstatSetFlags | rightFdFilestatGet | rightPollFdReadwrite)
	if fd == 0 {
		rights |= rightFdRead
	} else {
		rights |= rightFdWrite
	}
	clear(b)
	b[0] = filetypeCharacterDevice
	// fs_flags stay 0: blocking, so that Go writes straight through
	// fd_write instead of through its poller.
	le.PutUint64(b[8:], rights)
	return errnoSuccess
}

// fd_fdstat_set_flags on the standard streams succeeds and changes
// nothing: reads and writes on them never block, whatever the flag says,
// and Go's syscall package sets O_NONBLOCK on them at start.
func wasiFdFdstatSetFlags(_ wasiCall, s []uint64) errno {
	if !stdio(uint32(s[0])) {
		return errnoBadf
	}
	if uint32(s[1])&^fdflagsAll != 0 {
		return errnoInval
	}
	return errnoSuccess
}

func wasiFdFilestatGet(w wasiCall, s []uint64) errno {
	if !stdio(uint32(s[0])) {
		return errnoBadf
	}
	b, ok := w.span(uint32(s[1]), 64)
	if !ok {
		return errnoFault
	}
	clear(b) // device, inode, size and times 0
	le.PutUint64(b[16:], filetypeCharacterDevice)
	le.PutUint64(b[24:], 1) // nlink
	return errnoSuccess
}

// iovecs returns the guest's iovec array (8 bytes each: buf, buf_len), or
// an errno for a count over WASIMaxIOVecs or an array outside memory.
func (w *wasiCall) iovecs(ptr, n uint32) ([]byte, errno) {
	if n > WASIMaxIOVecs {
		return nil, errnoInval
	}
	b, ok := w.span(ptr, uint64(n)*8)
	if !ok {
		return nil, errnoFault
	}
	return b, errnoSuccess
}

// iovec returns the bytes of the i-th iovec. A zero length is valid at any
// pointer, as in C.
func (w *wasiCall) iovec(iovs []byte, i int) ([]byte, bool) {
	ptr, n := le.Uint32(iovs[8*i:]), le.Uint32(iovs[8*i+4:])
	if n == 0 {
		return nil, true
	}
	return w.span(ptr, uint64(n))
}

// fd_read: stdin is at end of file, so nothing is read and the iovecs are
// not visited; the call costs the same whatever they are.
func wasiFdRead(w wasiCall, s []uint64) errno {
	if uint32(s[0]) != 0 {
		return errnoBadf
	}
	if _, e := w.iovecs(uint32(s[1]), uint32(s[2])); e != errnoSuccess {
		return e
	}
	res, ok := w.span(uint32(s[3]), 4)
	if !ok {
		return errnoFault
	}
	le.PutUint32(res, 0)
	return errnoSuccess
}

// fd_write to 1 or 2 copies the iovecs to Call.Output. Every range is
// checked before anything is written, so a bad one is EFAULT with nothing
// written; the copy then goes in chunks with a budget check between them.
// A total over math.MaxInt32 is EINVAL, as for writev(2) when the sum
// overflows a 32-bit ssize_t.
func wasiFdWrite(w wasiCall, s []uint64) errno {
	if fd := uint32(s[0]); fd != 1 && fd != 2 {
		return errnoBadf
	}
	iovs, e := w.iovecs(uint32(s[1]), uint32(s[2]))
	if e != errnoSuccess {
		return e
	}
	res, ok := w.span(uint32(s[3]), 4)
	if !ok {
		return errnoFault
	}
	n := len(iovs) / 8
	var total uint64
	for i := range n {
		b, ok := w.iovec(iovs, i)
		if !ok {
			return errnoFault
		}
		total += uint64(len(b))
	}
	if total > math.MaxInt32 {
		return errnoInval
	}
	out := w.c.Output
	if out == nil {
		out = io.Discard
	}
	var bytes, count int // since the last check
	for i := range n {
		b, _ := w.iovec(iovs, i)
		for len(b) > 0 {
			k := min(len(b), wasiChunkBytes-bytes)
			if _, err := out.Write(b[:k]); err != nil {
				return errnoIO
			}
			b = b[k:]
			if bytes += k; bytes == wasiChunkBytes {
				w.check()
				bytes, count = 0, 0
			}
		}
		if count++; count == wasiChunkIOVs {
			w.check()
			bytes, count = 0, 0
		}
	}
	le.PutUint32(res, uint32(total))
	return errnoSuccess
}
