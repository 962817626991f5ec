;; Unbounded recursion without a loop: the native stack grows until it
;; overflows (on wazero's compiler, to its 50 MB ceiling: 40 ms to 1.2 s
;; measured without metering).
(module
  (memory (export "memory") 1)
  (func $down (param $n i64) (result i64)
    (i64.add (call $down (i64.add (local.get $n) (i64.const 1))) (i64.const 1)))
  (func (export "probe") (result i32)
    (drop (call $down (i64.const 0)))
    (i32.const 0)))
