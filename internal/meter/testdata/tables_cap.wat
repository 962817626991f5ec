;; Table limits for Options.MaxTableElements: no max, a max under any cap
;; used in the tests, a max over them; and table.grow to try the lowered max.
(module
  (table $a 4 funcref)
  (table $b 2 10 funcref)
  (table $c 1 2000000 externref)
  (func (export "grow") (param $n i32) (result i32)
    (table.grow $a (ref.null func) (local.get $n)))
  (func (export "size") (result i32) (table.size $a))
)
