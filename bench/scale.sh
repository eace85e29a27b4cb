#!/usr/bin/env bash
# Runs the booking lab's eight attempts as one suite at --parallel 1, 2, 4 and 8 locally and
# across two Playwright browser servers, and with recording on and off, all in one run, with
# the seed's table checked every time. Prints wall times and ratios against parallel 1 and
# against recording off, and, on Linux, the CPU time each suite took and the shortest wall
# time that allows on this machine's cores (CPU / cores): a level whose wall time is near that
# floor is bound by CPU, and no scheduling makes it faster. Targets: recording <= 1.3x the
# suite without, wall and CPU; parallel 8 within 90% of the speed-up its CPU time allows
# (parallel 1's wall time over that floor), and the issue's CPU bound: cores x parallel 1's wall
# time / its CPU time, at most the parallelism. LEVELS picks levels as go test -bench matches
# them below Suite, e.g. LEVELS='local/parallel=(1|8)$' (the recording ratio then needs both
# recording levels).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(go test -run '^$' -bench "Suite${LEVELS:+/$LEVELS}" -benchtime "${BENCHTIME:-2x}" -count "${COUNT:-2}" -timeout 30m ./bench)
echo "$out"
echo "$out" | awk -v cores="$(getconf _NPROCESSORS_ONLN)" '
  /^BenchmarkSuite\// {
    name = $1; sub(/^BenchmarkSuite\//, "", name); sub(/-[0-9]+$/, "", name)
    t[name] += $3; n[name]++
    for (i = 4; i <= NF; i++) if ($i == "cpu-s/op") cpu[name] += $(i - 1)
    if (!(name in seen)) { order[++k] = name; seen[name] = 1 }
  }
  END {
    if (!n["local/parallel=1"]) { print "no results"; exit 1 }
    base = t["local/parallel=1"] / n["local/parallel=1"]
    printf "\n%-24s %10s %10s %10s %12s\n", "suite of 8 attempts", "wall", "speed-up", "CPU", "CPU/" cores " cores"
    for (i = 1; i <= k; i++) {
      name = order[i]
      m = t[name] / n[name]
      line = sprintf("%-24s %8.2f s %9.2fx", name, m / 1e9, base / m)
      if (name in cpu) line = line sprintf(" %8.2f s %10.2f s", cpu[name] / n[name], cpu[name] / n[name] / cores)
      print line
    }
    if (n["recording=off"] && n["recording=on"]) {
    off = t["recording=off"] / n["recording=off"]; on = t["recording=on"] / n["recording=on"]
    printf "\nrecording on vs off      wall %.2f s vs %.2f s: %.2fx (target <= 1.30x: %s)\n", on / 1e9, off / 1e9, on / off, (on / off <= 1.3 ? "met" : "not met")
    if ("recording=on" in cpu) {
      con = cpu["recording=on"] / n["recording=on"]; coff = cpu["recording=off"] / n["recording=off"]
      printf "                         CPU  %.2f s vs %.2f s: %.2fx (target <= 1.30x: %s)\n", con, coff, con / coff, (con / coff <= 1.3 ? "met" : "not met")
    }
    }
    if (!n["local/parallel=8"]) exit
    speedup = base / (t["local/parallel=8"] / n["local/parallel=8"])
    printf "parallel 8 vs 1          %.2fx\n", speedup
    if ("local/parallel=8" in cpu) {
      floor = cpu["local/parallel=8"] / n["local/parallel=8"] / cores
      bound = base / 1e9 / floor
      printf "the most %d cores allow  %.2fx (parallel 1 wall / parallel 8 CPU per core); reached %.0f%% (target >= 90%%: %s)\n", cores, bound, 100 * speedup / bound, (speedup / bound >= 0.9 ? "met" : "not met")
    }
    if ("local/parallel=1" in cpu) {
      # The CPU bound of the issue: cores x wall1 / CPU1, at most the parallelism.
      bound1 = cores * base / 1e9 / (cpu["local/parallel=1"] / n["local/parallel=1"])
      if (bound1 > 8) bound1 = 8
      printf "the CPU bound            %.2fx (cores x parallel 1 wall / parallel 1 CPU, at most 8); reached %.0f%% (target >= 90%%: %s)\n", bound1, 100 * speedup / bound1, (speedup / bound1 >= 0.9 ? "met" : "not met")
    }
  }'
