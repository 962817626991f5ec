;; A busy loop in the entry point: no host calls, no exits to Go.
(module
  (memory (export "memory") 1)
  (func (export "probe") (result i32)
    (loop $spin (br $spin))
    (i32.const 0)))
