;; Holds as many streams as a run may (8) to its config's "addr" for as
;; long as its budget allows: it connects until a connect fails or it holds
;; 8, then waits on the first stream's recv with no timeout of its own (the
;; peer sends nothing, so the wait lasts to the end of what the budget
;; lets it wait). Many tools of it at once take the process's sockets.
;; It answers 0 whatever happened.
(module
  (import "gate" "config" (func $config (param i32 i32 i32 i32) (result i32)))
  (import "gate" "connect" (func $connect (param i32 i32 i32 i32) (result i32)))
  (import "gate" "recv" (func $recv (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "addr")
  ;; addr at 256 (512 bytes), received bytes at 1024
  (func (export "probe") (result i32)
    (local $n i32)
    (local $held i32)
    (local.set $n (call $config (i32.const 0) (i32.const 4) (i32.const 256) (i32.const 512)))
    (if (i32.or (i32.le_s (local.get $n) (i32.const 0)) (i32.gt_s (local.get $n) (i32.const 512)))
      (then (return (i32.const 0))))
    (block $done
      (loop $more
        (br_if $done (i32.ge_s (local.get $held) (i32.const 8)))
        (br_if $done (i32.le_s (call $connect (i32.const 256) (local.get $n) (i32.const 0) (i32.const 0)) (i32.const 0)))
        (local.set $held (i32.add (local.get $held) (i32.const 1)))
        (br $more)))
    (if (i32.gt_s (local.get $held) (i32.const 0))
      (then (drop (call $recv (i32.const 1) (i32.const 1024) (i32.const 1024) (i32.const 0)))))
    (i32.const 0)))
