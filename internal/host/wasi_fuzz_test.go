package host

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/tetratelabs/wazero/sys"
)

// wasiWrites returns the ranges a WASI function may write for its
// arguments a (i32 parameters in their low 32 bits): its result pointers,
// and for random_get and poll_oneoff the buffers they fill.
func wasiWrites(name string, a []uint64) [][2]uint64 {
	u := func(i int) uint64 { return uint64(uint32(a[i])) }
	switch name {
	case "args_sizes_get", "environ_sizes_get":
		return [][2]uint64{{u(0), 4}, {u(1), 4}}
	case "clock_res_get":
		return [][2]uint64{{u(1), 8}}
	case "clock_time_get":
		return [][2]uint64{{u(2), 8}}
	case "fd_fdstat_get":
		return [][2]uint64{{u(1), 24}}
	case "fd_filestat_get":
		return [][2]uint64{{u(1), 64}}
	case "fd_read", "fd_write":
		return [][2]uint64{{u(3), 4}}
	case "random_get":
		return [][2]uint64{{u(0), u(1)}}
	case "poll_oneoff":
		return [][2]uint64{{u(1), u(2) * eventSize}, {u(3), 4}}
	}
	return nil
}

var wasiErrnos = []errno{errnoSuccess, errnoBadf, errnoFault, errnoInval, errnoNosys, errnoNotdir, errnoNotsock, errnoNotsup, errnoSpipe}

type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	return len(p), nil
}

// fuzzArgs packs arguments for FuzzWASI's args, 8 bytes each.
func fuzzArgs(vals ...uint64) []byte {
	var b []byte
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return b
}

// FuzzWASI hands every WASI function arbitrary arguments and memory
// contents. Whatever they are, the host must not panic except to stop the
// guest (an *Interrupt at the deadline, a *sys.ExitError from proc_exit),
// must answer a documented errno, must write nothing outside the buffers
// the call offers (and nothing at all when it refuses), and must report as
// written exactly what reached the output.
func FuzzWASI(f *testing.F) {
	index := func(name string) uint8 {
		for i, fn := range WASIFuncs {
			if fn.Name == name {
				return uint8(i)
			}
		}
		panic(name)
	}
	iov := fuzzArgs(64<<32|100, 3<<32|70000) // two iovecs: (100, 64), (70000, 3)
	sub := make([]byte, 2*subscriptionSize)
	sub[8], sub[subscriptionSize+8], sub[subscriptionSize+16] = eventtypeClock, eventtypeFdWrite, 1
	f.Add(index("fd_write"), fuzzArgs(1, 0, 2, 200), iov)
	f.Add(index("fd_write"), fuzzArgs(2, 0, 1025, 200), iov)
	f.Add(index("fd_read"), fuzzArgs(0, 0, 2, guestMemory-4), iov)
	f.Add(index("random_get"), fuzzArgs(100, 200000), []byte{})
	f.Add(index("random_get"), fuzzArgs(guestMemory-1, 2), []byte{})
	f.Add(index("poll_oneoff"), fuzzArgs(0, 4096, 2, 8192), sub)
	f.Add(index("poll_oneoff"), fuzzArgs(0, 4096, 1<<28, 8192), sub)
	f.Add(index("clock_time_get"), fuzzArgs(1, 0, 8), []byte{})
	f.Add(index("fd_fdstat_get"), fuzzArgs(1, guestMemory-24), []byte{})
	f.Add(index("fd_filestat_get"), fuzzArgs(0, 0xffffffff), []byte{})
	f.Add(index("args_sizes_get"), fuzzArgs(0, 4), []byte{})
	f.Add(index("path_open"), fuzzArgs(3, 0, 0, 5, 0, 0, 0, 0, 16), []byte("/etc/passwd"))
	f.Add(index("proc_exit"), fuzzArgs(3), []byte{})

	g := newWASIGuest(f)
	f.Fuzz(func(t *testing.T, fn uint8, raw []byte, mem []byte) {
		spec := WASIFuncs[int(fn)%len(WASIFuncs)]
		args := make([]uint64, len(spec.Params))
		for i := range args {
			if len(raw) >= 8*(i+1) {
				args[i] = binary.LittleEndian.Uint64(raw[8*i:])
			}
			if spec.Params[i] == i32 {
				args[i] = uint64(uint32(args[i]))
			}
		}
		c := wasiCallState(t)
		c.Deadline = time.Now().Add(20 * time.Millisecond) // a poll may sleep
		out := &countingWriter{}
		c.Output = out
		memory := g.mem()
		clear(mustReadWASI(t, g, 0, memory.Size()))
		memory.Write(0, mem[:min(len(mem), int(memory.Size()))])
		before := bytes.Clone(mustReadWASI(t, g, 0, memory.Size()))

		e, err := g.call(c, spec.Name, args...)

		var intr *Interrupt
		var exit *sys.ExitError
		switch {
		case err == nil:
			if !slices.Contains(wasiErrnos, e) {
				t.Fatalf("%s%v: undocumented errno %d", spec.Name, args, e)
			}
		case errors.As(err, &intr), errors.As(err, &exit) && spec.Name == "proc_exit":
		default:
			t.Fatalf("%s%v: unexpected error %v", spec.Name, args, err)
		}
		writes := wasiWrites(spec.Name, args)
		if err == nil && e != errnoSuccess {
			writes = nil // a refusal writes nothing
		}
		after := mustReadWASI(t, g, 0, memory.Size())
		for i := range after {
			if after[i] == before[i] {
				continue
			}
			ok := false
			for _, w := range writes {
				ok = ok || uint64(i) >= w[0] && uint64(i) < w[0]+w[1]
			}
			if !ok {
				t.Fatalf("%s%v wrote byte %d outside the buffers it was given", spec.Name, args, i)
			}
		}
		if spec.Name == "fd_write" && err == nil && e == errnoSuccess {
			if n, _ := memory.ReadUint32Le(uint32(args[3])); int(n) != out.n {
				t.Fatalf("%s%v: reported %d bytes written, wrote %d", spec.Name, args, n, out.n)
			}
		} else if out.n != 0 && spec.Name != "fd_write" {
			t.Fatalf("%s%v wrote %d bytes of output", spec.Name, args, out.n)
		}
	})
}

func mustReadWASI(t *testing.T, g *wasiGuest, ptr, n uint32) []byte {
	b, ok := g.mem().Read(ptr, n)
	if !ok {
		t.Fatal("read")
	}
	return b
}
