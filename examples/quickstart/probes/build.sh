#!/bin/sh
# build.sh rebuilds the committed requires.wasm from requires.c, with the
# flags and toolchain of internal/probes/build.sh (see there why each flag), so the
# bytes are the same on every build. Run it after changing requires.c or
# probes/include/gate.h (`go generate ./examples/quickstart` runs it);
# TestRequiresWasmIsFresh fails until you do. Then update the sha256 pins
# in ../gate.toml (TestManifestPinsRequiresWasm prints the new sum).
#
# Usage: sh build.sh [OUTDIR]    (default OUTDIR: this directory)
#
# Needs clang (or $CLANG) and wasm-ld (Debian: apt-get install clang lld).
# The committed file was built with Debian clang/lld 14.0.6.
set -eu

out=${1:-.}
case $out in
/*) ;;
*) out="$PWD/$out" ;;
esac
cd "$(dirname "$0")"
mkdir -p "$out"

CLANG=${CLANG:-clang}
for tool in "$CLANG" wasm-ld; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "build.sh: $tool not found; install clang and lld (Debian: apt-get install clang lld)" >&2
		exit 1
	fi
done

"$CLANG" --target=wasm32 -mcpu=mvp -nostdlib -ffreestanding -Oz \
	-std=c11 -Wall -Wextra \
	-I../../../probes/include \
	-Wl,--no-entry \
	-Wl,--export=probe \
	-Wl,--strip-all \
	-Wl,--initial-memory=65536 \
	-Wl,--max-memory=65536 \
	-Wl,--stack-first \
	-Wl,-z,stack-size=8192 \
	-o "$out/requires.wasm" requires.c
# wasm-ld marks its output executable; this is a data file.
chmod 644 "$out/requires.wasm"
