;; Single memory.fill and memory.copy operations, to compare the injected
;; helpers with wazero's own. Built with --debug-names, so traps name them.
(module $bulkops
  (memory (export "memory") 20)
  (func $fill (export "fill") (param $dst i32) (param $val i32) (param $n i32)
    (memory.fill (local.get $dst) (local.get $val) (local.get $n)))
  (func $copy (export "copy") (param $dst i32) (param $src i32) (param $n i32)
    (memory.copy (local.get $dst) (local.get $src) (local.get $n)))
  (func $grow (export "grow") (param $pages i32) (result i32)
    (memory.grow (local.get $pages)))
)
