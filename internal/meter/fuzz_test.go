package meter

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gate-dev/gate/internal/wasm"
	"github.com/tetratelabs/wazero"
)

// FuzzInstrument checks that Instrument never panics, and that it accepts
// every module wazero compiles (with CoreFeaturesV2) unless it refuses one
// for a documented reason (ErrReservedImport, and with caps ErrMemoryCap
// and ErrTableCap), in which case wazero must compile its output too. Each
// input is instrumented with metering only and with the engine's options.
// For a module wazero compiles, it also checks the stack walk the weights
// rest on (see checkStackHeights).
//
// Seeds: the testdata modules of this package and of internal/wasm, plus
// testdata/fuzz/FuzzInstrument.
func FuzzInstrument(f *testing.F) {
	for _, pattern := range []string{"testdata/*.wasm", "../wasm/testdata/*.wasm"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	for _, b := range leniencySeeds() {
		f.Add(b)
	}
	var c compiler
	defer c.close()
	f.Fuzz(func(t *testing.T, in []byte) {
		m, decodeErr := wasm.Decode(in)
		var outs [][]byte
		for _, opts := range []Options{{}, engineOptions} {
			out, err := Instrument(in, opts)
			if err != nil {
				var fe *wasm.FormatError
				if decodeErr != nil && !errors.As(err, &fe) {
					t.Fatalf("Decode failed but Instrument's error is not a FormatError: %v", err)
				}
				if decodeErr == nil && errors.As(err, &fe) {
					t.Fatalf("Decode succeeded but Instrument reports a FormatError: %v", err)
				}
				if errors.Is(err, ErrReservedImport) ||
					(opts != Options{}) && (errors.Is(err, ErrMemoryCap) || errors.Is(err, ErrTableCap)) {
					continue // documented refusals
				}
			} else if _, err := wasm.Decode(out); err != nil {
				t.Fatalf("%+v: output does not decode: %v", opts, err)
			}
			outs = append(outs, out)
			if err == nil || !wazeroSafe(in, m) {
				continue
			}
			if c.compile(in) == nil {
				t.Fatalf("%+v: wazero compiles the input but Instrument fails: %v", opts, err)
			}
		}
		if !wazeroSafe(in, m) || c.compile(in) != nil {
			return // wazero refuses the input: nothing is promised
		}
		for _, out := range outs {
			if out == nil {
				continue
			}
			if err := c.compile(out); err != nil {
				t.Fatalf("wazero compiles the input but not the instrumented output: %v", err)
			}
			checkStackHeights(t, m, out)
		}
	})
}

// checkStackHeights checks, for a module m that wazero compiles and its
// instrumented output, that the stack walk of every body is exact (so its
// effect table agrees with wazero on every instruction the body uses), in
// the input and in the output, and that the rewrite's own code adds at
// most the three slots FrameOverhead allows for to any body's highest
// point.
func checkStackHeights(t *testing.T, m *wasm.Module, out []byte) {
	t.Helper()
	mo, err := wasm.Decode(out)
	if err != nil {
		t.Fatalf("output does not decode: %v", err)
	}
	for i := range m.Code {
		in, err := m.MaxStackHeight(i)
		if err != nil || !in.Exact {
			t.Fatalf("function body %d: stack walk of a body wazero compiles: %+v, %v", i, in, err)
		}
		got, err := mo.MaxStackHeight(i)
		if err != nil || !got.Exact {
			t.Fatalf("function body %d: stack walk of its instrumented version: %+v, %v", i, got, err)
		}
		if got.Max > in.Max+3 {
			t.Fatalf("function body %d: the rewrite takes the stack from %d to %d slots", i, in.Max, got.Max)
		}
	}
}

// compiler compiles modules with the runtime configuration gate uses,
// turning a panic inside wazero (it has a few on odd but "valid" input, see
// the typed select note in internal/wasm) into an error.
type compiler struct {
	rt wazero.Runtime
}

func (c *compiler) compile(b []byte) (err error) {
	if c.rt == nil {
		c.rt = wazero.NewRuntimeWithConfig(ctx, runtimeConfig())
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("wazero panicked: %v", r)
			c.close() // start afresh after a panic
		}
	}()
	cm, err := c.rt.CompileModule(ctx, b)
	if err == nil {
		cm.Close(ctx)
	}
	return err
}

func (c *compiler) close() {
	if c.rt != nil {
		c.rt.Close(ctx)
		c.rt = nil
	}
}

// wazeroSafe reports whether handing b to wazero cannot make it allocate in
// proportion to a declared count (wazero allocates vectors before checking
// the input can hold them; a 10-byte count can ask for gigabytes and crash the
// fuzzing process).
//
// If b decodes (m != nil), our decoder has bounded every count by the input
// size except two, which are checked here: the local count of each body and
// the counts in the name section. Otherwise we accept small inputs in which
// no LEB128 integer can exceed 2^14 because no two consecutive bytes have
// their high bit set. That skips some inputs, never mis-judges one.
func wazeroSafe(b []byte, m *wasm.Module) bool {
	if m != nil {
		for _, c := range m.Code {
			if c.NumLocals > 1<<16 {
				return false
			}
		}
		for _, s := range m.Sections {
			if s.ID == wasm.SectionCustom && s.Name == "name" {
				if _, err := wasm.DecodeNameSection(s.Content, s.ContentOffset); err != nil {
					return false
				}
			}
		}
		return true
	}
	if len(b) > 4096 {
		return false
	}
	for i := 1; i < len(b); i++ {
		if b[i-1]&0x80 != 0 && b[i]&0x80 != 0 {
			return false
		}
	}
	return true
}

// leniencySeeds are small modules using encodings outside core 2.0 that
// wazero nevertheless compiles, so that the fuzzer starts near them.
func leniencySeeds() [][]byte {
	typ := sec(wasm.SectionType, 1, 0x60, 0, 0)
	fn := sec(wasm.SectionFunction, 1, 0)
	body := func(instrs ...byte) []byte { return codeSec(append([]byte{0}, instrs...)) }
	return [][]byte{
		mod(sec(wasm.SectionType, 1, 0x4e, 2, 0x60, 0, 0, 0x60, 0, 1, 0x7f), fn, body(0x0b)),
		mod(sec(wasm.SectionType, 2, 0x60, 0, 0, 0x60, 1, 0x63, 0x00, 0), fn, body(0x0b)),
		mod(typ, fn, sec(wasm.SectionTable, 1, 0x40, 0x00, 0x70, 0x00, 0x01, 0xd2, 0x00, 0x0b), body(0x0b)),
		mod(typ, fn, codeSec([]byte{1, 1, 0x69, 0x0b})),
		mod(typ, fn, body(0x02, 0x63, 0x70, 0xd0, 0x70, 0x0b, 0x1a, 0x0b)),
		mod(sec(wasm.SectionDataCount)),
		mod(typ, fn, body(append(append([]byte{0xfd, 0x0c}, make([]byte, 16)...), 0xfd, 0x80, 0x1a, 0x0b)...)),
		mod(typ, fn, body(0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b),
			wasm.AppendCustomSection(nil, "name", []byte{1, 4, 1, 0, 1, 'f'})),
	}
}
