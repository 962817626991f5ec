;; A hostile probe that does what its config says, step by step, and
;; reports everything it observed to a peer of the test's: the way a probe
;; author would carry out what a secret's destination handed back.
;;
;; Config "1" to "9" are the steps, run in order until one is missing; the
;; first byte of each is the operation and the rest its argument:
;;   c ADDR            connect; the stream becomes the current handle
;;   s TEXT            send TEXT on the current handle
;;   r CAP,TIMEOUT,N   recv up to N times into a buffer of CAP bytes (at
;;                     most 65536), each with TIMEOUT ms; stops at the end
;;                     of the stream, a failure, or a timeout once
;;                     something came
;;   h REQUEST         gate.http; the response becomes the current handle
;;   b [FROM]          http_body of the current response (64 KiB at most),
;;                     reported from byte FROM on (the report must fit
;;                     the run's bytes-out bound)
;;   H NAME            http_header NAME of the current response
;;   x                 close the current handle
;; Each step adds a line to the report: the operation, the status the host
;; answered, ':', and what the host handed over, with '%', '$' and line
;; feeds written as %XX (so that no placeholder is ever sent by
;; accident); "h" adds a "t" line with the response's status.
;;
;; Then, when "sink" names an address, the probe connects to it and sends
;; the report in pieces of 16 KiB. It answers 2 (it raises) when the report
;; could not be sent whole, else 1 when "answer" is "1" (and sets no
;; reason), else 0.
(module
  (import "gate" "config" (func $config (param i32 i32 i32 i32) (result i32)))
  (import "gate" "connect" (func $connect (param i32 i32 i32 i32) (result i32)))
  (import "gate" "send" (func $send (param i32 i32 i32) (result i32)))
  (import "gate" "recv" (func $recv (param i32 i32 i32 i32) (result i32)))
  (import "gate" "close" (func $close (param i32) (result i32)))
  (import "gate" "http" (func $http (param i32 i32 i32 i32) (result i32)))
  (import "gate" "http_status" (func $http_status (param i32) (result i32)))
  (import "gate" "http_header" (func $http_header (param i32 i32 i32 i32 i32) (result i32)))
  (import "gate" "http_body" (func $http_body (param i32 i32 i32) (result i32)))
  ;; 0: the step's key; 16: "sink"; 24: "answer"; 32: hex digits;
  ;; 48-63: a number's digits; 0x10000: the step (128 KiB); 0x30000: what
  ;; the host hands over (64 KiB); 0x40000 to the end: the report.
  (memory (export "memory") 48)
  (global $out (mut i32) (i32.const 0x40000))
  (global $cur (mut i32) (i32.const 0))
  (global $next (mut i32) (i32.const 0))
  (data (i32.const 16) "sink")
  (data (i32.const 24) "answer")
  (data (i32.const 32) "0123456789ABCDEF")

  ;; put appends one byte to the report, while there is room.
  (func $put (param $c i32)
    (if (i32.lt_u (global.get $out) (i32.const 0x300000))
      (then
        (i32.store8 (global.get $out) (local.get $c))
        (global.set $out (i32.add (global.get $out) (i32.const 1))))))

  ;; putesc appends n bytes at p, escaping '%', '$' and line feeds.
  (func $putesc (param $p i32) (param $n i32)
    (local $end i32) (local $c i32)
    (local.set $end (i32.add (local.get $p) (local.get $n)))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $c (i32.load8_u (local.get $p)))
        (if (i32.or (i32.or (i32.eq (local.get $c) (i32.const 37)) (i32.eq (local.get $c) (i32.const 36)))
                    (i32.eq (local.get $c) (i32.const 10)))
          (then
            (call $put (i32.const 37))
            (call $put (i32.load8_u (i32.add (i32.const 32) (i32.shr_u (local.get $c) (i32.const 4)))))
            (call $put (i32.load8_u (i32.add (i32.const 32) (i32.and (local.get $c) (i32.const 15))))))
          (else (call $put (local.get $c))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $each))))

  ;; putint appends v in decimal.
  (func $putint (param $v i32)
    (local $p i32)
    (if (i32.lt_s (local.get $v) (i32.const 0))
      (then
        (call $put (i32.const 45))
        (local.set $v (i32.sub (i32.const 0) (local.get $v)))))
    (local.set $p (i32.const 64))
    (loop $digit
      (local.set $p (i32.sub (local.get $p) (i32.const 1)))
      (i32.store8 (local.get $p) (i32.add (i32.const 48) (i32.rem_u (local.get $v) (i32.const 10))))
      (local.set $v (i32.div_u (local.get $v) (i32.const 10)))
      (br_if $digit (i32.ne (local.get $v) (i32.const 0))))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $p) (i32.const 64)))
        (call $put (i32.load8_u (local.get $p)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $each))))

  ;; record appends a report line: op, status, ':', the n bytes at p.
  (func $record (param $op i32) (param $st i32) (param $p i32) (param $n i32)
    (call $put (local.get $op))
    (call $putint (local.get $st))
    (call $put (i32.const 58))
    (call $putesc (local.get $p) (local.get $n))
    (call $put (i32.const 10)))

  ;; atoi reads the decimal number at p; $next is where the one after
  ;; its separator starts.
  (func $atoi (param $p i32) (result i32)
    (local $v i32) (local $d i32)
    (block $done
      (loop $digit
        (local.set $d (i32.sub (i32.load8_u (local.get $p)) (i32.const 48)))
        (br_if $done (i32.gt_u (local.get $d) (i32.const 9)))
        (local.set $v (i32.add (i32.mul (local.get $v) (i32.const 10)) (local.get $d)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $digit)))
    (global.set $next (i32.add (local.get $p) (i32.const 1)))
    (local.get $v))

  ;; got is how many of n bytes the host handed over into a buffer of cap.
  (func $got (param $n i32) (param $cap i32) (result i32)
    (if (i32.le_s (local.get $n) (i32.const 0)) (then (return (i32.const 0))))
    (if (i32.gt_u (local.get $n) (local.get $cap)) (then (return (local.get $cap))))
    (local.get $n))

  (func $step (param $op i32) (param $arg i32) (param $alen i32)
    (local $st i32) (local $cap i32) (local $timeout i32) (local $count i32) (local $some i32)
    (if (i32.eq (local.get $op) (i32.const 99)) ;; c
      (then
        (local.set $st (call $connect (local.get $arg) (local.get $alen) (i32.const 0) (i32.const 0)))
        (if (i32.gt_s (local.get $st) (i32.const 0)) (then (global.set $cur (local.get $st))))
        (call $record (local.get $op) (local.get $st) (i32.const 0) (i32.const 0))
        (return)))
    (if (i32.eq (local.get $op) (i32.const 115)) ;; s
      (then
        (local.set $st (call $send (global.get $cur) (local.get $arg) (local.get $alen)))
        (call $record (local.get $op) (local.get $st) (i32.const 0) (i32.const 0))
        (return)))
    (if (i32.eq (local.get $op) (i32.const 114)) ;; r
      (then
        (local.set $cap (call $atoi (local.get $arg)))
        (local.set $timeout (call $atoi (global.get $next)))
        (local.set $count (call $atoi (global.get $next)))
        (if (i32.gt_u (local.get $cap) (i32.const 0x10000)) (then (local.set $cap (i32.const 0x10000))))
        (block $done
          (loop $again
            (br_if $done (i32.le_s (local.get $count) (i32.const 0)))
            (local.set $count (i32.sub (local.get $count) (i32.const 1)))
            (local.set $st (call $recv (global.get $cur) (i32.const 0x30000) (local.get $cap) (local.get $timeout)))
            (call $record (local.get $op) (local.get $st) (i32.const 0x30000) (call $got (local.get $st) (local.get $cap)))
            (br_if $done (i32.eqz (local.get $st)))
            (if (i32.lt_s (local.get $st) (i32.const 0))
              (then
                (br_if $done (i32.or (local.get $some) (i32.ne (local.get $st) (i32.const -4))))))
            (if (i32.gt_s (local.get $st) (i32.const 0)) (then (local.set $some (i32.const 1))))
            (br $again)))
        (return)))
    (if (i32.eq (local.get $op) (i32.const 104)) ;; h
      (then
        (local.set $st (call $http (local.get $arg) (local.get $alen) (i32.const 0) (i32.const 0)))
        (call $record (local.get $op) (local.get $st) (i32.const 0) (i32.const 0))
        (if (i32.gt_s (local.get $st) (i32.const 0))
          (then
            (global.set $cur (local.get $st))
            (call $record (i32.const 116) (call $http_status (local.get $st)) (i32.const 0) (i32.const 0))))
        (return)))
    (if (i32.eq (local.get $op) (i32.const 98)) ;; b
      (then
        (local.set $st (call $http_body (global.get $cur) (i32.const 0x30000) (i32.const 0x10000)))
        (local.set $count (call $got (local.get $st) (i32.const 0x10000)))
        (if (i32.gt_s (local.get $alen) (i32.const 0)) (then (local.set $cap (call $atoi (local.get $arg)))))
        (if (i32.gt_u (local.get $cap) (local.get $count)) (then (local.set $cap (local.get $count))))
        (call $record (local.get $op) (local.get $st) (i32.add (i32.const 0x30000) (local.get $cap)) (i32.sub (local.get $count) (local.get $cap)))
        (return)))
    (if (i32.eq (local.get $op) (i32.const 72)) ;; H
      (then
        (local.set $st (call $http_header (global.get $cur) (local.get $arg) (local.get $alen) (i32.const 0x30000) (i32.const 0x10000)))
        (call $record (local.get $op) (local.get $st) (i32.const 0x30000) (call $got (local.get $st) (i32.const 0x10000)))
        (return)))
    (if (i32.eq (local.get $op) (i32.const 120)) ;; x
      (then
        (call $record (local.get $op) (call $close (global.get $cur)) (i32.const 0) (i32.const 0))
        (return)))
    (call $record (i32.const 63) (i32.const 0) (i32.const 0) (i32.const 0)))

  (func (export "probe") (result i32)
    (local $key i32) (local $n i32) (local $h i32) (local $p i32)
    (local.set $key (i32.const 49)) ;; '1'
    (block $steps
      (loop $each
        (br_if $steps (i32.gt_u (local.get $key) (i32.const 57)))
        (i32.store8 (i32.const 0) (local.get $key))
        (local.set $n (call $config (i32.const 0) (i32.const 1) (i32.const 0x10000) (i32.const 0x1ffff)))
        (br_if $steps (i32.lt_s (local.get $n) (i32.const 1)))
        (if (i32.gt_u (local.get $n) (i32.const 0x1ffff)) (then (local.set $n (i32.const 0x1ffff))))
        (i32.store8 (i32.add (i32.const 0x10000) (local.get $n)) (i32.const 0))
        (call $step (i32.load8_u (i32.const 0x10000)) (i32.const 0x10001) (i32.sub (local.get $n) (i32.const 1)))
        (local.set $key (i32.add (local.get $key) (i32.const 1)))
        (br $each)))
    (local.set $n (call $config (i32.const 16) (i32.const 4) (i32.const 0x10000) (i32.const 0x1000)))
    (if (i32.gt_s (local.get $n) (i32.const 0))
      (then
        (local.set $h (call $connect (i32.const 0x10000) (local.get $n) (i32.const 0) (i32.const 0)))
        (if (i32.le_s (local.get $h) (i32.const 0)) (then (return (i32.const 2))))
        (local.set $p (i32.const 0x40000))
        (loop $piece
          (if (i32.lt_u (local.get $p) (global.get $out))
            (then
              (local.set $n (i32.sub (global.get $out) (local.get $p)))
              (if (i32.gt_u (local.get $n) (i32.const 16384)) (then (local.set $n (i32.const 16384))))
              (if (i32.lt_s (call $send (local.get $h) (local.get $p) (local.get $n)) (i32.const 0))
                (then (return (i32.const 2))))
              (local.set $p (i32.add (local.get $p) (local.get $n)))
              (br $piece))))
        (drop (call $close (local.get $h)))))
    (if (i32.gt_s (call $config (i32.const 24) (i32.const 6) (i32.const 0x10000) (i32.const 1)) (i32.const 0))
      (then
        (if (i32.eq (i32.load8_u (i32.const 0x10000)) (i32.const 49))
          (then (return (i32.const 1))))))
    (i32.const 0)))
