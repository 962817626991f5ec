;; A command that exits with the code in its config key "code" (one digit).
(module
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (import "gate" "config" (func $config (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "code")
  (func (export "_start")
    (drop (call $config (i32.const 0) (i32.const 4) (i32.const 16) (i32.const 1)))
    (call $exit (i32.sub (i32.load8_u (i32.const 16)) (i32.const 48)))))
