package wasm

import "fmt"

// FormatError reports input that is not a WebAssembly binary this package can
// read: malformed, truncated, or using a feature wazero does not enable by
// default. Every error returned by Decode and InstrReader is a *FormatError.
type FormatError struct {
	// Offset is the byte offset in the input where the problem was found.
	Offset int
	// Section names the section being read ("type", "code", `custom "name"`),
	// or is empty for the module header.
	Section string
	// Msg describes the problem.
	Msg string
}

// Error formats the error as, for example,
// "wasm: code section at offset 0x1a2: function 3: unknown opcode 0xfe 0x10".
func (e *FormatError) Error() string {
	if e.Section == "" {
		return fmt.Sprintf("wasm: at offset %#x: %s", e.Offset, e.Msg)
	}
	return fmt.Sprintf("wasm: %s section at offset %#x: %s", e.Section, e.Offset, e.Msg)
}
