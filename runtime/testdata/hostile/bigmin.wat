;; Declares a 256 MiB minimum memory: refused at load, before any run.
(module
  (memory (export "memory") 4096)
  (func (export "probe") (result i32) (i32.const 0)))
