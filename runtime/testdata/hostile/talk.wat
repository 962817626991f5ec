;; Talks to a service (ABI v2) as its config says, for the engine's tests of
;; streams and HTTP. "mode"'s first byte picks what it does:
;;   k  connect to "addr" and answer 0, leaving the stream open
;;   t  connect, then trap
;;   s  connect, then spin until the budget stops it
;;   r  connect and receive once, waiting as long as the budget allows
;;   e  connect, send "send", receive once
;;   h  send the HTTP request "req"; log its body, its "header" header and
;;      its status
;; What it received becomes the reason (and a log entry); after a failure
;; the reason is the host's last_error and the answer 1.
(module
  (import "gate" "config" (func $config (param i32 i32 i32 i32) (result i32)))
  (import "gate" "reason" (func $reason (param i32 i32)))
  (import "gate" "log" (func $log (param i32 i32 i32)))
  (import "gate" "connect" (func $connect (param i32 i32 i32 i32) (result i32)))
  (import "gate" "send" (func $send (param i32 i32 i32) (result i32)))
  (import "gate" "recv" (func $recv (param i32 i32 i32 i32) (result i32)))
  (import "gate" "http" (func $http (param i32 i32 i32 i32) (result i32)))
  (import "gate" "http_status" (func $http_status (param i32) (result i32)))
  (import "gate" "http_header" (func $http_header (param i32 i32 i32 i32 i32) (result i32)))
  (import "gate" "http_body" (func $http_body (param i32 i32 i32) (result i32)))
  (import "gate" "last_error" (func $last_error (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "mode")
  (data (i32.const 8) "addr")
  (data (i32.const 16) "send")
  (data (i32.const 24) "req")
  (data (i32.const 32) "header")
  ;; mode at 256, addr at 512 (512 bytes), send at 1024 (4 KiB),
  ;; req at 8192 (8 KiB), header name at 16384, received at 32768 (32 KiB)
  (func $fail (result i32)
    (local $n i32)
    (local.set $n (call $last_error (i32.const 32768) (i32.const 32768)))
    (if (i32.gt_s (local.get $n) (i32.const 0))
      (then (call $reason (i32.const 32768) (local.get $n))))
    (i32.const 1))
  (func $got (param $n i32) (result i32)
    (call $reason (i32.const 32768) (local.get $n))
    (call $log (i32.const 1) (i32.const 32768) (local.get $n))
    (i32.const 0))
  (func (export "probe") (result i32)
    (local $mode i32) (local $h i32) (local $n i32) (local $len i32)
    (drop (call $config (i32.const 0) (i32.const 4) (i32.const 256) (i32.const 1)))
    (local.set $mode (i32.load8_u (i32.const 256)))
    (if (i32.eq (local.get $mode) (i32.const 104)) ;; h
      (then
        (local.set $len (call $config (i32.const 24) (i32.const 3) (i32.const 8192) (i32.const 8192)))
        (local.set $h (call $http (i32.const 8192) (local.get $len) (i32.const 0) (i32.const 0)))
        (if (i32.le_s (local.get $h) (i32.const 0)) (then (return (call $fail))))
        (local.set $len (call $config (i32.const 32) (i32.const 6) (i32.const 16384) (i32.const 256)))
        (if (i32.gt_s (local.get $len) (i32.const 0))
          (then
            (local.set $n (call $http_header (local.get $h) (i32.const 16384) (local.get $len) (i32.const 32768) (i32.const 32768)))
            (if (i32.gt_s (local.get $n) (i32.const 0))
              (then (call $log (i32.const 2) (i32.const 32768) (local.get $n))))))
        (local.set $n (call $http_status (local.get $h)))
        (i32.store (i32.const 300) (local.get $n))
        (call $log (i32.const 0) (i32.const 300) (i32.const 4))
        (local.set $n (call $http_body (local.get $h) (i32.const 32768) (i32.const 32768)))
        (return (call $got (local.get $n)))))
    (local.set $len (call $config (i32.const 8) (i32.const 4) (i32.const 512) (i32.const 512)))
    (local.set $h (call $connect (i32.const 512) (local.get $len) (i32.const 0) (i32.const 0)))
    (if (i32.le_s (local.get $h) (i32.const 0)) (then (return (call $fail))))
    (if (i32.eq (local.get $mode) (i32.const 116)) (then unreachable)) ;; t
    (if (i32.eq (local.get $mode) (i32.const 115)) ;; s
      (then (loop $spin (br $spin))))
    (if (i32.eq (local.get $mode) (i32.const 101)) ;; e
      (then
        (local.set $len (call $config (i32.const 16) (i32.const 4) (i32.const 1024) (i32.const 4096)))
        (if (i32.lt_s (call $send (local.get $h) (i32.const 1024) (local.get $len)) (i32.const 0))
          (then (return (call $fail))))))
    (if (i32.or (i32.eq (local.get $mode) (i32.const 114)) (i32.eq (local.get $mode) (i32.const 101))) ;; r, e
      (then
        (local.set $n (call $recv (local.get $h) (i32.const 32768) (i32.const 32768) (i32.const 0)))
        (if (i32.lt_s (local.get $n) (i32.const 0)) (then (return (call $fail))))
        (return (call $got (local.get $n)))))
    (i32.const 0)))
