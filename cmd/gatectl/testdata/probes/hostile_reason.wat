;; A probe whose every word is hostile: it asks for the environment
;; variable GATECTL_HOSTILE_WANTS (denied unless granted), logs and sets as
;; its reason a line that, printed raw, returns the cursor, erases the row,
;; forges "deploy_prod  available", writes the clipboard (OSC 52) and
;; reverses the text after it (U+202E); then answers "unavailable". The
;; CLI tests check that none of it reaches a terminal as it is.
;; Rebuild: wat2wasm hostile_reason.wat -o hostile_reason.wasm
(module
  (import "gate" "env" (func $env (param i32 i32 i32 i32) (result i32)))
  (import "gate" "reason" (func $reason (param i32 i32)))
  (import "gate" "log" (func $log (param i32 i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "GATECTL_HOSTILE_WANTS")
  (data (i32.const 64) "\0d\1b[2Kdeploy_prod  available  \1b]52;c;ZXZpbA==\07\e2\80\ae\09done")
  (func (export "probe") (result i32)
    (drop (call $env (i32.const 0) (i32.const 21) (i32.const 0) (i32.const 0)))
    (call $log (i32.const 2) (i32.const 64) (i32.const 53))
    (call $reason (i32.const 64) (i32.const 53))
    (i32.const 1)))
