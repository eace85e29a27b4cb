#!/usr/bin/env bash
# Runs the attempt benchmarks and prints the executor's cost against bare playwright-go calls
# measured in the same run: wall time, and on Linux the CPU time of everything the attempt
# kept busy (this process, the Playwright driver, Chromium and its renderers, counted in a
# control group of the benchmark's own) and of its parts: the Go process, the driver and,
# what is left, Chromium. Target: at most 1.15x, wall and CPU. With COUNT rounds (default 3)
# it prints the min and the median of each ratio, since a noisy machine inflates single
# rounds. Then it says where the executor's wall time went, call by call (the mean over the
# rounds): the page calls it made and the gate checks, the rest being the gate's polling
# sleeps, the planner and the lab.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each round runs both benchmarks back to back, so that a ratio compares neighbours in time.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/bench.test" ./bench
out=$(cd bench && for _ in $(seq "${COUNT:-3}"); do
  "$tmp/bench.test" -test.run '^$' -test.bench 'ExecutorAttempt|BarePlaywright' -test.benchtime "${BENCHTIME:-20x}"
done)
echo "$out"
echo "$out" | awk '
  # metric returns the value before the unit u on the current line, or -1.
  function metric(u,   i) { for (i = 3; i < NF; i++) if ($(i+1) == u) return $i; return -1 }
  /^BenchmarkExecutorAttempt/ {
    ew[++ne] = metric("ns/op"); ec[ne] = metric("cpu-s/op"); es[ne] = metric("self-cpu-s/op")
    ed[ne] = metric("driver-cpu-s/op"); eb[ne] = ed[ne] < 0 ? -1 : ec[ne] - es[ne] - ed[ne]
    for (i = 4; i <= NF; i++) if ($i ~ /-ms\/op$/) { ph = $i; sub(/-ms\/op$/, "", ph); ms[ph] += $(i-1); calls[ph] += metric(ph "-calls/op") }
  }
  /^BenchmarkBarePlaywright/ {
    pw[++np] = metric("ns/op"); pc[np] = metric("cpu-s/op"); ps[np] = metric("self-cpu-s/op")
    pd[np] = metric("driver-cpu-s/op"); pb[np] = pd[np] < 0 ? -1 : pc[np] - ps[np] - pd[np]
  }
  function sort(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
  function median(a, n) { sort(a, n); return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
  function line(name, e, p, n, unit, scale, target,   i, r, lo, mid) {
    for (i = 1; i <= n; i++) { if (e[i] < 0 || p[i] <= 0) { printf "%-26s not measured here\n", name; return } r[i] = e[i] / p[i] }
    sort(r, n); lo = r[1]; mid = median(r, n)
    printf "%-26s executor %8.3f %s  bare %8.3f %s  ratio min %5.2fx median %5.2fx", name, median(e, n)*scale, unit, median(p, n)*scale, unit, lo, mid
    if (target) printf "  (target <= %.2fx: %s)", target, (mid <= target ? "met" : "not met")
    printf "\n"
  }
  END {
    if (!ne || ne != np) { print "no results"; exit 1 }
    print ""
    line("wall per attempt", ew, pw, ne, "ms ", 1e-6, 1.15)
    line("CPU per attempt, all", ec, pc, ne, "s  ", 1, 1.15)
    line("CPU, the Go process", es, ps, ne, "s  ", 1, 0)
    line("CPU, the driver (Node)", ed, pd, ne, "s  ", 1, 0)
    line("CPU, Chromium (the rest)", eb, pb, ne, "s  ", 1, 0)
    for (i = 1; i <= ne; i++) rest += ew[i] * 1e-6 / ne
    printf "\nwhere an executor attempt spent its %.0f ms (mean of %d rounds):\n", rest, ne
    for (ph in ms) { printf "  %-10s %7.1f ms in %5.1f calls\n", ph, ms[ph]/ne, calls[ph]/ne | "sort -k2 -rn"; rest -= ms[ph]/ne }
    close("sort -k2 -rn")
    printf "  the rest   %7.1f ms: the gate polling sleeps, the planner, the lab\n", rest
  }'
