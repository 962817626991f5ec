;; Looks through its whole memory for the first eight bytes of the secret
;; that secret_loop holds ("S3CRET-T"): a fresh instance must start from
;; zeroed memory, never from another probe's. Answers 1 with the reason
;; "found another probe's secret" if it sees it, else 0.
(module
  (import "gate" "reason" (func $reason (param i32 i32)))
  (memory (export "memory") 1 1)
  (data (i32.const 60000) "found another probe's secret")
  (func (export "probe") (result i32)
    (local $p i32)
    (loop $scan
      ;; "S3CRET-T" as a little-endian i64
      (if (i64.eq (i64.load (local.get $p)) (i64.const 0x542d544552433353))
        (then
          (call $reason (i32.const 60000) (i32.const 28))
          (return (i32.const 1))))
      (local.set $p (i32.add (local.get $p) (i32.const 8)))
      (br_if $scan (i32.lt_u (local.get $p) (i32.const 65536))))
    (i32.const 0)))
