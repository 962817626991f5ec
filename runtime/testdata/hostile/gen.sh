#!/bin/sh
# Rebuilds the hostile corpus into DIR (default: this directory) from the
# .wat sources beside it; TestHostileCorpusIsFresh runs it into a temporary
# directory and compares. Needs wabt (apt-get install wabt).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
for f in "$here"/*.wat; do
  wat2wasm --enable-all "$f" -o "$out/$(basename "${f%.wat}").wasm"
done
# Two files that are not valid modules, and so have no .wat:
# truncated.wasm is ask.wasm cut after 40 bytes, in the middle of a section.
head -c 40 "$out/ask.wasm" > "$out/truncated.wasm"
# notwasm.wasm is a shell script someone named .wasm.
printf '#!/bin/sh\necho "I am not WebAssembly"\n' > "$out/notwasm.wasm"
