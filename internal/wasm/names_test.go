package wasm

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeNameSection(t *testing.T) {
	t.Parallel()
	var payload []byte
	sub := func(id byte, content []byte) {
		payload = append(payload, id)
		payload = AppendU32(payload, uint32(len(content)))
		payload = append(payload, content...)
	}
	sub(0, AppendName(nil, "mod"))
	sub(1, AppendNameMap(nil, []NameAssoc{{0, "imp"}, {1, "main"}}))
	sub(2, AppendIndirectNameMap(nil, []IndirectNameAssoc{{1, []NameAssoc{{0, "x"}, {1, "y"}}}}))
	sub(7, []byte{1, 2, 3}) // global names: kept raw

	ns, err := DecodeNameSection(payload, 0)
	require.NoError(t, err)
	require.Len(t, ns.Subsections, 4)
	assert.Equal(t, byte(0), ns.Subsections[0].ID)
	assert.Equal(t, []NameAssoc{{0, "imp"}, {1, "main"}}, ns.Subsections[1].Functions)
	assert.Equal(t, []IndirectNameAssoc{{1, []NameAssoc{{0, "x"}, {1, "y"}}}}, ns.Subsections[2].Locals)
	assert.Equal(t, []byte{1, 2, 3}, ns.Subsections[3].Content)
}

func TestDecodeNameSectionErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		payload []byte
		want    string
	}{
		{"truncated", []byte{1, 5, 1}, `wasm: custom "name" section at offset 0x2: subsection 0: 5 bytes declared but only 1 left in the section`},
		{"module name shorter than its subsection", []byte{0, 3, 1, 'a', 'b'}, `wasm: custom "name" section at offset 0x4: subsection 0: 1 bytes left over at the end of the subsection`},
		{"function names overrun", []byte{1, 3, 1, 0, 5}, `wasm: custom "name" section at offset 0x5: subsection 0: 5 bytes declared but only 0 left in the section`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := DecodeNameSection(tc.payload, 0)
			assert.EqualError(t, err, tc.want)
		})
	}
}
