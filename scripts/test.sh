#!/usr/bin/env bash
# Runs every test: the frontend's unit tests, a smoke test of the real desktop window under
# Xvfb, go vet, and the Go tests, which include the end-to-end tests that drive real Chromium
# against the real lab servers and the UI served by `observatory serve`; then builds and checks
# the installable artifacts (scripts/package.sh: .deb, .rpm, .tar.gz, the Windows program and
# installer, run under Wine).
set -euo pipefail
cd "$(dirname "$0")/.."

# stage names the next stage and says how long the one before took, so a slow CI run says where.
stage_name="" stage_start=$SECONDS
stage() {
  if [ -n "$stage_name" ]; then echo "== $stage_name took $((SECONDS - stage_start)) s" >&2; fi
  stage_name=$1 stage_start=$SECONDS
  [ -n "$1" ] && echo "== $1" >&2
  return 0
}

stage "setup and build"
scripts/setup.sh
scripts/build.sh

stage "frontend unit tests"
(cd frontend && npm test --silent)

stage "desktop smoke test (real window under Xvfb)"
# 1280×720 with no window manager: smaller than the window's 1440×920, so the smoke test also
# checks that the window was fitted to the screen and placed wholly on it.
smoke_dir=$(mktemp -d)
trap 'rm -rf "$smoke_dir"' EXIT
xvfb-run -a -s "-screen 0 1280x720x24" build/bin/observatory --smoke --data-dir "$smoke_dir"

stage "gofmt, go vet and go test"
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

# The race pass and the packaging builds run side by side: neither runs the seed's
# timing-sensitive lab tests, and on two cores they finish sooner together than in turn. Each
# writes to its own log, printed whole when it ends, so their lines never interleave.
stage "the race detector (the packages without a browser, and the browser's and runner's death and cancel paths), beside packages and installers (scripts/package.sh)"
logs=$(mktemp -d)
trap 'rm -rf "$smoke_dir" "$logs"' EXIT
(
  go test -race -short -skip InChromium ./app/ ./app/httpapi/ ./app/version/ ./backend/agent/ ./backend/bundle/ \
    ./backend/gate/ ./backend/harness/ ./backend/jsonstrict/ ./backend/labs/... ./backend/oracle/ ./backend/planner/... \
    ./backend/runfile/ ./backend/scratch/ ./backend/store/... ./backend/taskfile/ ./backend/termsafe/
  go test -race -run 'Cancel|Stop|Death|TestCall' ./backend/runner/ ./backend/browser/
) >"$logs/race" 2>&1 &
race=$!
scripts/package.sh >"$logs/package" 2>&1 &
package=$!
failed=0
wait "$race" || failed=1
echo "== race detector:" >&2; cat "$logs/race" >&2
wait "$package" || failed=1
echo "== packages and installers:" >&2; cat "$logs/package" >&2
stage ""
if [ "$failed" -ne 0 ]; then
  echo "== the race pass or the packaging failed (see above)" >&2
  exit 1
fi
