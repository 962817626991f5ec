#!/bin/sh
# Builds the custom probe into probe.wasm beside this script (or into the
# directory given): the one command of this example.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
cd "$here/probe"
GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o "$out/probe.wasm" .
