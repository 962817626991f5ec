;; Logs 10 000 lines; the host keeps the first few dozen and counts the rest.
;; (Enough to show the bound, and few enough to finish well inside the budget
;; under the race detector on a loaded machine: 100 000 did not.)
(module
  (import "gate" "log" (func $log (param i32 i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "flood")
  (func (export "probe") (result i32)
    (local $i i32)
    (loop $again
      (call $log (i32.const 2) (i32.const 0) (i32.const 5))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $again (i32.lt_u (local.get $i) (i32.const 10000))))
    (i32.const 0)))
