;; A reactor that keeps what one run read and shows it in later ones: on an
;; instance's first run it reads its config key "k" into memory; on every
;; run it answers unavailable with what it kept as the reason. Shared with
;; a probe of another config, its reason would be that other probe's value.
(module
  (import "gate" "config" (func $config (param i32 i32 i32 i32) (result i32)))
  (import "gate" "reason" (func $reason (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "k")
  ;; kept: its length at 8 (-1 before the first run), its bytes at 64
  (global $kept (mut i32) (i32.const -1))
  (func (export "probe") (result i32)
    (if (i32.lt_s (global.get $kept) (i32.const 0))
      (then
        (global.set $kept (call $config (i32.const 0) (i32.const 1) (i32.const 64) (i32.const 1024)))
        (if (i32.gt_s (global.get $kept) (i32.const 1024))
          (then (global.set $kept (i32.const 1024))))))
    (if (i32.gt_s (global.get $kept) (i32.const 0))
      (then (call $reason (i32.const 64) (global.get $kept))))
    (i32.const 1)))
