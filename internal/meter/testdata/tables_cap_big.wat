;; A table whose minimum is over the cap.
(module (table 1 funcref) (table 3000000 funcref))
