;; Grows memory one page at a time until memory.grow fails, then reports
;; how far it got: the engine's cap, not the 4 GiB a module may declare.
(module
  (import "gate" "reason" (func $reason (param i32 i32)))
  (memory (export "memory") 1 65536)
  (func (export "probe") (result i32)
    (local $pages i32)
    (block $done
      (loop $more
        (br_if $done (i32.eq (memory.grow (i32.const 1)) (i32.const -1)))
        (br $more)))
    ;; write the page count as decimal at offset 16 (at most 6 digits)
    (local.set $pages (memory.size))
    (call $reason (i32.const 0) (call $itoa (local.get $pages)))
    (i32.const 1))
  ;; writes n in decimal at offset 0, returns its length
  (func $itoa (param $n i32) (result i32)
    (local $len i32) (local $i i32) (local $t i32)
    (local.set $t (local.get $n))
    (loop $count
      (local.set $len (i32.add (local.get $len) (i32.const 1)))
      (local.set $t (i32.div_u (local.get $t) (i32.const 10)))
      (br_if $count (local.get $t)))
    (local.set $i (local.get $len))
    (loop $digit
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (i32.store8 (local.get $i) (i32.add (i32.const 48) (i32.rem_u (local.get $n) (i32.const 10))))
      (local.set $n (i32.div_u (local.get $n) (i32.const 10)))
      (br_if $digit (local.get $i)))
    (local.get $len)))
