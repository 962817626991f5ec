package wasm

// AppendName appends a length-prefixed string.
func AppendName(dst []byte, s string) []byte {
	dst = AppendU32(dst, uint32(len(s)))
	return append(dst, s...)
}

// AppendSection appends a section: id, content size, content.
func AppendSection(dst []byte, id SectionID, content []byte) []byte {
	dst = append(dst, byte(id))
	dst = AppendU32(dst, uint32(len(content)))
	return append(dst, content...)
}

// AppendCustomSection appends a custom section with the given name and payload.
func AppendCustomSection(dst []byte, name string, payload []byte) []byte {
	dst = append(dst, byte(SectionCustom))
	dst = AppendU32(dst, uint32(SizeU32(uint32(len(name)))+len(name)+len(payload)))
	dst = AppendName(dst, name)
	return append(dst, payload...)
}

// AppendValType appends a value type's encoding.
func AppendValType(dst []byte, v ValType) []byte {
	dst = append(dst, v.Code())
	if heap, _, ok := v.Heap(); ok {
		dst = AppendS64(dst, heap) // an s33 fits; the encoding is the same
	}
	return dst
}

// AppendFuncType appends a function type (form 0x60, not in a rec group).
func AppendFuncType(dst []byte, f FuncType) []byte {
	dst = append(dst, 0x60)
	dst = AppendU32(dst, uint32(len(f.Params)))
	for _, p := range f.Params {
		dst = AppendValType(dst, p)
	}
	dst = AppendU32(dst, uint32(len(f.Results)))
	for _, r := range f.Results {
		dst = AppendValType(dst, r)
	}
	return dst
}

// AppendLimits appends limits with the flag byte their fields imply.
func AppendLimits(dst []byte, l Limits) []byte {
	var flag byte
	if l.HasMax {
		flag |= 1
	}
	if l.Shared {
		flag |= 2
	}
	dst = append(dst, flag)
	dst = AppendU32(dst, l.Min)
	if l.HasMax {
		dst = AppendU32(dst, l.Max)
	}
	return dst
}

// AppendImport appends an import entry of kind Func, Memory or Global (tables
// with initialisers are not needed by any rewriter and are not supported).
func AppendImport(dst []byte, imp Import) []byte {
	dst = AppendName(dst, imp.Module)
	dst = AppendName(dst, imp.Name)
	dst = append(dst, byte(imp.Kind))
	switch imp.Kind {
	case Func:
		dst = AppendU32(dst, imp.Type)
	case Table:
		dst = AppendValType(dst, imp.Table.Elem)
		dst = AppendLimits(dst, imp.Table.Limits)
	case Memory:
		dst = AppendLimits(dst, imp.Memory)
	case Global:
		dst = AppendValType(dst, imp.Global.Type)
		dst = append(dst, boolByte(imp.Global.Mutable))
	}
	return dst
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
