;; Exports both _start and probe, as a Go probe built without
;; -buildmode=c-shared does: _start runs an empty main and exits 0, so run
;; as a command it would answer "available" whatever probe says. It must be
;; refused, with the fix in the message.
(module
  (memory (export "memory") 1)
  (func (export "_start"))
  (func (export "probe") (result i32) (i32.const 1)))
