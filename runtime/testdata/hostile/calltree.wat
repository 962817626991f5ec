;; An exponential call tree with no loop and a depth of 60: 2^60 calls, no
;; stack overflow, no back-edge. wazero's context checks never see it.
(module
  (memory (export "memory") 1)
  (func $tree (param $n i32) (result i32)
    (if (result i32) (i32.eqz (local.get $n))
      (then (i32.const 1))
      (else (i32.add
        (call $tree (i32.sub (local.get $n) (i32.const 1)))
        (call $tree (i32.sub (local.get $n) (i32.const 1)))))))
  (func (export "probe") (result i32)
    (drop (call $tree (i32.const 60)))
    (i32.const 0)))
