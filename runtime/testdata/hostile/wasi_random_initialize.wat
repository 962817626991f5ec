;; A reactor whose _initialize loops on WASI random_get of 32 MiB: the
;; budget covers start functions and the host calls they make.
(module
  (import "wasi_snapshot_preview1" "random_get"
    (func $random_get (param i32 i32) (result i32)))
  (memory (export "memory") 512)
  (func (export "_initialize")
    (loop $again
      (drop (call $random_get (i32.const 0) (i32.const 33554432)))
      (br $again)))
  (func (export "probe") (result i32)
    (i32.const 0)))
