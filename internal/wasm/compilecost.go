package wasm

// FuncCost is what a function's shape predicts of the work wazero's
// optimizing compiler does on it, counted in one pass over its body
// without building anything in proportion to its declared locals.
//
// The compiler builds SSA with one basic block per control transfer or
// join, and two of its passes grow faster than the body:
//   - loop detection walks the dominator tree from every block, so a
//     chain of blocks costs about Blocks squared, and building the loop
//     nesting forest about Loops × Blocks;
//   - SSA construction and register allocation track every live local
//     through every block it is live across, so the cost grows with
//     LiveSpan, the sum over locals of the blocks each one stays live
//     across (at most Locals × Blocks);
//   - SSA construction finds a local's value by walking back, block by
//     block, to its definition or to the nearest join, without
//     remembering the way, so each read and each branch into a join
//     pays for the chain of blocks behind it (Walk).
type FuncCost struct {
	// Locals counts parameters and declared locals.
	Locals uint64
	// Loops counts the loops.
	Loops uint64
	// Blocks counts the control instructions that start or end an SSA
	// block or add an edge between two: loop, if, else, end, br, br_if,
	// return, and br_table once and once per target.
	Blocks uint64
	// LiveSpan sums, over the parameters and locals the body refers to,
	// the Blocks between a local's first and last reference, widened to
	// the whole of the outermost loop around either one (a local used
	// in a loop is live around its back edge), and from the entry for a
	// parameter and for a local read before it is set (it holds the
	// value it was given at the entry).
	LiveSpan uint64
	// Walk bounds the blocks SSA construction walks back through: for
	// each local.get, and for each branch times the locals the body
	// refers to, the Blocks since the last join (a loop header, or the
	// end of a block or if that something branches to).
	Walk uint64
}

// localRange is where a local is referenced: the block counts of its
// first and last reference (plus one, so that zero is "never"), and the
// outermost loops open at each (plus one).
type localRange struct {
	first, last         uint64
	firstLoop, lastLoop uint32
	// fromEntry is set when the first reference reads the local.
	fromEntry bool
}

// FuncCost returns the cost of defined function i (0 for the first
// defined one). Decode counts it as it checks the body; a body of a
// hand-built Module that does not decode is counted up to the error.
func (m *Module) FuncCost(i int) FuncCost {
	if i < 0 || i >= len(m.Code) {
		return FuncCost{}
	}
	c := m.Code[i]
	if c.costed {
		return c.cost
	}
	fc, _ := countCost(NewInstrReader(c.Body, c.BodyOffset), m.numParams(i), c.NumLocals, len(c.Body))
	return fc
}

// numParams is how many parameters defined function i has (0 if its type
// is out of range).
func (m *Module) numParams(i int) uint64 {
	if ft, ok := m.FuncType(m.NumImportedFuncs() + uint32(i)); ok {
		return uint64(len(ft.Params))
	}
	return 0
}

// countCost walks a body of size bytes with ir to its end, counting its
// cost; the error is the first one ir meets, with the cost up to it.
func countCost(ir *InstrReader, params, locals uint64, size int) (FuncCost, error) {
	fc := FuncCost{Locals: params + locals}

	// Ranges by local index: a slice when the locals are no more than the
	// body's bytes (each reference takes at least two), else a map, so a
	// body that declares four billion locals costs no more than its size.
	var dense []localRange
	var sparse map[uint32]*localRange
	if fc.Locals <= uint64(size) {
		dense = make([]localRange, fc.Locals)
	} else {
		sparse = map[uint32]*localRange{}
	}
	rangeOf := func(k uint32) *localRange {
		if dense != nil {
			if uint64(k) >= uint64(len(dense)) {
				return nil
			}
			return &dense[k]
		}
		if uint64(k) >= fc.Locals {
			return nil
		}
		r := sparse[k]
		if r == nil {
			r = &localRange{}
			sparse[k] = r
		}
		return r
	}

	// loopStart and loopEnd are the block counts where each loop (by the
	// order it opens in) starts and ends; open the frames under way, each
	// the loop id plus one or 0 for another kind; outer the outermost
	// open loop's id plus one.
	var loopStart, loopEnd []uint64
	var open []uint32
	var outer uint32
	// targeted says, per open frame, whether a branch leaves it (so that
	// its end is a join); join is the Blocks at the last join, reads the
	// Walk of the reads, branchWalk the sum over branches of the blocks
	// since the last join, used the locals referred to.
	var targeted []bool
	var join, reads, branchWalk, used uint64
	branch := func(label uint32, targets uint64) {
		// A branch to a loop goes to its header, not its end.
		if n := uint64(len(targeted)); uint64(label) < n && open[n-1-uint64(label)] == 0 {
			targeted[n-1-uint64(label)] = true
		}
		branchWalk += targets * (fc.Blocks - join)
	}
	var err error
	for !ir.Done() {
		var in Instr
		if in, err = ir.Next(); err != nil {
			break
		}
		switch in.Op {
		case OpBlock:
			// Not a block of its own in SSA: its end is.
			open = append(open, 0)
			targeted = append(targeted, false)
		case OpIf:
			fc.Blocks++
			open = append(open, 0)
			targeted = append(targeted, true) // the end joins both arms
		case OpLoop:
			fc.Blocks++
			fc.Loops++
			join = fc.Blocks
			targeted = append(targeted, false)
			loopStart = append(loopStart, fc.Blocks)
			loopEnd = append(loopEnd, 0)
			id := uint32(len(loopStart))
			open = append(open, id)
			if outer == 0 {
				outer = id
			}
		case OpEnd:
			fc.Blocks++
			if n := len(targeted); n > 0 {
				if targeted[n-1] {
					join = fc.Blocks
				}
				targeted = targeted[:n-1]
			}
			if n := len(open); n > 0 {
				if id := open[n-1]; id != 0 {
					loopEnd[id-1] = fc.Blocks
					if id == outer {
						outer = 0
					}
				}
				open = open[:n-1]
			}
		case OpElse, OpReturn:
			fc.Blocks++
		case OpBr, OpBrIf:
			fc.Blocks++
			branch(in.Index, 1)
		case OpBrTable:
			// The target count leads the immediates; Next has checked them.
			n, size, _ := decodeU32(in.Raw[1:])
			fc.Blocks += uint64(n) + 1
			for at, k := 1+size, uint32(0); k <= n && at < len(in.Raw); k++ {
				label, size, err := decodeU32(in.Raw[at:])
				if err != nil {
					break
				}
				at += size
				branch(label, 1)
			}
		case OpLocalGet, OpLocalSet, OpLocalTee:
			r := rangeOf(in.Index)
			if r == nil {
				continue
			}
			if r.first == 0 {
				r.first, r.firstLoop = fc.Blocks+1, outer
				r.fromEntry = in.Op == OpLocalGet || uint64(in.Index) < params
				used++
			}
			if in.Op == OpLocalGet {
				reads += fc.Blocks - join
			}
			r.last, r.lastLoop = fc.Blocks+1, outer
		}
	}
	spanOf := func(r *localRange) uint64 {
		if r.first == 0 {
			return 0
		}
		from, to := r.first-1, r.last-1
		if r.fromEntry {
			from = 0
		} else if r.firstLoop != 0 {
			from = min(from, loopStart[r.firstLoop-1])
		}
		if r.lastLoop != 0 {
			if end := loopEnd[r.lastLoop-1]; end != 0 {
				to = max(to, end)
			} else {
				to = fc.Blocks // a loop left open by a body cut short
			}
		}
		return to - from
	}
	fc.Walk = reads + used*branchWalk
	for k := range dense {
		fc.LiveSpan += spanOf(&dense[k])
	}
	for _, r := range sparse {
		fc.LiveSpan += spanOf(r)
	}
	return fc, err
}
