;; call_indirect through tables filled by element segments of every form, ref.func
;; in globals and code, and a start function.
(module
  (import "env" "add" (func $add (param i32 i32) (result i32)))
  (type $unop (func (param i32) (result i32)))
  (table $t0 8 funcref)
  (table $t1 8 funcref)
  (func $double (param i32) (result i32) (i32.mul (local.get 0) (i32.const 2)))
  (func $square (param i32) (result i32) (i32.mul (local.get 0) (local.get 0)))
  (func $neg (param i32) (result i32) (i32.sub (i32.const 0) (local.get 0)))
  (func $inc (param i32) (result i32) (call $add (local.get 0) (i32.const 1)))
  (func $dec (param i32) (result i32) (i32.sub (local.get 0) (i32.const 1)))
  (global $g_square funcref (ref.func $square))
  (global $started (mut i32) (i32.const 0))
  (elem (i32.const 0) $double $square)                              ;; 0: active, t0[0..1]
  (elem $p1 func $neg $inc)                                         ;; 1: passive
  (elem (table $t1) (i32.const 0) func $inc $dec)                   ;; 2: active, t1[0..1]
  (elem declare func $dec)                                          ;; 3: declarative
  (elem (i32.const 2) funcref (ref.func $neg) (ref.null func))      ;; 4: active, t0[2..3]
  (elem $p5 funcref (ref.func $dec) (ref.null func) (ref.func $double)) ;; 5: passive
  (elem (table $t1) (i32.const 2) funcref (ref.func $square))       ;; 6: active, t1[2]
  (elem declare funcref (ref.func $inc) (ref.null func))            ;; 7: declarative
  (func $start
    (table.init $t0 $p1 (i32.const 4) (i32.const 0) (i32.const 2))  ;; t0[4..5] = neg, inc
    (table.init $t1 $p5 (i32.const 3) (i32.const 0) (i32.const 3))  ;; t1[3..5] = dec, null, double
    (table.set $t0 (i32.const 6) (global.get $g_square))
    (table.set $t0 (i32.const 7) (ref.func $dec))
    (global.set $started (i32.const 1)))
  (start $start)
  (func (export "started") (result i32) (global.get $started))
  (func (export "call0") (param $i i32) (param $x i32) (result i32)
    (call_indirect $t0 (type $unop) (local.get $x) (local.get $i)))
  (func (export "call1") (param $i i32) (param $x i32) (result i32)
    (call_indirect $t1 (type $unop) (local.get $x) (local.get $i)))
  (func (export "ref_is_dec") (param $i i32) (result i32)
    ;; compares a table entry with ref.func by calling both
    (i32.eq
      (call_indirect $t0 (type $unop) (i32.const 100) (local.get $i))
      (call $dec (i32.const 100))))
)
