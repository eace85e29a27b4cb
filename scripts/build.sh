#!/usr/bin/env bash
# Builds the frontend and the desktop binary build/bin/observatory, stamped with the version
# (scripts/version.sh), the commit and the build date that `observatory version` prints. On
# Linux the window needs WebKitGTK; Debian 12 ships 4.1, which wants the webkit2_41 tag.
# SOURCE_DATE_EPOCH, when set, fixes the build date (for reproducible builds).
set -euo pipefail
cd "$(dirname "$0")/.."

(cd frontend && npm run build --silent)

tags="desktop,production"
if [ "$(go env GOOS)" = linux ] && pkg-config --exists webkit2gtk-4.1 2>/dev/null; then
  tags="$tags,webkit2_41"
fi
version=$(scripts/version.sh)
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit-dirty"
date=$(date -u ${SOURCE_DATE_EPOCH:+-d "@$SOURCE_DATE_EPOCH"} +%Y-%m-%dT%H:%M:%SZ)
pkg=observatory/app/version
ldflags="-X $pkg.version=$version -X $pkg.commit=$commit -X $pkg.date=$date"

mkdir -p build/bin
go build -tags "$tags" -ldflags "$ldflags" -o build/bin/observatory .
echo "built build/bin/observatory ($version)" >&2
