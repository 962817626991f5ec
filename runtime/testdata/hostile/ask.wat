;; Asks the host one thing named by its config: "op" is env, dial or import
;; and "arg" is the name, address or spec. Dials wait up to 10 minutes (the
;; host clips that to the budget). Answers 0 when the host said yes, else
;; sets the reason "status N" and answers 1.
(module
  (import "gate" "config" (func $config (param i32 i32 i32 i32) (result i32)))
  (import "gate" "env" (func $env (param i32 i32 i32 i32) (result i32)))
  (import "gate" "dial" (func $dial (param i32 i32 i32) (result i32)))
  (import "gate" "import" (func $import (param i32 i32) (result i32)))
  (import "gate" "reason" (func $reason (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "op")
  (data (i32.const 8) "arg")
  (data (i32.const 16) "status -")
  (func (export "probe") (result i32)
    (local $oplen i32) (local $arglen i32) (local $st i32)
    ;; op at 1024 (16 bytes), arg at 2048 (1024 bytes)
    (local.set $oplen (call $config (i32.const 0) (i32.const 2) (i32.const 1024) (i32.const 16)))
    (local.set $arglen (call $config (i32.const 8) (i32.const 3) (i32.const 2048) (i32.const 1024)))
    (if (i32.or (i32.lt_s (local.get $oplen) (i32.const 1)) (i32.lt_s (local.get $arglen) (i32.const 0)))
      (then (return (i32.const 2))))
    (local.set $st (i32.const 99))
    ;; dispatch on the first byte of op: e(nv), d(ial), i(mport)
    (if (i32.eq (i32.load8_u (i32.const 1024)) (i32.const 101))
      (then (local.set $st (call $env (i32.const 2048) (local.get $arglen) (i32.const 0) (i32.const 0)))
            (if (i32.ge_s (local.get $st) (i32.const 0)) (then (local.set $st (i32.const 0))))))
    (if (i32.eq (i32.load8_u (i32.const 1024)) (i32.const 100))
      (then (local.set $st (call $dial (i32.const 2048) (local.get $arglen) (i32.const 600000)))))
    (if (i32.eq (i32.load8_u (i32.const 1024)) (i32.const 105))
      (then (local.set $st (call $import (i32.const 2048) (local.get $arglen)))))
    (if (i32.eqz (local.get $st)) (then (return (i32.const 0))))
    ;; "status -N" for N in 1..9, else "status -" and the raw code is lost
    (if (i32.and (i32.lt_s (local.get $st) (i32.const 0)) (i32.gt_s (local.get $st) (i32.const -10)))
      (then
        (i32.store8 (i32.const 24) (i32.sub (i32.const 48) (local.get $st)))
        (call $reason (i32.const 16) (i32.const 9))
        (return (i32.const 1))))
    (call $reason (i32.const 16) (i32.const 7))
    (i32.const 1)))
