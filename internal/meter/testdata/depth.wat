;; Function exits for Options.MaxStackSlots: return from nested blocks, loops
;; and ifs, multi-value results, branches to the function's own label, and
;; recursion.
(module
  (type $pair (func (result i32 i64)))
  ;; Returns from different nesting depths: x < 0 from the body, 0 from a
  ;; block, 1 from a loop in a block, 2 from an if in a loop, 3 from an else,
  ;; larger values fall off the end.
  (func $ret (export "ret") (param $x i32) (result i32)
    (local $i i32)
    (if (i32.lt_s (local.get $x) (i32.const 0)) (then (return (i32.const -1))))
    (block $b
      (br_if $b (i32.ne (local.get $x) (i32.const 0)))
      (return (i32.const 100)))
    (block $b2
      (loop $l
        (br_if $b2 (i32.gt_u (local.get $i) (i32.const 3)))
        (if (i32.eq (local.get $x) (i32.const 1))
          (then (return (i32.add (i32.const 200) (local.get $i)))))
        (if (i32.and (i32.eq (local.get $x) (i32.const 2)) (i32.eq (local.get $i) (i32.const 2)))
          (then (return (i32.const 300)))
          (else (if (i32.eq (local.get $x) (i32.const 3))
            (then (return (i32.add (i32.const 400) (local.get $i)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $l)))
    (i32.add (i32.const 500) (local.get $x)))
  ;; Multi-value: two results, returned from inside blocks and a loop, or
  ;; by falling off the end.
  (func $pair (export "pair") (param $x i32) (result i32 i64)
    (block $out
      (loop $l
        (if (i32.eqz (local.get $x))
          (then (return (i32.const 7) (i64.const 70))))
        (block
          (br_if $out (i32.gt_u (local.get $x) (i32.const 100))))
        (local.set $x (i32.sub (local.get $x) (i32.const 1)))
        (br $l)))
    (i32.const 8) (i64.extend_i32_u (local.get $x)))
  ;; Calls pair and returns the results folded into one.
  (func (export "pair_sum") (param $x i32) (result i64)
    (local $b i64)
    (call $pair (local.get $x))
    (local.set $b)
    (i64.add (i64.mul (i64.extend_i32_u) (i64.const 1000)) (local.get $b)))
  ;; Three results of a type that has no () -> results twin in the module.
  (func $triple (export "triple") (param $x i32) (result i64 i32 f64)
    (if (local.get $x) (then (return (i64.const 1) (i32.const 2) (f64.const 3.5))))
    (i64.const 4) (i32.const 5) (f64.const 6.5))
  ;; Branches to the function's label: br from an if in a loop in blocks,
  ;; br_if from the loop, br_table with the function label as a target and
  ;; the default. 1 -> 11, 2 -> 12, 0 -> 1013, 3 -> 3013, else 13.
  (func $br (export "br") (param $x i32) (result i32)
    (i32.add (i32.const 1000)
      (block $b1 (result i32)
        (i32.add (i32.const 2000)
          (block $b2 (result i32)
            (loop $l
              (if (i32.eq (local.get $x) (i32.const 1))
                (then (br 4 (i32.const 11))))
              (br_if 3 (i32.const 12) (i32.eq (local.get $x) (i32.const 2)))
              (drop)
              (br_table $b1 3 3 $b2 3 (i32.const 13) (local.get $x)))
            (i32.const 14))))))
  ;; A multi-value br_if to the function's label: (1, 10) if x, else (2, 20).
  (func $brpair (export "brpair") (param $x i32) (result i32 i64)
    (block (result i32 i64)
      (br_if 1 (i32.const 1) (i64.const 10) (local.get $x))
      (drop) (drop)
      (i32.const 2) (i64.const 20)))
  ;; rec(n) = n == 0 ? 0 : rec(n-1) + 1: n+1 nested activations.
  (func $rec (export "rec") (param $n i32) (result i32)
    (if (result i32) (i32.eqz (local.get $n))
      (then (i32.const 0))
      (else (i32.add (call $rec (i32.sub (local.get $n) (i32.const 1))) (i32.const 1)))))
  ;; The same through a table, returning from inside the if.
  (table 1 funcref)
  (elem (i32.const 0) $recind)
  (type $unop (func (param i32) (result i32)))
  (func $recind (export "recind") (param $n i32) (result i32)
    (if (i32.eqz (local.get $n)) (then (return (i32.const 0))))
    (i32.add (call_indirect (type $unop) (i32.sub (local.get $n) (i32.const 1)) (i32.const 0)) (i32.const 1)))
  ;; forever(n) = forever(n+1) + 1: never returns.
  (func $forever (export "forever") (param $n i32) (result i32)
    (i32.add (call $forever (i32.add (local.get $n) (i32.const 1))) (i32.const 1)))
)
