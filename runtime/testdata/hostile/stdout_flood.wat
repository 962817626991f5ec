;; Writes 64 MiB to stdout in 64 KiB writes; the host keeps a bounded
;; start and end of it.
(module
  (import "wasi_snapshot_preview1" "fd_write"
    (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 2)
  (func (export "probe") (result i32)
    (local $i i32)
    (memory.fill (i32.const 65536) (i32.const 111) (i32.const 65536)) ;; 'o'
    (i32.store (i32.const 0) (i32.const 65536))  ;; iovec.buf
    (i32.store (i32.const 4) (i32.const 65536))  ;; iovec.len
    (loop $again
      (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $again (i32.lt_u (local.get $i) (i32.const 1024))))
    (i32.const 0)))
