package wasm

import (
	"context"
	"fmt"
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

// wat2wasm builds a module from its text, with every feature wabt knows.
func wat2wasm(t testing.TB, wat string) []byte {
	t.Helper()
	if _, err := exec.LookPath("wat2wasm"); err != nil {
		t.Skip("wat2wasm not installed")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "m.wat"), filepath.Join(dir, "m.wasm")
	require.NoError(t, os.WriteFile(in, []byte(wat), 0o644))
	msg, err := exec.Command("wat2wasm", "--enable-all", in, "-o", out).CombinedOutput()
	require.NoError(t, err, "%s", msg)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	return b
}

// TestMaxStackHeight walks hand-written bodies whose highest point is
// known, in slots (v128 counts 2).
func TestMaxStackHeight(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		fn   string // a func's type use, locals and body
		max  uint64
	}{
		{"empty", `(func)`, 0},
		{"binary", `(func (drop (i32.add (i32.const 1) (i32.const 2))))`, 2},
		{"nested operands", `(func (drop (i32.add (i32.const 1) (i32.mul (i32.const 2) (i32.sub (i32.const 3) (i32.const 4))))))`, 4},
		{"v128 takes two slots", `(func (drop (i8x16.add (v128.const i64x2 0 0) (v128.const i64x2 0 0))))`, 4},
		{"v128 store", `(func (v128.store (i32.const 0) (v128.const i64x2 0 0)))`, 3},
		{"v128 shift by a scalar", `(func (drop (i32x4.shl (v128.const i64x2 0 0) (i32.const 1))))`, 3},
		{"extract lane", `(func (result i32) (i32.add (i32.const 1) (i32x4.extract_lane 0 (v128.const i64x2 0 0))))`, 3},
		{"bitselect", `(func (drop (v128.bitselect (v128.const i64x2 0 0) (v128.const i64x2 0 0) (v128.const i64x2 0 0))))`, 6},
		{"results at the end", `(func (result i32 i64 f64) (i32.const 1) (i64.const 2) (f64.const 3))`, 3},
		{"v128 param", `(func (param v128) (drop (local.get 0)) (drop (local.get 0)))`, 2},
		{"v128 local among others", `(func (local i32 i64) (local v128) (drop (local.get 2)) (drop (i32.add (local.get 0) (local.get 0))))`, 2},
		{"local.tee keeps it", `(func (local i64) (drop (local.tee 0 (i64.const 1))))`, 1},
		{"global v128", `(func (drop (global.get $v)))`, 2},
		{"global i32 set", `(func (global.set $g (i32.const 1)))`, 1},
		{"block params and results", `(func (result i32) (i32.const 1) (i32.const 2) (block (type $binop) (i32.add)))`, 2},
		{"block result on a stack", `(func (result i32) (i32.const 1) (block (result i32) (i32.const 2) (i32.const 3) (i32.add)) (i32.add))`, 3},
		{"loop params", `(func (result i32) (i32.const 1) (i32.const 2) (loop (type $binop) (i32.add)))`, 2},
		{"if takes its condition", `(func (result i32) (i32.const 5) (i32.const 1) (if (result i32) (then (i32.const 2)) (else (i32.const 3))) (i32.add))`, 2},
		{"else starts afresh", `(func (result i32)
			(if (result i32) (i32.const 1)
				(then (i32.add (i32.const 1) (i32.add (i32.const 2) (i32.add (i32.const 3) (i32.const 4)))))
				(else (i32.const 9))))`, 4},
		{"if params go to both arms", `(func (result i32) (i32.const 7) (i32.const 0) (if (type $unop) (then (i32.const 1) (i32.add)) (else))) `, 2},
		{"call", `(func (drop (call $three (i32.const 1))) (drop) (drop))`, 3},
		{"call_indirect", `(func (drop (call_indirect (type $unop) (i32.const 5) (i32.const 0))))`, 2},
		{"select", `(func (drop (select (i64.const 1) (i64.const 2) (i32.const 0))))`, 3},
		{"select v128", `(func (drop (select (v128.const i64x2 0 0) (v128.const i64x2 0 0) (i32.const 0))))`, 5},
		{"typed select v128", `(func (drop (select (result v128) (v128.const i64x2 0 0) (v128.const i64x2 0 0) (i32.const 0))))`, 5},
		{"memory.fill", `(func (memory.fill (i32.const 0) (i32.const 1) (i32.const 2)))`, 3},
		{"table.grow", `(func (drop (table.grow $t (ref.null func) (i32.const 1))))`, 2},
		{"br leaves the rest unreachable", `(func (block (br 0) (i32.const 1) (i32.const 2) (i32.const 3) (drop) (drop) (drop)))`, 0},
		{"unreachable pops from nothing", `(func (unreachable) (i32.add) (drop))`, 0},
		{"return with values", `(func (result i32) (i32.const 1) (i32.const 2) (i32.const 3) (return))`, 3},
		{"br_table to the function", `(func (result i64) (i64.const 1) (i32.const 0) (br_table 0 0) (i64.const 2) (i64.const 3) (i64.add))`, 2},
		{"br_if keeps its values", `(func (result i32) (block (result i32) (i32.const 1) (i32.const 1) (br_if 0) (i32.const 2) (i32.add)))`, 2},
		{"after a block that never falls through", `(func (result i32) (block (result i32) (i32.const 1) (br 0)) (i32.const 4) (i32.add))`, 2},
		{"loop with a back edge", `(func (local i32) (loop (br_if 0 (i32.lt_u (local.tee 0 (i32.add (local.get 0) (i32.const 1))) (i32.const 10)))))`, 2},
	}
	var funcs strings.Builder
	for _, tc := range tests {
		funcs.WriteString("  " + tc.fn + "\n")
	}
	b := wat2wasm(t, `(module
  (type $binop (func (param i32 i32) (result i32)))
  (type $unop (func (param i32) (result i32)))
  (func $three (param i32) (result i32 i64 f32) (local.get 0) (i64.const 0) (f32.const 0))
  (table $t 1 funcref)
  (memory 1)
  (global $g (mut i32) (i32.const 0))
  (global $v v128 (v128.const i64x2 0 0))
`+funcs.String()+")")
	m, err := Decode(b)
	require.NoError(t, err)
	require.Len(t, m.Code, len(tests)+1)
	for i, tc := range tests {
		h, err := m.MaxStackHeight(i + 1)
		require.NoError(t, err)
		assert.Equal(t, StackHeight{Max: tc.max, Exact: true}, h, tc.name)
	}
}

// TestMaxStackHeightInexact: a body the walk cannot follow (invalid, so
// wazero refuses it too) falls back to the bound that does not trust it:
// every instruction's largest result, plus every block's params and results.
func TestMaxStackHeightInexact(t *testing.T) {
	t.Parallel()
	typ := section(SectionType, 2, 0x60, 0, 0, 0x60, 0, 1, 0x7b) // () -> (); () -> v128
	tests := []struct {
		name  string
		body  []byte // locals and instructions
		crude uint64
	}{
		{"pops what is not there", []byte{0, 0x6a, 0x1a, 0x0b}, 1},      // i32.add drop
		{"leaves a value behind", []byte{0, 0x41, 1, 0x41, 2, 0x0b}, 2}, // i32.const 1 i32.const 2
		{"wrong width", []byte{0, 0x41, 1, 0xfd, 0x62, 0x1a, 0x0b}, 3},  // i32.const, i8x16.popcnt
		{"unknown local", []byte{0, 0x20, 5, 0x1a, 0x0b}, 2},            // local.get 5
		{"unknown global", []byte{0, 0x23, 0, 0x1a, 0x0b}, 2},           // global.get 0
		{"unknown type", []byte{0, 0x02, 0x09, 0x0b, 0x0b}, 0},          // block (type 9)
		{"reserved SIMD", []byte{0, 0xfd, 0x9a, 0x0b}, 2},               // 0xfd 0x9a
		{"block results", []byte{0, 0x02, 0x01, 0x0b, 0x1a, 0x0b}, 2},   // block (type 1) end drop: no v128 to give
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := module(typ, section(SectionFunction, 1, 0), section(SectionCode, append([]byte{1}, codeEntry(tc.body)...)...))
			m, err := Decode(b)
			require.NoError(t, err)
			h, err := m.MaxStackHeight(0)
			require.NoError(t, err)
			assert.Equal(t, StackHeight{Max: tc.crude}, h)
		})
	}
}

// codeEntry encodes one function body (locals and instructions) with its size.
func codeEntry(body []byte) []byte {
	return append(AppendU32(nil, uint32(len(body))), body...)
}

// TestEffectsMatchWazero checks the effect table against wazero's own
// validator, instruction by instruction: a function whose parameters are
// the values the table says the instruction takes, and whose result is the
// value it says it leaves, must validate for some choice of types of those
// widths. A table entry that takes or leaves one value too many or too
// few, or a v128 for a scalar, finds none.
func TestEffectsMatchWazero(t *testing.T) {
	t.Parallel()
	rt := wazero.NewRuntimeWithConfig(context.Background(),
		wazero.NewRuntimeConfigInterpreter().WithCoreFeatures(api.CoreFeaturesV2))
	defer rt.Close(context.Background())
	scalars := []ValType{I32, I64, F32, F64, FuncRef, ExternRef}
	typesOf := func(width uint8) []ValType {
		if width == vw {
			return []ValType{V128}
		}
		return scalars
	}
	validates := func(e effect, instr []byte) bool {
		// Every assignment of types to the popped values, uniform ones
		// first (most instructions take values of one type).
		var assignments [][]ValType
		for _, ty := range scalars {
			a := make([]ValType, len(e.pops))
			for i, w := range e.pops {
				a[i] = ty
				if w == vw {
					a[i] = V128
				}
			}
			assignments = append(assignments, a)
		}
		var all func(prefix []ValType)
		all = func(prefix []ValType) {
			if len(prefix) == len(e.pops) {
				assignments = append(assignments, append([]ValType(nil), prefix...))
				return
			}
			for _, ty := range typesOf(e.pops[len(prefix)]) {
				all(append(prefix, ty))
			}
		}
		all(nil)
		results := [][]ValType{nil}
		if e.push != 0 {
			results = nil
			for _, ty := range typesOf(e.push) {
				results = append(results, []ValType{ty})
			}
		}
		for _, params := range assignments {
			for _, res := range results {
				var body []byte
				for i := range params {
					body = append(body, OpLocalGet, byte(i))
				}
				body = append(append(append([]byte{0}, body...), instr...), OpEnd)
				typ := AppendFuncType(append([]byte{2}, 0x60, 0, 0), FuncType{Params: params, Results: res})
				b := module(section(SectionType, typ...), section(SectionFunction, 2, 0, 1),
					section(SectionTable, 1, 0x70, 0, 1), section(SectionMemory, 1, 0, 1),
					section(SectionElement, 2, 1, 0, 1, 0, 3, 0, 1, 0), // passive and declarative [0]
					section(SectionDataCount, 1),
					section(SectionCode, append(append([]byte{2}, codeEntry([]byte{0, OpEnd})...), codeEntry(body)...)...),
					section(SectionData, 1, 1, 1, 'x'))
				cm, err := rt.CompileModule(context.Background(), b)
				if err == nil {
					cm.Close(context.Background())
					return true
				}
				if os.Getenv("DEBUG_EFFECTS") != "" {
					t.Log(err)
				}
			}
		}
		return false
	}
	memarg := []byte{0, 0}
	check := func(name string, instr []byte) {
		ir := NewInstrReader(append(append([]byte(nil), instr...), OpEnd), 0)
		in, err := ir.Next()
		require.NoError(t, err, name)
		require.Equal(t, len(instr), len(in.Raw), "%s: immediates", name)
		e, ok := effectOf(in)
		require.True(t, ok, name)
		assert.True(t, validates(e, instr), "%s: %+v does not validate with any types", name, e)
	}
	for op := 0; op < 256; op++ {
		if !simpleEffects[op].ok {
			continue
		}
		var imm []byte
		switch {
		case op == 0x25 || op == 0x26 || op == 0x3f || op == 0x40 || op == 0x41 || op == 0x42 || op == 0xd2:
			imm = []byte{0} // table 0, memory 0, constant 0, function 0
		case op >= 0x28 && op <= 0x3e:
			imm = memarg
		case op == 0x43:
			imm = make([]byte, 4)
		case op == 0x44:
			imm = make([]byte, 8)
		case op == 0xd0:
			imm = []byte{0x70}
		}
		check(fmt.Sprintf("%#x", op), append([]byte{byte(op)}, imm...))
	}
	for sub := range miscEffects {
		imm := map[uint32][]byte{MiscMemoryInit: {0, 0}, 9: {0}, MiscMemoryCopy: {0, 0}, MiscMemoryFill: {0},
			MiscTableInit: {0, 0}, 13: {0}, MiscTableCopy: {0, 0}, MiscTableGrow: {0}, 16: {0}, MiscTableFill: {0}}[uint32(sub)]
		check(fmt.Sprintf("0xfc %d", sub), append([]byte{OpPrefixMisc, byte(sub)}, imm...))
	}
	for sub := 0; sub < 256; sub++ {
		if !simdEffects[sub].ok {
			continue
		}
		var imm []byte
		switch {
		case sub <= 0x0b || sub == 0x5c || sub == 0x5d:
			imm = memarg
		case sub == 0x0c || sub == 0x0d:
			imm = make([]byte, 16)
		case sub >= 0x15 && sub <= 0x22:
			imm = []byte{0}
		case sub >= 0x54 && sub <= 0x5b:
			imm = []byte{0, 0, 0}
		}
		check(fmt.Sprintf("0xfd %#x", sub), append([]byte{OpPrefixSIMD, byte(sub)}, imm...))
	}
}

// TestReservedSIMDAreRefused: the SIMD sub-opcodes the table has no effect
// for are the ones wazero refuses.
func TestReservedSIMDAreRefused(t *testing.T) {
	t.Parallel()
	rt := wazero.NewRuntimeWithConfig(context.Background(),
		wazero.NewRuntimeConfigInterpreter().WithCoreFeatures(api.CoreFeaturesV2))
	defer rt.Close(context.Background())
	for sub := 0; sub < 256; sub++ {
		if simdEffects[sub].ok {
			continue
		}
		// With the stack polymorphic, any instruction wazero knows validates.
		body := []byte{0, OpUnreachable, OpPrefixSIMD, byte(sub), OpEnd}
		b := module(section(SectionType, 1, 0x60, 0, 0), section(SectionFunction, 1, 0), section(SectionCode, append([]byte{1}, codeEntry(body)...)...))
		_, err := rt.CompileModule(context.Background(), b)
		assert.Error(t, err, "0xfd %#x", sub)
	}
}

// TestMaxStackHeightOfRealModules walks every function of real modules —
// the testdata of this package and of internal/meter, the C probes, the
// hostile corpus, a C program built with SIMD and a Go program — and
// requires an exact walk of each: the typed account agreed with the block
// structure everywhere, so the table is right for every instruction they
// use, and Max is the true maximum.
func TestMaxStackHeightOfRealModules(t *testing.T) {
	t.Parallel()
	files := map[string][]byte{}
	for _, pattern := range []string{"testdata/*.wasm", "../meter/testdata/*.wasm", "../probes/*.wasm", "../../runtime/testdata/hostile/*.wasm"} {
		names, err := filepath.Glob(pattern)
		require.NoError(t, err)
		for _, name := range names {
			files[name] = readFile(t, name)
		}
	}
	if b := buildSIMD(t); b != nil {
		files["simd.c"] = b
	}
	if !testing.Short() {
		files["goprobe"] = buildGo(t)
	}
	for name, b := range files {
		m, err := Decode(b)
		if err != nil {
			continue // the hostile corpus has two files that are not wasm
		}
		var funcs, maxMax uint64
		for i := range m.Code {
			h, err := m.MaxStackHeight(i)
			require.NoError(t, err)
			require.True(t, h.Exact, "%s: function %d", name, i)
			funcs++
			maxMax = max(maxMax, h.Max)
		}
		t.Logf("%s: %d functions, highest stack %d slots", name, funcs, maxMax)
	}
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	return b
}

// buildSIMD compiles a C program that clang vectorises with SIMD128, if
// clang is installed.
func buildSIMD(t testing.TB) []byte {
	clang, err := exec.LookPath("clang")
	if err != nil {
		return nil
	}
	dir := t.TempDir()
	src, out := filepath.Join(dir, "simd.c"), filepath.Join(dir, "simd.wasm")
	require.NoError(t, os.WriteFile(src, []byte(`
#include <wasm_simd128.h>
float a[1024], b[1024];
int ia[1024];
unsigned char bytes[4096];
float dot(int n) { float s = 0; for (int i = 0; i < n; i++) s += a[i] * b[i]; return s; }
int sum(int n) { int s = 0; for (int i = 0; i < n; i++) s += ia[i] * 3 - (ia[i] >> 2); return s; }
int count(int n, unsigned char c) { int k = 0; for (int i = 0; i < n; i++) k += bytes[i] == c; return k; }
void scale(int n, float f) { for (int i = 0; i < n; i++) a[i] = a[i] * f + b[i]; }
v128_t mix(v128_t x, v128_t y, v128_t m) { return wasm_v128_bitselect(x, y, m); }
v128_t sat(v128_t x, v128_t y) { return wasm_i8x16_add_sat(wasm_i16x8_q15mulr_sat(x, y), y); }
v128_t shuffle(v128_t x, v128_t y) { return wasm_i8x16_shuffle(x, y, 0, 17, 2, 19, 4, 21, 6, 23, 8, 25, 10, 27, 12, 29, 14, 31); }
int lanes(v128_t x, float f) { return wasm_i32x4_extract_lane(wasm_f32x4_replace_lane(x, 2, f), 1) + wasm_i8x16_bitmask(x) + wasm_v128_any_true(x); }
v128_t load(const void *p, v128_t x) { return wasm_v128_load8_lane(p, x, 3); }
void store(void *p, v128_t x) { wasm_v128_store32_lane(p, x, 1); wasm_v128_store(p, wasm_i32x4_shl(x, 3)); }
v128_t wide(v128_t x, v128_t y) { return wasm_i64x2_extmul_low_i32x4(wasm_i32x4_dot_i16x8(x, y), y); }
v128_t conv(v128_t x) { return wasm_f64x2_promote_low_f32x4(wasm_f32x4_convert_i32x4(wasm_i32x4_trunc_sat_f32x4(x))); }
double pick(v128_t x, v128_t y, int c) { v128_t z = c ? x : y; return wasm_f64x2_extract_lane(z, 1); }
`), 0o644))
	cmd := exec.Command(clang, "--target=wasm32", "-nostdlib", "-O3", "-msimd128", "-Wl,--no-entry", "-Wl,--export-all", "-o", out, src)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("clang: %v\n%s", err, msg)
	}
	return readFile(t, out)
}

// buildGo compiles the meter's Go test probe for wasip1.
func buildGo(t testing.TB) []byte {
	out := filepath.Join(t.TempDir(), "goprobe.wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-o", out, "../meter/testdata/goprobe")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	return readFile(t, out)
}
