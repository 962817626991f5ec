;; Grows its memory to 32 MiB and stores one byte every 2 MiB, then answers
;; "available": a healthy instance that pins 32 MiB of host memory (with
;; huge pages each store commits 2 MiB). A hundred tools of it held 3.3 GB
;; between runs until the engine bounded what idle instances keep.
(module
  (memory (export "memory") 1)
  (func (export "probe") (result i32)
    (local $p i32)
    (if (i32.lt_u (memory.size) (i32.const 512))
      (then (drop (memory.grow (i32.sub (i32.const 512) (memory.size))))))
    (loop $touch
      (i32.store8 (local.get $p) (i32.const 1))
      (local.set $p (i32.add (local.get $p) (i32.const 2097152)))
      (br_if $touch (i32.lt_u (local.get $p) (i32.mul (memory.size) (i32.const 65536)))))
    (i32.const 0)))
