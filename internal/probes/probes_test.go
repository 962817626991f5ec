package probes

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

func TestWasmAndKinds(t *testing.T) {
	assert.Equal(t, []Kind{Env, TCP, Import, HTTP, Redis, Postgres, Docker, MCP, TLS, Memcached}, Kinds())
	for _, k := range Kinds() {
		b, ok := Wasm(k)
		require.True(t, ok, k)
		assert.True(t, bytes.HasPrefix(b, []byte("\x00asm\x01\x00\x00\x00")), "%s is not a wasm 1.0 module", k)
		b[0] = 'X' // a copy: this must not reach the next caller
		again, _ := Wasm(k)
		assert.Equal(t, byte(0), again[0], k)
	}
	_, ok := Wasm("nope")
	assert.False(t, ok)
	ks := Kinds()
	ks[0] = "changed"
	assert.Equal(t, Env, Kinds()[0], "Kinds must return a copy")
}

// TestCommittedWasmIsFresh rebuilds every standard probe with build.sh and
// compares it with the committed (and embedded) bytes, so a change to
// src/ or include/ can't ship without its .wasm. The build is
// deterministic, so any difference means a stale file. The test needs
// clang and wasm-ld and fails without them rather than skip: a skipped
// staleness check is one nobody runs.
func TestCommittedWasmIsFresh(t *testing.T) {
	requireClang(t)
	out := t.TempDir()
	cmd := exec.Command("sh", "build.sh", out)
	cmd.Env = append(os.Environ(), "CLANG=clang")
	output, err := cmd.CombinedOutput()
	require.NoError(t, err, "sh build.sh %s failed:\n%s", out, output)

	for _, k := range Kinds() {
		name := string(k) + ".wasm"
		fresh, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err)
		committed, err := os.ReadFile(name)
		require.NoError(t, err)
		embedded, _ := Wasm(k)
		if !bytes.Equal(fresh, committed) {
			version, _ := exec.Command("clang", "--version").Output()
			t.Errorf("probes/%s is stale: building src/%s.c gives different bytes (%d, committed %d); run `go generate ./internal/probes` and commit the result.\n"+
				"(The committed files were built with Debian clang/lld 14.0.6; this is %s.)",
				name, k, len(fresh), len(committed), firstLine(string(version)))
		}
		assert.Equal(t, committed, embedded, "the embedded %s differs from the file on disk: rebuild the test binary", name)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// abiImports is the probe ABI, versions 1 and 2: every function a probe
// may import from "gate", with its signature.
var abiImports = map[string]struct{ params, results []api.ValueType }{
	"connect":     {i32s(4), i32s(1)},
	"send":        {i32s(3), i32s(1)},
	"recv":        {i32s(4), i32s(1)},
	"close":       {i32s(1), i32s(1)},
	"http":        {i32s(4), i32s(1)},
	"http_status": {i32s(1), i32s(1)},
	"http_header": {i32s(5), i32s(1)},
	"http_body":   {i32s(3), i32s(1)},
	"tls":         {i32s(2), i32s(1)},
	"last_error":  {i32s(2), i32s(1)},
	"env":         {[]api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}},
	"dial":        {[]api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}},
	"import":      {[]api.ValueType{api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}},
	"config":      {[]api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}},
	"reason":      {[]api.ValueType{api.ValueTypeI32, api.ValueTypeI32}, nil},
	"log":         {[]api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, nil},
}

// i32s is n i32 value types.
func i32s(n int) []api.ValueType {
	out := make([]api.ValueType, n)
	for i := range out {
		out[i] = api.ValueTypeI32
	}
	return out
}

// maxSize is how big a standard probe may grow: the v1 probes are a
// little over 1 KB, the v2 ones, which build requests and read answers,
// a few KB.
var maxSize = map[Kind]int{Env: 2048, TCP: 2048, Import: 2048}

// TestEmbeddedModulesFollowTheABI decodes each embedded probe and checks
// its shape: exports exactly memory and probe () -> i32, imports only
// gate functions with their ABI signatures, one non-growable page of
// memory, and no custom sections (no names, paths or tool versions).
func TestEmbeddedModulesFollowTheABI(t *testing.T) {
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	for _, k := range Kinds() {
		t.Run(string(k), func(t *testing.T) {
			wasm, _ := Wasm(k)
			limit, ok := maxSize[k]
			if !ok {
				limit = 6144
			}
			assert.Less(t, len(wasm), limit, "the standard probes should stay tiny")
			cm, err := r.CompileModule(ctx, wasm)
			require.NoError(t, err)

			fns := cm.ExportedFunctions()
			require.Len(t, fns, 1)
			probe, ok := fns["probe"]
			require.True(t, ok, "no probe export")
			assert.Empty(t, probe.ParamTypes())
			assert.Equal(t, []api.ValueType{api.ValueTypeI32}, probe.ResultTypes())

			mems := cm.ExportedMemories()
			require.Len(t, mems, 1)
			mem, ok := mems["memory"]
			require.True(t, ok, "no memory export")
			assert.Equal(t, uint32(1), mem.Min(), "initial pages")
			max, hasMax := mem.Max()
			assert.True(t, hasMax, "memory should not be growable")
			assert.Equal(t, uint32(1), max, "maximum pages")
			assert.Empty(t, cm.ImportedMemories())

			imports := cm.ImportedFunctions()
			assert.NotEmpty(t, imports)
			for _, f := range imports {
				module, name, _ := f.Import()
				assert.Equal(t, "gate", module, "import %s.%s", module, name)
				sig, ok := abiImports[name]
				if assert.True(t, ok, "import gate.%s is not in the ABI", name) {
					assert.Equal(t, sig.params, f.ParamTypes(), "gate.%s params", name)
					assert.Equal(t, sig.results, f.ResultTypes(), "gate.%s results", name)
				}
			}

			exports, customs, err := sections(wasm)
			require.NoError(t, err)
			assert.Equal(t, []string{"memory", "probe"}, exports, "every export, of any kind")
			assert.Empty(t, customs, "custom sections")
		})
	}
}

// sections walks a module's binary format and returns the names of all
// its exports (functions, memories, globals and tables alike; wazero's
// API only lists functions and memories) and of its custom sections.
func sections(wasm []byte) (exports, customs []string, err error) {
	if len(wasm) < 8 {
		return nil, nil, errors.New("too short")
	}
	b := wasm[8:]
	uleb := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			err = errors.New("bad LEB128")
			b = nil
			return 0
		}
		b = b[n:]
		return v
	}
	name := func() string {
		n := uleb()
		if n > uint64(len(b)) {
			err = errors.New("name runs past the end")
			b = nil
			return ""
		}
		s := string(b[:n])
		b = b[n:]
		return s
	}
	for len(b) > 0 && err == nil {
		id := b[0]
		b = b[1:]
		size := uleb()
		if size > uint64(len(b)) {
			return nil, nil, errors.New("section runs past the end")
		}
		body, rest := b[:size], b[size:]
		b = body
		switch id {
		case 0:
			customs = append(customs, name())
		case 7:
			for range uleb() {
				exports = append(exports, name())
				if len(b) == 0 {
					return nil, nil, errors.New("export runs past the end")
				}
				b = b[1:] // kind
				uleb()    // index
			}
		}
		b = rest
	}
	return exports, customs, err
}
