#!/bin/sh
# Rebuilds the hostile secrets probes into DIR (default: this directory)
# from the .wat sources beside them; TestHostileSecretsProbesAreFresh runs
# it into a temporary directory and compares. Needs wabt (apt-get install
# wabt).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
for f in "$here"/*.wat; do
  wat2wasm "$f" -o "$out/$(basename "${f%.wat}").wasm"
done
