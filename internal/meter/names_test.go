package meter

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/internal/wasm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTraceName(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	const fffd = "\ufffd"
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"plain", "main.probe", "main.probe"},
		{"go symbol", "encoding/json.(*decodeState).object", "encoding/json.(*decodeState).object"},
		{"non-ASCII kept", "größe_計算", "größe_計算"},
		{"exactly the limit", x(128), x(128)},
		{"one over", x(129), x(125) + "…"},
		{"a MiB", x(1 << 20), x(125) + "…"},
		{"all fits", x(124) + "éé", x(124) + "éé"},
		{"cut before a two-byte rune", x(124) + "ééé", x(124) + "…"},
		{"cut after a two-byte rune", x(123) + "ééé", x(123) + "é…"},
		{"cut before a four-byte rune", x(122) + "🦀🦀", x(122) + "…"},
		{"two-byte runes to the end", strings.Repeat("é", 64), strings.Repeat("é", 64)},
		{"two-byte runes past it", strings.Repeat("é", 65), strings.Repeat("é", 62) + "…"},
		{"newline", "a\nb", "a" + fffd + "b"},
		{"carriage return and tab", "a\r\tb", "a" + fffd + fffd + "b"},
		{"NUL", "a\x00b", "a" + fffd + "b"},
		{"terminal escape", "\x1b[31mred\x1b[0m", fffd + "[31mred" + fffd + "[0m"},
		{"DEL", "a\x7fb", "a" + fffd + "b"},
		{"C1 NEL and CSI", "a\u0085b\u009bc", "a" + fffd + "b" + fffd + "c"},
		{"bidi override", "admin\u202egnp.exe", "admin" + fffd + "gnp.exe"},
		{"bidi embeddings and pop", "\u202a\u202b\u202c\u202d", strings.Repeat(fffd, 4)},
		{"bidi isolates", "\u2066\u2067\u2068\u2069", strings.Repeat(fffd, 4)},
		{"bidi marks", "\u200e\u200f\u061c", strings.Repeat(fffd, 3)},
		{"line and paragraph separators", "a\u2028b\u2029c", "a" + fffd + "b" + fffd + "c"},
		{"invalid UTF-8", "a\xff\xfeb", "a" + fffd + fffd + "b"},
		{"truncated rune", "a\xe2\x82", "a" + fffd + fffd},
		{"controls count as their replacement", strings.Repeat("\n", 50), strings.Repeat(fffd, 41) + "…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := traceName(tc.in)
			assert.Equal(t, tc.want, got)
			assert.LessOrEqual(t, len(got), MaxNameBytes)
			assert.True(t, utf8.ValidString(got))
		})
	}
}

// hostileNames is a module whose only function, f(n), recurses n times and
// then executes unreachable, under a name section with a 1 MiB function
// name and a 64 KiB module name, both full of control and bidi characters.
func hostileNames() (wasmBytes []byte, funcName, moduleName string) {
	funcName = "\x1b[2J\x1b[31mfake\n\tat main.real\u202e" + strings.Repeat("f\r\n", 1<<20/3)
	moduleName = "\u2066mod\x00" + strings.Repeat("m", 64<<10)
	body := []byte{0,
		wasm.OpLocalGet, 0, wasm.OpIf, wasm.BlockEmpty,
		wasm.OpLocalGet, 0, wasm.OpI32Const, 1, wasm.OpI32Sub, wasm.OpCall, 0,
		wasm.OpElse, wasm.OpUnreachable, wasm.OpEnd, wasm.OpEnd}
	names := appendSubsection(nil, 0, wasm.AppendName(nil, moduleName))
	names = appendSubsection(names, 1, wasm.AppendNameMap(nil, []wasm.NameAssoc{{Index: 0, Name: funcName}}))
	names = appendSubsection(names, 2, wasm.AppendIndirectNameMap(nil, []wasm.IndirectNameAssoc{
		{Index: 0, Names: []wasm.NameAssoc{{Index: 0, Name: strings.Repeat("l", 1<<20)}}}}))
	wasmBytes = mod(sec(wasm.SectionType, 1, 0x60, 1, 0x7f, 0), sec(wasm.SectionFunction, 1, 0),
		sec(wasm.SectionExport, 1, 1, 'f', 0, 0), codeSec(body), wasm.AppendCustomSection(nil, "name", names))
	return wasmBytes, funcName, moduleName
}

// TestNamesInTracesAreBounded: through a real trap deep in a call chain,
// the stack trace wazero builds names the module and the function with at
// most MaxNameBytes each, with nothing in them that could forge a line or
// reorder the text, and the output's name section is small.
func TestNamesInTracesAreBounded(t *testing.T) {
	in, funcName, moduleName := hostileNames()
	require.Greater(t, len(in), 1<<21)
	for _, o := range optionSets {
		t.Run(o.name, func(t *testing.T) {
			out := mustInstrumentWith(t, in, o.opts)
			assert.Less(t, len(out), 2048, "the names are bounded and the local names dropped")
			var h host
			_, err := h.call(t, out, "f", 100)
			require.Error(t, err)
			msg := err.Error()
			t.Logf("%d bytes:\n%s", len(msg), msg)
			assert.Less(t, len(msg), 32*(2*MaxNameBytes+40), "30 frames of two names, and their signatures")
			assert.Contains(t, msg, "wasm error: unreachable")
			assert.Contains(t, msg, traceName(moduleName)+"."+traceName(funcName)+"(i32)")
			for _, line := range strings.Split(msg, "\n") {
				for _, r := range strings.TrimPrefix(line, "\t") {
					assert.True(t, safetext.Allowed(r), "%q in %q", r, line)
				}
			}
			assert.NotContains(t, msg, "\r")
			assert.True(t, utf8.ValidString(msg))
			assert.False(t, strings.ContainsFunc(msg, func(r rune) bool { return unicode.Is(unicode.Bidi_Control, r) }))
		})
	}
}
