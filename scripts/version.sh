#!/usr/bin/env bash
# Prints Observatory's version, as every artifact is named and `observatory version` reports:
#   - on a commit tagged vX.Y.Z with no local changes: X.Y.Z;
#   - otherwise a pre-release of the next patch after the last such tag (v0.0.0 before the
#     first), so that it sorts after that release: X.Y.(Z+1)-dev.N+gHASH, N commits since the
#     tag, ".dirty" appended when tracked files changed;
#   - outside a git checkout: 0.0.0-dev.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo 0.0.0-dev
  exit 0
fi
tag=$(git describe --tags --abbrev=0 --match 'v[0-9]*.[0-9]*.[0-9]*' 2>/dev/null || true)
if [ -n "$tag" ]; then
  base=${tag#v}
  count=$(git rev-list --count "$tag..HEAD")
else
  base=0.0.0
  count=$(git rev-list --count HEAD)
fi
dirty=""
git diff --quiet HEAD 2>/dev/null || dirty=".dirty"
if [ -n "$tag" ] && [ "$count" = 0 ] && [ -z "$dirty" ]; then
  echo "$base"
else
  IFS=. read -r major minor patch <<<"$base"
  echo "$major.$minor.$((patch + 1))-dev.$count+g$(git rev-parse --short=7 HEAD)$dirty"
fi
