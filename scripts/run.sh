#!/usr/bin/env bash
# Installs what is missing, builds, and opens Observatory's desktop window on the booking lab.
# Without a display (a server, CI) the window opens under Xvfb. Arguments go to the program.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run: no display; opening the window under Xvfb" >&2
  exec xvfb-run -a -s "-screen 0 1600x1000x24" build/bin/observatory "$@"
fi
exec build/bin/observatory "$@"
