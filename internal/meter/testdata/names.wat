;; Built with --debug-names: a trap's stack trace must name the right functions.
(module $names
  (import "env" "add" (func $add (param i32 i32) (result i32)))
  (func $boom (param $x i32) (result i32) (unreachable))
  (func $middle (param $y i32) (result i32) (call $boom (local.get $y)))
  (func $outer (export "outer") (result i32) (call $middle (i32.const 1)))
)
