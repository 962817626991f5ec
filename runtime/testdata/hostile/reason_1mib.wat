;; Hands the host a 1 MiB reason; the host keeps 1 KiB of it.
(module
  (import "gate" "reason" (func $reason (param i32 i32)))
  (memory (export "memory") 17)
  (func (export "probe") (result i32)
    (memory.fill (i32.const 0) (i32.const 120) (i32.const 1048576)) ;; 'x'
    (call $reason (i32.const 0) (i32.const 1048576))
    (i32.const 1)))
