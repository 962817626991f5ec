package host

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/gate-dev/gate/internal/safetext"
)

// importNamed returns the import module of that name from Imports.
func importNamed(name string) Import {
	m, ok := LookupImport(name)
	if !ok {
		panic("no import module " + name)
	}
	return m
}

// abortGuest is a module of one page that exports abort(msg, file, line,
// col), forwarding to env.abort, instantiated against the real env module.
func abortGuest(t testing.TB) api.Module {
	t.Helper()
	_, err := exec.LookPath("wat2wasm")
	require.NoError(t, err, "wat2wasm is needed: apt-get install wabt")
	dir := t.TempDir()
	wat := `(module
  (import "env" "abort" (func $abort (param i32 i32 i32 i32)))
  (memory (export "memory") 1)
  (func (export "abort") (param i32 i32 i32 i32)
    (call $abort (local.get 0) (local.get 1) (local.get 2) (local.get 3))))`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "abort.wat"), []byte(wat), 0o644))
	out, err := exec.Command("wat2wasm", filepath.Join(dir, "abort.wat"), "-o", filepath.Join(dir, "abort.wasm")).CombinedOutput()
	require.NoError(t, err, "%s", out)
	wasm, err := os.ReadFile(filepath.Join(dir, "abort.wasm"))
	require.NoError(t, err)

	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	t.Cleanup(func() { r.Close(ctx) })
	_, err = importNamed(EnvModuleName).Instantiate(ctx, r)
	require.NoError(t, err)
	mod, err := r.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().WithName(""))
	require.NoError(t, err)
	return mod
}

// asBytes is s as AssemblyScript lays a string out: its length in bytes as
// a little-endian u32, then its UTF-16LE units; the string's pointer is
// after the length.
func asBytes(units []uint16) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(2*len(units)))
	for _, u := range units {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

// TestAbort: env.abort traps with an *AbortError that reads the
// AssemblyScript strings it was passed, bounded, cleaned and checked
// against the memory, whatever the pointers are.
func TestAbort(t *testing.T) {
	mod := abortGuest(t)
	mem := mod.Memory()
	put := func(at uint32, units []uint16) uint32 {
		require.True(t, mem.Write(at, asBytes(units)))
		return at + 4
	}
	str := func(s string) []uint16 { return utf16.Encode([]rune(s)) }

	boom := put(0x100, str("boom"))
	file := put(0x200, str("assembly/index.ts"))
	unicode := put(0x300, str("héllo 🙂"))
	forged := put(0x400, str("a\nb\x1b[31mc\u202ed"))
	lone := put(0x500, []uint16{'x', 0xD800, 'y'})
	long := put(0x1000, str(strings.Repeat("é", 3000)))
	oddLen := uint32(0x600 + 4)
	require.True(t, mem.Write(0x600, []byte{3, 0, 0, 0, 'a', 0, 'b'}))
	pastEnd := uint32(0x700 + 4)
	require.True(t, mem.WriteUint32Le(0x700, 1<<20))
	straddle := mem.Size() + 2 // its length would be the last two bytes and two past the end

	for _, tc := range []struct {
		name       string
		msg, file  uint32
		line, col  uint32
		want       string
		wantLenMsg int // when set, the message's length in bytes instead
	}{
		{name: "message and place", msg: boom, file: file, line: 3, col: 5, want: "abort: boom at assembly/index.ts:3:5"},
		{name: "null message", file: file, line: 1, col: 2, want: "abort at assembly/index.ts:1:2"},
		{name: "null file", msg: boom, want: "abort: boom"},
		{name: "both null", want: "abort"},
		{name: "non-ASCII", msg: unicode, file: file, line: 1, col: 1, want: "abort: héllo 🙂 at assembly/index.ts:1:1"},
		{name: "controls cleaned", msg: forged, file: forged, line: 1, col: 1,
			want: "abort: a\uFFFDb\uFFFD[31mc\uFFFDd at a\uFFFDb\uFFFD[31mc\uFFFDd:1:1"},
		{name: "lone surrogate", msg: lone, want: "abort: x\uFFFDy"},
		{name: "pointer below the header", msg: 2, want: "abort: (no string at 0x2)"},
		{name: "pointer outside memory", msg: 0xFFFFFFF0, file: 0x7FFFFFFF, line: 9, col: 9,
			want: "abort: (no string at 0xfffffff0) at (no string at 0x7fffffff):9:9"},
		{name: "length past the end", msg: pastEnd, want: "abort: (no string at 0x704)"},
		{name: "header across the end", msg: straddle, want: "abort: (no string at 0x10002)"},
		{name: "odd length", msg: oddLen, want: "abort: (no string at 0x604)"},
		{name: "long message clipped", msg: long, wantLenMsg: maxAbortMessage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mod.ExportedFunction("abort").Call(context.Background(),
				api.EncodeU32(tc.msg), api.EncodeU32(tc.file), api.EncodeU32(tc.line), api.EncodeU32(tc.col))
			var abort *AbortError
			require.True(t, errors.As(err, &abort), "want an *AbortError, got %v", err)
			if tc.wantLenMsg > 0 {
				assert.Len(t, abort.Message, tc.wantLenMsg)
				assert.Equal(t, strings.Repeat("é", tc.wantLenMsg/2), abort.Message)
				return
			}
			assert.Equal(t, tc.want, abort.Error())
			assert.False(t, mod.IsClosed())
		})
	}
}

// TestImportsTable: every import module has functions with docs and no
// two of the same name, and LookupImport finds each of them.
func TestImportsTable(t *testing.T) {
	for _, m := range Imports {
		got, ok := LookupImport(m.Name)
		require.True(t, ok, m.Name)
		require.Equal(t, m.Name, got.Name)
		seen := map[string]bool{}
		for _, f := range m.Funcs {
			assert.NotEmpty(t, f.Doc, "%s.%s", m.Name, f.Name)
			assert.False(t, seen[f.Name], "%s.%s twice", m.Name, f.Name)
			seen[f.Name] = true
			lf, ok := m.Lookup(f.Name)
			assert.True(t, ok && lf.Name == f.Name, "%s.%s", m.Name, f.Name)
		}
	}
	_, ok := LookupImport("wasi_unstable")
	assert.False(t, ok)
	assert.Equal(t, `"gate", "wasi_snapshot_preview1" and "env"`, ImportNames())
	assert.Equal(t, "abort", importNamed(EnvModuleName).FuncNames())
	assert.Equal(t, "the 46 functions of its specification", importNamed(WASIModuleName).FuncNames())
}

// FuzzAbort: whatever the probe's memory holds and whatever it passes,
// env.abort traps with an *AbortError whose strings are valid UTF-8,
// within their bounds and clean by safetext's rule, and never panics the
// host otherwise.
func FuzzAbort(f *testing.F) {
	f.Add(asBytes(utf16.Encode([]rune("boom"))), uint32(4), uint32(0))
	f.Add(asBytes([]uint16{0xD800, 0xDC00, 0xDFFF, '\n', 0x1b}), uint32(4), uint32(4))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 'a', 0}, uint32(4), uint32(0xfffffffc))
	f.Add([]byte{}, uint32(0xffff), uint32(3))
	mod := abortGuest(f)
	mem := mod.Memory()
	zero := make([]byte, mem.Size())
	f.Fuzz(func(t *testing.T, data []byte, msg, file uint32) {
		require.True(t, mem.Write(0, zero))
		require.True(t, mem.Write(0, data[:min(len(data), len(zero))]))
		_, err := mod.ExportedFunction("abort").Call(context.Background(), api.EncodeU32(msg), api.EncodeU32(file), 1, 2)
		var abort *AbortError
		require.True(t, errors.As(err, &abort), "want an *AbortError, got %v", err)
		for _, s := range []struct {
			text string
			max  int
		}{{abort.Message, maxAbortMessage}, {abort.File, maxAbortFile}} {
			assert.True(t, utf8.ValidString(s.text), "%q", s.text)
			assert.LessOrEqual(t, len(s.text), s.max)
			assert.Negative(t, safetext.IndexRefused(s.text, false), "%q", s.text)
		}
	})
}
