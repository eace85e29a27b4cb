#!/usr/bin/env bash
# Installs everything Observatory needs to build, run and test on Debian/Ubuntu:
# the Debian packages (Chromium, ffmpeg, Xvfb, GTK/WebKit headers), the frontend's npm
# packages, and the Playwright driver (never a browser: Debian's Chromium is used).
# Safe to run again; each step skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

apt_packages=(chromium ffmpeg xvfb xauth libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
  echo "setup: installing frontend npm packages" >&2
  (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "setup: installing the Playwright driver (no browser download)" >&2
PLAYWRIGHT_NODEJS_PATH="${PLAYWRIGHT_NODEJS_PATH:-$(command -v node)}" go run . install
