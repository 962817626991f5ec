;; Recursion without loops: the only checkpoints are at function entry.
(module
  ;; An import keeps its index; every defined function moves up by one.
  (import "env" "add" (func $add (param i32 i32) (result i32)))
  (func $fib (export "fib") (param $n i32) (result i32)
    (if (result i32) (i32.lt_u (local.get $n) (i32.const 2))
      (then (local.get $n))
      (else (call $add
        (call $fib (i32.sub (local.get $n) (i32.const 1)))
        (call $fib (i32.sub (local.get $n) (i32.const 2)))))))
  ;; f(n) = f(n-1) + f(n-1): 2^n calls, no loop anywhere.
  (func $exp (export "exp") (param $n i32) (result i64)
    (if (result i64) (i32.eqz (local.get $n))
      (then (i64.const 1))
      (else (i64.add
        (call $exp (i32.sub (local.get $n) (i32.const 1)))
        (call $exp (i32.sub (local.get $n) (i32.const 1)))))))
)
