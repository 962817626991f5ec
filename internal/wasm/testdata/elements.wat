;; All eight element segment encodings (the comment names the flags value).
(module
  (table $t0 4 funcref)
  (table $t1 4 funcref)
  (table $t2 4 externref)
  (func $a)
  (func $b)
  (elem (i32.const 0) $a $b)                                    ;; 0: active, table 0, func indices
  (elem func $a $b)                                             ;; 1: passive, func indices
  (elem (table $t1) (i32.const 1) func $b $a)                   ;; 2: active, explicit table, func indices
  (elem declare func $a)                                        ;; 3: declarative, func indices
  (elem (i32.const 2) funcref (ref.func $b) (ref.null func))    ;; 4: active, table 0, expressions
  (elem funcref (ref.func $a) (ref.null func))                  ;; 5: passive, expressions
  (elem (table $t2) (i32.const 0) externref (ref.null extern))  ;; 6: active, explicit table, expressions
  (elem declare funcref (ref.func $b) (ref.null func))          ;; 7: declarative, expressions
)
