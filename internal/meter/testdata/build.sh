#!/bin/sh
# Rebuilds the .wasm files in this directory from their .wat sources and the C
# probe. Needs wabt (wat2wasm) and clang/wasm-ld with the wasm32 target.
# Run from anywhere: go generate ./internal/meter
set -e
cd "$(dirname "$0")"
for f in *.wat; do
	case "$f" in
	names.wat | bulkops.wat) wat2wasm --debug-names "$f" -o "${f%.wat}.wasm" ;;
	*) wat2wasm "$f" -o "${f%.wat}.wasm" ;;
	esac
done
clang --target=wasm32 -nostdlib -O2 -mbulk-memory -Wl,--no-entry -Wl,--export-all -o cprobe.wasm cprobe/cprobe.c
