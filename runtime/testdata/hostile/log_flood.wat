;; Logs 100 000 lines; the host keeps the first few dozen and counts the rest.
(module
  (import "gate" "log" (func $log (param i32 i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "flood")
  (func (export "probe") (result i32)
    (local $i i32)
    (loop $again
      (call $log (i32.const 2) (i32.const 0) (i32.const 5))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $again (i32.lt_u (local.get $i) (i32.const 100000))))
    (i32.const 0)))
