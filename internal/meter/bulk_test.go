package meter

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/wasm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

type bulkCase struct {
	op      string // "fill" or "copy"
	d, s, n uint32 // s is the value for fill
}

func (c bulkCase) String() string { return fmt.Sprintf("%s(%#x, %#x, %#x)", c.op, c.d, c.s, c.n) }

// bulkCases returns the cases the helpers are compared with wazero on, for
// a memory of size bytes: edges of the chunking, lengths spanning many
// chunks, overlapping copies both ways, zero lengths, out of bounds by one
// and by a lot, and random ones.
func bulkCases(size uint32) []bulkCase {
	const c = bulkChunk
	var cases []bulkCase
	add := func(d, s, n uint32) {
		cases = append(cases, bulkCase{"fill", d, s, n}, bulkCase{"copy", d, s, n})
	}
	for _, n := range []uint32{0, 1, c - 1, c, c + 1, 2 * c, 2*c + 1, 7*c + 12345, size - 1, size} {
		add(0, 0x1ab, n)           // fill uses the low byte of the value
		add(size-n, 0, n)          // ends exactly at the end
		add(size-n+1, 0, n)        // one past the end
		add(0, size-n+1, n)        // copy: source one past the end
		add(size/2-n/2, size/3, n) // somewhere in the middle
	}
	add(size, 0, 0)             // zero length at the end: no trap
	add(size+1, 0, 0)           // zero length past the end: trap
	add(0, size+1, 0)           // copy: zero length, source past the end
	add(0xffffffff, 0, 1)       // dst+n wraps in i32
	add(1, 0, 0xffffffff)       // huge length
	add(0xffff0000, 0, 0x20000) // wraps, spans chunks
	// Overlapping copies, dst above and below src, by less than, exactly,
	// and more than a chunk.
	for _, k := range []uint32{1, 7, c - 1, c, c + 1, 3*c + 5} {
		for _, n := range []uint32{k, 2*k + 3, 5*c + 77, size - k} {
			cases = append(cases, bulkCase{"copy", k, 0, n}, bulkCase{"copy", 0, k, n},
				bulkCase{"copy", 1000 + k, 1000, n - min(n, 1000)}, bulkCase{"copy", 1000, 1000 + k, n - min(n, 1000)})
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		n := r.Uint32N(4 * c)
		if i%3 == 0 {
			n = r.Uint32N(size + 1)
		}
		d, s := r.Uint32N(size-n+1), r.Uint32N(size-n+1)
		if i%10 == 0 { // out of bounds
			d += r.Uint32N(3*c) + 1
		}
		if i%7 == 0 { // overlapping
			s = d + r.Uint32N(2*c) - c
		}
		add(d, s, n)
	}
	return cases
}

// TestBulkHelpersMatchWazero runs memory.fill and memory.copy in the
// original module and the helpers in the instrumented one over the same
// memory contents, and requires the same memory afterwards (byte for byte)
// and the same error; an operation that traps must not have written
// anything.
func TestBulkHelpersMatchWazero(t *testing.T) {
	orig := readTestdata(t, "bulkops.wasm")
	for _, o := range optionSets {
		t.Run(o.name, func(t *testing.T) {
			var h0, h1 host
			m0 := h0.instantiate(t, orig)
			m1 := h1.instantiate(t, mustInstrumentWith(t, orig, o.opts))
			mem0, mem1 := m0.Memory(), m1.Memory()
			size := mem0.Size()
			require.Equal(t, size, mem1.Size())

			pattern := make([]byte, size)
			r := rand.New(rand.NewPCG(3, 4))
			for i := range pattern {
				pattern[i] = byte(r.Uint32())
			}
			traps := 0
			for _, c := range bulkCases(size) {
				require.True(t, mem0.Write(0, pattern))
				require.True(t, mem1.Write(0, pattern))
				_, err0 := m0.ExportedFunction(c.op).Call(ctx, uint64(c.d), uint64(c.s), uint64(c.n))
				_, err1 := m1.ExportedFunction(c.op).Call(ctx, uint64(c.d), uint64(c.s), uint64(c.n))
				if err0 != nil {
					traps++
					require.Error(t, err1, "%v", c)
					assert.Equal(t, firstLine(err0.Error()), firstLine(err1.Error()), "%v", c)
					assert.Contains(t, err1.Error(), "out of bounds memory access")
				} else {
					require.NoError(t, err1, "%v", c)
				}
				got0, _ := mem0.Read(0, size)
				got1, _ := mem1.Read(0, size)
				if i := firstDiff(got0, got1); i >= 0 {
					t.Fatalf("%v: memory differs first at %#x: wazero %#x, helper %#x", c, i, got0[i], got1[i])
				}
				if err0 != nil && !bytes.Equal(got1, pattern) {
					t.Fatalf("%v: trapped but wrote to memory", c)
				}
			}
			assert.Greater(t, traps, 50)
		})
	}
}

func firstDiff(a, b []byte) int {
	if bytes.Equal(a, b) {
		return -1 // fast under the race detector, which checks a byte loop byte by byte
	}
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// TestBulkHelperTrapNamesTheHelper: with a name section, a stack trace
// through a helper names it.
func TestBulkHelperTrapNamesTheHelper(t *testing.T) {
	var h host
	_, err := h.call(t, mustInstrument(t, readTestdata(t, "bulkops.wasm")), "copy", 0, 1<<30, 1<<20)
	require.Error(t, err)
	assert.Contains(t, err.Error(), ".gate.copy(i32,i32,i32)")
	assert.Contains(t, err.Error(), ".copy(i32,i32,i32)")
}

// bigMemory instantiates bulkops.wasm instrumented with engineOptions and
// grows its memory to the 32 MiB cap.
func bigMemory(t *testing.T, h *host) api.Module {
	t.Helper()
	mod := h.instantiate(t, mustInstrumentWith(t, readTestdata(t, "bulkops.wasm"), engineOptions))
	_, err := mod.ExportedFunction("grow").Call(ctx, uint64(engineOptions.MaxMemoryPages-20))
	require.NoError(t, err)
	require.Equal(t, engineOptions.MaxMemoryPages*65536, mod.Memory().Size())
	return mod
}

// TestPanickingRefuelStopsOneFill is the point of the helpers: a single
// memory.fill of 32 MiB calls refuel many times, and a refuel that panics
// stops it partway.
func TestPanickingRefuelStopsOneFill(t *testing.T) {
	const n = 32 << 20
	t.Run("counts", func(t *testing.T) {
		var h host
		mod := bigMemory(t, &h)
		before := h.refuels.Load()
		_, err := mod.ExportedFunction("fill").Call(ctx, 0, 1, n)
		require.NoError(t, err)
		// One unit per 4 bytes, charged per chunk; refuel is called when
		// the fuel goes below 0 and resets it to Quantum.
		assert.GreaterOrEqual(t, h.refuels.Load()-before, int64(n>>helperBulkShift/(Quantum+memoryChunkCost)))
		for _, args := range [][]uint64{{1 << 20, 0, n - 1<<20}, {0, 1 << 20, n - 1<<20}} {
			before := h.refuels.Load()
			_, err := mod.ExportedFunction("copy").Call(ctx, args...)
			require.NoError(t, err)
			assert.Greater(t, h.refuels.Load()-before, int64(30), "copy%v", args)
		}
	})
	t.Run("fill stops", func(t *testing.T) {
		h := host{stopAt: 3}
		mod := bigMemory(t, &h)
		start := time.Now()
		_, err := mod.ExportedFunction("fill").Call(ctx, 0, 1, n)
		t.Logf("stopped after %v", time.Since(start))
		assert.True(t, errors.Is(err, errStop), "%v", err)
		assert.Equal(t, int64(3), h.refuels.Load())
		first, _ := mod.Memory().ReadByte(0)
		last, _ := mod.Memory().ReadByte(n - 1)
		assert.Equal(t, byte(1), first, "the fill started")
		assert.Equal(t, byte(0), last, "the fill did not finish")
	})
	t.Run("backward copy stops", func(t *testing.T) {
		h := host{stopAt: 3}
		mod := bigMemory(t, &h)
		pattern := make([]byte, n/2)
		for i := range pattern {
			pattern[i] = byte(i%251) + 1
		}
		require.True(t, mod.Memory().Write(0, pattern))
		// dst > src, overlapping: copied from the end.
		_, err := mod.ExportedFunction("copy").Call(ctx, 1<<20, 0, n/2)
		assert.True(t, errors.Is(err, errStop), "%v", err)
		end, _ := mod.Memory().ReadByte(1<<20 + n/2 - 1)
		start, _ := mod.Memory().ReadByte(1 << 20)
		assert.Equal(t, pattern[n/2-1], end, "the copy started at the end")
		assert.Equal(t, pattern[1<<20], start, "the copy did not reach the start")
	})
}

// TestBulkOpsWithoutAMemoryAreLeftAlone: a memory.fill in a module without
// a memory is invalid; it stays as it is (and invalid), and no helper is
// added. Likewise a memory index that wazero refuses.
func TestBulkOpsWithoutAMemoryAreLeftAlone(t *testing.T) {
	typ := sec(wasm.SectionType, 1, 0x60, 0, 0)
	fn := sec(wasm.SectionFunction, 1, 0)
	tests := []struct {
		name string
		in   []byte
		op   []byte
	}{
		{"no memory", mod(typ, fn, codeSec([]byte{0, 0x41, 0, 0x41, 0, 0x41, 0, 0xfc, 0x0b, 0x00, 0x0b})), []byte{0xfc, 0x0b, 0x00}},
		{"memory index 1", mod(typ, fn, sec(wasm.SectionMemory, 1, 0, 1),
			codeSec([]byte{0, 0x41, 0, 0x41, 0, 0x41, 0, 0xfc, 0x0b, 0x01, 0x0b})), []byte{0xfc, 0x0b, 0x01}},
		{"memory index in two bytes", mod(typ, fn, sec(wasm.SectionMemory, 1, 0, 1),
			codeSec([]byte{0, 0x41, 0, 0x41, 0, 0x41, 0, 0xfc, 0x0a, 0x00, 0x80, 0x00, 0x0b})), []byte{0xfc, 0x0a, 0x00, 0x80, 0x00}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := mustInstrumentWith(t, tc.in, engineOptions)
			m := decodeOut(t, out)
			assert.Len(t, m.Code, 1, "no helper")
			assert.True(t, bytes.Contains(m.Code[0].Body, tc.op))
			rt := wazero.NewRuntimeWithConfig(ctx, runtimeConfig())
			defer rt.Close(ctx)
			_, err := rt.CompileModule(ctx, tc.in)
			assert.Error(t, err)
			_, err = rt.CompileModule(ctx, out)
			assert.Error(t, err)
		})
	}
}

// TestHelpersAreNamed: the helpers get names, in a function name subsection
// added if the name section has none; names of functions that do not exist
// are dropped, and so are local names.
func TestHelpersAreNamed(t *testing.T) {
	typ := sec(wasm.SectionType, 1, 0x60, 0, 0)
	fn := sec(wasm.SectionFunction, 1, 0)
	memory := sec(wasm.SectionMemory, 1, 0, 1)
	code := codeSec([]byte{0, 0x41, 0, 0x41, 0, 0x41, 0, 0xfc, 0x0a, 0x00, 0x00, 0x41, 0, 0x41, 0, 0x41, 0, 0xfc, 0x0b, 0x00, 0x0b})
	subsection := func(id byte, content ...byte) []byte {
		return append(wasm.AppendU32([]byte{id}, uint32(len(content))), content...)
	}
	names := func(subs ...[]byte) []byte { return wasm.AppendCustomSection(nil, "name", cat(subs...)) }
	moduleName := subsection(0, 1, 'm')
	funcNames := subsection(1, 2, 0, 1, 'f', 7, 1, 'x') // function 7 does not exist
	localNames := subsection(2, 0)

	tests := []struct {
		name string
		in   []byte
		ids  []byte
	}{
		{"function names", mod(typ, fn, memory, code, names(moduleName, funcNames, localNames)), []byte{0, 1}},
		{"no function names", mod(typ, fn, memory, code, names(moduleName, localNames)), []byte{0, 1}},
		{"only local names", mod(typ, fn, memory, code, names(localNames)), []byte{1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := mustInstrumentWith(t, tc.in, engineOptions)
			var ns *wasm.NameSection
			for _, s := range decodeOut(t, out).Sections {
				if s.Name == "name" {
					var err error
					ns, err = wasm.DecodeNameSection(s.Content, s.ContentOffset)
					require.NoError(t, err)
				}
			}
			require.NotNil(t, ns)
			var ids []byte
			var funcs []wasm.NameAssoc
			for _, sub := range ns.Subsections {
				ids = append(ids, sub.ID)
				if sub.ID == 1 {
					funcs = sub.Functions
				}
			}
			assert.Equal(t, tc.ids, ids)
			// refuel 0, trap 1, the function 2, copy 3, fill 4 (order of use).
			want := []wasm.NameAssoc{{Index: 3, Name: "gate.copy"}, {Index: 4, Name: "gate.fill"}}
			if len(funcs) == 3 {
				want = append([]wasm.NameAssoc{{Index: 2, Name: "f"}}, want...)
			}
			assert.Equal(t, want, funcs)
			var h host
			h.instantiate(t, out)
		})
	}
}

func TestTableCap(t *testing.T) {
	limits := func(b []byte) (out []wasm.Limits) {
		for _, tt := range decodeOut(t, b).Tables {
			out = append(out, tt.Limits)
		}
		return out
	}
	lim := func(min, max uint32) wasm.Limits { return wasm.Limits{Min: min, Max: max, HasMax: true} }
	tests := []struct {
		name string
		file string
		cap  uint32
		want []wasm.Limits
		err  string
	}{
		{"no cap", "tables_cap.wasm", 0, []wasm.Limits{{Min: 4}, lim(2, 10), lim(1, 2000000)}, ""},
		{"engine cap", "tables_cap.wasm", 1 << 20, []wasm.Limits{lim(4, 1<<20), lim(2, 10), lim(1, 1<<20)}, ""},
		{"small cap", "tables_cap.wasm", 6, []wasm.Limits{lim(4, 6), lim(2, 6), lim(1, 6)}, ""},
		{"cap equal to a min", "tables_cap.wasm", 4, []wasm.Limits{lim(4, 4), lim(2, 4), lim(1, 4)}, ""},
		{"min over the cap", "tables_cap.wasm", 3, nil,
			"meter: table 0 minimum is 4 elements, over the probe table cap of 3 elements"},
		{"second table's min", "tables_cap_big.wasm", 1 << 20, nil,
			"meter: table 1 minimum is 3000000 elements, over the probe table cap of 1048576 elements"},
		{"imported min over the cap", "tables_cap_import.wasm", 1 << 20, nil,
			"meter: imported table 1 minimum is 2000000 elements, over the probe table cap of 1048576 elements"},
		{"imported limits are kept", "tables_cap_import.wasm", 3000000, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Instrument(readTestdata(t, tc.file), Options{MaxTableElements: tc.cap})
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				assert.True(t, errors.Is(err, ErrTableCap))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, limits(out))
			if tc.file == "tables_cap_import.wasm" {
				imports := decodeOut(t, out).Imports
				assert.Equal(t, wasm.Limits{Min: 5}, imports[0].Table.Limits)
				assert.Equal(t, lim(2000000, 4000000), imports[1].Table.Limits)
			}
		})
	}

	// The lowered max is enforced: table.grow past it fails (-1) at once
	// instead of allocating gigabytes.
	out, err := Instrument(readTestdata(t, "tables_cap.wasm"), Options{MaxTableElements: 1 << 20})
	require.NoError(t, err)
	var h host
	grow := h.instantiate(t, out).ExportedFunction("grow")
	for _, tc := range []struct{ delta, want uint64 }{{1 << 30, i32(-1)}, {1<<20 - 3, i32(-1)}, {1<<20 - 4, 4}, {1, i32(-1)}} {
		got, err := grow.Call(ctx, tc.delta)
		require.NoError(t, err)
		assert.Equal(t, []uint64{tc.want}, got, "grow(%d)", tc.delta)
	}

	// A table with wazero's initialiser form is capped too.
	in := mod(sec(wasm.SectionType, 1, 0x60, 0, 0), sec(wasm.SectionFunction, 1, 0),
		sec(wasm.SectionTable, 1, 0x40, 0x00, 0x70, 0x00, 0x02, 0xd2, 0x00, 0x0b), // (table 2 funcref (ref.func 0))
		codeSec([]byte{0, 0x0b}))
	out, err = Instrument(in, Options{MaxTableElements: 100})
	require.NoError(t, err)
	m := decodeOut(t, out)
	assert.Equal(t, []wasm.Limits{lim(2, 100)}, limits(out))
	assert.Equal(t, uint32(1), m.Tables[0].Init.FuncRefs[0].Index)
	h.instantiate(t, out)
}

func TestZeroMemoryIndices(t *testing.T) {
	tests := []struct {
		raw  []byte
		n    int
		want bool
	}{
		{[]byte{0xfc, 0x0b, 0x00}, 1, true},
		{[]byte{0xfc, 0x8b, 0x00, 0x00}, 1, true}, // sub-opcode in two bytes
		{[]byte{0xfc, 0x0b, 0x01}, 1, false},
		{[]byte{0xfc, 0x0b, 0x80, 0x00}, 1, false}, // index in two bytes
		{[]byte{0xfc, 0x0a, 0x00, 0x00}, 2, true},
		{[]byte{0xfc, 0x0a, 0x80, 0x00, 0x00}, 2, false},
		{[]byte{0xfc, 0x0a, 0x00, 0x80, 0x00}, 2, false},
		{[]byte{0xfc, 0x0a, 0x00, 0x01}, 2, false},
		{[]byte{0xfc, 0x0a}, 2, false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, zeroMemoryIndices(tc.raw, tc.n), "% x", tc.raw)
	}
}
