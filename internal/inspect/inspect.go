package inspect

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/gate-dev/gate/internal/host"
	"github.com/gate-dev/gate/internal/limits"

	"github.com/tetratelabs/wazero/api"

	"github.com/gate-dev/gate/internal/meter"
	"github.com/gate-dev/gate/internal/wasm"
)

// Entry says how a probe module is run.
type Entry string

const (
	// Reactor modules export probe() -> i32 (0 available, 1 unavailable);
	// _initialize, when exported, runs first. Their instances are reused.
	Reactor Entry = "reactor"
	// Command modules export _start; the exit code is the answer. Each run
	// is a fresh instance.
	Command Entry = "command"
)

// Inspection is what a module imports and exports and how it stands
// against the probe ABI.
type Inspection struct {
	Size   int
	SHA256 string
	Entry  Entry // "" when the module has no usable entry point
	// ABIVersion is the probe ABI version the module needs: 1, or 2 when
	// it imports any gate function that version 2 added
	// (host.Func.Version), such as connect or http. Version 2 is
	// additive, so a version-1 module runs on either host.
	ABIVersion int
	Imports    []Item
	Exports    []Item
	// Memory describes memory 0, if the module has one.
	Memory *MemoryInfo
	// Violations lists every way the module breaks the probe ABI; a
	// module with any is refused at load.
	Violations []Violation

	// HasInitialize: a reactor that exports _initialize, run first.
	HasInitialize bool
}

// Item is one import or export.
type Item struct {
	Module string `json:"module,omitempty"` // imports only
	Name   string `json:"name"`
	Kind   string `json:"kind"`           // "func", "memory", "table", "global"
	Type   string `json:"type,omitempty"` // a function's signature, e.g. "(i32, i32) -> i32"
}

// MemoryInfo is memory 0's limits in 64 KiB pages.
type MemoryInfo struct {
	MinPages uint32 `json:"min_pages"`
	MaxPages uint32 `json:"max_pages,omitempty"`
	HasMax   bool   `json:"has_max"`
	Imported bool   `json:"imported"`
	Exported bool   `json:"exported"`
}

// Violation is one way a module breaks the probe ABI.
type Violation struct {
	Rule string `json:"rule"` // a short stable id, e.g. "entry", "import", "memory"
	Msg  string `json:"message"`
}

func (v Violation) Error() string { return v.Msg }

// Inspect decodes a module and checks it against the probe ABI without
// running it, as an engine with cfg would load it: one exported memory;
// one entry point of the right type; imports only the functions of
// host.Imports ("gate", of version 1 or 2, "wasi_snapshot_preview1" and
// "env"), with their signatures; a minimum memory within cfg's memory limit; a
// size, function bodies and per-instance setup within the load limits
// (see DefaultMaxModuleSize). It reports every violation at once, and the
// ABI version the module needs. The error is for a file that is not
// WebAssembly at all (a *wasm.FormatError with the offset).
func Module(b []byte, lim Limits) (*Inspection, error) {
	lim = lim.withDefaults()
	sum := sha256.Sum256(b)
	info := &Inspection{Size: len(b), SHA256: hex.EncodeToString(sum[:]), ABIVersion: 1}
	bad := func(rule, format string, args ...any) {
		info.Violations = append(info.Violations, Violation{Rule: rule, Msg: fmt.Sprintf(format, args...)})
	}
	if len(b) > lim.MaxModule {
		// Not decoded at all: decoding is work in proportion to the size.
		bad("limits", "module is %d bytes, over the limit of %s", len(b), BytesText(uint64(lim.MaxModule)))
		return info, nil
	}
	memoryLimit := lim.MemoryLimit
	m, err := wasm.Decode(b)
	if err != nil {
		return nil, err
	}
	checkLoadLimits(m, lim, bad)

	for _, im := range m.Imports {
		it := Item{Module: im.Module, Name: im.Name, Kind: im.Kind.String()}
		if im.Kind == wasm.Func && int(im.Type) < len(m.Types) {
			it.Type = m.Types[im.Type].String()
		}
		info.Imports = append(info.Imports, it)
		checkImport(it, bad)
		if m, ok := host.LookupImport(it.Module); ok {
			if f, ok := m.Lookup(it.Name); ok {
				info.ABIVersion = max(info.ABIVersion, f.Version)
			}
		}
	}
	for _, ex := range m.Exports {
		it := Item{Name: ex.Name, Kind: ex.Kind.String()}
		if ex.Kind == wasm.Func {
			if ft, ok := m.FuncType(ex.Index); ok {
				it.Type = ft.String()
			}
		}
		info.Exports = append(info.Exports, it)
	}

	if lim, ok, imported := m.Memory(); ok {
		info.Memory = &MemoryInfo{MinPages: lim.Min, MaxPages: lim.Max, HasMax: lim.HasMax, Imported: imported, Exported: m.ExportedMemory("memory")}
		if limit := uint32(memoryLimit / limits.PageSize); lim.Min > limit {
			bad("memory", "memory minimum is %s, over the probe memory cap of %s", pages(lim.Min), pages(limit))
		}
	}
	if info.Memory == nil || !info.Memory.Exported {
		bad("memory", `exports no memory named "memory" (ABI v1 passes strings through it)`)
	}

	info.Entry = entryOf(info, bad)
	return info, nil
}

func pages(n uint32) string {
	return fmt.Sprintf("%d pages (%s)", n, BytesText(uint64(n)*limits.PageSize))
}

// BytesText is n bytes as a limit is stated: "16 MiB", "512 KiB".
func BytesText(n uint64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// entryOf decides reactor or command. A module that exports _start
// together with probe or _initialize is refused: a Go probe built without
// -buildmode=c-shared exports both _start and probe, and run as a command
// its empty main answered "available" for every input.
func entryOf(info *Inspection, bad func(rule, format string, args ...any)) Entry {
	exports := map[string]Item{}
	for _, ex := range info.Exports {
		exports[ex.Name] = ex
	}
	_, hasProbe := exports["probe"]
	if _, hasStart := exports["_start"]; hasStart && hasProbe {
		bad("entry", `exports both _start (a command's entry) and probe (a reactor's), so it is not clear which one answers; `+
			`a Go probe must be built with -buildmode=c-shared (GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared), `+
			`which exports _initialize and probe`)
		return ""
	}
	want := func(name, sig string) bool {
		ex, ok := exports[name]
		if !ok {
			return false
		}
		if ex.Kind != "func" || ex.Type != sig {
			bad("entry", "export %q is %s %s, want func %s", name, ex.Kind, ex.Type, sig)
			return false
		}
		return true
	}
	_, hasInit := exports["_initialize"]
	_, hasStart := exports["_start"]
	switch {
	case hasStart && hasInit:
		bad("entry", `exports both _start (a command's entry) and _initialize (a reactor's): export _start alone for a command, or _initialize and probe for a reactor`)
		return ""
	case hasStart:
		if want("_start", "() -> ()") {
			return Command
		}
		return ""
	case hasInit || exports["probe"].Name != "":
		ok := want("probe", "() -> i32")
		if hasInit {
			info.HasInitialize = want("_initialize", "() -> ()")
			ok = ok && info.HasInitialize
		}
		if _, has := exports["probe"]; !has {
			bad("entry", `exports _initialize but no "probe": a reactor must export probe() -> i32`)
		}
		if ok {
			return Reactor
		}
		return ""
	}
	bad("entry", `no entry point: export "probe" () -> i32 (a reactor) or "_start" () -> () (a command)`)
	return ""
}

// checkImport checks an import against host.Imports: a module gate
// provides, one of its functions, with its signature.
func checkImport(it Item, bad func(rule, format string, args ...any)) {
	if it.Module == meter.ImportModule {
		bad("import", "imports %s.%s: that module is reserved for the engine", it.Module, it.Name)
		return
	}
	m, ok := host.LookupImport(it.Module)
	switch {
	case !ok:
		bad("import", "imports %s %q.%q: probes may import only from %s", it.Kind, it.Module, it.Name, host.ImportNames())
	case it.Kind != "func":
		bad("import", "imports %s %s.%s: the %s module has only functions", it.Kind, it.Module, it.Name, it.Module)
	default:
		f, ok := m.Lookup(it.Name)
		if !ok {
			bad("import", "imports %s.%s, which the probe ABI does not have (it has %s)", it.Module, it.Name, m.FuncNames())
		} else if want := signature(f.Params, f.Results); it.Type != want {
			bad("import", "imports %s.%s as %s, want %s", it.Module, it.Name, it.Type, want)
		}
	}
}

// signature renders a host function's type the way the decoder renders a
// module's, so the two compare as strings: "(i32, i32) -> i32".
func signature(params, results []api.ValueType) string {
	// api.ValueType and wasm.ValType are both the binary type codes.
	conv := func(ts []api.ValueType) []wasm.ValType {
		out := make([]wasm.ValType, len(ts))
		for i, t := range ts {
			out[i] = wasm.ValType(t)
		}
		return out
	}
	return wasm.FuncType{Params: conv(params), Results: conv(results)}.String()
}
