#!/usr/bin/env bash
# Measures the UI at scale: a 10,000-step run opened from a deep link, ←/→ stepping through
# it, and a history of 1,001 runs, served by `observatory serve` to headless Chromium. Prints
# each number and its ratio to the target (open < 1 s, one frame per press, history < 300 ms).
set -euo pipefail
cd "$(dirname "$0")/.."
(cd frontend && npm run build >/dev/null)
go test -run '^$' -bench 'UIScale' -benchtime 1x -timeout 20m ./bench
