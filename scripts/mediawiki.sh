#!/usr/bin/env bash
# Installs a MediaWiki into a folder and serves it, to try task files on a real third-party
# app (the project's own tests do, see backend/taskfile/mediawiki_test.go):
#   scripts/mediawiki.sh DIR [PORT]
# The first run installs Debian's mediawiki (scripts/setup.sh installs it, with PHP's
# SQLite, intl, mbstring and XML modules) into DIR non-interactively with
# maintenance/install.php: DIR/LocalSettings.php, and the wiki's SQLite database in
# DIR/data/wiki.sqlite. Only signed-in users may edit; the administrator is "Admin" with the
# password in $MEDIAWIKI_ADMIN_PASSWORD (default "observatory-admin"). Every run serves the
# wiki with PHP's built-in server on http://127.0.0.1:PORT (default 8080) until stopped;
# the address is written into LocalSettings.php when the wiki is installed.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 DIR [PORT]" >&2
  exit 2
fi
code=/usr/share/mediawiki
if [ ! -f "$code/maintenance/install.php" ] || ! command -v php >/dev/null; then
  echo "mediawiki: no $code or no php: install Debian's mediawiki and php-cli (scripts/setup.sh does)" >&2
  exit 1
fi
mkdir -p "$1"
dir=$(cd "$1" && pwd)
port=${2:-8080}
export MW_CONFIG_FILE="$dir/LocalSettings.php"

if [ ! -f "$MW_CONFIG_FILE" ]; then
  echo "mediawiki: installing a wiki into $dir for http://127.0.0.1:$port" >&2
  php "$code/maintenance/install.php" --dbtype sqlite --dbpath "$dir/data" --dbname wiki \
    --server "http://127.0.0.1:$port" --scriptpath "" --lang en --confpath "$dir" \
    --pass "${MEDIAWIKI_ADMIN_PASSWORD:-observatory-admin}" "Observatory Wiki" Admin >"$dir/install.log"
  cat >>"$MW_CONFIG_FILE" <<'PHP'

# Added by scripts/mediawiki.sh: only signed-in users edit or create accounts.
$wgGroupPermissions['*']['edit'] = false;
$wgGroupPermissions['*']['createaccount'] = false;
PHP
fi

echo "mediawiki: serving $dir on http://127.0.0.1:$port" >&2
# Several workers: a page loads its scripts and styles from load.php while it is served.
export PHP_CLI_SERVER_WORKERS=${PHP_CLI_SERVER_WORKERS:-4}
exec php -S "127.0.0.1:$port" -t "$code"
