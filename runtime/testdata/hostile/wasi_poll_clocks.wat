;; Loops on WASI poll_oneoff with 400,000 clock subscriptions (zeroed
;; memory: relative realtime clocks, due at once) and their events, which
;; fill the 32 MiB memory. wazero's poll_oneoff walked them all in one go
;; (about 40 ms a call); gate's refuses more than 1024 (EINVAL), and the
;; loop still ends at the budget.
(module
  (import "wasi_snapshot_preview1" "poll_oneoff"
    (func $poll (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 512)
  ;; subscriptions at 0 (400000 x 48 bytes), events after them (400000 x
  ;; 32 bytes), the event count at 33,000,000
  (func (export "probe") (result i32)
    (loop $again
      (drop (call $poll (i32.const 0) (i32.const 19200000) (i32.const 400000) (i32.const 33000000)))
      (br $again))
    (i32.const 0)))
