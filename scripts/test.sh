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
# macOS is built on macOS by the release workflow; vetting for it here catches, in the first
# minutes rather than after the tests, code and tests that only build on Linux.
GOOS=darwin go vet ./backend/... ./app/...
# Tests that need Chromium fail here, rather than skip, when it cannot start.
export OBSERVATORY_REQUIRE_BROWSER=1
# One package at a time: the end-to-end tests run attempts side by side themselves, and the
# seed's timings (a 200 ms fixed wait on a 500 ms save) must not depend on what else runs.
go test -p 1 -timeout 30m ./...

echo "== the race detector: the packages without a browser, and the browser's and runner's death and cancel paths" >&2
go test -race -short -skip InChromium ./app/ ./app/httpapi/ ./app/version/ ./backend/agent/ ./backend/bundle/ \
  ./backend/gate/ ./backend/harness/ ./backend/jsonstrict/ ./backend/labs/... ./backend/oracle/ ./backend/planner/... \
  ./backend/runfile/ ./backend/scratch/ ./backend/store/... ./backend/taskfile/ ./backend/termsafe/
go test -race -run 'Cancel|Stop|Death|TestCall' ./backend/runner/ ./backend/browser/

echo "== packages and installers (scripts/package.sh)" >&2
scripts/package.sh
