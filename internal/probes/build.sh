#!/bin/sh
# build.sh rebuilds the committed standard probes from their sources:
# each src/NAME.c becomes NAME.wasm (and each must be a kind in kinds.go's
# table, which TestKindTable checks). It is the one command to run after
# changing src/ or probes/include/ (`go generate ./internal/probes` runs it);
# TestCommittedWasmIsFresh fails when the committed bytes differ from what
# this script produces.
#
# Usage: sh build.sh [OUTDIR]    (default OUTDIR: this directory)
#
# Needs clang (or $CLANG) and wasm-ld (Debian: apt-get install clang lld).
# The committed files were built with Debian clang/lld 14.0.6; another LLVM
# version may produce different (equally valid) bytes, which the staleness
# test then reports: rebuild and commit them with the project's toolchain.
#
# The flags make the output small and reproducible:
#   -mcpu=mvp           plain WebAssembly 1.0, no proposals, so any engine runs it
#   -nostdlib -ffreestanding
#                       no libc and no WASI; -ffreestanding stops clang from
#                       turning loops into memcpy/memset calls nobody defines
#   -Oz                 smallest code
#   -Wall -Wextra       shown, but no -Werror: a newer clang's new warning
#                       should not stop anyone from regenerating
#   --strip-all         no name or producers section (no paths, no versions)
#   one 64 KiB page, not growable, with an 8 KiB stack first (the probes use
#                       a few hundred bytes) so that a stack overflow traps
#                       instead of overwriting the static buffers after it
#                       (the v2 probes' request and body buffers take ~45 KiB
#                       of the rest)
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

for src in src/*.c; do
	probe=$(basename "$src" .c)
	"$CLANG" --target=wasm32 -mcpu=mvp -nostdlib -ffreestanding -Oz \
		-std=c11 -Wall -Wextra \
		-I../../probes/include \
		-Wl,--no-entry \
		-Wl,--export=probe \
		-Wl,--strip-all \
		-Wl,--initial-memory=65536 \
		-Wl,--max-memory=65536 \
		-Wl,--stack-first \
		-Wl,-z,stack-size=8192 \
		-o "$out/$probe.wasm" "$src"
	# wasm-ld marks its output executable; these are data files.
	chmod 644 "$out/$probe.wasm"
done
