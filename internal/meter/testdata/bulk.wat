;; Bulk memory and table operations, whose cost depends on an operand.
(module
  (memory 1 4)
  (table $t 4 funcref)
  (data $d "0123456789abcdef")
  (elem $e func $f $f $f $f)
  (func $f (result i32) (i32.const 7))
  ;; Fill, copy and init in a loop, then a checksum of the first page.
  (func (export "churn") (param $rounds i32) (result i32)
    (local $i i32) (local $sum i32)
    (loop $l
      (memory.fill (i32.const 0) (local.get $rounds) (i32.const 4096))
      (memory.copy (i32.const 8192) (i32.const 100) (i32.const 3000))
      (memory.init $d (i32.add (i32.const 20000) (local.get $rounds)) (i32.const 0) (i32.const 16))
      (br_if $l (local.tee $rounds (i32.sub (local.get $rounds) (i32.const 1)))))
    (loop $sum
      (local.set $sum (i32.add (i32.mul (local.get $sum) (i32.const 31)) (i32.load8_u (local.get $i))))
      (br_if $sum (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (i32.const 65536))))
    (local.get $sum))
  (func (export "tables") (result i32)
    (drop (table.grow $t (ref.null func) (i32.const 4)))
    (table.init $t $e (i32.const 0) (i32.const 0) (i32.const 4))
    (table.copy $t $t (i32.const 4) (i32.const 0) (i32.const 4))
    (table.fill $t (i32.const 6) (ref.func $f) (i32.const 2))
    (i32.add (table.size $t) (call_indirect $t (result i32) (i32.const 7))))
  (func (export "grow") (result i32)
    (drop (memory.grow (i32.const 1)))
    (memory.size))
  ;; A single fill of n bytes, no loop: its cost comes from the length.
  (func (export "fill") (param $n i32)
    (memory.fill (i32.const 0) (i32.const 1) (local.get $n)))
)
