;; Loops on WASI random_get of 32 MiB, the whole memory. wazero's own
;; random_get filled it in one go without looking at the deadline (about
;; 120 ms a call): this probe ran for seconds.
(module
  (import "wasi_snapshot_preview1" "random_get"
    (func $random_get (param i32 i32) (result i32)))
  (memory (export "memory") 512)
  (func (export "probe") (result i32)
    (loop $again
      (drop (call $random_get (i32.const 0) (i32.const 33554432)))
      (br $again))
    (i32.const 0)))
