// Package costlywasm generates WebAssembly probe modules built to be
// expensive for wazero's optimizing compiler at a small size, for the
// tests and measurements of the compile cost limits (runtime's
// MaxFunctionBlocks and the rest, wasm.FuncCost).
package costlywasm

import (
	"github.com/gate-dev/gate/internal/wasm"
)

// Shape describes a generated module built to be expensive for
// wazero's optimizing compiler: each defined function has Locals i32
// locals and Blocks control structures of the given Kind, and ends by
// reading every local, so that the compiler's SSA construction tracks each
// local through each block.
type Shape struct {
	// Kind is the function's control structure:
	//   - "seq": Blocks blocks in a row, each left early by a br_if;
	//   - "brifs": one block left by Blocks br_ifs;
	//   - "nested": Blocks nested blocks, each left early from the
	//     innermost by a br_if;
	//   - "loops": Blocks counted loops in a row;
	//   - "brtable": Blocks nested blocks left by one br_table with a
	//     target for each.
	Kind      string
	Locals    int
	Blocks    int
	Functions int // defined functions of that shape (at least 1)
}

// Module returns a probe module (exported memory, "probe" entry
// point of type () -> i32) whose functions all have shape s.
func Module(s Shape) []byte {
	fn := body(s)
	n := max(1, s.Functions)
	b := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	b = wasm.AppendSection(b, wasm.SectionID(1), []byte{1, 0x60, 0, 1, 0x7f})
	funcs := wasm.AppendU32(nil, uint32(n))
	for range n {
		funcs = append(funcs, 0)
	}
	b = wasm.AppendSection(b, wasm.SectionID(3), funcs)
	b = wasm.AppendSection(b, wasm.SectionID(5), []byte{1, 0, 1})
	exports := []byte{2}
	exports = append(wasm.AppendName(exports, "memory"), 2, 0)
	exports = append(wasm.AppendName(exports, "probe"), 0, 0)
	b = wasm.AppendSection(b, wasm.SectionID(7), exports)
	code := wasm.AppendU32(nil, uint32(n))
	for range n {
		code = wasm.AppendU32(code, uint32(len(fn)))
		code = append(code, fn...)
	}
	return wasm.AppendSection(b, wasm.SectionID(10), code)
}

func body(s Shape) []byte {
	L, B := max(1, s.Locals), s.Blocks
	b := []byte{1}
	b = wasm.AppendU32(b, uint32(L))
	b = append(b, 0x7f)
	get := func(b []byte, k int) []byte { return wasm.AppendU32(append(b, wasm.OpLocalGet), uint32(k%L)) }
	set := func(b []byte, k, v int) []byte {
		b = wasm.AppendS32(append(b, wasm.OpI32Const), int32(v))
		return wasm.AppendU32(append(b, wasm.OpLocalSet), uint32(k%L))
	}
	switch s.Kind {
	case "seq": // block; br_if 0 on a local; set a local; end - B times
		for i := range B {
			b = append(b, wasm.OpBlock, wasm.BlockEmpty)
			b = get(b, i)
			b = append(b, wasm.OpBrIf, 0)
			b = set(b, i, i)
			b = append(b, wasm.OpEnd)
		}
	case "brifs": // one block left by B br_ifs
		b = append(b, wasm.OpBlock, wasm.BlockEmpty)
		for i := range B {
			b = get(b, i)
			b = append(b, wasm.OpBrIf, 0)
		}
		b = append(b, wasm.OpEnd)
	case "nested": // B nested blocks, an early exit from each depth
		for range B {
			b = append(b, wasm.OpBlock, wasm.BlockEmpty)
		}
		for d := range B {
			b = get(b, d)
			b = wasm.AppendU32(append(b, wasm.OpBrIf), uint32(d))
			b = set(b, d, d)
		}
		for range B {
			b = append(b, wasm.OpEnd)
		}
	case "loops": // B sequential counted loops
		for i := range B {
			b = append(b, wasm.OpLoop, wasm.BlockEmpty)
			b = get(b, i)
			b = append(b, wasm.OpI32Const, 1, wasm.OpI32Sub)
			b = wasm.AppendU32(append(b, wasm.OpLocalTee), uint32(i%L))
			b = append(b, wasm.OpBrIf, 0, wasm.OpEnd)
		}
	case "brtable": // B blocks exited by one br_table with a target each
		for range B {
			b = append(b, wasm.OpBlock, wasm.BlockEmpty)
		}
		b = get(b, 0)
		b = wasm.AppendU32(append(b, wasm.OpBrTable), uint32(B))
		for d := range B {
			b = wasm.AppendU32(b, uint32(d))
		}
		b = append(b, 0)
		for d := range B {
			b = append(b, wasm.OpEnd)
			b = set(b, d, d)
		}
	default:
		panic("unknown shape " + s.Kind)
	}
	b = get(b, 0)
	for k := 1; k < L; k++ {
		b = get(b, k)
		b = append(b, wasm.OpI32Add)
	}
	return append(b, wasm.OpEnd)
}
