#!/usr/bin/env bash
# Measures what repeating an attempt as trials costs: one attempt of the booking lab run
# alone (a whole `observatory run`: process, browser, app and store), then the same attempt
# as TRIALS trials in one run (`--repeat`), and prints each trial's wall time against the
# single run's. Below 1.00x a trial costs less than a run of its own: the browser and the
# store are started once for all of them. Target: at most 1.10x.
set -euo pipefail
cd "$(dirname "$0")/.."
trials=${TRIALS:-100}
attempt=${ATTEMPT:-saves-normally}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/observatory" .
run() { "$tmp/observatory" --data-dir "$tmp/data" run --lab booking --attempt "$attempt" --no-video --no-screenshots "$@" >/dev/null 2>&1 || [ $? -eq 2 ]; } # 2: made, an attempt did not complete
now() { date +%s.%N; }

singles=()
for _ in 1 2 3; do
  t0=$(now); run; t1=$(now)
  singles+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
done
single=$(printf '%s\n' "${singles[@]}" | sort -n | sed -n 2p) # the median of three

t0=$(now); run --repeat "$trials"; t1=$(now)
total=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')

awk -v s="$single" -v t="$total" -v n="$trials" 'BEGIN {
  printf "single run        %8.0f ms (median of 3)\n", s*1000
  printf "%d trials         %8.0f ms\n", n, t*1000
  printf "per trial         %8.0f ms\n", t*1000/n
  printf "ratio             %8.2fx (per trial / single run; target <= 1.10x)\n", (t/n)/s
}'
