;; Frames of different weights for Options.MaxStackSlots: each function
;; recurses n times (n+1 activations), so a test can find the exact total
;; at which the limit trips. The weight of each, besides FrameOverhead, is
;; in its comment: params + locals + the highest its operand stack gets
;; (v128 counts two slots).
(module
  (type $unop (func (param i32) (result i32)))
  (table 1 funcref)
  (elem (i32.const 0) $v128)
  ;; 1 param + 100 i64 locals + stack 2 = 103
  (func $locals (export "locals") (param $n i32) (result i32)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (local i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64 i64)
    (if (result i32) (i32.eqz (local.get $n))
      (then (i32.const 0))
      (else (i32.add (call $locals (i32.sub (local.get $n) (i32.const 1))) (i32.const 1)))))
  ;; 1 param + stack 12 = 13: ten values wait on the stack for the call.
  ;; Returns n, like the others.
  (func $operands (export "operands") (param $n i32) (result i32)
    (if (i32.eqz (local.get $n)) (then (return (i32.const 0))))
    (local.get $n) (local.get $n) (local.get $n) (local.get $n) (local.get $n)
    (local.get $n) (local.get $n) (local.get $n) (local.get $n) (local.get $n)
    (call $operands (i32.sub (local.get $n) (i32.const 1)))
    (i32.add) (i32.add) (i32.add) (i32.add) (i32.add)
    (i32.add) (i32.add) (i32.add) (i32.add) (i32.add)
    (i32.sub (i32.mul (local.get $n) (i32.const 10)))
    (i32.add (i32.const 1)))
  ;; 1 param + 3 v128 locals (6) + stack 4 (two v128) = 11, through a table.
  (func $v128 (export "v128") (param $n i32) (result i32)
    (local v128 v128 v128)
    (if (i32.eqz (local.get $n)) (then (return (i32.const 0))))
    (drop (i32x4.add (local.get 1) (v128.const i32x4 1 1 1 1)))
    (i32.add (call_indirect (type $unop) (i32.sub (local.get $n) (i32.const 1)) (i32.const 0)) (i32.const 1)))
  ;; Mutual recursion: even (1 param + stack 3 = 4) calls odd (1 param + 20
  ;; i32 locals + stack 3 = 24) calls even, n activations in all.
  (func $even (export "even") (param $n i32) (result i32)
    (if (result i32) (i32.eqz (local.get $n))
      (then (i32.const 0))
      (else (i32.add (i32.const 1) (call $odd (i32.sub (local.get $n) (i32.const 1)))))))
  (func $odd (param $n i32) (result i32)
    (local i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32)
    (if (result i32) (i32.eqz (local.get $n))
      (then (i32.const 0))
      (else (i32.add (i32.const 1) (call $even (i32.sub (local.get $n) (i32.const 1)))))))
)
