#!/usr/bin/env bash
# Runs the attempt benchmarks and prints the executor's cost as a ratio against bare
# playwright-go calls measured in the same run. Target: at most 1.3x.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(go test -run '^$' -bench 'ExecutorAttempt|BarePlaywright' -benchtime "${BENCHTIME:-20x}" -count "${COUNT:-3}" ./bench)
echo "$out"
echo "$out" | awk '
  /^BenchmarkExecutorAttempt/ { e += $3; ne++ }
  /^BenchmarkBarePlaywright/  { p += $3; np++ }
  END {
    if (!ne || !np) { print "no results"; exit 1 }
    e /= ne; p /= np
    printf "\nexecutor attempt  %8.1f ms\nbare playwright   %8.1f ms\nratio             %8.2fx (target <= 1.30x)\n", e/1e6, p/1e6, e/p
  }'
