#!/usr/bin/env bash
# Builds the frontend and the desktop binary, stamped with the version (scripts/version.sh),
# the commit and the build date that `observatory version` prints:
#   scripts/build.sh                   build/bin/observatory for this system
#   GOOS=windows scripts/build.sh      build/bin/observatory.exe, cross-built with MinGW (cgo,
#                                      for SQLite), a GUI program with its icon and manifest
# On Linux the window needs WebKitGTK; Debian 12 ships 4.1, which wants the webkit2_41 tag.
# SOURCE_DATE_EPOCH, when set, fixes the build date (for reproducible builds).
# SKIP_FRONTEND=1 reuses frontend/dist as it is (scripts/package.sh builds it once).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${SKIP_FRONTEND:-}" ]; then
  (cd frontend && npm run build --silent)
fi

goos=$(go env GOOS)
goarch=$(go env GOARCH)
tags="desktop,production"
# -s -w: no symbol table or DWARF, as released binaries are (a third of the size).
ldflags="-s -w"
out=build/bin/observatory
case "$goos" in
  linux)
    if pkg-config --exists webkit2gtk-4.1 2>/dev/null; then
      tags="$tags,webkit2_41"
    fi
    ;;
  windows)
    out=build/bin/observatory.exe
    ldflags="$ldflags -H windowsgui"
    export CGO_ENABLED=1
    if [ "$(go env GOHOSTOS)" != windows ]; then
      export CC="${CC:-x86_64-w64-mingw32-gcc}"
    fi
    ;;
esac

version=$(scripts/version.sh)
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit-dirty"
date=$(date -u ${SOURCE_DATE_EPOCH:+-d "@$SOURCE_DATE_EPOCH"} +%Y-%m-%dT%H:%M:%SZ)
pkg=observatory/app/version
ldflags="$ldflags -X $pkg.version=$version -X $pkg.commit=$commit -X $pkg.date=$date"

if [ "$goos" = windows ]; then
  # The icon, manifest and version information, linked in from a .syso beside main.go.
  syso="rsrc_windows_$goarch.syso"
  trap 'rm -f "$syso"' EXIT
  GOOS=$(go env GOHOSTOS) GOARCH=$(go env GOHOSTARCH) CGO_ENABLED=0 \
    go run -C build/tools ./winres -root ../.. -version "$version" -arch "$goarch" -o "../../$syso"
fi

mkdir -p build/bin
go build -tags "$tags" -ldflags "$ldflags" -o "$out" .
echo "built $out ($version)" >&2
