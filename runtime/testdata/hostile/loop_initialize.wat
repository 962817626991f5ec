;; A busy loop in _initialize, a start function that runs during
;; instantiation, before the entry point is ever called.
(module
  (memory (export "memory") 1)
  (func (export "_initialize")
    (loop $spin (br $spin)))
  (func (export "probe") (result i32)
    (i32.const 0)))
