;; Loops on WASI fd_write to stdout with 4M one-byte iovecs, which fill the
;; whole 32 MiB memory. wazero's fd_write walked them all in one go
;; (about 130 ms a call); gate's refuses more than 1024 at once (EINVAL),
;; and the loop still ends at the budget.
(module
  (import "wasi_snapshot_preview1" "fd_write"
    (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 512)
  (func (export "probe") (result i32)
    (local $n i32)
    ;; iovec 0 = {buf 0, len 1}; double the filled part until it is 32 MiB
    (i64.store (i32.const 0) (i64.const 0x100000000))
    (local.set $n (i32.const 8))
    (loop $fill
      (memory.copy (local.get $n) (i32.const 0) (local.get $n))
      (local.set $n (i32.shl (local.get $n) (i32.const 1)))
      (br_if $fill (i32.lt_u (local.get $n) (i32.const 33554432))))
    (loop $again
      (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 4194304) (i32.const 0)))
      (br $again))
    (i32.const 0)))
