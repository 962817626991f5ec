package host

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/gate-dev/gate/hostfuncs"
)

var fuzzFuncs = []struct {
	name  string
	arity int
	// out returns the one range the host may write, or ok=false if none.
	out    func(a [4]uint32) (ptr, n uint32, ok bool)
	result func(r int32) bool
}{
	{"env", 4, bufArg, envResult},
	{"config", 4, bufArg, envResult},
	{"dial", 3, noOut, func(r int32) bool { return r == StatusOK || (r <= StatusDenied && r >= StatusBadRequest) }},
	{"import", 2, noOut, func(r int32) bool {
		return r == StatusOK || r == StatusNotFound || r == StatusDenied || r == StatusBadRequest
	}},
	{"reason", 2, noOut, nil},
	{"log", 3, noOut, nil},
	// ABI v2. A fuzzed run holds no handle, so the calls that take one
	// answer -10 unless a connect or http in the same input opened it;
	// what is granted (127.0.0.1:1) refuses at once.
	{"connect", 4, noOut, func(r int32) bool { return r > 0 || (r <= StatusDenied && r >= StatusTLS) }},
	{"send", 3, noOut, func(r int32) bool {
		return r >= 0 || r == StatusNotFound || r == StatusDenied || r == StatusTimedOut || r == StatusLimit || r == StatusClosed || r == StatusBadHandle
	}},
	{"recv", 4, func(a [4]uint32) (uint32, uint32, bool) { return a[1], a[2], true }, func(r int32) bool {
		return r >= 0 || r == StatusTimedOut || r == StatusLimit || r == StatusClosed || r == StatusBadHandle
	}},
	{"close", 1, noOut, func(r int32) bool { return r == StatusOK || r == StatusBadHandle }},
	{"http", 4, noOut, func(r int32) bool { return r > 0 || (r <= StatusNotFound && r >= StatusClosed) }},
	{"http_status", 1, noOut, func(r int32) bool { return r == StatusBadHandle || (r >= 100 && r <= 599) }},
	{"http_body", 3, func(a [4]uint32) (uint32, uint32, bool) { return a[1], a[2], true }, func(r int32) bool { return r >= 0 || r == StatusBadHandle }},
	{"tls", 2, func(a [4]uint32) (uint32, uint32, bool) { return a[1], 16, true }, func(r int32) bool {
		return r == 0 || r == 1 || r == StatusNotFound || r == StatusBadHandle
	}},
	{"last_error", 2, func(a [4]uint32) (uint32, uint32, bool) { return a[0], a[1], true }, envResult},
}

func bufArg(a [4]uint32) (uint32, uint32, bool) { return a[2], a[3], true }
func noOut([4]uint32) (uint32, uint32, bool)    { return 0, 0, false }
func envResult(r int32) bool                    { return r >= 0 || r == StatusNotFound || r == StatusDenied }

// FuzzHostFuncs hands every gate function, of both ABI versions, arbitrary
// pointers, lengths, handles and memory contents. Whatever they are, the host must not panic, must answer
// with a documented status or refuse the range with a *MemoryError, and
// must write nothing outside the one buffer the probe offered.
func FuzzHostFuncs(f *testing.F) {
	f.Add(uint8(0), uint32(0), uint32(6), uint32(64), uint32(32), []byte("HOME_X"))
	f.Add(uint8(1), uint32(0), uint32(4), uint32(100), uint32(2), []byte("vars"))
	f.Add(uint8(2), uint32(0), uint32(11), uint32(0), uint32(0), []byte("127.0.0.1:1"))
	f.Add(uint8(3), uint32(0), uint32(8), uint32(0), uint32(0), []byte("test:yes"))
	f.Add(uint8(4), uint32(65530), uint32(100), uint32(0), uint32(0), []byte("\xff\xfe"))
	f.Add(uint8(5), uint32(2), uint32(0), uint32(65535), uint32(0), []byte("x"))
	f.Add(uint8(0), uint32(0xffffffff), uint32(2), uint32(0), uint32(0xffffffff), []byte{})
	f.Add(uint8(6), uint32(0), uint32(11), uint32(0), uint32(0), []byte("127.0.0.1:1"))
	f.Add(uint8(10), uint32(0), uint32(25), uint32(0), uint32(0), []byte("GET http://127.0.0.1:1/\n\n"))
	f.Add(uint8(8), uint32(1), uint32(100), uint32(64), uint32(0), []byte{})
	f.Add(uint8(13), uint32(1), uint32(65530), uint32(0), uint32(0), []byte{})
	f.Add(uint8(14), uint32(0), uint32(64), uint32(0), uint32(0), []byte{})

	g := newGuest(f)
	grants := Grants{Env: []string{"HOME_X", "EMPTY", "A*"}, Dial: []string{"127.0.0.1:1"}, Import: []string{"test:*"},
		HTTP: []string{"http://127.0.0.1:1/"}, Secrets: everywhere("S")}
	f.Fuzz(func(t *testing.T, fn uint8, a0, a1, a2, a3 uint32, mem []byte) {
		spec := fuzzFuncs[int(fn)%len(fuzzFuncs)]
		args := [4]uint32{a0, a1, a2, a3}
		if spec.name == "log" {
			args[0], args[1], args[2] = a2, a0, a1 // level first; keep ptr/len in a0, a1
		}
		c := testCall(t, grants)
		defer c.End()
		if err := c.Resolvers.Register("test", hostfuncs.ResolverFunc(resolveYes)); err != nil {
			t.Fatal(err)
		}
		memory := g.mod.Memory()
		clear(mustRead(t, g, 0, memory.Size()))
		memory.Write(0, mem[:min(len(mem), int(memory.Size()))])
		before := bytes.Clone(mustRead(t, g, 0, memory.Size()))

		res, err := g.call(c, spec.name, args[:spec.arity]...)

		var memErr *MemoryError
		switch {
		case err == nil:
		case errors.As(err, &memErr):
		default:
			t.Fatalf("%s%v: unexpected error %v", spec.name, args[:spec.arity], err)
		}
		if err == nil && spec.result != nil && !spec.result(res) {
			t.Fatalf("%s%v: undocumented result %d", spec.name, args[:spec.arity], res)
		}
		after := mustRead(t, g, 0, memory.Size())
		ptr, n, writes := spec.out(args)
		for i := range after {
			inBuf := writes && err == nil && uint64(i) >= uint64(ptr) && uint64(i) < uint64(ptr)+uint64(n)
			if !inBuf && after[i] != before[i] {
				t.Fatalf("%s%v wrote byte %d outside the buffer it was given", spec.name, args[:spec.arity], i)
			}
		}
		if r, _ := c.Reason(); len(r) > MaxReason+3 || !utf8.ValidString(r) {
			t.Fatalf("reason not clipped to valid UTF-8: %d bytes", len(r))
		}
		if len(c.Logs()) > MaxLogs {
			t.Fatalf("%d logs kept", len(c.Logs()))
		}
	})
}

func mustRead(t *testing.T, g *guest, ptr, n uint32) []byte {
	b, ok := g.mod.Memory().Read(ptr, n)
	if !ok {
		t.Fatal("read")
	}
	return b
}

func resolveYes(_ context.Context, name string) (bool, error) { return name == "yes", nil }
