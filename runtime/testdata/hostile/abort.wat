;; Calls env.abort as AssemblyScript's runtime does on a failed assert: its
;; strings are UTF-16LE with their length in bytes in the four bytes before
;; them. The message carries a newline and an escape sequence, which the
;; run's reason must not.
(module
  (import "env" "abort" (func $abort (param i32 i32 i32 i32)))
  (memory (export "memory") 1)
  ;; "boom\n\x1b[2J" (9 units) at 20, "assembly/index.ts" (17 units) at 60.
  (data (i32.const 16) "\12\00\00\00b\00o\00o\00m\00\0a\00\1b\00[\002\00J\00")
  (data (i32.const 56) "\22\00\00\00a\00s\00s\00e\00m\00b\00l\00y\00/\00i\00n\00d\00e\00x\00.\00t\00s\00")
  (func (export "probe") (result i32)
    (call $abort (i32.const 20) (i32.const 60) (i32.const 3) (i32.const 5))
    (unreachable)))
