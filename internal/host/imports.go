package host

import (
	"context"
	"fmt"
	"strings"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// Import is one module a probe may import functions from. Imports is the
// one list of them: checking a module's imports (runtime.Inspect), the ABI
// version it needs, and instantiating the host modules all read it.
type Import struct {
	Name  string
	Funcs []Func
	// Lazy modules are instantiated when the first module that imports
	// them is compiled, not with the engine: most probes import nothing
	// from them, and each function's trampoline costs to make.
	Lazy bool
}

// Imports lists the modules a probe may import: the gate module, gate's
// WASI, and env, where AssemblyScript's compiler puts the abort its
// runtime calls on a failed assert or a thrown error.
var Imports = []Import{
	{Name: ModuleName, Funcs: Funcs},
	{Name: WASIModuleName, Funcs: WASIFuncs, Lazy: true},
	{Name: EnvModuleName, Funcs: EnvFuncs, Lazy: true},
}

// LookupImport returns the module named name.
func LookupImport(name string) (Import, bool) {
	for _, m := range Imports {
		if m.Name == name {
			return m, true
		}
	}
	return Import{}, false
}

// Lookup returns m's function with that name.
func (m Import) Lookup(name string) (Func, bool) {
	for _, f := range m.Funcs {
		if f.Name == name {
			return f, true
		}
	}
	return Func{}, false
}

// FuncNames says which functions m has, for an error about one it does
// not: their names, or their count when a list would swamp the message.
func (m Import) FuncNames() string {
	if len(m.Funcs) > 20 {
		return fmt.Sprintf("the %d functions of its specification", len(m.Funcs))
	}
	names := make([]string, len(m.Funcs))
	for i, f := range m.Funcs {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// ImportNames lists the modules a probe may import from, quoted, for an
// error: `"gate", "wasi_snapshot_preview1" and "env"`.
func ImportNames() string {
	var b strings.Builder
	for i, m := range Imports {
		switch {
		case i == len(Imports)-1 && i > 0:
			b.WriteString(" and ")
		case i > 0:
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", m.Name)
	}
	return b.String()
}

// Instantiate adds m to r, as a host module of that name exporting its
// functions. Call it once per runtime and module.
func (m Import) Instantiate(ctx context.Context, r wazero.Runtime) (api.Module, error) {
	return m.builder(r).Instantiate(ctx)
}

func (m Import) builder(r wazero.Runtime) wazero.HostModuleBuilder {
	b := r.NewHostModuleBuilder(m.Name)
	for _, f := range m.Funcs {
		fb := b.NewFunctionBuilder().
			WithGoModuleFunction(f.fn, f.Params, f.Results).
			WithName(f.Name)
		if len(f.paramNames) > 0 {
			fb = fb.WithParameterNames(f.paramNames...)
		}
		if len(f.resultNames) > 0 {
			fb = fb.WithResultNames(f.resultNames...)
		}
		fb.Export(f.Name)
	}
	return b
}
