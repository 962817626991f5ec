;; Calls WASI poll_oneoff with 2^28 subscriptions, whose size (48 bytes
;; each) is 0 modulo 2^32. wazero's poll_oneoff computed it in 32 bits,
;; passed its memory check and crashed the host function with an index out
;; of range, whose recovered Go panic put the host's Go stack in the
;; error. gate's answers EINVAL; the probe answers 1 (unavailable) if so,
;; 2 (an error) otherwise.
(module
  (import "wasi_snapshot_preview1" "poll_oneoff"
    (func $poll (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "probe") (result i32)
    (if (result i32) (i32.eq (call $poll (i32.const 0) (i32.const 0) (i32.const 268435456) (i32.const 0)) (i32.const 28))
      (then (i32.const 1))
      (else (i32.const 2)))))
