package meter

import (
	"errors"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/wasm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exportGlobal returns b with one more export: global index as name. Tests
// use it to read the injected depth global, which the rewrite never exports.
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

// depthGlobalOf returns the index of the depth global in an instrumented
// module: the last one.
func depthGlobalOf(t testing.TB, b []byte) uint32 {
	m, err := wasm.Decode(b)
	require.NoError(t, err)
	return m.NumImportedGlobals() + uint32(len(m.Globals)) - 1
}

// TestCallDepthLimit: the trap fires on the MaxCallDepth+1st nested
// activation and not before (the exported function called from the host is
// the first), directly and through call_indirect.
func TestCallDepthLimit(t *testing.T) {
	orig := readTestdata(t, "depth.wasm")
	for _, limit := range []uint32{1, 2, 3, 100, 10000} {
		out := mustInstrumentWith(t, orig, Options{MaxCallDepth: limit})
		for _, fn := range []string{"rec", "recind"} {
			var h host
			mod := h.instantiate(t, out)
			f := mod.ExportedFunction(fn)
			// rec(n) nests n+1 activations.
			got, err := f.Call(ctx, uint64(limit-1))
			require.NoError(t, err, "%s(%d) with limit %d", fn, limit-1, limit)
			assert.Equal(t, []uint64{uint64(limit - 1)}, got)
			assert.Zero(t, h.traps.Load())

			_, err = f.Call(ctx, uint64(limit))
			require.Error(t, err, "%s(%d) with limit %d", fn, limit, limit)
			var te trapError
			require.True(t, errors.As(err, &te), "%v", err)
			assert.Equal(t, TrapCallDepth, te.code)
			assert.Equal(t, int64(1), h.traps.Load())
			assert.Contains(t, err.Error(), "call stack too deep")
		}
	}
}

// TestCallDepthStaysBalanced: every way out of a function (falling off the
// end, return from nested blocks, loops and ifs, br to the function's label,
// br_table, multi-value) takes the count back down, so many calls leave no
// drift. The depth global is read through an export added for the test.
func TestCallDepthStaysBalanced(t *testing.T) {
	out := mustInstrumentWith(t, readTestdata(t, "depth.wasm"), Options{MaxCallDepth: 10000})
	out = exportGlobal(t, out, depthGlobalOf(t, out), "depth")
	var h host
	mod := h.instantiate(t, out)
	depth := mod.ExportedGlobal("depth")
	require.NotNil(t, depth)
	assert.Equal(t, uint64(0), depth.Get())

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
		assert.Equal(t, uint64(0), depth.Get(), "after %s%v", c.fn, c.args)
	}

	// 1e5 calls of a recursion of depth 50.
	rec := mod.ExportedFunction("rec")
	for i := 0; i < 100_000; i++ {
		if _, err := rec.Call(ctx, 49); err != nil {
			t.Fatal(err)
		}
	}
	assert.Equal(t, uint64(0), depth.Get())

	// A recursion as deep as the limit allows, 100 times in a row.
	for i := 0; i < 100; i++ {
		got, err := rec.Call(ctx, 9999)
		require.NoError(t, err, "round %d", i)
		require.Equal(t, []uint64{9999}, got)
	}
	assert.Equal(t, uint64(0), depth.Get())

	// As documented, a trap leaves the count where it was (the instance is
	// not to be used again).
	_, err := rec.Call(ctx, 10000)
	require.Error(t, err)
	assert.Equal(t, uint64(10001), depth.Get())
}

// TestInfiniteRecursionStopsAtTheLimit: f(n) = f(n+1) + 1 stops at the limit,
// long before wazero's own stack ceiling (which it reaches by repeatedly
// doubling its stack in Go code).
func TestInfiniteRecursionStopsAtTheLimit(t *testing.T) {
	orig := readTestdata(t, "depth.wasm")
	var h host
	start := time.Now()
	_, err := h.call(t, mustInstrumentWith(t, orig, engineOptions), "forever", 0)
	elapsed := time.Since(start)
	var te trapError
	require.True(t, errors.As(err, &te), "%v", err)
	assert.Equal(t, TrapCallDepth, te.code)
	assert.Less(t, elapsed, time.Second)
	t.Logf("stopped after %v", elapsed)

	// Without the limit, wazero stops it with its own stack overflow.
	var h0 host
	_, err = h0.call(t, mustInstrument(t, orig), "forever", 0)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "stack overflow")
}

// TestTrapImportOnlyWithDepth: the trap import is injected (right after
// refuel) only with MaxCallDepth, and defined functions move by the number
// of injected imports.
func TestTrapImportOnlyWithDepth(t *testing.T) {
	orig := readTestdata(t, "calls.wasm") // imports env.add
	for _, tc := range []struct {
		opts    Options
		imports []string
	}{
		{Options{}, []string{"env.add", "gate.internal.refuel"}},
		{Options{MaxCallDepth: 5}, []string{"env.add", "gate.internal.refuel", "gate.internal.trap"}},
	} {
		m := decodeOut(t, mustInstrumentWith(t, orig, tc.opts))
		var names []string
		for _, imp := range m.Imports {
			names = append(names, imp.Module+"."+imp.Name)
		}
		assert.Equal(t, tc.imports, names)
		if tc.opts.MaxCallDepth > 0 {
			assert.Equal(t, "(i32) -> ()", m.Types[m.Imports[2].Type].String())
		}
		assert.Equal(t, uint32(len(tc.imports)), m.Exports[0].Index, "fib: defined function 0") // fib
	}
}

// TestTrapHostThatReturnsStillStops: a host trap import that returns does
// not let the guest go on (unreachable follows the call).
func TestTrapHostThatReturnsStillStops(t *testing.T) {
	out := mustInstrumentWith(t, readTestdata(t, "depth.wasm"), Options{MaxCallDepth: 10})
	h := host{trapReturns: true}
	_, err := h.call(t, out, "rec", 10)
	require.Error(t, err)
	assert.Equal(t, int64(1), h.traps.Load())
	assert.Contains(t, err.Error(), "unreachable")
}

func TestTrapReason(t *testing.T) {
	assert.Equal(t, "call stack too deep: more nested calls than the probe limit", TrapReason(TrapCallDepth))
	assert.Equal(t, "unknown trap reason 99", TrapReason(99))
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
			out := mustInstrumentWith(t, in, Options{MaxCallDepth: 3})
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
