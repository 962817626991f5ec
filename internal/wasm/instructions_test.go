package wasm

import (
	"bufio"
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInstrImmediates decodes single instructions (followed by the function's
// end) and checks opcode, sub-opcode, length and index immediate.
func TestInstrImmediates(t *testing.T) {
	t.Parallel()
	v128 := func(prefix ...byte) []byte { return append(prefix, make([]byte, 16)...) }
	tests := []struct {
		name  string
		code  []byte
		op    byte
		sub   uint32
		index uint32
	}{
		{"unreachable", []byte{0x00}, 0x00, 0, 0},
		{"block empty", []byte{0x02, 0x40}, OpBlock, 0, 0},
		{"loop i32", []byte{0x03, 0x7f}, OpLoop, 0, 0},
		{"if type index", []byte{0x04, 0x80, 0x01}, OpIf, 0, 0},
		{"block exnref", []byte{0x02, 0x69}, OpBlock, 0, 0},
		{"block (ref null 300)", []byte{0x02, 0x63, 0xac, 0x02}, OpBlock, 0, 0},
		{"br", []byte{0x0c, 0x05}, OpBr, 0, 5},
		{"br_if", []byte{0x0d, 0x81, 0x01}, OpBrIf, 0, 129},
		{"br_table", []byte{0x0e, 0x02, 0x00, 0x01, 0x02}, OpBrTable, 0, 0},
		{"return", []byte{0x0f}, OpReturn, 0, 0},
		{"call", []byte{0x10, 0xe5, 0x8e, 0x26}, OpCall, 0, 624485},
		{"call_indirect", []byte{0x11, 0x03, 0x01}, OpCallIndirect, 0, 3},
		{"drop", []byte{0x1a}, 0x1a, 0, 0},
		{"select", []byte{0x1b}, 0x1b, 0, 0},
		{"typed select", []byte{0x1c, 0x01, 0x7b}, 0x1c, 0, 0},
		{"local.get", []byte{0x20, 0x02}, OpLocalGet, 0, 2},
		{"global.set", []byte{0x24, 0x07}, OpGlobalSet, 0, 7},
		{"table.get", []byte{0x25, 0x01}, 0x25, 0, 1},
		{"table.set", []byte{0x26, 0x00}, 0x26, 0, 0},
		{"i32.load", []byte{0x28, 0x02, 0x80, 0x80, 0x04}, 0x28, 0, 0},
		{"i64.store32 multi-memory memarg", []byte{0x3e, 0x42, 0x01, 0x00}, 0x3e, 0, 0},
		{"memory.size", []byte{0x3f, 0x00}, 0x3f, 0, 0},
		{"memory.grow", []byte{0x40, 0x00}, OpMemoryGrow, 0, 0},
		{"i32.const", []byte{0x41, 0x80, 0x80, 0x80, 0x80, 0x78}, OpI32Const, 0, 0},
		{"i64.const", []byte{0x42, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f}, 0x42, 0, 0},
		{"f32.const", []byte{0x43, 0, 0, 0x80, 0x3f}, 0x43, 0, 0},
		{"f64.const", []byte{0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}, 0x44, 0, 0},
		{"i32.eqz", []byte{0x45}, 0x45, 0, 0},
		{"i64.extend32_s", []byte{0xc4}, 0xc4, 0, 0},
		{"ref.null func", []byte{0xd0, 0x70}, 0xd0, 0, 0},
		{"ref.null exn", []byte{0xd0, 0x69}, 0xd0, 0, 0},
		{"ref.is_null", []byte{0xd1}, 0xd1, 0, 0},
		{"ref.func", []byte{0xd2, 0x09}, OpRefFunc, 0, 9},
		{"i32.trunc_sat_f32_s", []byte{0xfc, 0x00}, OpPrefixMisc, 0, 0},
		{"i64.trunc_sat_f64_u", []byte{0xfc, 0x07}, OpPrefixMisc, 7, 0},
		{"memory.init", []byte{0xfc, 0x08, 0x03, 0x00}, OpPrefixMisc, MiscMemoryInit, 3},
		{"data.drop", []byte{0xfc, 0x09, 0x04}, OpPrefixMisc, 9, 4},
		{"memory.copy", []byte{0xfc, 0x0a, 0x00, 0x00}, OpPrefixMisc, MiscMemoryCopy, 0},
		{"memory.fill", []byte{0xfc, 0x0b, 0x00}, OpPrefixMisc, MiscMemoryFill, 0},
		{"table.init", []byte{0xfc, 0x0c, 0x02, 0x01}, OpPrefixMisc, MiscTableInit, 2},
		{"elem.drop", []byte{0xfc, 0x0d, 0x02}, OpPrefixMisc, 13, 2},
		{"table.copy", []byte{0xfc, 0x0e, 0x01, 0x02}, OpPrefixMisc, MiscTableCopy, 1},
		{"table.grow", []byte{0xfc, 0x0f, 0x01}, OpPrefixMisc, MiscTableGrow, 1},
		{"table.size", []byte{0xfc, 0x10, 0x01}, OpPrefixMisc, 16, 1},
		{"table.fill", []byte{0xfc, 0x11, 0x01}, OpPrefixMisc, MiscTableFill, 1},
		{"misc sub-opcode as a long LEB128", []byte{0xfc, 0x8b, 0x00, 0x00}, OpPrefixMisc, MiscMemoryFill, 0},
		{"v128.load", []byte{0xfd, 0x00, 0x04, 0x00}, OpPrefixSIMD, 0, 0},
		{"v128.store", []byte{0xfd, 0x0b, 0x04, 0x10}, OpPrefixSIMD, 0x0b, 0},
		{"v128.const", v128(0xfd, 0x0c), OpPrefixSIMD, 0x0c, 0},
		{"i8x16.shuffle", v128(0xfd, 0x0d), OpPrefixSIMD, 0x0d, 0},
		{"i8x16.swizzle", []byte{0xfd, 0x0e}, OpPrefixSIMD, 0x0e, 0},
		{"i8x16.extract_lane_s", []byte{0xfd, 0x15, 0x0f}, OpPrefixSIMD, 0x15, 0},
		{"f64x2.replace_lane", []byte{0xfd, 0x22, 0x01}, OpPrefixSIMD, 0x22, 0},
		{"v128.load8_lane", []byte{0xfd, 0x54, 0x00, 0x00, 0x03}, OpPrefixSIMD, 0x54, 0},
		{"v128.store64_lane", []byte{0xfd, 0x5b, 0x03, 0x08, 0x01}, OpPrefixSIMD, 0x5b, 0},
		{"v128.load32_zero", []byte{0xfd, 0x5c, 0x02, 0x00}, OpPrefixSIMD, 0x5c, 0},
		{"v128.load64_zero", []byte{0xfd, 0x5d, 0x03, 0x00}, OpPrefixSIMD, 0x5d, 0},
		{"f64x2.promote_low_f32x4", []byte{0xfd, 0x5f}, OpPrefixSIMD, 0x5f, 0},
		// The spec encodes i16x8.abs (0x80) as 0x80 0x01; wazero reads one
		// byte and then the 0x01 as a nop. So do we.
		{"i16x8.abs reads one byte", []byte{0xfd, 0x80}, OpPrefixSIMD, 0x80, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			body := append(append([]byte(nil), tc.code...), OpEnd)
			if tc.op == OpBlock || tc.op == OpLoop || tc.op == OpIf {
				body = append(body, OpEnd)
			}
			ir := NewInstrReader(body, 100)
			in, err := ir.Next()
			require.NoError(t, err)
			assert.Equal(t, tc.op, in.Op)
			assert.Equal(t, tc.sub, in.Sub)
			assert.Equal(t, tc.index, in.Index)
			assert.Equal(t, 100, in.Offset)
			assert.Equal(t, tc.code, in.Raw)
			for !ir.Done() {
				_, err := ir.Next()
				require.NoError(t, err)
			}
		})
	}
}

// TestInstrBlockType: block, loop and if report their block type as the
// s33 it is encoded as.
func TestInstrBlockType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		code []byte
		bt   int64
	}{
		{"empty", []byte{OpBlock, 0x40}, -0x40},
		{"i32", []byte{OpLoop, 0x7f}, -0x01},
		{"v128", []byte{OpBlock, 0x7b}, -0x05},
		{"exnref", []byte{OpIf, 0x69}, -0x17},
		{"(ref null func)", []byte{OpBlock, 0x63, 0x70}, -0x1d},
		{"type index 0", []byte{OpBlock, 0x00}, 0},
		{"type index 128", []byte{OpIf, 0x80, 0x01}, 128},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in, err := NewInstrReader(append(append([]byte(nil), tc.code...), OpEnd, OpEnd), 0).Next()
			require.NoError(t, err)
			assert.Equal(t, tc.bt, in.BlockType)
		})
	}
}

func TestInstrReaderStopsAtFinalEnd(t *testing.T) {
	t.Parallel()
	ir := NewInstrReader([]byte{0x02, 0x40, 0x0b, 0x0b}, 0)
	var ops []byte
	for !ir.Done() {
		in, err := ir.Next()
		require.NoError(t, err)
		ops = append(ops, in.Op)
	}
	assert.Equal(t, []byte{OpBlock, OpEnd, OpEnd}, ops)
	_, err := ir.Next()
	assert.EqualError(t, err, "wasm: code section at offset 0x4: read past the end of the function")
}

// objdumpLine matches an instruction line of `wasm-objdump -d`; continuation
// lines of long instructions have no text after the bar.
var objdumpLine = regexp.MustCompile(`^ ([0-9a-f]{6}): ([0-9a-f ]+)\| +(\S.*)$`)

// TestInstrOffsetsMatchWabt checks, for every testdata module, that the
// decoder finds instructions at exactly the offsets wasm-objdump (wabt) does.
// The one deliberate difference: for a SIMD sub-opcode of two LEB128 bytes,
// wabt sees one instruction and we (like wazero) see the sub-opcode's first
// byte and then a nop.
func TestInstrOffsetsMatchWabt(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("wasm-objdump"); err != nil {
		t.Skip("wasm-objdump not installed")
	}
	files, err := filepath.Glob("testdata/*.wasm")
	require.NoError(t, err)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			out, err := exec.Command("wasm-objdump", "-d", f).Output()
			require.NoError(t, err)
			var want []int
			sc := bufio.NewScanner(bytes.NewReader(out))
			for sc.Scan() {
				if m := objdumpLine.FindStringSubmatch(sc.Text()); m != nil && !strings.HasPrefix(m[3], "local[") {
					off, err := strconv.ParseInt(m[1], 16, 64)
					require.NoError(t, err)
					want = append(want, int(off))
				}
			}
			m := decodeTestdata(t, filepath.Base(f))
			var got []int
			for _, c := range m.Code {
				ir := NewInstrReader(c.Body, c.BodyOffset)
				var prev Instr
				for !ir.Done() {
					in, err := ir.Next()
					require.NoError(t, err)
					if in.Op == OpNop && prev.Op == OpPrefixSIMD && prev.Sub >= 0x80 {
						continue // the second byte of a two-byte SIMD sub-opcode
					}
					got = append(got, in.Offset)
					prev = in
				}
			}
			assert.Equal(t, want, got)
		})
	}
}
