package meter

import (
	"strings"
	"unicode/utf8"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/internal/wasm"
)

// MaxNameBytes bounds each name the rewrite keeps in the name section.
// wazero writes the module name and a function's name into every frame of
// a trap's stack trace (up to 30 frames), which gate hands on as the error
// detail of a run, in HTTP responses and logs: a name's bytes come back
// once a frame, so a long name made an error of tens of megabytes
// (docs/BENCHMARKS.md, "What the sandbox's bounds cost honest probes").
// 128 bytes keep every real name (a Go symbol, a C++ mangled name's useful
// start) readable.
const MaxNameBytes = 128

// nameSection writes the "name" custom section that wazero reads for stack
// traces: the module name (subsection 0) and the function names
// (subsection 1), each made safe by traceName, with function indices
// renumbered and the helpers named (a function name subsection is added
// for them if the input has none). Names of functions that do not exist
// are dropped: renumbered, they could name an injected function. Every
// other subsection (local names, and the extended name section's labels,
// types and so on) is dropped too: gate reads none of them, and wazero
// would only keep them in memory for every compiled module. A name section
// that does not parse is dropped whole: names are a debugging aid, not a
// reason to refuse a probe. So is one left with nothing in it.
func (rw *rewriter) nameSection(out []byte, s wasm.Section) []byte {
	ns, err := wasm.DecodeNameSection(s.Content, s.ContentOffset)
	if err != nil {
		return out
	}
	var payload, content []byte
	haveFuncs := false
	for _, sub := range ns.Subsections {
		content = content[:0]
		switch sub.ID {
		case 0:
			content = wasm.AppendName(content, traceName(sub.ModuleName))
		case 1:
			haveFuncs = true
			content = rw.funcNames(content, sub.Functions)
		default:
			continue
		}
		payload = appendSubsection(payload, sub.ID, content)
	}
	if !haveFuncs && len(rw.helpers) > 0 {
		// Subsections come in order of id: 1 goes after 0, which is all
		// that can be there.
		payload = appendSubsection(payload, 1, rw.funcNames(content[:0], nil))
	}
	if len(payload) == 0 {
		return out
	}
	return wasm.AppendCustomSection(out, "name", payload)
}

// funcNames appends the content of the output's function name subsection:
// the input's names, made safe and renumbered, then the helpers'.
func (rw *rewriter) funcNames(dst []byte, in []wasm.NameAssoc) []byte {
	names := make([]wasm.NameAssoc, 0, len(in)+len(rw.helpers))
	for _, a := range in {
		if a.Index < rw.numFuncs {
			names = append(names, wasm.NameAssoc{Index: rw.shift(a.Index), Name: traceName(a.Name)})
		}
	}
	for _, h := range rw.helpers {
		names = append(names, wasm.NameAssoc{Index: h.index, Name: h.kind.name()})
	}
	return wasm.AppendNameMap(dst, names)
}

func appendSubsection(dst []byte, id byte, content []byte) []byte {
	dst = append(dst, id)
	dst = wasm.AppendU32(dst, uint32(len(content)))
	return append(dst, content...)
}

// ellipsis marks where traceName cut a name.
const ellipsis = "…"

// traceName makes a name safe to print in a stack trace: valid UTF-8 (each
// invalid byte becomes U+FFFD), with every character that could change how
// the text around it reads replaced by U+FFFD, and at most MaxNameBytes
// long, cut at a character boundary with an ellipsis marking the cut.
// Replaced are the C0 and C1 controls (newlines and terminal escapes could
// forge lines of a trace or of a log it lands in), the Unicode bidi
// controls and marks (they reorder what follows them on screen, the
// "Trojan Source" trick) and the line and paragraph separators. Only the
// first bytes of a long name are read.
func traceName(s string) string {
	var b strings.Builder
	// fits is the length of the longest prefix written so far that leaves
	// room for the ellipsis.
	fits := 0
	for _, r := range s {
		if !safetext.Allowed(r) {
			r = utf8.RuneError
		}
		n := utf8.RuneLen(r)
		if b.Len()+n > MaxNameBytes {
			return b.String()[:fits] + ellipsis
		}
		b.WriteRune(r)
		if b.Len() <= MaxNameBytes-len(ellipsis) {
			fits = b.Len()
		}
	}
	return b.String()
}
