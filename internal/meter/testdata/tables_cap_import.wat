;; An imported table whose minimum is over the cap, and one within it.
(module (import "env" "t0" (table 5 funcref)) (import "env" "t1" (table 2000000 4000000 funcref)))
