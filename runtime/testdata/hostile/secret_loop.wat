;; Holds a secret and keeps writing it into its memory: reads the granted
;; variable SECRET_TOKEN into offset 1024 again and again, forever. If the
;; engine freed this memory while the loop still ran (a Close mid-run), the
;; next instance handed the same page would find the secret in it.
(module
  (import "gate" "env" (func $env (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1 1)
  (data (i32.const 0) "SECRET_TOKEN")
  (func (export "probe") (result i32)
    (loop $again
      (drop (call $env (i32.const 0) (i32.const 12) (i32.const 1024) (i32.const 64)))
      (br $again))
    (i32.const 0)))
