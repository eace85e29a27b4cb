#!/usr/bin/env bash
# Builds the frontend and the desktop binary build/bin/observatory. On Linux the window needs
# WebKitGTK; Debian 12 ships 4.1, which wants the webkit2_41 tag.
set -euo pipefail
cd "$(dirname "$0")/.."

(cd frontend && npm run build --silent)

tags="desktop,production"
if [ "$(go env GOOS)" = linux ] && pkg-config --exists webkit2gtk-4.1 2>/dev/null; then
  tags="$tags,webkit2_41"
fi
version=$(git describe --always --dirty 2>/dev/null || echo dev)
mkdir -p build/bin
go build -tags "$tags" -ldflags "-X observatory/app/cli.Version=$version" -o build/bin/observatory .
echo "built build/bin/observatory ($version)" >&2
