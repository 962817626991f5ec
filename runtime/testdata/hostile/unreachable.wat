;; Traps at once.
(module
  (memory (export "memory") 1)
  (func (export "probe") (result i32) (unreachable)))
