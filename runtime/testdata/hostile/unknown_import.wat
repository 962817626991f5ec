;; Imports a gate function that ABI v1 does not have, an env function other
;; than abort, and one from a module the host does not provide: refused at
;; load with all three named.
(module
  (import "gate" "exec" (func (param i32 i32) (result i32)))
  (import "env" "system" (func (param i32) (result i32)))
  (import "libc" "system" (func (param i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "probe") (result i32) (i32.const 0)))
