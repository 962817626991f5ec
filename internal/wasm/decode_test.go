package wasm

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

//go:generate sh testdata/build.sh

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

func decodeTestdata(t testing.TB, name string) *Module {
	t.Helper()
	m, err := Decode(readTestdata(t, name))
	require.NoError(t, err)
	return m
}

func TestDecodeSections(t *testing.T) {
	t.Parallel()
	m := decodeTestdata(t, "sections.wasm")

	var ids []SectionID
	for _, s := range m.Sections {
		ids = append(ids, s.ID)
	}
	assert.Equal(t, []SectionID{SectionType, SectionFunction, SectionTable, SectionMemory, SectionGlobal,
		SectionExport, SectionStart, SectionElement, SectionDataCount, SectionCode, SectionData}, ids)

	var types []string
	for _, ft := range m.Types {
		types = append(types, ft.String())
	}
	assert.Equal(t, []string{"(i32, i64) -> i32", "(f32, f64, v128, funcref, externref) -> (i32, i64)", "() -> ()"}, types)
	assert.Equal(t, []uint32{0, 1, 2, 2}, m.Functions)
	require.Len(t, m.Tables, 1)
	assert.Equal(t, FuncRef, m.Tables[0].Elem)
	assert.Equal(t, Limits{Min: 2, Max: 10, HasMax: true}, m.Tables[0].Limits)
	assert.Nil(t, m.Tables[0].Init)
	require.Len(t, m.Memories, 1)
	assert.Equal(t, Limits{Min: 1, Max: 4, HasMax: true}, m.Memories[0].Limits)

	globals := []struct {
		typ     GlobalType
		raw     []byte
		funcRef []uint32
	}{
		{GlobalType{I32, false}, []byte{0x41, 0x79, 0x0b}, nil},
		{GlobalType{I64, true}, []byte{0x42, 0x01, 0x0b}, nil},
		{GlobalType{FuncRef, false}, []byte{0xd2, 0x01, 0x0b}, []uint32{1}},
		{GlobalType{F32, false}, []byte{0x43, 0, 0, 0xc0, 0x3f, 0x0b}, nil},
		{GlobalType{F64, false}, []byte{0x44, 0, 0, 0, 0, 0, 0, 0x04, 0x40, 0x0b}, nil},
		{GlobalType{V128, false}, append(append([]byte{0xfd, 0x0c}, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0), 0x0b), nil},
		{GlobalType{ExternRef, false}, []byte{0xd0, 0x6f, 0x0b}, nil},
	}
	require.Len(t, m.Globals, len(globals))
	for i, want := range globals {
		g := m.Globals[i]
		assert.Equal(t, want.typ, g.Type, "global %d", i)
		assert.Equal(t, want.raw, g.Init.Raw, "global %d", i)
		var refs []uint32
		for _, r := range g.Init.FuncRefs {
			refs = append(refs, r.Index)
		}
		assert.Equal(t, want.funcRef, refs, "global %d", i)
	}

	var exports []string
	for _, e := range m.Exports {
		exports = append(exports, e.Kind.String()+" "+e.Name)
	}
	assert.Equal(t, []string{"func f0", "memory mem", "table tab", "global g1"}, exports)
	require.NotNil(t, m.Start)
	assert.Equal(t, uint32(2), m.Start.Index)
	require.NotNil(t, m.DataCount)
	assert.Equal(t, uint32(2), *m.DataCount)
	require.Len(t, m.Code, 4)
	assert.Equal(t, []byte{0x20, 0x00, 0x0b}, m.Code[0].Body)
	require.Len(t, m.Data, 2)
	assert.Equal(t, Active, m.Data[0].Mode)
	assert.Equal(t, []byte{0x41, 0x10, 0x0b}, m.Data[0].Offset.Raw)
	assert.Equal(t, "active", string(m.Data[0].Init))
	assert.Equal(t, Passive, m.Data[1].Mode)
	assert.Nil(t, m.Data[1].Offset)
	assert.Equal(t, "passive", string(m.Data[1].Init))

	lim, ok, imported := m.Memory()
	assert.Equal(t, Limits{Min: 1, Max: 4, HasMax: true}, lim)
	assert.True(t, ok)
	assert.False(t, imported)
	assert.True(t, m.ExportedMemory("mem"))
	assert.False(t, m.ExportedMemory("f0"))
	ft, ok := m.ExportedFunc("f0")
	assert.True(t, ok)
	assert.Equal(t, "(i32, i64) -> i32", ft.String())
	_, ok = m.ExportedFunc("mem")
	assert.False(t, ok)
}

func TestDecodeSpansPointAtTheirBytes(t *testing.T) {
	t.Parallel()
	b := readTestdata(t, "sections.wasm")
	m, err := Decode(b)
	require.NoError(t, err)
	for _, s := range m.Sections {
		assert.Equal(t, byte(s.ID), b[s.Offset])
		assert.Equal(t, s.Content, b[s.ContentOffset:s.End])
	}
	for _, e := range m.Exports {
		v, n, err := decodeU32(b[e.IndexSpan.Offset:])
		require.NoError(t, err)
		assert.Equal(t, e.Index, v)
		assert.Equal(t, e.IndexSpan.Size, n)
	}
	ref := m.Globals[2].Init.FuncRefs[0]
	assert.Equal(t, []byte{0x01}, b[ref.Offset:ref.End()])
	assert.Equal(t, m.Start.Index, uint32(b[m.Start.Offset]))
	for _, c := range m.Code {
		assert.Equal(t, c.Body, b[c.BodyOffset:c.BodyOffset+len(c.Body)])
		assert.Equal(t, c.Span.End(), c.BodyOffset+len(c.Body))
	}
	mem := m.Memories[0].LimitsSpan
	assert.Equal(t, []byte{0x01, 0x01, 0x04}, b[mem.Offset:mem.End()])
	tab := m.Tables[0].LimitsSpan
	assert.Equal(t, []byte{0x01, 0x02, 0x0a}, b[tab.Offset:tab.End()])
}

func TestDecodeImports(t *testing.T) {
	t.Parallel()
	m := decodeTestdata(t, "imports.wasm")
	want := []Import{
		{Module: "env", Name: "f", Kind: Func, Type: 0},
		{Module: "env", Name: "t", Kind: Table, Table: TableType{Elem: FuncRef, Limits: Limits{Min: 1}}},
		{Module: "env", Name: "g", Kind: Global, Global: GlobalType{I32, true}},
		{Module: "env", Name: "m", Kind: Memory, Memory: Limits{Min: 1, Max: 2, HasMax: true}},
		{Module: "env", Name: "h", Kind: Func, Type: 1},
		{Module: "env", Name: "gi", Kind: Global, Global: GlobalType{I64, false}},
	}
	for i := range m.Imports {
		m.Imports[i].Table.LimitsSpan = Span{} // checked in TestDecodeSections
	}
	assert.Equal(t, want, m.Imports)
	assert.Equal(t, uint32(2), m.NumImportedFuncs())
	assert.Equal(t, uint32(2), m.NumImportedGlobals())
	assert.Equal(t, uint32(1), m.NumImported(Table))
	assert.Equal(t, uint32(1), m.NumImported(Memory))

	for _, tc := range []struct {
		index uint32
		want  string
		ok    bool
	}{
		{0, "(i32) -> i32", true},
		{1, "() -> ()", true},
		{2, "() -> i32", true}, // the first defined function
		{3, "", false},
	} {
		ft, ok := m.FuncType(tc.index)
		assert.Equal(t, tc.ok, ok, "function %d", tc.index)
		if ok {
			assert.Equal(t, tc.want, ft.String(), "function %d", tc.index)
		}
	}
	ft, ok := m.ExportedFunc("imp_h")
	assert.True(t, ok)
	assert.Equal(t, "() -> ()", ft.String())
	lim, ok, imported := m.Memory()
	assert.Equal(t, Limits{Min: 1, Max: 2, HasMax: true}, lim)
	assert.True(t, ok)
	assert.True(t, imported)
}

func TestDecodeElementForms(t *testing.T) {
	t.Parallel()
	m := decodeTestdata(t, "elements.wasm")
	funcs := func(e Element) []uint32 {
		var out []uint32
		for _, f := range e.Funcs {
			out = append(out, f.Index)
		}
		return out
	}
	exprs := func(e Element) []string {
		var out []string
		for _, x := range e.Exprs {
			out = append(out, string(x.Raw))
		}
		return out
	}
	tests := []struct {
		mode   ElemMode
		table  uint32
		offset string
		typ    ValType
		funcs  []uint32
		exprs  []string
	}{
		{Active, 0, "\x41\x00\x0b", FuncRef, []uint32{0, 1}, nil},
		{Passive, 0, "", FuncRef, []uint32{0, 1}, nil},
		{Active, 1, "\x41\x01\x0b", FuncRef, []uint32{1, 0}, nil},
		{Declarative, 0, "", FuncRef, []uint32{0}, nil},
		{Active, 0, "\x41\x02\x0b", FuncRef, nil, []string{"\xd2\x01\x0b", "\xd0\x70\x0b"}},
		{Passive, 0, "", FuncRef, nil, []string{"\xd2\x00\x0b", "\xd0\x70\x0b"}},
		{Active, 2, "\x41\x00\x0b", ExternRef, nil, []string{"\xd0\x6f\x0b"}},
		{Declarative, 0, "", FuncRef, nil, []string{"\xd2\x01\x0b", "\xd0\x70\x0b"}},
	}
	require.Len(t, m.Elements, len(tests))
	for i, tc := range tests {
		e := m.Elements[i]
		assert.Equal(t, uint32(i), e.Flags, "segment %d", i)
		assert.Equal(t, tc.mode, e.Mode, "segment %d", i)
		assert.Equal(t, tc.table, e.Table, "segment %d", i)
		if tc.offset == "" {
			assert.Nil(t, e.Offset, "segment %d", i)
		} else if assert.NotNil(t, e.Offset, "segment %d", i) {
			assert.Equal(t, tc.offset, string(e.Offset.Raw), "segment %d", i)
		}
		assert.Equal(t, tc.typ, e.Type, "segment %d", i)
		assert.Equal(t, tc.funcs, funcs(e), "segment %d", i)
		assert.Equal(t, tc.exprs, exprs(e), "segment %d", i)
	}
	// ref.func inside expressions is located for renumbering.
	assert.Equal(t, uint32(1), m.Elements[4].Exprs[0].FuncRefs[0].Index)
	assert.Empty(t, m.Elements[4].Exprs[1].FuncRefs)
}

// module assembles a module from the header and the given sections.
func module(sections ...[]byte) []byte {
	b := append([]byte(nil), Magic...)
	b = append(b, Version...)
	for _, s := range sections {
		b = append(b, s...)
	}
	return b
}

// section encodes a section with a correct size.
func section(id SectionID, content ...byte) []byte {
	return AppendSection(nil, id, content)
}

func TestDecodeCustomSections(t *testing.T) {
	t.Parallel()
	b := module(
		AppendCustomSection(nil, "first", []byte{1, 2, 3}),
		section(SectionType, 1, 0x60, 0, 0),
		AppendCustomSection(nil, "second", nil),
	)
	m, err := Decode(b)
	require.NoError(t, err)
	require.Len(t, m.Sections, 3)
	assert.Equal(t, "first", m.Sections[0].Name)
	assert.Equal(t, []byte{1, 2, 3}, m.Sections[0].Content)
	assert.Equal(t, SectionType, m.Sections[1].ID)
	assert.Equal(t, "second", m.Sections[2].Name)
	assert.Empty(t, m.Sections[2].Content)
}

// TestDecodeWazeroLeniency covers encodings outside the core 2.0 spec that
// wazero v1.12 decodes and compiles with CoreFeaturesV2 (checked in
// internal/meter's fuzz test), and so must decode here too.
func TestDecodeWazeroLeniency(t *testing.T) {
	t.Parallel()
	typ := section(SectionType, 1, 0x60, 0, 0)
	fn := section(SectionFunction, 1, 0)
	code := func(body ...byte) []byte {
		entry := append([]byte{0}, body...) // no locals
		return section(SectionCode, append([]byte{1, byte(len(entry))}, entry...)...)
	}
	tests := []struct {
		name  string
		input []byte
		check func(t *testing.T, m *Module)
	}{
		{"typed reference in a function type", module(section(SectionType, 1, 0x60, 1, 0x63, 0x70, 0), fn, code(0x0b)),
			func(t *testing.T, m *Module) {
				assert.Equal(t, "((ref null func)) -> ()", m.Types[0].String())
			}},
		{"concrete typed reference", module(section(SectionType, 2, 0x60, 0, 0, 0x60, 1, 0x64, 0x00, 0), fn, code(0x0b)),
			func(t *testing.T, m *Module) {
				assert.Equal(t, "((ref 0)) -> ()", m.Types[1].String())
			}},
		{"rec group", module(section(SectionType, 1, 0x4e, 2, 0x60, 0, 0, 0x60, 0, 1, 0x7f), fn, code(0x0b)),
			func(t *testing.T, m *Module) {
				require.Len(t, m.Types, 2)
				assert.True(t, m.Types[1].InRecGroup)
				assert.Equal(t, "() -> i32", m.Types[1].String())
			}},
		{"table with initialiser", module(typ, fn, section(SectionTable, 1, 0x40, 0x00, 0x70, 0x00, 0x01, 0xd2, 0x00, 0x0b), code(0x0b)),
			func(t *testing.T, m *Module) {
				require.NotNil(t, m.Tables[0].Init)
				assert.Equal(t, uint32(0), m.Tables[0].Init.FuncRefs[0].Index)
				assert.Equal(t, Span{Offset: 0x18, Size: 2}, m.Tables[0].LimitsSpan) // 0x00 0x01, after 0x40 0x00 0x70
			}},
		{"exnref local", module(typ, fn, section(SectionCode, 1, 4, 1, 1, 0x69, 0x0b)),
			func(t *testing.T, m *Module) {
				assert.Equal(t, []LocalDecl{{1, ExnRef}}, m.Code[0].Locals)
			}},
		{"typed reference block type", module(typ, fn, code(0x02, 0x63, 0x70, 0xd0, 0x70, 0x0b, 0x1a, 0x0b)), nil},
		{"empty data count section at the end", module(section(SectionDataCount)),
			func(t *testing.T, m *Module) {
				require.NotNil(t, m.DataCount)
				assert.Equal(t, uint32(0), *m.DataCount)
			}},
		{"one-byte SIMD sub-opcode followed by another instruction",
			module(typ, fn, code(append(append([]byte{0xfd, 0x0c}, make([]byte, 16)...), 0xfd, 0x80, 0x1a, 0x0b)...)), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, err := Decode(tc.input)
			require.NoError(t, err)
			if tc.check != nil {
				tc.check(t, m)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	typ := section(SectionType, 1, 0x60, 0, 0)
	fn := section(SectionFunction, 1, 0)
	code := func(body ...byte) []byte {
		entry := append([]byte{0}, body...)
		return section(SectionCode, append([]byte{1, byte(len(entry))}, entry...)...)
	}
	tests := []struct {
		name  string
		input []byte
		want  string
	}{
		{"empty", nil, "wasm: at offset 0x0: not a WebAssembly binary (bad magic number)"},
		{"not wasm", []byte("#!/bin/sh\necho hello\n"), "wasm: at offset 0x0: not a WebAssembly binary (bad magic number)"},
		{"truncated magic", []byte{0, 'a', 's'}, "wasm: at offset 0x0: not a WebAssembly binary (bad magic number)"},
		{"truncated version", []byte{0, 'a', 's', 'm', 1}, "wasm: at offset 0x4: truncated header"},
		{"bad version", []byte{0, 'a', 's', 'm', 2, 0, 0, 0}, "wasm: at offset 0x4: unsupported version 02 00 00 00"},
		{"component", []byte{0, 'a', 's', 'm', 0x0d, 0, 1, 0}, "wasm: at offset 0x4: unsupported version 0d 00 01 00"},
		{"truncated section size", module([]byte{1, 0x80}), "wasm: at offset 0x9: unexpected end of input"},
		{"section past the end", module([]byte{1, 10, 1}), "wasm: at offset 0x8: type section size 10 exceeds the 1 bytes left"},
		{"huge import count", module([]byte{2, 5, 0xff, 0xff, 0xff, 0xff, 0x0f}),
			"wasm: import section at offset 0xa: count 4294967295 is larger than the remaining 0 bytes of the section can hold"},
		{"huge type count", module([]byte{1, 5, 0xfe, 0xff, 0xff, 0xff, 0x0f}),
			"wasm: type section at offset 0xa: count 4294967294 is larger than the remaining 0 bytes of the section can hold"},
		{"u32 too long", module([]byte{1, 6, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}),
			"wasm: type section at offset 0xa: malformed u32: integer representation too long"},
		{"u32 too large", module([]byte{1, 5, 0xff, 0xff, 0xff, 0xff, 0x1f}),
			"wasm: type section at offset 0xa: malformed u32: integer too large"},
		{"out of order", module(fn, typ), "wasm: type section at offset 0xc: type section after function section (out of order)"},
		{"duplicate", module(typ, typ), "wasm: type section at offset 0xe: duplicate type section"},
		{"data count after code", module(typ, fn, code(0x0b), section(SectionDataCount, 0)),
			"wasm: data count section at offset 0x18: data count section after code section (out of order)"},
		{"unknown section", module(section(14)), "wasm: at offset 0x8: unknown section id 14"},
		{"tag section", module(section(13, 0)), "wasm: at offset 0x8: unsupported section id 13 (exception handling tags)"},
		{"leftover bytes", module(section(SectionType, 1, 0x60, 0, 0, 0)), "wasm: type section at offset 0xe: 1 bytes left over at the end of the section"},
		{"bad type form", module(section(SectionType, 1, 0x5f, 0, 0)), "wasm: type section at offset 0xb: type 0: unsupported type form 0x5f (want 0x60, a function type)"},
		{"bad value type", module(section(SectionType, 1, 0x60, 1, 0x40, 0)), "wasm: type section at offset 0xd: type 0: invalid value type 0x40"},
		{"bad UTF-8", module(section(SectionImport, 1, 1, 0xff, 0, 0, 0)), "wasm: import section at offset 0xb: import 0: name is not valid UTF-8"},
		{"import kind", module(section(SectionImport, 1, 1, 'm', 1, 'n', 7, 0)), "wasm: import section at offset 0xf: import 0: invalid import kind 0x7"},
		{"memory64", module(section(SectionMemory, 1, 0x04, 1)), "wasm: memory section at offset 0xb: memory 0: invalid limits flag 0x4 (memory64 and custom page sizes are not supported)"},
		{"element flags", module(section(SectionElement, 1, 8)), "wasm: element section at offset 0xb: element segment 0: invalid element segment flags 8"},
		{"data flags", module(section(SectionData, 1, 3)), "wasm: data section at offset 0xb: data segment 0: invalid data segment flags 3"},
		{"const expr", module(section(SectionGlobal, 1, 0x7f, 0, 0x20, 0, 0x0b)), "wasm: global section at offset 0xd: global 0: invalid instruction 0x20 in a constant expression"},
		{"duplicate export", module(section(SectionExport, 2, 1, 'a', 0, 0, 1, 'a', 0, 0)), "wasm: export section at offset 0xf: export 1: duplicate export name \"a\""},
		{"function without body", module(typ, fn), "wasm: at offset 0x12: function section declares 1 functions but the code section has 0 bodies"},
		{"body without end", module(typ, fn, code(0x01)), "wasm: code section at offset 0x18: function 0: unexpected end of function body"},
		{"bytes after end", module(typ, fn, code(0x0b, 0x01)), "wasm: code section at offset 0x18: function 0: 1 bytes after the end of the function"},
		{"threads", module(typ, fn, code(0xfe, 0x10, 0x02, 0x00, 0x0b)), "wasm: code section at offset 0x17: function 0: unsupported instruction 0xfe 0x10 (threads)"},
		{"tail call", module(typ, fn, code(0x12, 0x00, 0x0b)), "wasm: code section at offset 0x17: function 0: unsupported instruction 0x12 (tail calls)"},
		{"exceptions", module(typ, fn, code(0x06, 0x40, 0x0b, 0x0b)), "wasm: code section at offset 0x17: function 0: unsupported instruction 0x6 (exception handling)"},
		{"unknown opcode", module(typ, fn, code(0xc5, 0x0b)), "wasm: code section at offset 0x17: function 0: unknown opcode 0xc5"},
		{"unknown misc opcode", module(typ, fn, code(0xfc, 0x12, 0x0b)), "wasm: code section at offset 0x17: function 0: unknown opcode 0xfc 0x12"},
		{"else outside if", module(typ, fn, code(0x02, 0x40, 0x05, 0x0b, 0x0b)), "wasm: code section at offset 0x19: function 0: else outside an if"},
		{"typed select with a typed reference", module(typ, fn, code(0x1c, 0x01, 0x63, 0x70, 0x0b)),
			"wasm: code section at offset 0x17: function 0: unsupported instruction: select with type 0x63"},
		{"bad block type", module(typ, fn, code(0x02, 0x60, 0x0b, 0x0b)), "wasm: code section at offset 0x18: function 0: invalid block type -32"},
		{"body size past the section", module(typ, fn, section(SectionCode, 1, 9, 0, 0x0b)),
			"wasm: code section at offset 0x15: function 0: body size 9 exceeds the 2 bytes left in the section"},
		{"too many locals", module(typ, fn, section(SectionCode, 1, 14, 2, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x7f, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x7f, 0x0b)),
			"wasm: code section at offset 0x16: function 0: too many locals: 8589934590"},
		{"data count mismatch", module(section(SectionDataCount, 1)), "wasm: at offset 0xb: data count section says 1 segments but the data section has 0"},
		{"custom section name past the end", module(section(SectionCustom, 5, 'a')), "wasm: custom section at offset 0xb: 5 bytes declared but only 1 left in the section"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, err := Decode(tc.input)
			assert.Nil(t, m)
			var fe *FormatError
			require.True(t, errors.As(err, &fe), "error %v is not a *FormatError", err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

// TestDecodeEveryPrefix decodes every prefix of the testdata modules: each is
// either a module (cut at a section boundary) or a FormatError, never a panic.
func TestDecodeEveryPrefix(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/*.wasm")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for n := 0; n < len(b); n++ {
			_, err := Decode(b[:n])
			if err != nil {
				var fe *FormatError
				require.True(t, errors.As(err, &fe), "%s[:%d]: %v", f, n, err)
			}
		}
	}
}

func TestFormatErrorText(t *testing.T) {
	t.Parallel()
	err := &FormatError{Offset: 0x1a2, Section: "code", Msg: "function 3: unknown opcode 0xfe 0x10"}
	assert.Equal(t, "wasm: code section at offset 0x1a2: function 3: unknown opcode 0xfe 0x10", err.Error())
	err = &FormatError{Offset: 0, Msg: "not a WebAssembly binary (bad magic number)"}
	assert.Equal(t, "wasm: at offset 0x0: not a WebAssembly binary (bad magic number)", err.Error())
}
