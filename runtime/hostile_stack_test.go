package runtime

import (
	"context"
	"github.com/gate-dev/gate/internal/inspect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/internal/wasm"
)

// TestHostileStack runs the modules that attack the native stack and what
// a trap's stack trace carries: each is contained (a trap that says why,
// within the budget), and the engine works afterwards.
func TestHostileStack(t *testing.T) {
	e := newEngine(t, NewEngineConfig())
	stackMsg := "call stack too deep: over the " + inspect.BytesText(maxStack) + " stack limit"

	tests := []struct {
		module string
		wasm   []byte // nil: testdata/hostile/module.wasm as it is
		reason string // a substring of Result.Reason
		check  func(t *testing.T, perr *ProbeError)
	}{
		// 2,000 values live in every frame, in locals or on the operand
		// stack: wazero's ceiling under a call-depth limit, a trap after
		// ~130 calls now.
		{module: "frame_locals", reason: `probe "frame_locals" trapped in probe: ` + stackMsg},
		{module: "frame_operands", reason: `probe "frame_operands" trapped in probe: ` + stackMsg},
		{module: "long_names", wasm: withHostileNames(t, readFile(t, hostilePath("long_names"))),
			reason: `probe "long_names" trapped in probe: wasm error: unreachable`,
			check: func(t *testing.T, perr *ProbeError) {
				detail := perr.Detail()
				t.Logf("detail, %d bytes:\n%s", len(detail), detail)
				// 30 frames, each naming the module and the function in at
				// most 128 bytes apiece, and a few lines more.
				assert.Less(t, len(detail), 9<<10)
				assert.Contains(t, detail, "wasm stack trace:")
				// The names are there, cut.
				assert.Contains(t, detail, "mmm….")
				assert.Contains(t, detail, "fff…(i32) i32")
				assert.True(t, utf8.ValidString(detail))
				for _, line := range strings.Split(detail, "\n") {
					line = strings.TrimLeft(line, "\t") // the trace's own indentation
					assert.False(t, strings.ContainsFunc(line, unicode.IsControl), "control character in %q", line)
					assert.False(t, strings.ContainsFunc(line, func(r rune) bool { return unicode.Is(unicode.Bidi_Control, r) }),
						"bidi control in %q", line)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.module, func(t *testing.T) {
			ctx := context.Background()
			var p *Probe
			if tt.wasm == nil {
				p = hostileProbe(t, e, tt.module, ProbeConfig{})
			} else {
				m, err := e.Compile(ctx, tt.module, tt.wasm)
				require.NoError(t, err)
				p, err = e.NewProbe(ctx, tt.module, m, ProbeConfig{})
				require.NoError(t, err)
			}
			res := runTimed(t, p)
			t.Logf("answered in %v", res.Elapsed)

			assert.Equal(t, Failed, res.Outcome, "reason: %s", res.Reason)
			assert.Contains(t, res.Reason, tt.reason)
			var perr *ProbeError
			require.ErrorAs(t, res.Err, &perr)
			assert.Equal(t, KindTrap, perr.Kind)
			assert.Equal(t, "probe", perr.Phase)
			if tt.check != nil {
				tt.check(t, perr)
			}
			assertHealthy(t, e)
		})
	}
}

// withHostileNames returns b with a name section appended that names the
// module with 64 KiB and every function with 1 MiB of text that starts with
// what a trace must not carry: a terminal escape, a newline and a tab that
// forge a frame, a carriage return, a bidi override and isolate, NUL.
func withHostileNames(t *testing.T, b []byte) []byte {
	t.Helper()
	m, err := wasm.Decode(b)
	require.NoError(t, err)
	forged := "\x1b[2J\x1b[31mok\n\tmain.probe() i32\r\u202egnp.exe\u2066\x00"
	moduleName := forged + strings.Repeat("m", 64<<10)
	var funcs []wasm.NameAssoc
	n := m.NumImportedFuncs() + uint32(len(m.Functions))
	for i := uint32(0); i < n; i++ {
		funcs = append(funcs, wasm.NameAssoc{Index: i, Name: forged + strings.Repeat("f", 1<<20)})
	}
	var payload []byte
	for _, sub := range []struct {
		id      byte
		content []byte
	}{
		{0, wasm.AppendName(nil, moduleName)},
		{1, wasm.AppendNameMap(nil, funcs)},
	} {
		payload = append(payload, sub.id)
		payload = wasm.AppendU32(payload, uint32(len(sub.content)))
		payload = append(payload, sub.content...)
	}
	out := wasm.AppendCustomSection(append([]byte(nil), b...), "name", payload)
	require.Greater(t, len(out), 2<<20, "two names of 1 MiB")
	return out
}
