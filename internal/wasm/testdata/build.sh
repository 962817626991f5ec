#!/bin/sh
# Rebuilds the .wasm files in this directory from their .wat sources.
# Needs wabt's wat2wasm (1.0.32 was used). Run: go generate ./internal/wasm
set -e
cd "$(dirname "$0")"
for f in *.wat; do
	wat2wasm "$f" -o "${f%.wat}.wasm"
done
