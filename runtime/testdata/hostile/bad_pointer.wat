;; Passes gate.env a name far outside its one page of memory.
(module
  (import "gate" "env" (func $env (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "probe") (result i32)
    (drop (call $env (i32.const 0x7fff0000) (i32.const 16) (i32.const 0) (i32.const 0)))
    (i32.const 0)))
