;; Answers available on its first run and unavailable after: a reactor that
;; keeps state between runs, which instance reuse would expose.
(module
  (import "gate" "reason" (func $reason (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "seen before")
  (global $runs (mut i32) (i32.const 0))
  (func (export "probe") (result i32)
    (global.set $runs (i32.add (global.get $runs) (i32.const 1)))
    (if (result i32) (i32.eq (global.get $runs) (i32.const 1))
      (then (i32.const 0))
      (else (call $reason (i32.const 0) (i32.const 11)) (i32.const 1)))))
