;; Sleeps for 10 s through WASI poll_oneoff with one relative clock
;; subscription, as a Go guest's time.Sleep does.
(module
  (import "wasi_snapshot_preview1" "poll_oneoff"
    (func $poll (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  ;; subscription at 0 (48 bytes): userdata u64 at 0, tag u8 at 8 = 0
  ;; (clock), clock id u32 at 16 = 1 (monotonic), timeout u64 at 24 in ns,
  ;; precision u64 at 32, flags u16 at 40 = 0 (relative); the event is
  ;; written at 64 and the event count at 128
  (func (export "probe") (result i32)
    (i64.store (i32.const 0) (i64.const 42))
    (i32.store8 (i32.const 8) (i32.const 0))
    (i32.store (i32.const 16) (i32.const 1))
    (i64.store (i32.const 24) (i64.const 10000000000))
    (i64.store (i32.const 32) (i64.const 0))
    (i32.store16 (i32.const 40) (i32.const 0))
    (drop (call $poll (i32.const 0) (i32.const 64) (i32.const 1) (i32.const 128)))
    (i32.const 0)))
