;; A command (_start) that never exits.
(module
  (memory (export "memory") 1)
  (func (export "_start")
    (loop $spin (br $spin))))
