#!/usr/bin/env bash
# Installs what scripts/package.sh needs beyond scripts/setup.sh, on Debian or Ubuntu: the
# MinGW cross-compiler (the Windows build links SQLite through cgo), NSIS for the installer,
# Wine to run the Windows build, and the package checkers (lintian, desktop-file-validate,
# rpm). Kept apart from setup.sh so the ordinary test path does not pay for them.
# Safe to run again; it installs only what is missing.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

apt_packages=(gcc-mingw-w64-x86-64 nsis wine64 lintian desktop-file-utils rpm file xvfb xauth)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup-package: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
