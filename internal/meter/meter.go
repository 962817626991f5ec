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
// Operations whose cost depends on an operand (memory.fill and friends) are
// charged in proportion to that operand first.
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

// Options tune Instrument.
type Options struct {
	// MaxMemoryPages caps memory 0: a declared max above it (or no max) is
	// lowered to it, and a declared (or imported) minimum above it is an
	// error. 0 means no cap.
	MaxMemoryPages uint32
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
	// ErrInvalid: the module is invalid in a way that matters to the
	// rewrite. Chiefly: it refers to a global or local that does not exist,
	// at the index the rewrite fills (the fuel global, the scratch local);
	// instrumenting it would make it valid, with the guest in control of
	// its own fuel.
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
type rewriter struct {
	in   []byte
	m    *wasm.Module
	opts Options

	// importedFuncs is the number of imported functions: indices below it
	// keep their value, the others (defined functions) move up by one.
	importedFuncs uint32
	// refuelFunc is the injected import's function index (importedFuncs),
	// refuelType its type index; newType is set when that type must be
	// appended to the type section.
	refuelFunc, refuelType uint32
	newType                bool
	// fuelGlobal is the index of the injected global.
	fuelGlobal uint32
	// memory0 holds the new limits of a defined memory 0 lowered to the cap.
	memory0 *wasm.Limits
}

func newRewriter(in []byte, m *wasm.Module, opts Options) (*rewriter, error) {
	for _, imp := range m.Imports {
		if imp.Module == ImportModule {
			return nil, &refusal{ErrReservedImport, fmt.Sprintf(
				"module imports %q from %q, which is reserved for gate's metering", imp.Name, imp.Module)}
		}
	}
	rw := &rewriter{in: in, m: m, opts: opts, importedFuncs: m.NumImportedFuncs()}
	rw.refuelFunc = rw.importedFuncs
	if uint64(rw.importedFuncs)+uint64(len(m.Functions)) >= math.MaxUint32 {
		return nil, &refusal{ErrInvalid, "too many functions"}
	}

	refuelSig := wasm.FuncType{Results: []wasm.ValType{wasm.I32}}
	rw.refuelType, rw.newType = uint32(len(m.Types)), true
	for i, t := range m.Types {
		if !t.InRecGroup && t.Equal(refuelSig) {
			rw.refuelType, rw.newType = uint32(i), false
			break
		}
	}

	globals := uint64(m.NumImportedGlobals()) + uint64(len(m.Globals))
	if globals >= math.MaxUint32 {
		return nil, &refusal{ErrInvalid, "too many globals"}
	}
	rw.fuelGlobal = uint32(globals)

	if err := rw.checkGlobalRefs(); err != nil {
		return nil, err
	}
	if err := rw.capMemory(); err != nil {
		return nil, err
	}
	return rw, nil
}

// checkGlobalRefs refuses a module whose exports or constant expressions name
// a global at or past fuelGlobal (code is checked as it is rewritten): such a
// reference is invalid in the input but would name the fuel global in the
// output.
func (rw *rewriter) checkGlobalRefs() error {
	m := rw.m
	var exprs []wasm.ConstExpr
	for _, imp := range m.Imports {
		if imp.Kind == wasm.Table && imp.Table.Init != nil {
			exprs = append(exprs, *imp.Table.Init)
		}
	}
	for _, t := range m.Tables {
		if t.Init != nil {
			exprs = append(exprs, *t.Init)
		}
	}
	for _, g := range m.Globals {
		exprs = append(exprs, g.Init)
	}
	for _, e := range m.Elements {
		if e.Offset != nil {
			exprs = append(exprs, *e.Offset)
		}
		exprs = append(exprs, e.Exprs...)
	}
	for _, d := range m.Data {
		if d.Offset != nil {
			exprs = append(exprs, *d.Offset)
		}
	}
	for _, x := range exprs {
		for _, g := range x.GlobalRefs {
			if g.Index >= rw.fuelGlobal {
				return rw.noSuchGlobal(g.Offset, g.Index)
			}
		}
	}
	for _, e := range m.Exports {
		if e.Kind == wasm.Global && e.Index >= rw.fuelGlobal {
			return rw.noSuchGlobal(e.IndexSpan.Offset, e.Index)
		}
	}
	return nil
}

func (rw *rewriter) noSuchGlobal(offset int, index uint32) error {
	return &refusal{ErrInvalid, fmt.Sprintf("at offset %#x: global %d does not exist", offset, index)}
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

// mib formats a page count in MiB (a page is 64 KiB).
func mib(pages uint32) string {
	return strconv.FormatFloat(float64(pages)/16, 'f', -1, 64)
}

// shift maps a function index of the input to the output: defined functions
// move up by one to make room for the injected import. (An index of 2^32-1
// cannot name a function; it stays out of range rather than wrapping to 0.)
func (rw *rewriter) shift(funcIndex uint32) uint32 {
	if funcIndex < rw.importedFuncs || funcIndex == math.MaxUint32 {
		return funcIndex
	}
	return funcIndex + 1
}
