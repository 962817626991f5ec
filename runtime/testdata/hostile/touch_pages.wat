;; Grows memory to the cap, then writes one byte to every fresh 4 KiB page,
;; again and again: each write is a page fault the kernel must serve, a
;; cost the few instructions of the loop do not show to the metering.
(module
  (memory (export "memory") 1 65536)
  (func (export "probe") (result i32)
    (local $p i32) (local $end i32)
    (block $full
      (loop $grow
        (br_if $full (i32.eq (memory.grow (i32.const 1)) (i32.const -1)))
        (br $grow)))
    (local.set $end (i32.mul (memory.size) (i32.const 65536)))
    (loop $again
      (local.set $p (i32.const 0))
      (loop $page
        (i32.store8 (local.get $p) (i32.const 1))
        (local.set $p (i32.add (local.get $p) (i32.const 4096)))
        (br_if $page (i32.lt_u (local.get $p) (local.get $end))))
      (br $again))
    (i32.const 0)))
