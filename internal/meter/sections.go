package meter

import (
	"slices"
	"strings"

	"github.com/gate-dev/gate/internal/wasm"
)

// emit writes the instrumented module: the input's sections in their order,
// each rewritten as needed, with the type, import and global sections created
// when the input lacks them.
func (rw *rewriter) emit() ([]byte, error) {
	m := rw.m
	out := make([]byte, 0, len(rw.in)+len(rw.in)/4+64)
	out = append(out, wasm.Magic...)
	out = append(out, wasm.Version...)

	// Sections the rewrite needs that the input lacks. A new section goes
	// just before the first input section that must follow it, or else just
	// after the last non-custom section, so custom sections keep their
	// position relative to everything else.
	have := map[wasm.SectionID]bool{}
	last := -1
	for i, s := range m.Sections {
		have[s.ID] = true
		if s.ID != wasm.SectionCustom {
			last = i
		}
	}
	var missing []wasm.SectionID
	for _, id := range []wasm.SectionID{wasm.SectionType, wasm.SectionImport, wasm.SectionGlobal} {
		if !have[id] {
			missing = append(missing, id)
		}
	}
	flush := func(before int) {
		for len(missing) > 0 && missing[0].Rank() < before {
			out = rw.newSection(out, missing[0])
			missing = missing[1:]
		}
	}

	for i, s := range m.Sections {
		if s.ID != wasm.SectionCustom {
			flush(s.ID.Rank())
		}
		var err error
		out, err = rw.section(out, s)
		if err != nil {
			return nil, err
		}
		if i == last {
			flush(1 << 30)
		}
	}
	flush(1 << 30)
	return out, nil
}

// newSection writes a section the input lacks, holding just what the
// rewrite adds. (The rewrite adds functions only to a module that has code,
// so the function and code sections are never missing.)
func (rw *rewriter) newSection(out []byte, id wasm.SectionID) []byte {
	var n uint32
	var items []byte
	switch id {
	case wasm.SectionType:
		n, items = rw.newTypeItems()
	case wasm.SectionImport:
		n, items = rw.importItems()
	case wasm.SectionGlobal:
		n, items = rw.globalItems()
	}
	return wasm.AppendSection(out, id, append(wasm.AppendU32(nil, n), items...))
}

// newTypeItems encodes the types the rewrite appends.
func (rw *rewriter) newTypeItems() (uint32, []byte) {
	var b []byte
	for _, t := range rw.newTypes {
		b = wasm.AppendFuncType(b, t)
	}
	return uint32(len(rw.newTypes)), b
}

// importItems encodes the injected imports.
func (rw *rewriter) importItems() (uint32, []byte) {
	var b []byte
	for _, imp := range rw.imports {
		b = wasm.AppendImport(b, imp)
	}
	return uint32(len(rw.imports)), b
}

// globalItems encodes the injected globals: (global $fuel (mut i32)
// (i32.const Quantum)) and, with MaxStackSlots, (global $stack (mut i32)
// (i32.const 0)).
func (rw *rewriter) globalItems() (uint32, []byte) {
	b := append([]byte(nil), byte(wasm.I32), 1, wasm.OpI32Const)
	b = wasm.AppendS32(b, Quantum)
	b = append(b, wasm.OpEnd)
	if rw.stackLimit == 0 {
		return 1, b
	}
	return 2, append(b, byte(wasm.I32), 1, wasm.OpI32Const, 0, wasm.OpEnd)
}

// helperItems encodes the function section entries of the helpers.
func (rw *rewriter) helperItems() (uint32, []byte) {
	var b []byte
	for range rw.helpers {
		b = wasm.AppendU32(b, rw.helperType)
	}
	return uint32(len(rw.helpers)), b
}

// section writes one input section, rewritten.
func (rw *rewriter) section(out []byte, s wasm.Section) ([]byte, error) {
	m := rw.m
	var p patches
	switch s.ID {
	case wasm.SectionCustom:
		if s.Name == "name" {
			return rw.nameSection(out, s), nil
		}
		if strings.HasPrefix(s.Name, ".debug_") {
			// DWARF. Its addresses are offsets into the input's code,
			// which the rewrite moves, so wazero would attach wrong source
			// lines to a trap's frames, or the lines the module's author
			// chose for the rewritten code: file names of any length and
			// content, in every frame of the trace. And wazero looks a
			// line up for every frame on the stack, not only the 30 it
			// prints, when a trap unwinds it.
			return out, nil
		}
		return append(out, rw.in[s.Offset:s.End]...), nil

	case wasm.SectionType:
		if len(rw.newTypes) == 0 {
			break
		}
		n, items := rw.newTypeItems()
		return rw.appendVector(out, s, nil, n, items), nil

	case wasm.SectionImport:
		for _, imp := range m.Imports {
			if imp.Kind == wasm.Table && imp.Table.Init != nil {
				p.constExpr(rw, *imp.Table.Init)
			}
		}
		n, items := rw.importItems()
		return rw.appendVector(out, s, p, n, items), nil

	case wasm.SectionFunction:
		if len(rw.helpers) == 0 {
			break
		}
		n, items := rw.helperItems()
		return rw.appendVector(out, s, nil, n, items), nil

	case wasm.SectionTable:
		for i, t := range m.Tables {
			if t.Init != nil {
				p.constExpr(rw, *t.Init)
			}
			if lim, ok := rw.tables[i]; ok {
				p.add(t.LimitsSpan, wasm.AppendLimits(nil, lim))
			}
		}

	case wasm.SectionMemory:
		if rw.memory0 != nil {
			p.add(m.Memories[0].LimitsSpan, wasm.AppendLimits(nil, *rw.memory0))
		}

	case wasm.SectionGlobal:
		for _, g := range m.Globals {
			p.constExpr(rw, g.Init)
		}
		n, items := rw.globalItems()
		return rw.appendVector(out, s, p, n, items), nil

	case wasm.SectionExport:
		for _, e := range m.Exports {
			if e.Kind == wasm.Func {
				p.funcRef(rw, wasm.IndexRef{Index: e.Index, Span: e.IndexSpan})
			}
		}

	case wasm.SectionStart:
		p.funcRef(rw, *m.Start)

	case wasm.SectionElement:
		for _, e := range m.Elements {
			if e.Offset != nil {
				p.constExpr(rw, *e.Offset)
			}
			for _, f := range e.Funcs {
				p.funcRef(rw, f)
			}
			for _, x := range e.Exprs {
				p.constExpr(rw, x)
			}
		}

	case wasm.SectionData:
		// Offsets are i32 expressions; a ref.func in one is invalid, but
		// renumbering it keeps the output exactly as (in)valid as the input.
		for _, d := range m.Data {
			if d.Offset != nil {
				p.constExpr(rw, *d.Offset)
			}
		}

	case wasm.SectionCode:
		return wasm.AppendSection(out, s.ID, rw.code), nil
	}
	if len(p) == 0 {
		return append(out, rw.in[s.Offset:s.End]...), nil
	}
	return wasm.AppendSection(out, s.ID, p.apply(s, nil)), nil
}

// appendVector writes a vector section with patches applied and n encoded
// items appended (its count goes up by n).
func (rw *rewriter) appendVector(out []byte, s wasm.Section, p patches, n uint32, items []byte) []byte {
	countSpan := wasm.Span{Offset: s.ContentOffset, Size: s.CountSize}
	p.add(countSpan, wasm.AppendU32(nil, s.Count+n))
	content := p.apply(s, nil)
	content = append(content, items...)
	return wasm.AppendSection(out, s.ID, content)
}

// patches replace byte ranges of the input.
type patches []patch

type patch struct {
	at   wasm.Span
	data []byte
}

func (p *patches) add(at wasm.Span, data []byte) { *p = append(*p, patch{at, data}) }

// funcRef renumbers a function index immediate if it moves.
func (p *patches) funcRef(rw *rewriter, ref wasm.IndexRef) {
	if to := rw.shift(ref.Index); to != ref.Index {
		p.add(ref.Span, wasm.AppendU32(nil, to))
	}
}

// constExpr renumbers the ref.func immediates of a constant expression.
func (p *patches) constExpr(rw *rewriter, e wasm.ConstExpr) {
	for _, ref := range e.FuncRefs {
		p.funcRef(rw, ref)
	}
}

// apply appends s's content with the patches applied to dst. Patches never
// overlap: each covers one distinct immediate or entry.
func (p patches) apply(s wasm.Section, dst []byte) []byte {
	slices.SortFunc(p, func(a, b patch) int { return a.at.Offset - b.at.Offset })
	pos := s.ContentOffset
	for _, q := range p {
		dst = append(dst, sectionBytes(s, pos, q.at.Offset)...)
		dst = append(dst, q.data...)
		pos = q.at.End()
	}
	return append(dst, sectionBytes(s, pos, s.ContentOffset+len(s.Content))...)
}

// sectionBytes returns the input bytes [from, to) of section s.
func sectionBytes(s wasm.Section, from, to int) []byte {
	return s.Content[from-s.ContentOffset : to-s.ContentOffset]
}
