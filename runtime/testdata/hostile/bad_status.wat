;; Answers 7, which is neither available (0) nor unavailable (1).
(module
  (memory (export "memory") 1)
  (func (export "probe") (result i32) (i32.const 7)))
