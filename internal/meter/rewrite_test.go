package meter

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/gate-dev/gate/internal/wasm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
)

// checkpointBytes is the exact sequence rule 4 prescribes.
func checkpointBytes(fuel, refuel uint32, cost int32) []byte {
	b := []byte{wasm.OpGlobalGet}
	b = wasm.AppendU32(b, fuel)
	b = append(b, wasm.OpI32Const)
	b = wasm.AppendS32(b, cost)
	b = append(b, wasm.OpI32Sub, wasm.OpGlobalSet)
	b = wasm.AppendU32(b, fuel)
	return append(b, fuelTestBytes(fuel, refuel)...)
}

func fuelTestBytes(fuel, refuel uint32) []byte {
	b := []byte{wasm.OpGlobalGet}
	b = wasm.AppendU32(b, fuel)
	b = append(b, wasm.OpI32Const, 0, wasm.OpI32LtS, wasm.OpIf, 0x40, wasm.OpCall)
	b = wasm.AppendU32(b, refuel)
	b = append(b, wasm.OpGlobalSet)
	b = wasm.AppendU32(b, fuel)
	return append(b, wasm.OpEnd)
}

// bulkBytes is rule 5's charge before a bulk operation.
func bulkBytes(fuel, refuel, scratch uint32, shift int32) []byte {
	b := []byte{wasm.OpLocalTee}
	b = wasm.AppendU32(b, scratch)
	b = append(b, wasm.OpGlobalGet)
	b = wasm.AppendU32(b, fuel)
	b = append(b, wasm.OpLocalGet)
	b = wasm.AppendU32(b, scratch)
	b = append(b, wasm.OpI32Const)
	b = wasm.AppendS32(b, shift)
	b = append(b, wasm.OpI32ShrU, wasm.OpI32Sub, wasm.OpGlobalSet)
	b = wasm.AppendU32(b, fuel)
	return append(b, fuelTestBytes(fuel, refuel)...)
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// mod assembles a module from sections.
func mod(sections ...[]byte) []byte {
	return cat(append([][]byte{wasm.Magic, wasm.Version}, sections...)...)
}

func sec(id wasm.SectionID, content ...byte) []byte { return wasm.AppendSection(nil, id, content) }

// codeSec builds a code section from bodies (each: locals vector and
// instructions).
func codeSec(bodies ...[]byte) []byte {
	c := wasm.AppendU32(nil, uint32(len(bodies)))
	for _, b := range bodies {
		c = wasm.AppendU32(c, uint32(len(b)))
		c = append(c, b...)
	}
	return wasm.AppendSection(nil, wasm.SectionCode, c)
}

func decodeOut(t *testing.T, b []byte) *wasm.Module {
	t.Helper()
	m, err := wasm.Decode(b)
	require.NoError(t, err)
	return m
}

// TestBodyRewrite checks rules 4 and 5 byte for byte on a small function with
// a parameter, a local, nested loops, a call, a memory.fill (which becomes a
// call to the fill helper) and a table.grow (charged inline).
func TestBodyRewrite(t *testing.T) {
	in := mod(
		sec(wasm.SectionType, 1, 0x60, 1, 0x7f, 0), // (i32) -> ()
		sec(wasm.SectionFunction, 2, 0, 0),         // two functions
		sec(wasm.SectionTable, 1, 0x70, 0, 1),      // (table 1 funcref)
		sec(wasm.SectionMemory, 1, 0, 1),           // (memory 1)
		codeSec(
			[]byte{1, 1, 0x7e, // (local i64)
				0x41, 0x00, // i32.const 0
				0x03, 0x40, // loop
				0x03, 0x40, 0x01, 0x0b, // loop nop end
				0x41, 0x00, 0x41, 0x00, 0x20, 0x00, 0xfc, 0x0b, 0x00, // memory.fill(0, 0, local 0)
				0xd0, 0x70, 0x20, 0x00, 0xfc, 0x0f, 0x00, 0x1a, // drop(table.grow(ref.null func, local 0))
				0x0b,       // end
				0x10, 0x01, // call 1
				0x0b}, // end
			[]byte{0, 0x0b},
		),
	)
	out, err := Instrument(in, Options{})
	require.NoError(t, err)
	m := decodeOut(t, out)

	const fuel, refuel, scratch = 0, 0, 2 // first global, first function, after (param i32) (local i64)
	const fill = 3                        // the helper: after refuel and the two functions
	want := cat(
		[]byte{2, 1, 0x7e, 1, 0x7f}, // locals: the i64, then the scratch i32
		// entry: i32.const, loop, call, end = 4
		checkpointBytes(fuel, refuel, 4),
		[]byte{0x41, 0x00, 0x03, 0x40},
		// outer loop: loop, i32.const x2, local.get, memory.fill, ref.null,
		// local.get, table.grow, drop, end = 10
		checkpointBytes(fuel, refuel, 10),
		[]byte{0x03, 0x40},
		checkpointBytes(fuel, refuel, 2), // inner loop: nop, end
		[]byte{0x01, 0x0b, 0x41, 0x00, 0x41, 0x00, 0x20, 0x00},
		[]byte{0x10, fill}, // memory.fill is now call $gate.fill
		[]byte{0xd0, 0x70, 0x20, 0x00},
		bulkBytes(fuel, refuel, scratch, 4),
		[]byte{0xfc, 0x0f, 0x00, 0x1a, 0x0b},
		[]byte{0x10, 0x02}, // call 1 is now call 2
		[]byte{0x0b},
	)
	require.Len(t, m.Code, 3)
	assert.Equal(t, want, cat(m.Code[0].LocalsRaw, m.Code[0].Body))
	assert.Equal(t, cat([]byte{0}, checkpointBytes(fuel, refuel, 1), []byte{0x0b}), cat(m.Code[1].LocalsRaw, m.Code[1].Body))
	// The helper is appended with type (i32, i32, i32) -> (), a new type.
	require.Len(t, m.Functions, 3)
	assert.Equal(t, "(i32, i32, i32) -> ()", m.Types[m.Functions[2]].String())
	assert.Equal(t, []uint32{0, 0}, m.Functions[:2])
}

func TestScopeCosts(t *testing.T) {
	body := func(instrs ...byte) wasm.Code {
		return wasm.Code{Body: append(instrs, 0x0b)}
	}
	tests := []struct {
		name string
		code wasm.Code
		want []int32
		bulk bool
	}{
		{"empty", body(), []int32{1}, false},
		{"straight line", body(0x41, 0x01, 0x1a, 0x01), []int32{4}, false},
		{"block and if belong to the function", body(0x02, 0x40, 0x41, 0x01, 0x04, 0x40, 0x01, 0x05, 0x01, 0x0b, 0x0b), []int32{9}, false},
		{"loop", body(0x03, 0x40, 0x01, 0x0b), []int32{2, 2}, false},
		{"nested loops", body(0x03, 0x40, 0x01, 0x03, 0x40, 0x01, 0x01, 0x0b, 0x0b, 0x01), []int32{3, 3, 3}, false},
		{"sibling loops", body(0x03, 0x40, 0x0b, 0x03, 0x40, 0x01, 0x0b), []int32{3, 1, 2}, false},
		{"memory.grow", body(0x41, 0x01, 0x40, 0x00, 0x1a), []int32{3 + 1<<14}, false},
		{"bulk", body(0x41, 0x00, 0x41, 0x00, 0x41, 0x00, 0xfc, 0x0a, 0x00, 0x00), []int32{5}, true},
		{"clamped", body(bytes.Repeat([]byte{0x41, 0x01, 0x40, 0x00, 0x1a}, 1100)...), []int32{maxCost}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			costs, bulk, err := scopeCosts(tc.code, bulkShift, nil)
			require.NoError(t, err)
			assert.Equal(t, tc.want, costs)
			assert.Equal(t, tc.bulk, bulk)
		})
	}
}

// TestModuleRewrite checks rules 1-3 on tables.wasm: the import, the type, the
// global, and every renumbered function reference.
func TestModuleRewrite(t *testing.T) {
	orig := readTestdata(t, "tables.wasm")
	before := decodeOut(t, orig)
	after := decodeOut(t, mustInstrument(t, orig))
	imported := before.NumImportedFuncs()
	require.Equal(t, uint32(1), imported)
	shift := func(i uint32) uint32 {
		if i < imported {
			return i
		}
		return i + 1
	}

	// Rule 1: the import comes last; () -> i32 already existed and is reused.
	require.Len(t, after.Imports, len(before.Imports)+1)
	assert.Equal(t, before.Imports, after.Imports[:len(before.Imports)])
	refuel := after.Imports[len(after.Imports)-1]
	assert.Equal(t, ImportModule, refuel.Module)
	assert.Equal(t, ImportName, refuel.Name)
	assert.Equal(t, wasm.Func, refuel.Kind)
	assert.Equal(t, before.Types, after.Types)
	assert.Equal(t, "() -> i32", after.Types[refuel.Type].String())
	assert.Equal(t, before.Functions, after.Functions)

	// Rule 2: the fuel global comes last.
	require.Len(t, after.Globals, len(before.Globals)+1)
	fuel := after.Globals[len(after.Globals)-1]
	assert.Equal(t, wasm.GlobalType{Type: wasm.I32, Mutable: true}, fuel.Type)
	assert.Equal(t, cat([]byte{0x41}, wasm.AppendS32(nil, Quantum), []byte{0x0b}), fuel.Init.Raw)

	// Rule 3: every reference to a defined function moved up by one.
	for i, g := range before.Globals {
		for j, r := range g.Init.FuncRefs {
			assert.Equal(t, shift(r.Index), after.Globals[i].Init.FuncRefs[j].Index)
		}
	}
	for i, e := range before.Exports {
		want := e.Index
		if e.Kind == wasm.Func {
			want = shift(e.Index)
		}
		assert.Equal(t, want, after.Exports[i].Index, "export %q", e.Name)
	}
	assert.Equal(t, shift(before.Start.Index), after.Start.Index)
	require.Len(t, after.Elements, len(before.Elements))
	for i, e := range before.Elements {
		a := after.Elements[i]
		assert.Equal(t, e.Flags, a.Flags)
		require.Len(t, a.Funcs, len(e.Funcs))
		for j, f := range e.Funcs {
			assert.Equal(t, shift(f.Index), a.Funcs[j].Index, "segment %d item %d", i, j)
		}
		require.Len(t, a.Exprs, len(e.Exprs))
		for j, x := range e.Exprs {
			require.Len(t, a.Exprs[j].FuncRefs, len(x.FuncRefs))
			for k, r := range x.FuncRefs {
				assert.Equal(t, shift(r.Index), a.Exprs[j].FuncRefs[k].Index, "segment %d item %d", i, j)
			}
		}
	}
	// And in code: collect call and ref.func targets.
	targets := func(m *wasm.Module) (out []uint32) {
		for _, c := range m.Code {
			ir := wasm.NewInstrReader(c.Body, c.BodyOffset)
			for !ir.Done() {
				in, err := ir.Next()
				require.NoError(t, err)
				if (in.Op == wasm.OpCall && in.Index != refuelIndex(m)) || in.Op == wasm.OpRefFunc {
					out = append(out, in.Index)
				}
			}
		}
		return out
	}
	var want []uint32
	for _, i := range targets(before) {
		want = append(want, shift(i))
	}
	assert.Equal(t, want, targets(after))
}

// refuelIndex finds the injected import in an instrumented module (or returns
// an impossible index).
func refuelIndex(m *wasm.Module) uint32 {
	n := uint32(0)
	for _, imp := range m.Imports {
		if imp.Kind != wasm.Func {
			continue
		}
		if imp.Module == ImportModule {
			return n
		}
		n++
	}
	return 1<<32 - 1
}

// TestNewSections checks that missing type, import and global sections are
// created in canonical order and that custom sections keep their places.
func TestNewSections(t *testing.T) {
	custom := func(name string) []byte { return wasm.AppendCustomSection(nil, name, []byte{1, 2, 3}) }
	layout := func(b []byte) (out []string) {
		for _, s := range decodeOut(t, b).Sections {
			if s.ID == wasm.SectionCustom {
				out = append(out, "custom "+s.Name)
			} else {
				out = append(out, s.ID.String())
			}
		}
		return out
	}
	tests := []struct {
		name string
		in   []byte
		want []string
	}{
		{"empty module", mod(), []string{"type", "import", "global"}},
		{"only custom sections", mod(custom("a"), custom("b")), []string{"custom a", "custom b", "type", "import", "global"}},
		{"custom sections around", mod(custom("first"), sec(wasm.SectionType, 1, 0x60, 0, 0), custom("x"),
			sec(wasm.SectionFunction, 1, 0), codeSec([]byte{0, 0x0b}), custom("last")),
			[]string{"custom first", "type", "custom x", "import", "function", "global", "code", "custom last"}},
		{"has a () -> i32 type and a global", mod(sec(wasm.SectionType, 1, 0x60, 0, 1, 0x7f),
			sec(wasm.SectionGlobal, 1, 0x7f, 0, 0x41, 0, 0x0b), sec(wasm.SectionExport, 0)),
			[]string{"type", "import", "global", "export"}},
		{"data count stays before code", mod(sec(wasm.SectionType, 1, 0x60, 0, 0), sec(wasm.SectionFunction, 1, 0),
			sec(wasm.SectionMemory, 1, 0, 1), sec(wasm.SectionDataCount, 1), codeSec([]byte{0, 0x0b}), sec(wasm.SectionData, 1, 1, 0)),
			[]string{"type", "import", "function", "memory", "global", "data count", "code", "data"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Instrument(tc.in, Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.want, layout(out))
			m := decodeOut(t, out)
			assert.Equal(t, "() -> i32", m.Types[m.Imports[len(m.Imports)-1].Type].String())
			rt := wazero.NewRuntimeWithConfig(ctx, runtimeConfig())
			defer rt.Close(ctx)
			_, err = rt.CompileModule(ctx, out)
			assert.NoError(t, err)
		})
	}
}

// TestRecGroupTypeIsNotReused: wazero does not treat a () -> i32 declared in a
// rec group as the standalone type of a host function, so a new one is added.
func TestRecGroupTypeIsNotReused(t *testing.T) {
	in := mod(sec(wasm.SectionType, 1, 0x4e, 1, 0x60, 0, 1, 0x7f))
	m := decodeOut(t, mustInstrument(t, in))
	require.Len(t, m.Types, 2)
	assert.Equal(t, uint32(1), m.Imports[0].Type)
	assert.False(t, m.Types[1].InRecGroup)
	var h host
	h.instantiate(t, mustInstrument(t, in))
}

// TestTableInitExprIsRenumbered covers wazero's table-with-initialiser form.
func TestTableInitExprIsRenumbered(t *testing.T) {
	in := mod(
		sec(wasm.SectionType, 2, 0x60, 0, 0, 0x60, 0, 1, 0x7f),
		sec(wasm.SectionFunction, 2, 1, 1),
		sec(wasm.SectionTable, 1, 0x40, 0x00, 0x70, 0x00, 0x02, 0xd2, 0x00, 0x0b), // (table 2 funcref (ref.func 0))
		sec(wasm.SectionExport, 1, 1, 'f', 0, 1),
		codeSec([]byte{0, 0x41, 42, 0x0b}, []byte{0, 0x41, 1, 0x11, 1, 0, 0x0b}), // f: call_indirect (type 1) table[1]
	)
	out := mustInstrument(t, in)
	m := decodeOut(t, out)
	assert.Equal(t, uint32(1), m.Tables[0].Init.FuncRefs[0].Index)
	var h0, h1 host
	want, err := h0.call(t, in, "f")
	require.NoError(t, err)
	got, err := h1.call(t, out, "f")
	require.NoError(t, err)
	assert.Equal(t, []uint64{42}, want)
	assert.Equal(t, want, got)
}

func TestReservedImportIsRefused(t *testing.T) {
	in := mod(
		sec(wasm.SectionType, 1, 0x60, 0, 0),
		sec(wasm.SectionImport, cat([]byte{1}, wasm.AppendName(nil, ImportModule), wasm.AppendName(nil, "other"), []byte{0, 0})...),
	)
	_, err := Instrument(in, Options{})
	assert.True(t, errors.Is(err, ErrReservedImport))
	assert.EqualError(t, err, `meter: module imports "other" from "gate.internal", which is reserved for gate's metering`)

	// Which also makes instrumenting twice an error.
	_, err = Instrument(mustInstrument(t, readTestdata(t, "calls.wasm")), Options{})
	assert.True(t, errors.Is(err, ErrReservedImport))
}

func TestMemoryCap(t *testing.T) {
	limits := func(b []byte) wasm.Limits {
		lim, ok, _ := decodeOut(t, b).Memory()
		require.True(t, ok)
		return lim
	}
	tests := []struct {
		name string
		file string
		cap  uint32
		want wasm.Limits
		err  string
	}{
		{"min over the cap", "memory.wasm", 512, wasm.Limits{},
			"meter: memory minimum is 4096 pages (256 MiB), over the probe memory cap of 512 pages (32 MiB)"},
		{"no max gets the cap", "memory.wasm", 8192, wasm.Limits{Min: 4096, Max: 8192, HasMax: true}, ""},
		{"min equal to the cap", "memory.wasm", 4096, wasm.Limits{Min: 4096, Max: 4096, HasMax: true}, ""},
		{"no cap", "memory.wasm", 0, wasm.Limits{Min: 4096}, ""},
		{"max over the cap is lowered", "bulk.wasm", 2, wasm.Limits{Min: 1, Max: 2, HasMax: true}, ""},
		{"max under the cap stays", "bulk.wasm", 100, wasm.Limits{Min: 1, Max: 4, HasMax: true}, ""},
		{"imported min over the cap", "memory_import.wasm", 1, wasm.Limits{},
			"meter: imported memory minimum is 4096 pages (256 MiB), over the probe memory cap of 1 pages (0.0625 MiB)"},
		{"imported limits are kept", "memory_import.wasm", 5000, wasm.Limits{Min: 4096, Max: 8192, HasMax: true}, ""},
		{"no memory", "calls.wasm", 1, wasm.Limits{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Instrument(readTestdata(t, tc.file), Options{MaxMemoryPages: tc.cap})
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				assert.True(t, errors.Is(err, ErrMemoryCap))
				return
			}
			require.NoError(t, err)
			if tc.want != (wasm.Limits{}) {
				assert.Equal(t, tc.want, limits(out))
			}
		})
	}

	// The lowered max is enforced: growing past the cap fails (-1).
	out, err := Instrument(readTestdata(t, "bulk.wasm"), Options{MaxMemoryPages: 1})
	require.NoError(t, err)
	var h host
	got, err := h.call(t, out, "grow")
	require.NoError(t, err)
	assert.Equal(t, []uint64{1}, got) // memory.grow failed, size stays 1
}

// TestNameSection: the module name and the function names survive, the
// latter renumbered, and nothing else does (names.wasm has local names
// too); a name section that does not parse is dropped.
func TestNameSection(t *testing.T) {
	orig := readTestdata(t, "names.wasm")
	before, after := nameSectionOf(t, orig), nameSectionOf(t, mustInstrument(t, orig))
	require.NotNil(t, after)
	var ids []byte
	for _, sub := range before.Subsections {
		ids = append(ids, sub.ID)
	}
	require.Equal(t, []byte{0, 1, 2}, ids, "names.wasm")
	require.Len(t, after.Subsections, 2)
	assert.Equal(t, byte(0), after.Subsections[0].ID)
	assert.Equal(t, "names", after.Subsections[0].ModuleName)
	assert.Equal(t, byte(1), after.Subsections[1].ID)
	var want []wasm.NameAssoc
	for _, f := range before.Subsections[1].Functions {
		if f.Index >= 1 { // one imported function
			f.Index++
		}
		want = append(want, f)
	}
	assert.Equal(t, want, after.Subsections[1].Functions)

	// A malformed name section (a function name subsection that overruns)
	// is dropped, and the module still compiles.
	bad := mod(sec(wasm.SectionType, 1, 0x60, 0, 0), sec(wasm.SectionFunction, 1, 0), codeSec([]byte{0, 0x0b}),
		wasm.AppendCustomSection(nil, "name", []byte{1, 9, 1, 0, 1, 'f'}))
	out := mustInstrument(t, bad)
	assert.Nil(t, nameSectionOf(t, out))
	rt := wazero.NewRuntimeWithConfig(ctx, runtimeConfig())
	defer rt.Close(ctx)
	_, err := rt.CompileModule(ctx, out)
	assert.NoError(t, err)
}

// nameSectionOf decodes the name section of a module; nil if it has none.
func nameSectionOf(t *testing.T, b []byte) *wasm.NameSection {
	for _, s := range decodeOut(t, b).Sections {
		if s.Name == "name" {
			ns, err := wasm.DecodeNameSection(s.Content, s.ContentOffset)
			require.NoError(t, err)
			return ns
		}
	}
	return nil
}

// TestCustomSectionsAreKept: custom sections other than the name section
// stay byte for byte, except DWARF, whose addresses the rewrite moves.
func TestCustomSectionsAreKept(t *testing.T) {
	in := mod(wasm.AppendCustomSection(nil, "producers", []byte("clang 14")), sec(wasm.SectionType, 0),
		wasm.AppendCustomSection(nil, ".debug_info", []byte{0, 1, 2, 0xff}),
		wasm.AppendCustomSection(nil, ".debug_line", []byte{0, 1, 2, 0xff}),
		wasm.AppendCustomSection(nil, "target_features", []byte{0, 0xff}))
	var got []string
	for _, s := range decodeOut(t, mustInstrument(t, in)).Sections {
		if s.ID == wasm.SectionCustom {
			got = append(got, s.Name+"="+string(s.Content))
		}
	}
	assert.Equal(t, []string{"producers=clang 14", "target_features=\x00\xff"}, got)
}

func TestDeterministic(t *testing.T) {
	files, err := filepath.Glob("testdata/*.wasm")
	require.NoError(t, err)
	for _, f := range files {
		b := readTestdata(t, filepath.Base(f))
		first, err1 := Instrument(b, Options{MaxMemoryPages: 8192})
		second, err2 := Instrument(b, Options{MaxMemoryPages: 8192})
		assert.Equal(t, err1, err2, f)
		assert.Equal(t, first, second, f)
	}
}

// TestMalformedInputIsAFormatError: Instrument reports undecodable input as
// the decoder's *wasm.FormatError.
func TestMalformedInputIsAFormatError(t *testing.T) {
	_, err := Instrument([]byte("not wasm"), Options{})
	var fe *wasm.FormatError
	assert.True(t, errors.As(err, &fe))
}

// TestIndicesTheRewriteFillsAreRefused: a reference to the global or local
// index that the rewrite fills is invalid in the input, and must not become
// a handle on the fuel in the output.
func TestIndicesTheRewriteFillsAreRefused(t *testing.T) {
	typ := sec(wasm.SectionType, 1, 0x60, 1, 0x7f, 0) // (i32) -> ()
	fn := sec(wasm.SectionFunction, 1, 0)
	mem := sec(wasm.SectionMemory, 1, 0, 1)
	global := sec(wasm.SectionGlobal, 1, 0x7f, 1, 0x41, 0, 0x0b) // one global: fuel will be global 1
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"global.set of the fuel index", mod(typ, fn, global, codeSec([]byte{0, 0x41, 0, 0x24, 1, 0x0b})),
			"meter: at offset 0x22: global 1 does not exist"},
		{"global.get of the fuel index without globals", mod(typ, fn, codeSec([]byte{0, 0x23, 0, 0x1a, 0x0b})),
			"meter: at offset 0x18: global 0 does not exist"},
		{"const expr", mod(typ, sec(wasm.SectionGlobal, 1, 0x7f, 0, 0x23, 1, 0x0b)),
			"meter: at offset 0x15: global 1 does not exist"},
		{"export", mod(typ, global, sec(wasm.SectionExport, 1, 1, 'g', 3, 1)),
			"meter: at offset 0x1d: global 1 does not exist"},
		{"scratch local", mod(typ, fn, sec(wasm.SectionTable, 1, 0x70, 0, 1), codeSec([]byte{0, 0xd0, 0x70, 0x20, 1, 0xfc, 0x0f, 0, 0x1a, 0x0b})),
			"meter: at offset 0x20: function 0: local 1 does not exist"},
		{"stack global", mod(typ, fn, global, codeSec([]byte{0, 0x23, 2, 0x1a, 0x0b})),
			"meter: at offset 0x20: global 2 does not exist"},
		{"call of the first helper index", mod(typ, fn, mem, codeSec([]byte{0, 0x41, 0, 0x10, 1, 0x0b})),
			"meter: at offset 0x1f: function 1 does not exist"},
		{"ref.func of a missing function", mod(typ, fn, codeSec([]byte{0, 0xd2, 5, 0x1a, 0x0b})),
			"meter: at offset 0x18: function 5 does not exist"},
		{"export of a missing function", mod(typ, fn, sec(wasm.SectionExport, 1, 1, 'f', 0, 1), codeSec([]byte{0, 0x0b})),
			"meter: at offset 0x19: function 1 does not exist"},
		{"element of a missing function", mod(typ, fn, sec(wasm.SectionTable, 1, 0x70, 0, 1),
			sec(wasm.SectionElement, 1, 0, 0x41, 0, 0x0b, 1, 1), codeSec([]byte{0, 0x0b})),
			"meter: at offset 0x21: function 1 does not exist"},
		{"start of a missing function", mod(typ, fn, sec(wasm.SectionStart, 3), codeSec([]byte{0, 0x0b})),
			"meter: at offset 0x15: function 3 does not exist"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt := wazero.NewRuntimeWithConfig(ctx, runtimeConfig())
			defer rt.Close(ctx)
			_, err := rt.CompileModule(ctx, tc.in)
			require.Error(t, err, "wazero should refuse the input too")
			_, err = Instrument(tc.in, engineOptions)
			assert.True(t, errors.Is(err, ErrInvalid), "%v", err)
			assert.EqualError(t, err, tc.want)
		})
	}
}

// TestOneByteSIMDSubOpcode: wazero reads a SIMD sub-opcode as one byte, so in
// "0xfd 0x80 0x03 ..." it compiles i16x8.abs followed by a loop. The rewrite
// must see (and meter) that loop too.
func TestOneByteSIMDSubOpcode(t *testing.T) {
	body := cat([]byte{0},
		[]byte{0xfd, 0x0c}, make([]byte, 16), // v128.const 0
		[]byte{0xfd, 0x80},                   // i16x8.abs, as wazero reads it
		[]byte{0x03, 0x40, 0x0c, 0x00, 0x0b}, // loop br 0 end: forever
		[]byte{0x1a, 0x0b})
	in := mod(sec(wasm.SectionType, 1, 0x60, 0, 0), sec(wasm.SectionFunction, 1, 0),
		sec(wasm.SectionExport, 1, 1, 'f', 0, 0), codeSec(body))
	rt := wazero.NewRuntimeWithConfig(ctx, runtimeConfig())
	defer rt.Close(ctx)
	_, err := rt.CompileModule(ctx, in)
	require.NoError(t, err)

	h := host{stopAt: 2}
	_, err = h.call(t, mustInstrument(t, in), "f")
	assert.True(t, errors.Is(err, errStop), "%v", err)
}

// TestTypedSelectWithTypedReferenceIsRefused: wazero's validator accepts
// "select (result (ref null func))" but its compiler skips only two bytes of
// the immediate and reads the heap type as an instruction. Where the two
// disagree the rewrite cannot know what will run, so it refuses.
func TestTypedSelectWithTypedReferenceIsRefused(t *testing.T) {
	in := mod(sec(wasm.SectionType, 1, 0x60, 0, 0), sec(wasm.SectionFunction, 1, 0),
		codeSec([]byte{0, 0xd0, 0x70, 0xd0, 0x70, 0x41, 0, 0x1c, 0x01, 0x63, 0x70, 0x1a, 0x0b}))
	_, err := Instrument(in, Options{})
	var fe *wasm.FormatError
	require.True(t, errors.As(err, &fe), "%v", err)
	assert.Contains(t, fe.Msg, "unsupported instruction: select with type 0x63")
}
