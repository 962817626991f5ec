;; A reactor whose _initialize spins, reading the monotonic clock, until
;; 1.5 s have passed, then answers "available" for ever: longer than any
;; warm-up may take, on a machine however busy (a warm-up that the machine
;; keeps off the CPU is given up to ten budgets, 1 s). An instance whose warm-up overran must never be kept,
;; so every run instantiates it afresh and overruns in _initialize.
(module
  (import "wasi_snapshot_preview1" "clock_time_get" (func $now (param i32 i64 i32) (result i32)))
  (memory (export "memory") 1 1)
  (global $start (mut i64) (i64.const 0))
  (func (export "_initialize")
    (drop (call $now (i32.const 1) (i64.const 0) (i32.const 0)))
    (global.set $start (i64.load (i32.const 0)))
    (loop $spin
      (drop (call $now (i32.const 1) (i64.const 0) (i32.const 0)))
      (br_if $spin (i64.lt_u (i64.sub (i64.load (i32.const 0)) (global.get $start)) (i64.const 1500000000)))))
  (func (export "probe") (result i32) (i32.const 0)))
