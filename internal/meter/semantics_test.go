package meter

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero/api"
)

func i32(v int32) uint64 { return api.EncodeI32(v) }

// TestInstrumentedModulesBehaveTheSame runs exports of the testdata modules
// before and after instrumentation and requires the same results.
func TestInstrumentedModulesBehaveTheSame(t *testing.T) {
	spin := func(n int) uint64 {
		var x uint32
		for i := 0; i < n; i++ {
			x = x*1664525 + 1013904223
		}
		return uint64(x)
	}
	tests := []struct {
		file string
		fn   string
		args []uint64
		want []uint64 // nil: only compare with the uninstrumented run
	}{
		{"calls.wasm", "fib", []uint64{20}, []uint64{6765}},
		{"calls.wasm", "exp", []uint64{16}, []uint64{65536}},
		{"loops.wasm", "nested", []uint64{100}, []uint64{4950 * 4950}},
		{"loops.wasm", "spin", []uint64{100000}, []uint64{spin(100000)}},
		{"loops.wasm", "classify", []uint64{1}, []uint64{20}},
		{"loops.wasm", "classify", []uint64{7}, []uint64{99}},
		{"loops.wasm", "classify_sum", []uint64{10}, []uint64{10 + 20 + 30 + 7*99}},
		{"tables.wasm", "started", nil, []uint64{1}},
		{"tables.wasm", "call0", []uint64{0, 5}, []uint64{10}},      // double, form 0
		{"tables.wasm", "call0", []uint64{1, 5}, []uint64{25}},      // square, form 0
		{"tables.wasm", "call0", []uint64{2, 5}, []uint64{i32(-5)}}, // neg, form 4
		{"tables.wasm", "call0", []uint64{4, 5}, []uint64{i32(-5)}}, // neg, form 1 via table.init
		{"tables.wasm", "call0", []uint64{5, 5}, []uint64{6}},       // inc (calls the import), form 1
		{"tables.wasm", "call0", []uint64{6, 5}, []uint64{25}},      // square, from a ref.func global
		{"tables.wasm", "call0", []uint64{7, 5}, []uint64{4}},       // dec, ref.func in code
		{"tables.wasm", "call1", []uint64{0, 5}, []uint64{6}},       // inc, form 2
		{"tables.wasm", "call1", []uint64{1, 5}, []uint64{4}},       // dec, form 2
		{"tables.wasm", "call1", []uint64{2, 5}, []uint64{25}},      // square, form 6
		{"tables.wasm", "call1", []uint64{3, 5}, []uint64{4}},       // dec, form 5 via table.init
		{"tables.wasm", "call1", []uint64{5, 5}, []uint64{10}},      // double, form 5
		{"tables.wasm", "ref_is_dec", []uint64{7}, []uint64{1}},
		{"bulk.wasm", "churn", []uint64{50}, nil},
		{"bulk.wasm", "tables", nil, []uint64{8 + 7}},
		{"bulk.wasm", "grow", nil, []uint64{2}},
		{"depth.wasm", "ret", []uint64{i32(-5)}, []uint64{i32(-1)}},
		{"depth.wasm", "ret", []uint64{0}, []uint64{100}},
		{"depth.wasm", "ret", []uint64{1}, []uint64{200}},
		{"depth.wasm", "ret", []uint64{2}, []uint64{300}},
		{"depth.wasm", "ret", []uint64{3}, []uint64{400}},
		{"depth.wasm", "ret", []uint64{4}, []uint64{504}},
		{"depth.wasm", "pair", []uint64{0}, []uint64{7, 70}},
		{"depth.wasm", "pair", []uint64{50}, []uint64{7, 70}},
		{"depth.wasm", "pair", []uint64{150}, []uint64{8, 150}},
		{"depth.wasm", "pair_sum", []uint64{3}, []uint64{7070}},
		{"depth.wasm", "pair_sum", []uint64{200}, []uint64{8200}},
		{"depth.wasm", "triple", []uint64{1}, []uint64{1, 2, api.EncodeF64(3.5)}},
		{"depth.wasm", "triple", []uint64{0}, []uint64{4, 5, api.EncodeF64(6.5)}},
		{"depth.wasm", "br", []uint64{0}, []uint64{1013}},
		{"depth.wasm", "br", []uint64{1}, []uint64{11}},
		{"depth.wasm", "br", []uint64{2}, []uint64{12}},
		{"depth.wasm", "br", []uint64{3}, []uint64{3013}},
		{"depth.wasm", "br", []uint64{4}, []uint64{13}},
		{"depth.wasm", "br", []uint64{9}, []uint64{13}},
		{"depth.wasm", "brpair", []uint64{1}, []uint64{1, 10}},
		{"depth.wasm", "brpair", []uint64{0}, []uint64{2, 20}},
		{"depth.wasm", "rec", []uint64{500}, []uint64{500}},
		{"depth.wasm", "recind", []uint64{500}, []uint64{500}},
	}
	for _, o := range optionSets {
		for _, tc := range tests {
			t.Run(o.name+"/"+tc.file+"/"+tc.fn, func(t *testing.T) {
				orig := readTestdata(t, tc.file)
				var h0, h1 host
				want, err := h0.call(t, orig, tc.fn, tc.args...)
				require.NoError(t, err)
				got, err := h1.call(t, mustInstrumentWith(t, orig, o.opts), tc.fn, tc.args...)
				require.NoError(t, err)
				assert.Equal(t, want, got)
				if tc.want != nil {
					assert.Equal(t, tc.want, got)
				}
				assert.Zero(t, h1.traps.Load())
			})
		}
	}
}

// TestTrapsAndNullEntriesStillTrap: a null table entry and an out-of-range
// index trap the same way before and after.
func TestTrapsStillTrap(t *testing.T) {
	orig := readTestdata(t, "tables.wasm")
	for _, o := range optionSets {
		for _, args := range [][]uint64{{3, 1}, {100, 1}} {
			var h0, h1 host
			_, err0 := h0.call(t, orig, "call0", args...)
			_, err1 := h1.call(t, mustInstrumentWith(t, orig, o.opts), "call0", args...)
			require.Error(t, err0)
			require.Error(t, err1)
			assert.Equal(t, firstLine(err0.Error()), firstLine(err1.Error()), o.name)
		}
	}
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

func TestRefuelIsCalledInALongLoop(t *testing.T) {
	var h host
	const n = 10_000_000
	_, err := h.call(t, mustInstrument(t, readTestdata(t, "loops.wasm")), "spin", n)
	require.NoError(t, err)
	// The loop body is about a dozen instructions.
	assert.Greater(t, h.refuels.Load(), int64(n*10/Quantum))
}

func TestRefuelIsCalledInALoopFreeCallTree(t *testing.T) {
	var h host
	got, err := h.call(t, mustInstrument(t, readTestdata(t, "calls.wasm")), "exp", 20)
	require.NoError(t, err)
	assert.Equal(t, []uint64{1 << 20}, got)
	// 2^21-1 calls of about ten instructions each.
	assert.Greater(t, h.refuels.Load(), int64((1<<21)*10/Quantum))
}

// TestPanickingRefuelStopsTheGuest is the point of it all: a refuel that
// panics (as gate's does past the deadline) stops a guest that would
// otherwise run for a very long time, and the panic comes back from Call.
func TestPanickingRefuelStopsTheGuest(t *testing.T) {
	tests := []struct {
		file, fn string
		arg      uint64
		stopAt   int64
	}{
		{"calls.wasm", "exp", 30, 3},         // 2^31 calls, no loops
		{"loops.wasm", "spin", 1<<31 - 1, 3}, // a tight loop
		{"loops.wasm", "nested", 1 << 20, 3}, // nested loops
		// A single fill is stopped partway: see TestPanickingRefuelStopsOneFill.
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.fn, func(t *testing.T) {
			h := host{stopAt: tc.stopAt}
			_, err := h.call(t, mustInstrument(t, readTestdata(t, tc.file)), tc.fn, tc.arg)
			require.Error(t, err)
			assert.True(t, errors.Is(err, errStop), "error: %v", err)
			// The bound is the refuels: stopped at the one that panicked,
			// whatever the machine's speed.
			assert.Equal(t, tc.stopAt, h.refuels.Load())
		})
	}
}

// TestNamesSurvive: with the name section renumbered, a trap's stack trace
// names the same functions before and after instrumentation.
func TestNamesSurvive(t *testing.T) {
	orig := readTestdata(t, "names.wasm")
	for _, o := range optionSets {
		var h0, h1 host
		_, err0 := h0.call(t, orig, "outer")
		_, err1 := h1.call(t, mustInstrumentWith(t, orig, o.opts), "outer")
		require.Error(t, err0)
		require.Error(t, err1)
		t.Log(err1)
		assert.Equal(t, err0.Error(), err1.Error(), o.name)
		for _, name := range []string{"boom", "middle", "outer"} {
			assert.Contains(t, err1.Error(), "."+name+"(")
		}
	}
}
