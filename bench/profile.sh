#!/usr/bin/env bash
# Profiles one executor attempt against the same actions as bare playwright-go calls: the
# DevTools messages the Playwright driver sent Chromium per attempt, by method (Playwright's
# own protocol log, DEBUG=pw:protocol), and where the Go process spent its CPU (pprof, the
# executor only). Every page call the harness makes costs driver and Chromium time, so the
# message counts say where the two sides differ; bench/run.sh says how much time each call
# takes. N attempts each (default 5); the profile is left in $OUT (default a temporary folder).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${N:-5}
out=${OUT:-$(mktemp -d)}
go test -c -o "$out/bench.test" ./bench
for bench in ExecutorAttempt BarePlaywright; do
  prof=()
  [ "$bench" = ExecutorAttempt ] && prof=(-test.cpuprofile "$out/executor.prof")
  DEBUG=pw:protocol "$out/bench.test" -test.run '^$' -test.bench "^Benchmark$bench\$" -test.benchtime "${n}x" \
    "${prof[@]}" >"$out/$bench.log" 2>&1
done
echo "DevTools messages per attempt (setup included), executor vs bare:"
for bench in ExecutorAttempt BarePlaywright; do
  grep 'pw:protocol SEND' "$out/$bench.log" | sed 's/.*"method":"\([^"]*\)".*/\1/' | sort | uniq -c |
    awk -v n="$n" -v b="$bench" '{ printf "%s\t%s\t%.1f\n", b, $2, $1 / n }'
done | awk -F'\t' '
  { v[$2, $1] = $3; if (!($2 in seen)) { seen[$2] = 1; m[++k] = $2 }; t[$1] += $3 }
  END {
    for (i = 1; i <= k; i++) printf "%8.1f %8.1f  %s\n", v[m[i], "ExecutorAttempt"], v[m[i], "BarePlaywright"], m[i] | "sort -rn"
    close("sort -rn")
    printf "%8.1f %8.1f  in all\n", t["ExecutorAttempt"], t["BarePlaywright"]
  }'
echo
echo "the Go process's CPU in the executor attempts (pprof, top 15 by cumulative time):"
go tool pprof -top -cum -nodecount 15 "$out/bench.test" "$out/executor.prof" 2>/dev/null | sed -n '/flat%/,$p'
echo "(profile: $out/executor.prof)"
