#!/usr/bin/env bash
# Runs every test: the frontend's unit tests, a smoke test of the real desktop window under
# Xvfb, go vet, and the Go tests, which include the end-to-end tests that drive real Chromium
# against the real lab servers and the UI served by `observatory serve`; then builds and checks
# the installable artifacts (scripts/package.sh: .deb, .rpm, .tar.gz, the Windows program and
# installer, run under Wine).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh

echo "== frontend unit tests" >&2
(cd frontend && npm test --silent)

echo "== desktop smoke test (real window under Xvfb)" >&2
smoke_dir=$(mktemp -d)
trap 'rm -rf "$smoke_dir"' EXIT
xvfb-run -a -s "-screen 0 1600x1000x24" build/bin/observatory --smoke --data-dir "$smoke_dir"

echo "== gofmt, go vet and go test" >&2
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi
go vet ./...
# Tests that need Chromium fail here, rather than skip, when it cannot start.
export OBSERVATORY_REQUIRE_BROWSER=1
go test ./...

echo "== the race detector: the packages without a browser, and the runner's cancel and stop paths" >&2
go test -race -short ./backend/agent/ ./backend/harness/ ./backend/gate/ ./backend/runfile/ ./backend/bundle/ \
  ./backend/store/ ./backend/jsonstrict/ ./backend/termsafe/ ./backend/scratch/ ./backend/oracle/ \
  ./backend/planner/ ./backend/labs/booking/ ./app/httpapi/
go test -race -run 'Cancel|Stop' ./backend/runner/

echo "== packages and installers (scripts/package.sh)" >&2
scripts/package.sh
