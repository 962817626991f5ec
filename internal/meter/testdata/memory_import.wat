(module (import "env" "memory" (memory 4096 8192)))
