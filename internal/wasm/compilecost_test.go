package wasm_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/costlywasm"
	"github.com/gate-dev/gate/internal/wasm"
)

func costOf(t testing.TB, s costlywasm.Shape) wasm.FuncCost {
	t.Helper()
	m, err := wasm.Decode(costlywasm.Module(s))
	require.NoError(t, err)
	return m.FuncCost(0)
}

// TestFuncCostCounts checks the counts of small bodies worked out by hand.
func TestFuncCostCounts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		shape costlywasm.Shape
		want  wasm.FuncCost
	}{
		{
			// block (local.get 0 br_if 0)×3 end local.get 0 end: three
			// br_ifs and two ends; the reads walk back 0+1+2 blocks, the
			// branches 1+2+3; local 0 lives from the first block to the last.
			name:  "brifs",
			shape: costlywasm.Shape{Kind: "brifs", Locals: 1, Blocks: 3},
			want:  wasm.FuncCost{Locals: 1, Blocks: 5, LiveSpan: 4, Walk: 3 + 6},
		},
		{
			// Each block's end is a join, so each branch walks back one
			// block and each read none.
			name:  "seq",
			shape: costlywasm.Shape{Kind: "seq", Locals: 1, Blocks: 3},
			want:  wasm.FuncCost{Locals: 1, Blocks: 7, LiveSpan: 6, Walk: 3},
		},
		{
			// Both locals are read before they are set, so they live from
			// the entry; a loop's end is no join (its branches go to the
			// header), so the final reads walk back to the second loop's
			// header.
			name:  "loops",
			shape: costlywasm.Shape{Kind: "loops", Locals: 2, Blocks: 2},
			want:  wasm.FuncCost{Locals: 2, Loops: 2, Blocks: 7, LiveSpan: 6 + 6, Walk: 2 + 2 + 2*2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, costOf(t, tt.shape))
		})
	}
}

// TestFuncCostGrowsWithShape: the costs grow as the compiler's work does,
// the walk of one block left by many branches with the square of them,
// the live span with locals times blocks.
func TestFuncCostGrowsWithShape(t *testing.T) {
	t.Parallel()
	small := costOf(t, costlywasm.Shape{Kind: "brifs", Locals: 10, Blocks: 1000})
	large := costOf(t, costlywasm.Shape{Kind: "brifs", Locals: 10, Blocks: 2000})
	assert.InDelta(t, 4, float64(large.Walk)/float64(small.Walk), 0.1)

	small = costOf(t, costlywasm.Shape{Kind: "nested", Locals: 100, Blocks: 1000})
	large = costOf(t, costlywasm.Shape{Kind: "nested", Locals: 200, Blocks: 2000})
	assert.InDelta(t, 4, float64(large.LiveSpan)/float64(small.LiveSpan), 0.2)
}

// TestFuncCostManyDeclaredLocals: four billion declared locals cost the
// count nothing in proportion to them. It is not parallel: it counts the
// whole process's allocations.
func TestFuncCostManyDeclaredLocals(t *testing.T) {
	body := []byte{1}
	body = wasm.AppendU32(body, 1<<32-1)
	body = append(body, 0x7f, wasm.OpLocalGet)
	body = wasm.AppendU32(body, 1<<32-2)
	body = append(body, 0x1a, wasm.OpEnd) // drop
	b := []byte{0, 'a', 's', 'm', 1, 0, 0, 0}
	b = wasm.AppendSection(b, wasm.SectionID(1), []byte{1, 0x60, 0, 0})
	b = wasm.AppendSection(b, wasm.SectionID(3), []byte{1, 0})
	code := wasm.AppendU32([]byte{1}, uint32(len(body)))
	b = wasm.AppendSection(b, wasm.SectionID(10), append(code, body...))
	m, err := wasm.Decode(b)
	require.NoError(t, err)

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c := m.FuncCost(0)
	runtime.ReadMemStats(&after)
	assert.Equal(t, wasm.FuncCost{Locals: 1<<32 - 1, Blocks: 1}, c)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20))
}

// FuzzFuncCost: no module makes the count panic, and a local lives
// across no more blocks than the body has.
func FuzzFuncCost(f *testing.F) {
	for _, s := range []costlywasm.Shape{
		{Kind: "seq", Locals: 3, Blocks: 4}, {Kind: "brifs", Locals: 2, Blocks: 3},
		{Kind: "nested", Locals: 3, Blocks: 3}, {Kind: "loops", Locals: 2, Blocks: 3},
		{Kind: "brtable", Locals: 2, Blocks: 3, Functions: 2},
	} {
		f.Add(costlywasm.Module(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := wasm.Decode(b)
		if err != nil {
			return
		}
		for i := -1; i <= len(m.Code); i++ {
			c := m.FuncCost(i)
			if c.Locals > 0 && c.Blocks > 0 && c.Locals < 1<<32 {
				assert.LessOrEqual(t, c.LiveSpan, c.Locals*c.Blocks)
			}
		}
	})
}

// FuzzFuncCostMonotone: more blocks or more locals of the same shape never
// cost less. The live span of brtable is the exception the estimate must
// make: there each new block sets a local before the final reads, which
// shortens its life, as it does in the compiler.
func FuzzFuncCostMonotone(f *testing.F) {
	f.Add(uint8(0), uint16(10), uint16(100))
	f.Add(uint8(2), uint16(300), uint16(20))
	f.Add(uint8(4), uint16(1), uint16(1))
	kinds := []string{"seq", "brifs", "nested", "loops", "brtable"}
	f.Fuzz(func(t *testing.T, kind uint8, locals, blocks uint16) {
		s := costlywasm.Shape{Kind: kinds[int(kind)%len(kinds)], Locals: int(locals%2000) + 1, Blocks: int(blocks % 2000)}
		c := costOf(t, s)
		for _, bigger := range []costlywasm.Shape{
			{Kind: s.Kind, Locals: s.Locals, Blocks: s.Blocks + 1},
			{Kind: s.Kind, Locals: s.Locals + 1, Blocks: s.Blocks},
		} {
			b := costOf(t, bigger)
			assert.GreaterOrEqual(t, b.Blocks, c.Blocks, "%+v then %+v", s, bigger)
			assert.GreaterOrEqual(t, b.Loops, c.Loops, "%+v then %+v", s, bigger)
			if s.Kind != "brtable" {
				assert.GreaterOrEqual(t, b.LiveSpan, c.LiveSpan, "%+v then %+v", s, bigger)
			}
			assert.GreaterOrEqual(t, b.Walk, c.Walk, "%+v then %+v", s, bigger)
		}
	})
}
