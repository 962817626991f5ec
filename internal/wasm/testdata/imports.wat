;; Imports of every kind, interleaved so that index spaces are per kind.
(module
  (import "env" "f" (func $imp_f (param i32) (result i32)))
  (import "env" "t" (table 1 funcref))
  (import "env" "g" (global $imp_g (mut i32)))
  (import "env" "m" (memory 1 2))
  (import "env" "h" (func $imp_h))
  (import "env" "gi" (global i64))
  (func $own (result i32) (call $imp_f (global.get $imp_g)))
  (export "own" (func $own))
  (export "imp_h" (func $imp_h))
)
