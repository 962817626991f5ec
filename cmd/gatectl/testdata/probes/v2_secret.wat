;; A probe that needs ABI v2: besides gate.env it imports gate.connect and
;; gate.last_error, which version 2 added (it never calls them: importing
;; one is what makes a module need a version-2 host, and what `gatectl
;; probe inspect` reports). Its probe reads GATECTL_SECRET_KEY and answers
;; available when it could, unavailable otherwise: a --secret grant of the
;; variable makes env answer denied whatever --env grants.
;; Rebuild: wat2wasm v2_secret.wat -o v2_secret.wasm
(module
  (import "gate" "env" (func $env (param i32 i32 i32 i32) (result i32)))
  (import "gate" "connect" (func $connect (param i32 i32 i32 i32) (result i32)))
  (import "gate" "last_error" (func $last_error (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "GATECTL_SECRET_KEY")
  (func (export "probe") (result i32)
    (if (result i32) (i32.ge_s (call $env (i32.const 0) (i32.const 18) (i32.const 0) (i32.const 0)) (i32.const 0))
      (then (i32.const 0))
      (else (i32.const 1)))))
