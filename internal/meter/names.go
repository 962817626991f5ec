package meter

import (
	"github.com/gate-dev/gate/internal/wasm"
)

// nameSection writes the "name" custom section with function indices
// renumbered in the function names (subsection 1) and local names
// (subsection 2), and the helpers named in subsection 1 (which is added if
// the input has none); other subsections are kept byte for byte. Names of
// functions that do not exist are dropped: renumbered, they could name an
// injected function. A name section that does not parse is dropped: names
// are debugging aid, not a reason to refuse a probe.
func (rw *rewriter) nameSection(out []byte, s wasm.Section) []byte {
	ns, err := wasm.DecodeNameSection(s.Content, s.ContentOffset)
	if err != nil {
		return out
	}
	subs := ns.Subsections
	if len(rw.helpers) > 0 && !hasFunctionNames(subs) {
		// Subsections come in order of id: 1 goes after 0, before the rest.
		at := 0
		for at < len(subs) && subs[at].ID < 1 {
			at++
		}
		subs = append(subs[:at:at], append([]wasm.NameSubsection{{ID: 1}}, subs[at:]...)...)
	}
	var payload, content []byte
	for _, sub := range subs {
		content = content[:0]
		switch sub.ID {
		case 1:
			names := make([]wasm.NameAssoc, 0, len(sub.Functions)+len(rw.helpers))
			for _, a := range sub.Functions {
				if a.Index < rw.numFuncs {
					names = append(names, wasm.NameAssoc{Index: rw.shift(a.Index), Name: a.Name})
				}
			}
			for _, h := range rw.helpers {
				names = append(names, wasm.NameAssoc{Index: h.index, Name: h.kind.name()})
			}
			content = wasm.AppendNameMap(content, names)
		case 2:
			locals := make([]wasm.IndirectNameAssoc, 0, len(sub.Locals))
			for _, a := range sub.Locals {
				if a.Index < rw.numFuncs {
					locals = append(locals, wasm.IndirectNameAssoc{Index: rw.shift(a.Index), Names: a.Names})
				}
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

func hasFunctionNames(subs []wasm.NameSubsection) bool {
	for _, sub := range subs {
		if sub.ID == 1 {
			return true
		}
	}
	return false
}
