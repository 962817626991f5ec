#!/usr/bin/env bash
# Measures the honest paths before and after a change, in the same rounds
# (docs/BENCHMARKS.md, "Honest paths before and after the secrets and cost
# bounds"): BenchmarkHonestPaths, BenchmarkEnvCheck and the C probe's
# BenchmarkCompile, in the runtime test binaries of an old checkout and of
# this one, alternated (old, new, old, new, ...) so that the shared
# machine's load falls on both alike; then benchstat over the results.
#
#   git worktree add --detach /tmp/old 0f0b8ab
#   scripts/anchors/honest.sh /tmp/old [ROUNDS] [OUTDIR]
#
# Run from the repository root. runtime/honest_bench_test.go is copied into
# the old checkout only while its test binary builds. Needs redis-server
# (the redis/auth path) and ~/go/bin/benchstat.
set -euo pipefail
old=$(realpath "$1")
rounds=${2:-6}
out=${3:-$(mktemp -d)}
mkdir -p "$out"
bench='HonestPaths|EnvCheck/(wasm-reused|wasm-fresh|fork-exec-sh)|Compile/c-env'

go test -c -o "$out/new.test" ./runtime
cp runtime/honest_bench_test.go "$old/runtime/honest_bench_test.go"
trap 'rm -f "$old/runtime/honest_bench_test.go"' EXIT
(cd "$old" && go test -c -o "$out/old.test" ./runtime)
rm -f "$old/runtime/honest_bench_test.go"

: >"$out/old.txt"
: >"$out/new.txt"
for i in $(seq "$rounds"); do
  for v in old new; do
    dir=runtime
    [ "$v" = old ] && dir="$old/runtime"
    # A run that fails (an honest probe that did not answer available)
    # is kept in the results and said, not the end of the measurement.
    status=done
    (cd "$dir" && "$out/$v.test" -test.run XXX -test.bench "$bench" \
      -test.benchtime 200x -test.benchmem) >>"$out/$v.txt" || status=FAILED
    echo "round $i: $v $status (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  done
done
~/go/bin/benchstat "$out/old.txt" "$out/new.txt"
echo "results in $out" >&2
