package meter

import (
	"math"

	"github.com/gate-dev/gate/internal/wasm"
)

// nameSection writes the "name" custom section with function indices
// renumbered in the function names (subsection 1) and local names
// (subsection 2); other subsections are kept byte for byte. A name section
// that does not parse, or whose indices cannot be renumbered, is dropped:
// names are debugging aid, not a reason to refuse a probe.
func (rw *rewriter) nameSection(out []byte, s wasm.Section) []byte {
	ns, err := wasm.DecodeNameSection(s.Content, s.ContentOffset)
	if err != nil {
		return out
	}
	var payload, content []byte
	for _, sub := range ns.Subsections {
		content = content[:0]
		switch sub.ID {
		case 1:
			names := make([]wasm.NameAssoc, len(sub.Functions))
			for i, a := range sub.Functions {
				if a.Index == math.MaxUint32 {
					return out
				}
				names[i] = wasm.NameAssoc{Index: rw.shift(a.Index), Name: a.Name}
			}
			content = wasm.AppendNameMap(content, names)
		case 2:
			locals := make([]wasm.IndirectNameAssoc, len(sub.Locals))
			for i, a := range sub.Locals {
				if a.Index == math.MaxUint32 {
					return out
				}
				locals[i] = wasm.IndirectNameAssoc{Index: rw.shift(a.Index), Names: a.Names}
			}
			content = wasm.AppendIndirectNameMap(content, locals)
		default:
			content = append(content, sub.Content...)
		}
		payload = append(payload, sub.ID)
		payload = wasm.AppendU32(payload, uint32(len(content)))
		payload = append(payload, content...)
	}
	return wasm.AppendCustomSection(out, "name", payload)
}
