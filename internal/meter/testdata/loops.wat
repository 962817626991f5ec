;; Loops, nested, with multi-value block parameters and results, and br_table.
(module
  (type $acc (func (param i64 i32) (result i64 i32)))
  ;; sum over i, j < n of i*j, accumulated through loop parameters.
  (func (export "nested") (param $n i32) (result i64)
    (local $i i32) (local $j i32)
    (i64.const 0)
    (i32.const 0)
    (loop $outer (type $acc)
      (local.set $i)
      (local.set $j (i32.const 0))
      (loop $inner (param i64) (result i64)
        (i64.add (i64.mul (i64.extend_i32_u (local.get $i)) (i64.extend_i32_u (local.get $j))))
        (local.tee $j (i32.add (local.get $j) (i32.const 1)))
        (br_if $inner (i32.lt_u (local.get $n))))
      (local.tee $i (i32.add (local.get $i) (i32.const 1)))
      (local.get $i)
      (br_if $outer (i32.lt_u (local.get $n))))
    (drop))
  ;; A tight loop of n iterations.
  (func (export "spin") (param $n i32) (result i32)
    (local $x i32)
    (loop $l
      (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 1664525)) (i32.const 1013904223)))
      (br_if $l (local.tee $n (i32.sub (local.get $n) (i32.const 1)))))
    (local.get $x))
  ;; br_table: 0 -> 10, 1 -> 20, 2 -> 30, else -> 99, summed over x < n.
  (func $classify (export "classify") (param $x i32) (result i32)
    (block $other
      (block $two
        (block $one
          (block $zero
            (br_table $zero $one $two $other (local.get $x)))
          (return (i32.const 10)))
        (return (i32.const 20)))
      (return (i32.const 30)))
    (i32.const 99))
  (func (export "classify_sum") (param $n i32) (result i32)
    (local $s i32)
    (loop $l
      (local.set $n (i32.sub (local.get $n) (i32.const 1)))
      (local.set $s (i32.add (local.get $s) (call $classify (local.get $n))))
      (br_if $l (local.get $n)))
    (local.get $s))
)
