package meter

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/wasm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exportGlobal returns b with one more export: global index as name. Tests
// use it to read the injected stack global, which the rewrite never
// exports.
func exportGlobal(t testing.TB, b []byte, index uint32, name string) []byte {
	t.Helper()
	m, err := wasm.Decode(b)
	require.NoError(t, err)
	entry := wasm.AppendName(nil, name)
	entry = append(entry, byte(wasm.Global))
	entry = wasm.AppendU32(entry, index)
	for _, s := range m.Sections {
		if s.ID == wasm.SectionExport {
			content := wasm.AppendU32(nil, s.Count+1)
			content = append(content, s.Content[s.CountSize:]...)
			content = append(content, entry...)
			out := append([]byte(nil), b[:s.Offset]...)
			out = wasm.AppendSection(out, s.ID, content)
			return append(out, b[s.End:]...)
		}
	}
	t.Fatal("no export section")
	return nil
}

// stackGlobalOf returns the index of the stack global in an instrumented
// module: the last one.
func stackGlobalOf(t testing.TB, b []byte) uint32 {
	m, err := wasm.Decode(b)
	require.NoError(t, err)
	return m.NumImportedGlobals() + uint32(len(m.Globals)) - 1
}

// frames describes the activations f(n) nests, by their weights: f(n)
// nests n+1 of them, the i-th (from 0) weighing weights[i%len(weights)].
type frames struct {
	file, fn string
	weights  []uint32
}

// total is the count with n+1 activations of f on the stack.
func (f frames) total(n int) uint64 {
	t := uint64(0)
	for i := 0; i <= n; i++ {
		t += uint64(f.weights[i%len(f.weights)])
	}
	return t
}

// stackFrames are the recursions of the testdata, with their weights
// worked out by hand (see the comments in stack.wat and depth.wat).
var stackFrames = []frames{
	{"depth.wasm", "rec", []uint32{FrameOverhead + 1 + 2}},
	{"depth.wasm", "recind", []uint32{FrameOverhead + 1 + 2}},
	{"stack.wasm", "locals", []uint32{FrameOverhead + 1 + 100 + 2}},
	{"stack.wasm", "operands", []uint32{FrameOverhead + 1 + 12}},
	{"stack.wasm", "v128", []uint32{FrameOverhead + 1 + 6 + 4}},
	{"stack.wasm", "even", []uint32{FrameOverhead + 1 + 3, FrameOverhead + 1 + 20 + 3}},
}

// TestStackLimit: the trap fires on entering the activation that takes the
// count past MaxStackSlots and not before (the function called from the
// host counts too), directly, through call_indirect and in mutual
// recursion between frames of different weights; at limits that the
// deepest allowed stack fills exactly and at limits with room to spare
// below the next frame.
func TestStackLimit(t *testing.T) {
	for _, f := range stackFrames {
		for _, depth := range []int{1, 2, 3, 50, 1000} {
			full := f.total(depth - 1) // depth activations
			next := f.total(depth)
			for _, limit := range []uint64{full, next - 1} {
				t.Run(fmt.Sprintf("%s/%d/%d", f.fn, depth, limit), func(t *testing.T) {
					out := mustInstrumentWith(t, readTestdata(t, f.file), Options{MaxStackSlots: uint32(limit)})
					var h host
					fn := h.instantiate(t, out).ExportedFunction(f.fn)
					got, err := fn.Call(ctx, uint64(depth-1))
					require.NoError(t, err, "%d activations, %d slots, under a limit of %d", depth, full, limit)
					assert.Equal(t, []uint64{uint64(depth - 1)}, got)
					assert.Zero(t, h.traps.Load())

					_, err = fn.Call(ctx, uint64(depth))
					require.Error(t, err, "%d activations, %d slots, over a limit of %d", depth+1, next, limit)
					var te trapError
					require.True(t, errors.As(err, &te), "%v", err)
					assert.Equal(t, TrapCallStack, te.code)
					assert.Equal(t, int64(1), h.traps.Load())
					assert.Contains(t, err.Error(), "call stack too deep")
				})
			}
		}
	}
}

// TestStackCountStaysBalanced: every way out of a function (falling off
// the end, return from nested blocks, loops and ifs, br to the function's
// label, br_table, multi-value) takes the count back down by what it went
// up, so many calls leave no drift. The global is read through an export
// added for the test.
func TestStackCountStaysBalanced(t *testing.T) {
	out := mustInstrumentWith(t, readTestdata(t, "depth.wasm"), Options{MaxStackSlots: 1 << 20})
	out = exportGlobal(t, out, stackGlobalOf(t, out), "stack")
	var h host
	mod := h.instantiate(t, out)
	stack := mod.ExportedGlobal("stack")
	require.NotNil(t, stack)
	assert.Equal(t, uint64(0), stack.Get())

	calls := []struct {
		fn   string
		args []uint64
	}{
		{"ret", []uint64{i32(-1)}}, {"ret", []uint64{0}}, {"ret", []uint64{1}}, {"ret", []uint64{2}},
		{"ret", []uint64{3}}, {"ret", []uint64{9}},
		{"pair", []uint64{0}}, {"pair", []uint64{5}}, {"pair", []uint64{500}}, {"pair_sum", []uint64{3}},
		{"triple", []uint64{0}}, {"triple", []uint64{1}},
		{"br", []uint64{0}}, {"br", []uint64{1}}, {"br", []uint64{2}}, {"br", []uint64{3}}, {"br", []uint64{4}},
		{"brpair", []uint64{0}}, {"brpair", []uint64{1}},
		{"rec", []uint64{49}}, {"recind", []uint64{49}},
	}
	for _, c := range calls {
		_, err := mod.ExportedFunction(c.fn).Call(ctx, c.args...)
		require.NoError(t, err, "%s%v", c.fn, c.args)
		assert.Equal(t, uint64(0), stack.Get(), "after %s%v", c.fn, c.args)
	}

	// 1e5 calls of a recursion of depth 50.
	rec := mod.ExportedFunction("rec")
	for i := 0; i < 100_000; i++ {
		if _, err := rec.Call(ctx, 49); err != nil {
			t.Fatal(err)
		}
	}
	assert.Equal(t, uint64(0), stack.Get())

	// A recursion as deep as the limit allows, 100 times in a row.
	weight := uint64(stackFrames[0].weights[0])
	deepest := (1<<20)/weight - 1
	for i := 0; i < 100; i++ {
		got, err := rec.Call(ctx, deepest)
		require.NoError(t, err, "round %d", i)
		require.Equal(t, []uint64{deepest}, got)
	}
	assert.Equal(t, uint64(0), stack.Get())

	// As documented, a trap leaves the count where it was (the instance is
	// not to be used again).
	_, err := rec.Call(ctx, deepest+1)
	require.Error(t, err)
	assert.Equal(t, (deepest+2)*weight, stack.Get())
}

// heavyFrames is a module whose export "heavy" recurses forever with n
// i64 values live on the operand stack across each call: n slots of
// native stack a frame that, without a bound on stack size, would reach
// wazero's ceiling in few calls.
func heavyFrames(n int) []byte {
	body := []byte{0}
	for k := 1; k <= n; k++ {
		body = append(body, wasm.OpLocalGet, 0, wasm.OpI64Const)
		body = wasm.AppendS64(body, int64(k))
		body = append(body, 0x7c) // i64.add
	}
	body = append(body, wasm.OpLocalGet, 0, wasm.OpI64Const, 1, 0x7c, wasm.OpCall, 0)
	for k := 1; k <= n; k++ {
		body = append(body, 0x7c)
	}
	body = append(body, wasm.OpEnd)
	return mod(sec(wasm.SectionType, 1, 0x60, 1, 0x7e, 1, 0x7e), sec(wasm.SectionFunction, 1, 0),
		sec(wasm.SectionExport, 1, 5, 'h', 'e', 'a', 'v', 'y', 0, 0), codeSec(body))
}

// TestInfiniteRecursionStopsAtTheLimit: f(n) = f(n+1) + 1 stops at the
// limit, long before wazero's own stack ceiling (which it reaches by
// repeatedly doubling its stack in Go code), with tiny frames and with
// frames of 2,000 values alike.
func TestInfiniteRecursionStopsAtTheLimit(t *testing.T) {
	tests := []struct {
		name string
		wasm []byte
		fn   string
	}{
		{"tiny", readTestdata(t, "depth.wasm"), "forever"},
		{"heavy", heavyFrames(2000), "heavy"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h host
			start := time.Now()
			_, err := h.call(t, mustInstrumentWith(t, tc.wasm, engineOptions), tc.fn, 0)
			elapsed := time.Since(start)
			var te trapError
			require.True(t, errors.As(err, &te), "%v", err)
			// The limit's own trap, not wazero's overflow: how long that
			// took is the machine's, logged, not asserted.
			assert.Equal(t, TrapCallStack, te.code)
			t.Logf("stopped after %v", elapsed)

			// Without the limit, wazero stops it with its own stack
			// overflow.
			var h0 host
			_, err = h0.call(t, mustInstrument(t, tc.wasm), tc.fn, 0)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "stack overflow")
		})
	}
}

// TestTrapImportOnlyWithStackLimit: the trap import is injected (right
// after refuel) only with MaxStackSlots, and defined functions move by the
// number of injected imports.
func TestTrapImportOnlyWithStackLimit(t *testing.T) {
	orig := readTestdata(t, "calls.wasm") // imports env.add
	for _, tc := range []struct {
		opts    Options
		imports []string
	}{
		{Options{}, []string{"env.add", "gate.internal.refuel"}},
		{Options{MaxStackSlots: 5}, []string{"env.add", "gate.internal.refuel", "gate.internal.trap"}},
	} {
		m := decodeOut(t, mustInstrumentWith(t, orig, tc.opts))
		var names []string
		for _, imp := range m.Imports {
			names = append(names, imp.Module+"."+imp.Name)
		}
		assert.Equal(t, tc.imports, names)
		if tc.opts.MaxStackSlots > 0 {
			assert.Equal(t, "(i32) -> ()", m.Types[m.Imports[2].Type].String())
		}
		assert.Equal(t, uint32(len(tc.imports)), m.Exports[0].Index, "fib: defined function 0") // fib
	}
}

// TestTrapHostThatReturnsStillStops: a host trap import that returns does
// not let the guest go on (unreachable follows the call).
func TestTrapHostThatReturnsStillStops(t *testing.T) {
	out := mustInstrumentWith(t, readTestdata(t, "depth.wasm"), Options{MaxStackSlots: 100})
	h := host{trapReturns: true}
	_, err := h.call(t, out, "rec", 10)
	require.Error(t, err)
	assert.Equal(t, int64(1), h.traps.Load())
	assert.Contains(t, err.Error(), "unreachable")
}

func TestTrapReason(t *testing.T) {
	assert.Equal(t, "call stack too deep: over the probe's stack limit", TrapReason(TrapCallStack))
	assert.Equal(t, "unknown trap reason 99", TrapReason(99))
}

// stackConsts returns, for each defined function of an instrumented
// module, the two constants of its stack check: its weight and the limit.
func stackConsts(t *testing.T, b []byte) (weights []int64, limits []int64) {
	m := decodeOut(t, b)
	stack := stackGlobalOf(t, b)
	for _, c := range m.Code {
		ir := wasm.NewInstrReader(c.Body, c.BodyOffset)
		var prev wasm.Instr
		var consts []int64
		for !ir.Done() && len(consts) < 2 {
			in, err := ir.Next()
			require.NoError(t, err)
			if in.Op == wasm.OpI32Const && prev.Op == wasm.OpGlobalGet && prev.Index == stack {
				consts = append(consts, s32(t, in.Raw[1:]))
			}
			prev = in
		}
		if len(consts) == 2 {
			weights = append(weights, consts[0])
			limits = append(limits, consts[1])
		}
	}
	return weights, limits
}

// s32 decodes a signed LEB128.
func s32(t *testing.T, b []byte) int64 {
	var v int64
	var shift uint
	for i, c := range b {
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
		require.Less(t, i, 4)
	}
	t.Fatal("truncated LEB128")
	return 0
}

// TestFrameWeights: what each frame counts, as the rewrite emits it:
// FrameOverhead, params and locals (v128 counting two slots), the scratch
// local of an inline bulk charge, the highest operand stack; capped at the
// limit+1, with the limit itself capped below 1<<31.
func TestFrameWeights(t *testing.T) {
	typ := sec(wasm.SectionType, 2,
		0x60, 2, 0x7f, 0x7b, 0, // 0: (i32, v128) -> ()
		0x60, 0, 1, 0x7b) // 1: () -> v128
	table := sec(wasm.SectionTable, 1, 0x70, 0, 1)
	const fo = FrameOverhead
	tests := []struct {
		name   string
		typ    byte // type index of the function
		body   []byte
		limit  uint32
		weight int64
		emit   int64 // the limit emitted
	}{
		{"params", 0, []byte{0, 0x0b}, 1000, fo + 3, 1000},
		{"locals", 0, []byte{2, 3, 0x7e, 2, 0x7b, 0x0b}, 1000, fo + 3 + 3 + 4, 1000},
		{"operands", 1, cat([]byte{0, 0x41, 1, 0x41, 2, 0x41, 3, 0x1a, 0x1a, 0x1a, 0xfd, 0x0c}, make([]byte, 16), []byte{0x0b}), 1000, fo + 3, 1000},
		{"v128 operands", 1, cat([]byte{0, 0xfd, 0x0c}, make([]byte, 16), []byte{0xfd, 0x0c}, make([]byte, 16), []byte{0xfd, 0x6e, 0x0b}), 1000, fo + 4, 1000},
		{"scratch local", 0, []byte{0, 0xd0, 0x70, 0x41, 1, 0xfc, 0x0f, 0, 0x1a, 0x0b}, 1000, fo + 3 + 1 + 2, 1000}, // table.grow
		{"capped at the limit+1", 0, []byte{1, 0xff, 0xff, 0x03, 0x7e, 0x0b}, 1000, 1001, 1000},
		{"limit capped", 0, []byte{1, 0xff, 0xff, 0x03, 0x7e, 0x0b}, math.MaxUint32, fo + 3 + 0xffff, math.MaxInt32},
		{"limit at the cap", 0, []byte{0, 0x0b}, 1 << 31, fo + 3, math.MaxInt32},
		{"weight past the capped limit", 0, []byte{1, 0xff, 0xff, 0xff, 0xff, 0x07, 0x7e, 0x0b}, math.MaxUint32, math.MinInt32, math.MaxInt32}, // 1<<31 as an i32
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := mod(typ, sec(wasm.SectionFunction, 1, tc.typ), table, codeSec(tc.body))
			out, err := Instrument(in, Options{MaxStackSlots: tc.limit})
			require.NoError(t, err)
			weights, limits := stackConsts(t, out)
			assert.Equal(t, []int64{tc.weight}, weights)
			assert.Equal(t, []int64{tc.emit}, limits)
		})
	}
}

// TestWrapperBlockTypes: a function with several results gets a () ->
// results block type, reusing a standalone one, else one appended once per
// distinct result list (never one in a rec group).
func TestWrapperBlockTypes(t *testing.T) {
	body := []byte{0, 0x41, 1, 0x42, 2, 0x0b} // i32.const 1, i64.const 2
	tests := []struct {
		name  string
		types []byte // type section content
		want  []string
	}{
		{"reused", []byte{2, 0x60, 0, 2, 0x7f, 0x7e, 0x60, 1, 0x7f, 2, 0x7f, 0x7e},
			[]string{"() -> (i32, i64)", "(i32) -> (i32, i64)", "() -> i32", "(i32) -> ()"}},
		{"appended once", []byte{2, 0x60, 1, 0x7d, 2, 0x7f, 0x7e, 0x60, 1, 0x7f, 2, 0x7f, 0x7e},
			[]string{"(f32) -> (i32, i64)", "(i32) -> (i32, i64)", "() -> i32", "(i32) -> ()", "() -> (i32, i64)"}},
		{"not from a rec group", []byte{2, 0x4e, 1, 0x60, 0, 2, 0x7f, 0x7e, 0x60, 1, 0x7f, 2, 0x7f, 0x7e},
			[]string{"() -> (i32, i64)", "(i32) -> (i32, i64)", "() -> i32", "(i32) -> ()", "() -> (i32, i64)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := mod(sec(wasm.SectionType, tc.types...), sec(wasm.SectionFunction, 2, 1, 1),
				sec(wasm.SectionExport, 1, 1, 'f', 0, 1),
				codeSec(body, body)) // two functions of type 1, (i32) -> (i32, i64)
			out := mustInstrumentWith(t, in, Options{MaxStackSlots: 100})
			m := decodeOut(t, out)
			var got []string
			for _, ft := range m.Types {
				got = append(got, ft.String())
			}
			assert.Equal(t, tc.want, got)
			var h host
			res, err := h.call(t, out, "f", 0)
			require.NoError(t, err)
			assert.Equal(t, []uint64{1, 2}, res)
		})
	}
}
