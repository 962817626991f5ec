;; 4096 pages (256 MiB) minimum, no maximum.
(module (memory (export "memory") 4096))
