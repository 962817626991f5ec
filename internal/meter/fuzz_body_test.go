package meter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gate-dev/gate/internal/wasm"
	"github.com/tetratelabs/wazero"
)

// bodyModule wraps one function body (locals and instructions) in a module
// that gives it something to work with: types, a second function, a table, a
// small memory, a global, passive data and element segments. The body is
// function 0, of type () -> (), exported as "f".
func bodyModule(body []byte) []byte {
	return mod(
		sec(wasm.SectionType, 3,
			0x60, 0, 0, // 0: () -> ()
			0x60, 1, 0x7f, 1, 0x7f, // 1: (i32) -> i32
			0x60, 2, 0x7f, 0x7f, 2, 0x7f, 0x7f), // 2: (i32 i32) -> (i32 i32)
		sec(wasm.SectionFunction, 2, 0, 1),
		sec(wasm.SectionTable, 1, 0x70, 0x01, 2, 4),
		sec(wasm.SectionMemory, 1, 0x01, 3, 4), // 192 KiB: room for bulk operations over several chunks
		sec(wasm.SectionGlobal, 1, 0x7f, 1, 0x41, 0, 0x0b),
		sec(wasm.SectionExport, 1, 1, 'f', 0, 0),
		sec(wasm.SectionElement, 2, 1, 0, 1, 1, 3, 0, 1, 0), // passive [1], declarative [0]
		sec(wasm.SectionDataCount, 1),
		codeSec(body, []byte{0, 0x20, 0, 0x0b}),
		sec(wasm.SectionData, 1, 1, 3, 'a', 'b', 'c'),
	)
}

// FuzzInstrumentBody fuzzes a single function body, instrumented with the
// engine's options (so with the stack count and the bulk helpers).
// Besides FuzzInstrument's promises (the stack walk included) it checks
// that metering is sound: whenever wazero compiles the body, the
// instrumented function, run with a refuel that panics on its second call,
// stops by that panic, a trap or by returning — never by running into the
// (generous) backstop deadline.
func FuzzInstrumentBody(f *testing.F) {
	for _, pattern := range []string{"testdata/*.wasm", "../wasm/testdata/*.wasm"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				continue
			}
			m, err := wasm.Decode(b)
			if err != nil {
				continue
			}
			for _, c := range m.Code {
				f.Add(b[c.BodyOffset-len(c.LocalsRaw) : c.Span.End()]) // locals and instructions
			}
		}
	}
	f.Add([]byte{0, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b})                               // loop br 0 end
	f.Add([]byte{0, 0x41, 0, 0x41, 0, 0x41, 0x7f, 0xfc, 0x0b, 0x00, 0x0b})             // memory.fill
	f.Add([]byte{0, 0x10, 0x00, 0x0b})                                                 // call 0: infinite recursion
	f.Add([]byte{1, 1, 0x7f, 0x03, 0x40, 0x20, 0, 0x10, 1, 0x0d, 0, 0x0b, 0x0b})       // loop with a call
	f.Add([]byte{0, 0x02, 0x40, 0x03, 0x40, 0x0f, 0x0b, 0x0b, 0x0b})                   // return from a loop in a block
	f.Add([]byte{0, 0x02, 0x40, 0x0c, 0x01, 0x0b, 0x0b})                               // br to the function label
	f.Add([]byte{0, 0x41, 0, 0x41, 1, 0x41, 0x80, 0x80, 0x08, 0xfc, 0x0a, 0, 0, 0x0b}) // memory.copy of 128 KiB, in chunks
	v128 := append([]byte{0xfd, 0x0c}, make([]byte, 16)...)
	f.Add(cat([]byte{0}, v128, v128, []byte{0x41, 0, 0x1b, 0x1a, 0x0b})) // select of two v128
	f.Add([]byte{0, 0x41, 1, 0x41, 2, 0x02, 2, 0x0b, 0x1a, 0x1a, 0x0b})  // block with params, (i32 i32) -> (i32 i32)
	// Infinite recursion with 100 values waiting on the stack: the stack
	// limit stops it.
	f.Add(cat([]byte{0}, bytes.Repeat([]byte{0x41, 7}, 100), []byte{0x10, 0}, bytes.Repeat([]byte{0x1a}, 100), []byte{0x0b}))

	var c compiler
	defer c.close()
	var r runner
	defer r.close()
	f.Fuzz(func(t *testing.T, body []byte) {
		in := bodyModule(body)
		out, err := Instrument(in, engineOptions)
		m, _ := wasm.Decode(in)
		if !wazeroSafe(in, m) || c.compile(in) != nil {
			return
		}
		if err != nil {
			t.Fatalf("wazero compiles the input but Instrument fails: %v", err)
		}
		if err := c.compile(out); err != nil {
			t.Fatalf("wazero compiles the input but not the instrumented output: %v", err)
		}
		checkStackHeights(t, m, out)
		if err := r.run(out); err != nil {
			t.Fatal(err)
		}
	})
}

// runner runs instrumented modules with a refuel that panics on its second
// call and a trap that panics, under a backstop deadline enforced by wazero
// itself.
type runner struct {
	rt      wazero.Runtime
	refuels int
}

const backstop = 5 * time.Second

func (r *runner) run(wasmBytes []byte) (err error) {
	if r.rt == nil {
		r.rt = wazero.NewRuntimeWithConfig(ctx, runtimeConfig().WithCloseOnContextDone(true))
		_, err := r.rt.NewHostModuleBuilder(ImportModule).NewFunctionBuilder().
			WithFunc(func(context.Context) int32 {
				if r.refuels++; r.refuels >= 2 {
					panic(errStop)
				}
				return Quantum
			}).Export(ImportName).
			NewFunctionBuilder().
			WithFunc(func(_ context.Context, code int32) { panic(trapError{code}) }).Export(TrapName).
			Instantiate(ctx)
		if err != nil {
			return err
		}
	}
	defer func() {
		if p := recover(); p != nil {
			r.close()
			err = nil // a wazero bug, not ours; FuzzInstrument reports compile panics
		}
	}()
	r.refuels = 0
	callCtx, cancel := context.WithTimeout(ctx, backstop)
	defer cancel()
	mod, err := r.rt.InstantiateWithConfig(callCtx, wasmBytes, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || callCtx.Err() != nil {
			return fmt.Errorf("instantiation ran into the backstop deadline: %v", err)
		}
		return nil
	}
	defer mod.Close(ctx)
	_, err = mod.ExportedFunction("f").Call(callCtx)
	if callCtx.Err() != nil {
		return fmt.Errorf("metering did not stop the guest within %v (refuels: %d): %v", backstop, r.refuels, err)
	}
	return nil
}

func (r *runner) close() {
	if r.rt != nil {
		r.rt.Close(ctx)
		r.rt = nil
	}
}
