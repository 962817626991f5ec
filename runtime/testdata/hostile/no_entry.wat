;; Exports memory but neither probe nor _start.
(module
  (memory (export "memory") 1)
  (func (export "check") (result i32) (i32.const 0)))
