package meter

import "github.com/gate-dev/gate/internal/wasm"

// memory.fill and memory.copy run to completion once started, and a single
// one can take a long time: a fill of 32 MiB of pages the guest has not
// touched yet faults in 8192 pages, longer than a budget on a slow VM. So the
// rewrite replaces each of them (on memory 0, which with the features gate
// enables is the only memory) by a call to an injected function with the
// same operands and semantics, which works in chunks and checks the fuel
// between them:
//
//	gate.fill (dst i32, val i32, n i32)
//	gate.copy (dst i32, src i32, n i32)
//
// Both are defined functions appended after the module's own (so no existing
// index moves), only when used, and named in the name section. They are
// emitted here directly, not instrumented like the module's functions: they
// call nothing but refuel, and do not count towards the stack limit (their
// frames are small and fixed, and they are always the innermost).
//
// Semantics, as the specification has them: if dst+n (or src+n) exceeds the
// memory size, trap before writing anything; otherwise fill, or copy as if
// through a temporary buffer (overlapping ranges included). A length of up to
// one chunk is done by one memory.fill or memory.copy, which checks the bounds
// itself. A longer one is bounds-checked first (in i64, so dst+n cannot wrap),
// trapping by running the whole operation, which wazero refuses with its usual
// "out of bounds memory access" without writing; then it goes chunk by
// chunk: forwards, or backwards from the end when dst > src (a chunk then
// only overwrites source bytes that were already copied).
//
// Each chunk is charged memoryChunkCost before it runs, and the tail its
// length >> helperBulkShift, followed by the usual fuel test.
const (
	// bulkChunk is the largest length a helper hands to one memory.fill or
	// memory.copy.
	bulkChunk = 1 << 16
	// helperBulkShift: the helpers charge one unit per 4 bytes. On memory
	// already faulted in, wazero fills or copies about that many bytes in
	// the time of one simple instruction, so a Quantum is about as long as
	// one of instructions (512 KiB); on fresh pages it
	// bounds the time between checks to the faults of 128 pages.
	helperBulkShift = 2
	memoryChunkCost = bulkChunk >> helperBulkShift
)

// helperKind is an injected function.
type helperKind byte

const (
	helperFill helperKind = iota
	helperCopy
)

// helper is an injected function, with its output function index.
type helper struct {
	kind  helperKind
	index uint32
}

func (k helperKind) name() string {
	if k == helperFill {
		return "gate.fill"
	}
	return "gate.copy"
}

// replaced reports whether in is a memory.fill or memory.copy that the
// rewrite replaces by a call to a helper, and which. That needs a memory, and
// memory indices encoded as wazero requires (a single 0x00 byte each):
// anything else is invalid and stays as it is, so that it stays invalid.
func (rw *rewriter) replaced(in wasm.Instr) (helperKind, bool) {
	if !rw.hasMemory || in.Op != wasm.OpPrefixMisc {
		return 0, false
	}
	switch in.Sub {
	case wasm.MiscMemoryFill:
		return helperFill, zeroMemoryIndices(in.Raw, 1)
	case wasm.MiscMemoryCopy:
		return helperCopy, zeroMemoryIndices(in.Raw, 2)
	}
	return 0, false
}

// zeroMemoryIndices reports whether the instruction raw (0xfc, a LEB128
// sub-opcode, then n memory indices) ends with n one-byte zero indices. The
// byte before them must then end the sub-opcode: a LEB128 byte with the high
// bit clear. (A longer index ends in a byte after one with the high bit set.)
func zeroMemoryIndices(raw []byte, n int) bool {
	if len(raw) < n+2 || raw[len(raw)-n-1]&0x80 != 0 {
		return false
	}
	for _, b := range raw[len(raw)-n:] {
		if b != 0 {
			return false
		}
	}
	return true
}

// chargedInline reports whether in is a bulk operation charged by length
// before it runs (bulkCharge), and the charge's shift.
func (rw *rewriter) chargedInline(in wasm.Instr) (int32, bool) {
	if _, ok := rw.replaced(in); ok {
		return 0, false
	}
	return bulkShift(in)
}

// helperFunc returns the function index of a helper, adding it on first use.
func (rw *rewriter) helperFunc(kind helperKind) uint32 {
	for _, h := range rw.helpers {
		if h.kind == kind {
			return h.index
		}
	}
	index := rw.numFuncs + uint32(len(rw.imports)+len(rw.helpers))
	rw.helpers = append(rw.helpers, helper{kind, index})
	return index
}

// helperBody appends the body of a helper (no locals). With d, s (or v) and
// n its parameters 0, 1 and 2, C the chunk size, and charge(x) meaning
// "global.get $fuel; x; i32.sub; global.set $fuel; <fuel test>":
//
//	block
//	  n <= C; br_if 0                              ;; one operation will do
//	  if max(d, s) + n > memory size in bytes (i64):
//	    OP(d, s, n); unreachable                   ;; traps, writes nothing
//	  fill, or copy with d <= s:
//	    loop
//	      charge(C); OP(d, s, C)
//	      d += C; s += C
//	      br_if 0 ((n -= C) > C)
//	    end
//	  copy with d > s:
//	    loop
//	      charge(C); n -= C; OP(d+n, s+n, C)
//	      br_if 0 (n > C)
//	    end
//	end
//	charge(n >> helperBulkShift); OP(d, s, n)      ;; the rest, n <= C
//
// For fill, s is the value (it is not advanced, nor part of the bound).
func (rw *rewriter) helperBody(dst []byte, kind helperKind) []byte {
	const d, s, n = 0, 1, 2
	get := func(dst []byte, local byte) []byte { return append(dst, wasm.OpLocalGet, local) }
	set := func(dst []byte, local byte) []byte { return append(dst, wasm.OpLocalSet, local) }
	chunk := func(dst []byte) []byte {
		dst = append(dst, wasm.OpI32Const)
		return wasm.AppendS32(dst, bulkChunk)
	}
	op := func(dst []byte) []byte {
		if kind == helperFill {
			return append(dst, wasm.OpPrefixMisc, byte(wasm.MiscMemoryFill), 0)
		}
		return append(dst, wasm.OpPrefixMisc, byte(wasm.MiscMemoryCopy), 0, 0)
	}
	charge := func(dst []byte, amount func([]byte) []byte) []byte {
		dst = append(dst, wasm.OpGlobalGet)
		dst = wasm.AppendU32(dst, rw.fuelGlobal)
		dst = amount(dst)
		dst = append(dst, wasm.OpI32Sub, wasm.OpGlobalSet)
		dst = wasm.AppendU32(dst, rw.fuelGlobal)
		return rw.fuelTest(dst)
	}
	chunkCost := func(dst []byte) []byte {
		dst = append(dst, wasm.OpI32Const)
		return wasm.AppendS32(dst, memoryChunkCost)
	}
	// add appends "local += C" (with i32.sub, "local -= C").
	add := func(dst []byte, local byte, opcode byte) []byte {
		dst = get(dst, local)
		dst = chunk(dst)
		dst = append(dst, opcode)
		return set(dst, local)
	}
	// more appends "br_if 0 (n > C)"; with sub, "br_if 0 ((n -= C) > C)".
	more := func(dst []byte, sub bool) []byte {
		dst = get(dst, n)
		if sub {
			dst = chunk(dst)
			dst = append(dst, wasm.OpI32Sub, wasm.OpLocalTee, n)
		}
		dst = chunk(dst)
		return append(dst, wasm.OpI32GtU, wasm.OpBrIf, 0)
	}

	dst = append(dst, 0) // no locals
	dst = append(dst, wasm.OpBlock, wasm.BlockEmpty)
	dst = get(dst, n)
	dst = chunk(dst)
	dst = append(dst, wasm.OpI32LeU, wasm.OpBrIf, 0)

	// The bounds check: max(d, s) for copy, d for fill.
	dst = get(dst, d)
	if kind == helperCopy {
		dst = get(dst, s)
		dst = get(dst, d)
		dst = get(dst, s)
		dst = append(dst, wasm.OpI32GtU, wasm.OpSelect)
	}
	dst = append(dst, wasm.OpI64ExtendI32U)
	dst = get(dst, n)
	dst = append(dst, wasm.OpI64ExtendI32U, wasm.OpI64Add, wasm.OpMemorySize, 0, wasm.OpI64ExtendI32U,
		wasm.OpI64Const, 16, wasm.OpI64Shl, wasm.OpI64GtU, wasm.OpIf, wasm.BlockEmpty)
	dst = get(dst, d)
	dst = get(dst, s)
	dst = get(dst, n)
	dst = op(dst)
	dst = append(dst, wasm.OpUnreachable, wasm.OpEnd)

	forwards := func(dst []byte) []byte {
		dst = append(dst, wasm.OpLoop, wasm.BlockEmpty)
		dst = charge(dst, chunkCost)
		dst = get(dst, d)
		dst = get(dst, s)
		dst = chunk(dst)
		dst = op(dst)
		dst = add(dst, d, wasm.OpI32Add)
		if kind == helperCopy {
			dst = add(dst, s, wasm.OpI32Add)
		}
		dst = more(dst, true)
		return append(dst, wasm.OpEnd)
	}
	if kind == helperFill {
		dst = forwards(dst)
	} else {
		dst = get(dst, d)
		dst = get(dst, s)
		dst = append(dst, wasm.OpI32GtU, wasm.OpIf, wasm.BlockEmpty)
		dst = append(dst, wasm.OpLoop, wasm.BlockEmpty)
		dst = charge(dst, chunkCost)
		dst = add(dst, n, wasm.OpI32Sub)
		dst = get(dst, d)
		dst = get(dst, n)
		dst = append(dst, wasm.OpI32Add)
		dst = get(dst, s)
		dst = get(dst, n)
		dst = append(dst, wasm.OpI32Add)
		dst = chunk(dst)
		dst = op(dst)
		dst = more(dst, false)
		dst = append(dst, wasm.OpEnd)
		dst = append(dst, wasm.OpElse)
		dst = forwards(dst)
		dst = append(dst, wasm.OpEnd)
	}
	dst = append(dst, wasm.OpEnd) // block

	dst = charge(dst, func(dst []byte) []byte {
		dst = get(dst, n)
		return append(dst, wasm.OpI32Const, helperBulkShift, wasm.OpI32ShrU)
	})
	dst = get(dst, d)
	dst = get(dst, s)
	dst = get(dst, n)
	dst = op(dst)
	return append(dst, wasm.OpEnd)
}
