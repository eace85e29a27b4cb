#!/usr/bin/env bash
# Measures the UI at scale: a 10,000-step run opened from a deep link, ←/→ stepping through
# it, a history of 1,001 runs, and opening a run then selecting an attempt at 1280×720, served
# by `observatory serve` to headless Chromium. Prints each number and its ratio to the target
# (open < 1 s, one frame per press, history < 300 ms, open and select < 300 ms);
# and the live view's frame rate, idle and painting (target: at least 5 a second).
set -euo pipefail
cd "$(dirname "$0")/.."
(cd frontend && npm run build >/dev/null)
go test -run '^$' -bench 'UIScale|LiveStream' -benchtime 1x -timeout 20m ./bench
