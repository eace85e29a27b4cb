#!/usr/bin/env bash
# Installs everything Observatory needs to build, run and test on Debian or Ubuntu: the system
# packages (ffmpeg, Xvfb, GTK/WebKit headers, PostgreSQL and MariaDB for the SQL oracle's tests,
# MediaWiki with PHP's command line and SQLite for the real-app tests (scripts/mediawiki.sh),
# gnome-keyring and D-Bus for the OS keyring's tests), the
# frontend's and the test agents' npm packages, the Playwright driver, and a Chromium for Playwright to drive:
#   - Debian: Debian's chromium package (the driver downloads no browser), and its headless
#     shell, which headless runs use: the full browser's headless mode costs several times the
#     CPU for every page;
#   - Ubuntu: Playwright's own Chromium, downloaded by `observatory install --with-browser`,
#     because Ubuntu's chromium package is a snap wrapper Playwright cannot drive.
# Safe to run again; each step skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

# is_ubuntu succeeds on Ubuntu and its derivatives, as the os-release file $1 names them.
is_ubuntu() {
  [ -r "$1" ] || return 1
  local id like
  # shellcheck source=/dev/null
  id=$(. "$1" && echo "${ID:-}")
  # shellcheck source=/dev/null
  like=$(. "$1" && echo "${ID_LIKE:-}")
  case " $id $like " in
    *" ubuntu "*) return 0 ;;
    *) return 1 ;;
  esac
}

# The same package names exist on Debian 12 and Ubuntu 22.04/24.04. Where systemd runs
# services, mariadb-server and mediawiki (through apache2) start system services; the tests use
# neither: they start their own servers in temporary folders.
apt_packages=(ffmpeg xvfb xauth libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config postgresql mariadb-server
  mediawiki php-cli php-sqlite3 php-intl php-mbstring php-xml gnome-keyring dbus)
install_args=()
if is_ubuntu /etc/os-release; then
  install_args+=(--with-browser)
else
  apt_packages+=(chromium chromium-headless-shell)
fi

missing=()
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing system packages: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -d frontend/node_modules ] || [ frontend/package-lock.json -nt frontend/node_modules/.package-lock.json ]; then
  echo "setup: installing frontend npm packages" >&2
  (cd frontend && npm ci --no-audit --no-fund --loglevel=error)
fi

# The outside-agent tests' agents, written with Puppeteer and Playwright from npm: they drive
# only the browser Observatory hands them, so neither package downloads one.
agents=backend/outside/testdata/agents
if [ ! -d $agents/node_modules ] || [ $agents/package-lock.json -nt $agents/node_modules/.package-lock.json ]; then
  echo "setup: installing the test agents' npm packages" >&2
  (cd $agents && PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

# The MCP tests' clients: Playwright MCP at a pinned version (the reference server whose tools
# Observatory's must accept, and which the Playwright-MCP-style client also drives) and the MCP
# SDK the client is written with. Playwright MCP is pointed at the system's Chromium.
clients=backend/mcpserver/testdata/clients
if [ ! -d $clients/node_modules ] || [ $clients/package-lock.json -nt $clients/node_modules/.package-lock.json ]; then
  echo "setup: installing the MCP test clients' npm packages" >&2
  (cd $clients && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

# The Stagehand 4 agent: Stagehand needs Node 22, which npm's node package brings with it.
stagehand=backend/outside/testdata/stagehand
if [ ! -d $stagehand/node_modules ] || [ $stagehand/package-lock.json -nt $stagehand/node_modules/.package-lock.json ]; then
  echo "setup: installing the Stagehand test agent's npm packages (Node 22 among them)" >&2
  (cd $stagehand && npm ci --no-audit --no-fund --loglevel=error)
fi

if [ ${#install_args[@]} -gt 0 ]; then
  echo "setup: installing the Playwright driver and Playwright's Chromium (Ubuntu)" >&2
else
  echo "setup: installing the Playwright driver (no browser download: Debian's Chromium is used)" >&2
fi
PLAYWRIGHT_NODEJS_PATH="${PLAYWRIGHT_NODEJS_PATH:-$(command -v node)}" go run . install "${install_args[@]}"
