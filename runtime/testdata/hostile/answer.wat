;; Answers the one-digit status in config "status", after setting the reason
;; in config "reason" if there is one: how the host reads answers other than
;; 0 and 1, with a reason and without.
(module
  (import "gate" "config" (func $config (param i32 i32 i32 i32) (result i32)))
  (import "gate" "reason" (func $reason (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "status")
  (data (i32.const 8) "reason")
  (func (export "probe") (result i32)
    (local $n i32)
    (local.set $n (call $config (i32.const 8) (i32.const 6) (i32.const 64) (i32.const 256)))
    (if (i32.gt_s (local.get $n) (i32.const 0))
      (then (call $reason (i32.const 64) (local.get $n))))
    (drop (call $config (i32.const 0) (i32.const 6) (i32.const 16) (i32.const 1)))
    (i32.sub (i32.load8_u (i32.const 16)) (i32.const 48))))
