;; A busy loop in the wasm start section, which runs inside instantiation.
(module
  (memory (export "memory") 1)
  (func $spin (loop $l (br $l)))
  (start $spin)
  (func (export "probe") (result i32)
    (i32.const 0)))
