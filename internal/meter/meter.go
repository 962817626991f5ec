// Package meter rewrites a WebAssembly module so that it can always be
// interrupted.
//
// wazero's WithCloseOnContextDone only checks at loop back-edges, which makes
// tight loops much slower and misses loop-free work such as an exponential
// call tree, and the Go scheduler cannot preempt JIT code. So gate rewrites
// each probe once at load: at every function entry and every loop header the
// guest subtracts a static cost from an injected i32 global, "fuel"; when the
// fuel goes negative it calls the injected host import gate.internal.refuel,
// which checks the deadline (trapping if it passed) and returns fresh fuel.
//
// A few single instructions can run for a long time on their own, and are
// bounded separately:
//
//   - memory.fill and memory.copy (on a module's memory 0) become calls to two
//     injected functions, gate.fill and gate.copy, with the same operands and
//     semantics, that work in chunks of at most 64 KiB and charge fuel and
//     check it between chunks, so that even a single fill over fresh pages
//     (slow to fault in) meets the deadline partway;
//   - the other operations whose cost depends on an operand (memory.init and
//     the table operations) are charged in proportion to it first;
//   - with Options.MaxStackSlots, every function adds the stack its frame
//     may take (see FrameOverhead) to a second injected global on entry, takes
//     it off on the way out, and calls gate.internal.trap past the limit,
//     before wazero grows its native stack (by copying, in Go code, up to
//     100 MB) far enough to take noticeable time or memory;
//   - Options.MaxMemoryPages and Options.MaxTableElements cap what memory.grow
//     and table.grow can allocate.
//
// The bound this gives: between two calls to refuel a guest executes at most
// about Quantum units of work (one unit is one instruction, see costs.go),
// plus the cost of one checkpoint interval (at most 1<<24), whatever the
// module does. Because the guest regularly calls into Go, the Go scheduler
// gets to preempt it too.
package meter

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/gate-dev/gate/internal/wasm"
)

const (
	// ImportModule and ImportName name the injected import. A probe that
	// imports anything from ImportModule itself is refused.
	ImportModule = "gate.internal"
	// ImportName is the injected function, of type () -> i32: the host
	// checks the deadline and returns fresh fuel (normally Quantum).
	ImportName = "refuel"
	// Quantum is the fuel the global starts with and that refuel returns.
	// The host side uses it too.
	Quantum = 1 << 17
)

// TrapName is the second injected import, of type (i32) -> (), imported
// from ImportModule right after ImportName when a module needs it (today:
// when Options.MaxStackSlots is set). The guest calls it with a reason code,
// one of the Trap constants, when it must stop.
//
// The host must provide it (providing it when no module imports it is
// harmless) and must not return: it panics, with an error that names the
// reason (TrapReason formats one), which wazero turns into the error the
// call returns. Should a host return anyway, the guest executes unreachable
// right after the call, so it stops either way.
const TrapName = "trap"

// Reason codes passed to TrapName.
const (
	// TrapCallStack: a call would take the stack past
	// Options.MaxStackSlots.
	TrapCallStack int32 = 1
)

// TrapReason describes a reason code passed to TrapName, for the host's
// error message.
func TrapReason(code int32) string {
	switch code {
	case TrapCallStack:
		return "call stack too deep: over the probe's stack limit"
	}
	return "unknown trap reason " + strconv.Itoa(int(code))
}

// Options tune Instrument. The zero value meters fuel only, with no caps.
type Options struct {
	// MaxMemoryPages caps memory 0: a declared max above it (or no max) is
	// lowered to it, and a declared (or imported) minimum above it is an
	// error. 0 means no cap.
	MaxMemoryPages uint32
	// MaxStackSlots bounds the stack that nested calls between the
	// module's own functions may take, in slots of SlotBytes: the guest
	// traps (through TrapName, with TrapCallStack) on entering a function
	// whose frame would take the total past it. Each activation of a
	// defined function counts its frame's weight (see FrameOverhead), the
	// one the host calls included. 0 means no limit; a limit of 1<<31
	// slots or more (16 GiB, far past wazero's own ceiling) acts as
	// 1<<31-1, which keeps the guest's i32 arithmetic from wrapping.
	//
	// Slots, not calls, because the cost of a call is its frame: a
	// function with 2,000 values live across a call takes 16 KB of native
	// stack per activation, one with a handful under 100 bytes.
	//
	// The total lives in an injected global that each function adds its
	// weight to on entry and takes it off on every way out except a trap.
	// A trap (including one raised by a host function, such as refuel past
	// the deadline) leaves it too high, so an instance must not be called
	// again after a trap; gate never reuses a trapped instance.
	MaxStackSlots uint32
	// MaxTableElements caps every table the module defines: a declared max
	// above it (or no max) is lowered to it, so table.grow fails (returns
	// -1) past it, and a declared (or imported) minimum above it is an
	// error. 0 means no cap.
	MaxTableElements uint32
}

// Reasons Instrument refuses a module it can decode. The errors it returns
// wrap them; test with errors.Is. Input it cannot decode (malformed, or using
// a feature wazero does not enable by default) is reported as the decoder's
// *wasm.FormatError instead.
var (
	// ErrReservedImport: the module imports from ImportModule.
	ErrReservedImport = errors.New("import from the reserved module " + ImportModule)
	// ErrMemoryCap: the module needs more memory than Options.MaxMemoryPages.
	ErrMemoryCap = errors.New("memory over the probe cap")
	// ErrTableCap: the module needs a table larger than
	// Options.MaxTableElements.
	ErrTableCap = errors.New("table over the probe cap")
	// ErrInvalid: the module is invalid in a way that matters to the
	// rewrite. Chiefly: it refers to a global, local or function that does
	// not exist, at an index the rewrite fills (the injected globals, the
	// scratch local, the injected functions); instrumenting it would make
	// it valid, with the guest in control of its own fuel or stack count.
	ErrInvalid = errors.New("invalid module")
)

// refusal is an error that explains itself and wraps one of the Err values.
type refusal struct {
	kind error
	msg  string
}

func (e *refusal) Error() string { return "meter: " + e.msg }
func (e *refusal) Unwrap() error { return e.kind }

// Instrument returns wasm rewritten with fuel metering, as the package
// documentation describes. The output is deterministic: the same input and
// options give the same bytes.
func Instrument(wasmBytes []byte, opts Options) ([]byte, error) {
	m, err := wasm.Decode(wasmBytes)
	if err != nil {
		return nil, err
	}
	rw, err := newRewriter(wasmBytes, m, opts)
	if err != nil {
		return nil, err
	}
	return rw.emit()
}

// rewriter holds the decisions Instrument makes before writing anything.
//
// The output's function index space is: the input's imported functions, the
// injected imports (refuel, then trap if needed), the input's defined
// functions, then the injected helpers (gate.fill, gate.copy, those that are
// used, in order of first use). Its global index space is the input's
// globals, then fuel, then the stack count if needed.
type rewriter struct {
	in   []byte
	m    *wasm.Module
	opts Options

	// importedFuncs is the number of imported functions of the input, and
	// numFuncs the number of all its functions: indices below importedFuncs
	// keep their value, the others (defined functions) move up by
	// len(imports).
	importedFuncs, numFuncs uint32
	// imports are the injected imports; refuelFunc and trapFunc their
	// function indices (trapFunc is meaningful only if there is one).
	imports              []wasm.Import
	refuelFunc, trapFunc uint32
	// newTypes are the types appended to the type section, the first at
	// index len(m.Types).
	newTypes []wasm.FuncType
	// fuelGlobal and stackGlobal are the indices of the injected globals
	// (stackGlobal is meaningful only if opts.MaxStackSlots is set).
	fuelGlobal, stackGlobal uint32
	// stackLimit is opts.MaxStackSlots, at most 1<<31-1.
	stackLimit uint32
	// memory0 holds the new limits of a defined memory 0 lowered to the cap.
	memory0 *wasm.Limits
	// tables holds the new limits of defined tables lowered to the cap, by
	// index in m.Tables.
	tables map[int]wasm.Limits
	// hasMemory: the module has a memory 0, so memory.fill and memory.copy
	// are replaced by calls to the helpers.
	hasMemory bool
	// helpers are the injected functions, in index order; helperType is
	// their type index.
	helpers    []helper
	helperType uint32
	// blockTypes caches, by function type index, the encoded block type of
	// the wrapper block of the stack count.
	blockTypes map[uint32][]byte
	// code is the content of the output code section, rendered up front
	// (it decides which helpers exist).
	code []byte
}

func newRewriter(in []byte, m *wasm.Module, opts Options) (*rewriter, error) {
	for _, imp := range m.Imports {
		if imp.Module == ImportModule {
			return nil, &refusal{ErrReservedImport, fmt.Sprintf(
				"module imports %q from %q, which is reserved for gate's metering", imp.Name, imp.Module)}
		}
	}
	rw := &rewriter{in: in, m: m, opts: opts, importedFuncs: m.NumImportedFuncs()}
	// The output has at most 2 injected imports and 2 helpers more.
	if uint64(rw.importedFuncs)+uint64(len(m.Functions))+4 >= math.MaxUint32 {
		return nil, &refusal{ErrInvalid, "too many functions"}
	}
	rw.numFuncs = rw.importedFuncs + uint32(len(m.Functions))

	rw.refuelFunc = rw.importedFuncs
	rw.imports = append(rw.imports, wasm.Import{Module: ImportModule, Name: ImportName, Kind: wasm.Func,
		Type: rw.typeIndex(wasm.FuncType{Results: []wasm.ValType{wasm.I32}})})
	rw.stackLimit = min(opts.MaxStackSlots, math.MaxInt32)
	if rw.stackLimit > 0 {
		rw.trapFunc = rw.importedFuncs + uint32(len(rw.imports))
		rw.imports = append(rw.imports, wasm.Import{Module: ImportModule, Name: TrapName, Kind: wasm.Func,
			Type: rw.typeIndex(wasm.FuncType{Params: []wasm.ValType{wasm.I32}})})
	}

	globals := uint64(m.NumImportedGlobals()) + uint64(len(m.Globals))
	if globals+1 >= math.MaxUint32 {
		return nil, &refusal{ErrInvalid, "too many globals"}
	}
	rw.fuelGlobal = uint32(globals)
	rw.stackGlobal = rw.fuelGlobal + 1
	_, rw.hasMemory, _ = m.Memory()

	if err := rw.checkRefs(); err != nil {
		return nil, err
	}
	if err := rw.capMemory(); err != nil {
		return nil, err
	}
	if err := rw.capTables(); err != nil {
		return nil, err
	}
	var err error
	if rw.code, err = rw.codeContent(); err != nil {
		return nil, err
	}
	if len(rw.helpers) > 0 {
		rw.helperType = rw.typeIndex(wasm.FuncType{Params: []wasm.ValType{wasm.I32, wasm.I32, wasm.I32}})
	}
	return rw, nil
}

// typeIndex returns the index of a standalone type equal to ft, appending
// one to newTypes if the input has none (a type in a rec group does not
// count: wazero does not treat it as equal to a standalone one).
func (rw *rewriter) typeIndex(ft wasm.FuncType) uint32 {
	for i, t := range rw.m.Types {
		if !t.InRecGroup && t.Equal(ft) {
			return uint32(i)
		}
	}
	for i, t := range rw.newTypes {
		if t.Equal(ft) {
			return uint32(len(rw.m.Types) + i)
		}
	}
	rw.newTypes = append(rw.newTypes, ft)
	return uint32(len(rw.m.Types) + len(rw.newTypes) - 1)
}

// checkRefs refuses a module whose exports, start section, element segments
// or constant expressions name a global at or past fuelGlobal or a function
// that does not exist (code is checked as it is rewritten): such a reference
// is invalid in the input but could name an injected global or function in
// the output.
func (rw *rewriter) checkRefs() error {
	m := rw.m
	err := rw.eachConstExpr(func(x *wasm.ConstExpr) error {
		for _, g := range x.GlobalRefs {
			if g.Index >= rw.fuelGlobal {
				return rw.noSuchGlobal(g.Offset, g.Index)
			}
		}
		return rw.checkFuncRefs(x.FuncRefs)
	})
	if err != nil {
		return err
	}
	for _, e := range m.Elements {
		if err := rw.checkFuncRefs(e.Funcs); err != nil {
			return err
		}
	}
	for _, e := range m.Exports {
		switch {
		case e.Kind == wasm.Global && e.Index >= rw.fuelGlobal:
			return rw.noSuchGlobal(e.IndexSpan.Offset, e.Index)
		case e.Kind == wasm.Func && e.Index >= rw.numFuncs:
			return rw.noSuchFunc(e.IndexSpan.Offset, e.Index)
		}
	}
	if m.Start != nil {
		return rw.checkFuncRefs([]wasm.IndexRef{*m.Start})
	}
	return nil
}

func (rw *rewriter) checkFuncRefs(refs []wasm.IndexRef) error {
	for _, r := range refs {
		if r.Index >= rw.numFuncs {
			return rw.noSuchFunc(r.Offset, r.Index)
		}
	}
	return nil
}

// eachConstExpr calls fn with every constant expression of the module, and
// stops at the first error.
func (rw *rewriter) eachConstExpr(fn func(*wasm.ConstExpr) error) error {
	m := rw.m
	for i := range m.Imports {
		if t := &m.Imports[i].Table; m.Imports[i].Kind == wasm.Table && t.Init != nil {
			if err := fn(t.Init); err != nil {
				return err
			}
		}
	}
	for i := range m.Tables {
		if init := m.Tables[i].Init; init != nil {
			if err := fn(init); err != nil {
				return err
			}
		}
	}
	for i := range m.Globals {
		if err := fn(&m.Globals[i].Init); err != nil {
			return err
		}
	}
	for i := range m.Elements {
		e := &m.Elements[i]
		if e.Offset != nil {
			if err := fn(e.Offset); err != nil {
				return err
			}
		}
		for j := range e.Exprs {
			if err := fn(&e.Exprs[j]); err != nil {
				return err
			}
		}
	}
	for i := range m.Data {
		if off := m.Data[i].Offset; off != nil {
			if err := fn(off); err != nil {
				return err
			}
		}
	}
	return nil
}

func (rw *rewriter) noSuchGlobal(offset int, index uint32) error {
	return &refusal{ErrInvalid, fmt.Sprintf("at offset %#x: global %d does not exist", offset, index)}
}

func (rw *rewriter) noSuchFunc(offset int, index uint32) error {
	return &refusal{ErrInvalid, fmt.Sprintf("at offset %#x: function %d does not exist", offset, index)}
}

// capMemory applies Options.MaxMemoryPages to memory 0.
func (rw *rewriter) capMemory() error {
	limit := rw.opts.MaxMemoryPages
	lim, ok, imported := rw.m.Memory()
	if limit == 0 || !ok {
		return nil
	}
	if lim.Min > limit {
		what := "memory"
		if imported {
			what = "imported memory"
		}
		return &refusal{ErrMemoryCap, fmt.Sprintf("%s minimum is %d pages (%s MiB), over the probe memory cap of %d pages (%s MiB)",
			what, lim.Min, mib(lim.Min), limit, mib(limit))}
	}
	// An imported memory's maximum is part of its import type; lowering it
	// would only change which memories link, not how big this one gets.
	if !imported && (!lim.HasMax || lim.Max > limit) {
		lim.Max, lim.HasMax = limit, true
		rw.memory0 = &lim
	}
	return nil
}

// capTables applies Options.MaxTableElements to every table, as capMemory
// does to memory 0.
func (rw *rewriter) capTables() error {
	limit := rw.opts.MaxTableElements
	if limit == 0 {
		return nil
	}
	over := func(what string, index int, min uint32) error {
		return &refusal{ErrTableCap, fmt.Sprintf("%s %d minimum is %d elements, over the probe table cap of %d elements",
			what, index, min, limit)}
	}
	n := 0 // table index: imports first
	for _, imp := range rw.m.Imports {
		if imp.Kind != wasm.Table {
			continue
		}
		if imp.Table.Limits.Min > limit {
			return over("imported table", n, imp.Table.Limits.Min)
		}
		n++
	}
	for i, t := range rw.m.Tables {
		lim := t.Limits
		if lim.Min > limit {
			return over("table", n+i, lim.Min)
		}
		if !lim.HasMax || lim.Max > limit {
			lim.Max, lim.HasMax = limit, true
			if rw.tables == nil {
				rw.tables = map[int]wasm.Limits{}
			}
			rw.tables[i] = lim
		}
	}
	return nil
}

// mib formats a page count in MiB (a page is 64 KiB).
func mib(pages uint32) string {
	return strconv.FormatFloat(float64(pages)/16, 'f', -1, 64)
}

// shift maps a function index of the input to the output: defined functions
// move up to make room for the injected imports. Callers check first that
// the index exists (see checkFuncRefs); one that does not is returned as is.
func (rw *rewriter) shift(funcIndex uint32) uint32 {
	if funcIndex < rw.importedFuncs || funcIndex >= rw.numFuncs {
		return funcIndex
	}
	return funcIndex + uint32(len(rw.imports))
}
