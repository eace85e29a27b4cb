#!/usr/bin/env bash
# Runs the attempt benchmarks and prints the executor's cost against its two peers measured in
# the same run: bare playwright-go calls doing the same five actions, and the same calls with
# Playwright's tracing on (screenshots and DOM snapshots of every action, stopped into a
# trace.zip: the evidence a Playwright user records today). The executor runs at both evidence
# levels: full (every step's before and after with its screenshot) and lean (a screenshot only
# where something went wrong). Goals: full at most 1.0x of bare + tracing, lean at most 1.15x
# of bare, on wall and CPU. CPU counts everything an attempt kept busy (this process, the
# Playwright driver, Chromium and its renderers, in a control group of the benchmark's own),
# split into the Go process, the driver and, what is left, Chromium. With COUNT rounds
# (default 3) it prints the min and the median of each ratio, since a noisy machine inflates
# single rounds; each round runs the four benchmarks back to back, so that a ratio compares
# neighbours in time. Then it says where the executor's wall time went at full evidence, call
# by call (the mean over the rounds).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/bench.test" ./bench
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the rounds"
out=$(cd bench && for _ in $(seq "${COUNT:-3}"); do
  "$tmp/bench.test" -test.run '^$' -test.bench '^Benchmark(BarePlaywright|BareTracing|ExecutorFull|ExecutorLean)$' -test.benchtime "${BENCHTIME:-20x}"
done)
echo "$out"
echo "machine: load average $(cut -d' ' -f1-3 /proc/loadavg) after the rounds"
echo "$out" | awk '
  # metric returns the value before the unit u on the current line, or -1.
  function metric(u,   i) { for (i = 3; i < NF; i++) if ($(i+1) == u) return $i; return -1 }
  /^Benchmark(BarePlaywright|BareTracing|ExecutorFull|ExecutorLean)-/ {
    name = $1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name)
    k = ++n[name]
    wall[name, k] = metric("ns/op") * 1e-6; cpu[name, k] = metric("cpu-s/op")
    self[name, k] = metric("self-cpu-s/op"); drv[name, k] = metric("driver-cpu-s/op")
    rest[name, k] = drv[name, k] < 0 ? -1 : cpu[name, k] - self[name, k] - drv[name, k]
    if (name == "ExecutorFull")
      for (i = 4; i <= NF; i++) if ($i ~ /-ms\/op$/) { ph = $i; sub(/-ms\/op$/, "", ph); ms[ph] += $(i-1); calls[ph] += metric(ph "-calls/op") }
  }
  function sort(a, m,   i, j, t) { for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } }
  function median(a, m) { sort(a, m); return m % 2 ? a[(m+1)/2] : (a[m/2] + a[m/2+1]) / 2 }
  # ratio prints the min and median over the rounds of what[e] / what[p], round by round.
  function ratio(label, what, e, p, target,   i, r, m, mid) {
    m = n[e] < n[p] ? n[e] : n[p]
    for (i = 1; i <= m; i++) {
      if (what == "wall") { a = wall[e, i]; b = wall[p, i] } else if (what == "cpu") { a = cpu[e, i]; b = cpu[p, i] }
      else if (what == "self") { a = self[e, i]; b = self[p, i] } else if (what == "driver") { a = drv[e, i]; b = drv[p, i] } else { a = rest[e, i]; b = rest[p, i] }
      if (a < 0 || b <= 0) { printf "  %-44s not measured here\n", label; return }
      r[i] = a / b
    }
    sort(r, m); mid = median(r, m)
    printf "  %-44s min %5.2fx  median %5.2fx", label, r[1], mid
    if (target) printf "  (goal <= %.2fx: %s)", target, (mid <= target ? "met" : "not met")
    printf "\n"
  }
  function abs(name, what,   i, v) {
    for (i = 1; i <= n[name]; i++) v[i] = (what == "wall" ? wall[name, i] : cpu[name, i])
    return median(v, n[name])
  }
  END {
    if (!n["ExecutorFull"] || !n["BarePlaywright"] || !n["BareTracing"] || !n["ExecutorLean"]) { print "no results"; exit 1 }
    printf "\nper attempt (median of %d rounds)     wall ms    CPU s\n", n["ExecutorFull"]
    split("BarePlaywright BareTracing ExecutorFull ExecutorLean", names, " ")
    for (i = 1; i <= 4; i++) printf "  %-34s %8.0f  %7.3f\n", names[i], abs(names[i], "wall"), abs(names[i], "cpu")
    print "\nratios, round by round:"
    ratio("full evidence / bare + tracing, wall", "wall", "ExecutorFull", "BareTracing", 1.0)
    ratio("full evidence / bare + tracing, CPU", "cpu", "ExecutorFull", "BareTracing", 1.0)
    ratio("lean evidence / bare, wall", "wall", "ExecutorLean", "BarePlaywright", 1.15)
    ratio("lean evidence / bare, CPU", "cpu", "ExecutorLean", "BarePlaywright", 1.15)
    ratio("full evidence / bare, wall", "wall", "ExecutorFull", "BarePlaywright", 0)
    ratio("bare + tracing / bare, wall", "wall", "BareTracing", "BarePlaywright", 0)
    ratio("lean / bare, CPU of the Go process", "self", "ExecutorLean", "BarePlaywright", 0)
    ratio("lean / bare, CPU of the driver (Node)", "driver", "ExecutorLean", "BarePlaywright", 0)
    ratio("lean / bare, CPU of Chromium (the rest)", "rest", "ExecutorLean", "BarePlaywright", 0)
    total = abs("ExecutorFull", "wall")
    printf "\nwhere a full-evidence attempt spent its %.0f ms (mean of %d rounds):\n", total, n["ExecutorFull"]
    for (ph in ms) { printf "  %-10s %7.1f ms in %5.1f calls\n", ph, ms[ph]/n["ExecutorFull"], calls[ph]/n["ExecutorFull"] | "sort -k2 -rn"; total -= ms[ph]/n["ExecutorFull"] }
    close("sort -k2 -rn")
    printf "  the rest   %7.1f ms: the gate polling sleeps, the planner, the lab\n", total
  }'
