// Package wasm reads the WebAssembly binary format and provides the encoding
// helpers gate's rewriters need.
//
// It covers the core 2.0 format as wazero v1.12 accepts it with
// api.CoreFeaturesV2: MVP plus multi-value, sign-extension, non-trapping
// float-to-int, bulk memory, reference types and SIMD.
//
// This is a reader, not a validator: it checks that every byte can be
// decoded, that sections come in order and fit the input, and that every
// function body is a well-nested instruction sequence, but it does not type
// check. wazero validates later. The one typed analysis, StackWalker, which
// bounds a body's operand stack, tracks each value's width, not its type,
// and reports whether its account stayed consistent rather than failing.
//
// Where wazero's own decoder is more lenient than the specification (for
// example it reads a SIMD sub-opcode as one byte, and it accepts reference
// types written with the typed-function-references prefixes), this package
// accepts and decodes exactly what wazero does. Two reasons: a module wazero
// runs must be readable here, and a rewriter must see precisely the
// instruction stream wazero will compile — if the two disagreed on where an
// instruction starts, a rewriter could miss a loop that wazero executes.
//
// Decode never panics and never allocates in proportion to a declared count
// before checking that the remaining bytes can hold that many items. Every
// error it returns is a *FormatError.
package wasm
