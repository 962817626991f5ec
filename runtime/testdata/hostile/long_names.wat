;; A trap deep in a call chain: probe calls $down(200), which recurses 200
;; times and then executes unreachable, so wazero's stack trace of the trap
;; lists 30 frames of $down. What is hostile is the name section, which
;; runtime/hostile_stack_test.go attaches to this module: it names $down
;; with 1 MiB of text full of control and bidi characters, and the module
;; with 64 KiB more (wat2wasm 1.0.32 writes no custom sections, and gen.sh
;; builds without --debug-names). wazero writes both names into every
;; frame: unbounded, a 1 MiB name made a 31 MB error detail and HTTP
;; response, and 4 MiB names a run past its budget using 516 MB.
(module
  (memory (export "memory") 1)
  (func $down (param $n i32) (result i32)
    (if (i32.eqz (local.get $n)) (then (unreachable)))
    (call $down (i32.sub (local.get $n) (i32.const 1))))
  (func (export "probe") (result i32)
    (drop (call $down (i32.const 200)))
    (i32.const 0)))
