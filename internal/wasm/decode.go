package wasm

import (
	"bytes"
	"fmt"
)

// Magic and Version start every module.
var (
	Magic   = []byte{0x00, 'a', 's', 'm'}
	Version = []byte{0x01, 0x00, 0x00, 0x00}
)

// Decode parses a binary module: the header, every section, and every function
// body's instruction encoding. It does not type check. The returned Module
// refers to b (no copies), so b must not change while it is in use.
//
// Every error is a *FormatError; Decode does not panic on any input.
func Decode(b []byte) (*Module, error) {
	d := decoder{r: newReader(b, 0, ""), m: &Module{}}
	d.decode()
	if d.r.err != nil {
		return nil, d.r.err
	}
	d.m.widths = make([][2][]uint8, len(d.m.Types))
	for i, ft := range d.m.Types {
		d.m.widths[i] = [2][]uint8{widthsOf(ft.Params), widthsOf(ft.Results)}
	}
	return d.m, nil
}

type decoder struct {
	r *reader
	m *Module
}

func (d *decoder) decode() {
	r, b := d.r, d.r.b
	if len(b) < 4 || !bytes.Equal(b[:4], Magic) {
		r.failAt(0, "not a WebAssembly binary (bad magic number)")
		return
	}
	if len(b) < 8 {
		r.failAt(4, "truncated header")
		return
	}
	if !bytes.Equal(b[4:8], Version) {
		r.failAt(4, "unsupported version % x", b[4:8])
		return
	}
	r.pos = 8

	lastRank, lastID := 0, SectionCustom
	for r.pos < len(b) && r.ok() {
		start := r.pos
		r.section, r.end = "", len(b)
		r.item("", -1)
		id := SectionID(r.byte())
		size := r.u32()
		if !r.ok() {
			return
		}
		if uint64(size) > uint64(r.remaining()) {
			r.failAt(start, "%s section size %d exceeds the %d bytes left", id, size, r.remaining())
			return
		}
		if id.Rank() != 0 || id == SectionCustom {
			r.section = id.String()
		}
		if rank := id.Rank(); rank == 0 && id != SectionCustom {
			if id == 13 {
				r.failAt(start, "unsupported section id 13 (exception handling tags)")
			} else {
				r.failAt(start, "unknown section id %d", byte(id))
			}
			return
		} else if rank != 0 {
			if rank == lastRank {
				r.failAt(start, "duplicate %s section", id)
				return
			}
			if rank < lastRank {
				r.failAt(start, "%s section after %s section (out of order)", id, lastID)
				return
			}
			lastRank, lastID = rank, id
		}
		sec := Section{ID: id, Offset: start, End: r.pos + int(size)}
		r.end = sec.End
		d.section(&sec)
		if !r.ok() {
			return
		}
		if r.pos != r.end {
			r.item("", -1)
			r.fail("%d bytes left over at the end of the section", r.end-r.pos)
			return
		}
		d.m.Sections = append(d.m.Sections, sec)
	}
	if !r.ok() {
		return
	}
	r.section, r.end = "", len(b)
	r.item("", -1)
	if len(d.m.Functions) != len(d.m.Code) {
		r.failAt(len(b), "function section declares %d functions but the code section has %d bodies",
			len(d.m.Functions), len(d.m.Code))
	}
	if dc := d.m.DataCount; dc != nil && uint64(*dc) != uint64(len(d.m.Data)) {
		r.failAt(len(b), "data count section says %d segments but the data section has %d", *dc, len(d.m.Data))
	}
}

// section decodes the content of one section, r.pos..r.end.
func (d *decoder) section(sec *Section) {
	r := d.r
	sec.ContentOffset, sec.Content = r.pos, r.b[r.pos:r.end]
	switch sec.ID {
	case SectionCustom:
		r.item("", -1)
		sec.Name = r.name()
		r.section = fmt.Sprintf("custom %q", sec.Name)
		sec.ContentOffset, sec.Content = r.pos, r.b[r.pos:r.end]
		r.pos = r.end
		return
	case SectionStart:
		ref := r.indexRef()
		d.m.Start = &ref
		return
	case SectionDataCount:
		// wazero reads the count from the rest of the input rather than from
		// the section, so it accepts an empty data count section as the very
		// last thing in the file and takes the count as 0. Match that.
		if r.pos == r.end && r.end == len(r.b) {
			var zero uint32
			d.m.DataCount = &zero
			return
		}
		n := r.u32()
		d.m.DataCount = &n
		return
	}
	start := r.pos
	// Every item of every vector section takes at least one byte.
	sec.Count = r.count(1)
	sec.CountSize = r.pos - start
	switch sec.ID {
	case SectionType:
		d.types(sec.Count)
	case SectionImport:
		d.imports(sec.Count)
	case SectionFunction:
		d.functions(sec.Count)
	case SectionTable:
		d.tables(sec.Count)
	case SectionMemory:
		d.memories(sec.Count)
	case SectionGlobal:
		d.globals(sec.Count)
	case SectionExport:
		d.exports(sec.Count)
	case SectionElement:
		d.elements(sec.Count)
	case SectionCode:
		d.code(sec.Count)
	case SectionData:
		d.data(sec.Count)
	}
}
