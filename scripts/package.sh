#!/usr/bin/env bash
# Builds every Observatory artifact that can be built on Linux into dist/, each named with the
# version (scripts/version.sh), and checks each one here:
#
#   observatory_<deb version>_amd64.deb           nfpm; lintian must report no errors; unpacked
#                                                 with dpkg -x, its binary prints its version
#                                                 and passes the desktop smoke test under Xvfb
#   observatory-<rpm version>.x86_64.rpm          nfpm; its file list and dependencies are read
#   observatory-<version>-linux-amd64.tar.gz      bin/ and share/ for other distributions
#   observatory-<version>-windows-amd64.exe       cross-built with MinGW; must be a PE32+ GUI
#                                                 program; under Wine it prints its version and
#                                                 verifies run files with the same output as the
#                                                 Linux build, and round-trips one through its store
#   observatory-<version>-windows-amd64-installer.exe
#                                                 NSIS; under Wine it installs silently, the
#                                                 installed program runs, and it uninstalls
#
# and runs the store's lock tests cross-built for Windows under Wine. The .app and .dmg are
# built by .github/workflows/release.yml on macOS. The run file for the
# cross-system checks comes from a real two-attempt run of the Linux build in Chromium, so
# scripts/setup.sh must have run (scripts/test.sh does). Exits non-zero at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-package.sh

version=$(scripts/version.sh)
numeric=${version%%[-+]*} # X.Y.Z, for the Windows version resources
dist=dist
work=$(mktemp -d)
export WINEPREFIX="$work/wine" WINEDEBUG=-all
wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)
cleanup() {
  if [ -d "$WINEPREFIX" ]; then "$wineserver" -k 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
# Checks below pipe into `grep PATTERN >/dev/null`, not `grep -q`: -q stops reading at the first
# match, and under pipefail the writer's SIGPIPE would then fail the check.
step() { echo "== package [${SECONDS}s]: $*" >&2; }
fail() { echo "package: FAILED: $*" >&2; exit 1; }

rm -rf "$dist"
mkdir -p "$dist"

step "building $version for Linux and Windows"
(cd frontend && npm run build --silent >/dev/null)
SKIP_FRONTEND=1 scripts/build.sh
GOOS=windows GOARCH=amd64 SKIP_FRONTEND=1 scripts/build.sh

step ".deb and .rpm (nfpm)"
cat >build/bin/changelog.yml <<EOF
- semver: "$version"
  date: "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  packager: "$(sed -n 's/^maintainer: //p' build/linux/nfpm.yaml)"
  deb:
    urgency: medium
    distributions: [unstable]
  changes:
    - note: "Built from commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
EOF
for packager in deb rpm; do
  VERSION="$version" go tool -modfile=build/tools/go.mod nfpm package -f build/linux/nfpm.yaml -p "$packager" -t "$dist/" | grep -v "^using "
done
deb=$(ls "$dist"/*.deb)
rpm=$(ls "$dist"/*.rpm)

step ".tar.gz"
tarname="observatory-$version-linux-amd64"
mkdir -p "$work/$tarname/bin" "$work/$tarname/share/applications"
cp build/bin/observatory "$work/$tarname/bin/"
cp build/linux/observatory.desktop "$work/$tarname/share/applications/"
cp -r build/linux/icons "$work/$tarname/share/"
tar --sort=name --owner=0 --group=0 --numeric-owner -czf "$dist/$tarname.tar.gz" -C "$work" "$tarname"

step "Windows program and installer (NSIS)"
winexe="$dist/observatory-$version-windows-amd64.exe"
installer="$dist/observatory-$version-windows-amd64-installer.exe"
cp build/bin/observatory.exe "$winexe"
makensis -V2 -DARG_WAILS_AMD64_BINARY="$PWD/build/bin/observatory.exe" -DINFO_PRODUCTVERSION="$numeric" \
  -DOUTFILE="$PWD/$installer" build/windows/installer/project.nsi

step "check: lintian on the .deb (errors fail; warnings are listed)"
lintian --fail-on error --allow-root "$deb" || fail "lintian reported errors on $deb"

step "check: the .deb unpacked into a scratch root"
root="$work/debroot"
dpkg -x "$deb" "$root"
"$root/usr/bin/observatory" version | grep -F "observatory $version" >/dev/null || fail "the packaged binary does not say $version"
desktop-file-validate "$root/usr/share/applications/observatory.desktop" || fail "desktop-file-validate"
[ -f "$root/usr/share/icons/hicolor/256x256/apps/observatory.png" ] || fail "the .deb has no 256x256 icon"
dpkg-deb -f "$deb" Depends | grep libwebkit2gtk-4.1-0 >/dev/null || fail "the .deb does not depend on WebKitGTK 4.1"
xvfb-run -a -s "-screen 0 1600x1000x24" "$root/usr/bin/observatory" --smoke --data-dir "$work/smoke" \
  || fail "the packaged binary's desktop smoke test"

step "check: the .rpm"
if command -v rpm >/dev/null; then
  rpm -qpl "$rpm" 2>/dev/null | grep -x /usr/bin/observatory >/dev/null || fail "the .rpm does not install /usr/bin/observatory"
  rpm -qpR "$rpm" 2>/dev/null | grep webkit2gtk4.1 >/dev/null || fail "the .rpm does not require webkit2gtk4.1"
else
  echo "rpm is not installed: the .rpm was built but not read" >&2
fi

step "check: the Windows program is a PE32+ GUI executable with its manifest"
file "$winexe" | grep "PE32+ executable (GUI) x86-64" >/dev/null || fail "$(file "$winexe")"
strings "$winexe" | grep permonitorv2 >/dev/null || fail "the Windows program has no application manifest"

step "check: Windows builds under Wine"
# Wine 8 (Debian 12) lacks bcryptprimitives.dll, which Go programs need; Windows has it.
"$wine" wineboot --init >/dev/null 2>&1
"$wine" winecfg -v win10 # a new prefix says Windows 7, which the installer refuses
x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
  scripts/wine/bcryptprimitives.c -ladvapi32
"$wine" "$winexe" version | tr -d '\r' | grep -F "observatory $version" >/dev/null || fail "observatory.exe version"

# A real run by the Linux build, and a copy whose wrong-room attempt claims it completed. The
# run exits 2, since wrong-room does not complete (1 would be an error); its file is what
# counts here.
fixture="$work/run.json"
tampered="$work/tampered.json"
build/bin/observatory run --attempt saves-normally --attempt wrong-room --no-video --no-screenshots \
  --data-dir "$work/linux-data" --export "$fixture" >/dev/null 2>&1 || [ $? -eq 2 ] || fail "the Linux build could not make a run file"
sed '0,/"terminal": "failed"/s//"terminal": "completed"/' "$fixture" >"$tampered"
for file in "$fixture" "$tampered"; do
  set +e
  build/bin/observatory verify "$file" >"$work/linux.out" 2>"$work/linux.err"
  linux_code=$?
  "$wine" "$winexe" verify "$file" >"$work/windows.out" 2>"$work/windows.err"
  windows_code=$?
  set -e
  tr -d '\r' <"$work/windows.out" >"$work/windows.out.lf"
  tr -d '\r' <"$work/windows.err" >"$work/windows.err.lf"
  [ "$linux_code" = "$windows_code" ] || fail "verify $(basename "$file"): Linux exit $linux_code, Windows exit $windows_code"
  diff -u "$work/linux.out" "$work/windows.out.lf" || fail "verify $(basename "$file"): Linux and Windows print different verdicts"
  diff -u "$work/linux.err" "$work/windows.err.lf" || fail "verify $(basename "$file"): Linux and Windows report differently"
  echo "verify $(basename "$file"): exit $linux_code on both, the same verdicts" >&2
done
# The Windows build stores the file in SQLite and exports it again; Linux verifies that copy.
run_id=$("$wine" "$winexe" import "$fixture" --data-dir "$work/windows-data" | tr -d '\r' | awk '{print $NF}')
"$wine" "$winexe" export "$run_id" -o "$work/from-windows.json" --data-dir "$work/windows-data" \
  || fail "observatory.exe export"
build/bin/observatory verify "$work/from-windows.json" >/dev/null || fail "the run file exported on Windows does not verify on Linux"

step "check: the installer under Wine (silent install, run, uninstall)"
xvfb-run -a "$wine" "$installer" /S 2>/dev/null || fail "the installer failed"
"$wineserver" -w
programs="$WINEPREFIX/drive_c/users/$(whoami)/AppData/Local/Programs/Observatory"
shortcut="$WINEPREFIX/drive_c/users/$(whoami)/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Observatory.lnk"
[ -f "$programs/observatory.exe" ] || fail "nothing installed in $programs"
[ -f "$shortcut" ] || fail "no Start-menu shortcut"
"$wine" "$programs/observatory.exe" version | tr -d '\r' | grep -F "observatory $version" >/dev/null || fail "the installed program"
xvfb-run -a "$wine" "$programs/uninstall.exe" /S 2>/dev/null || fail "the uninstaller failed"
"$wineserver" -w
[ ! -e "$programs/observatory.exe" ] && [ ! -e "$shortcut" ] || fail "the uninstaller left the program or its shortcut"

step "check: the file-lock tests (the store's writer lock, scratch holds), built for Windows, under Wine"
GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc \
  go test -c -o "$work/filelock.test.exe" ./backend/internal/filelock
# The verdict is read from the output below, which also shows what ran.
(cd backend/internal/filelock && "$wine" "$work/filelock.test.exe" -test.run '^TestLock' -test.v) | tr -d '\r' | tee "$work/lock.out" | grep -E '^(--- |PASS|FAIL)' >&2 || true
grep -qx PASS "$work/lock.out" || fail "the lock tests under Wine"

step "artifacts"
ls -l "$dist" | awk 'NR > 1 {printf "%10.1f MiB  %s\n", $5 / 1048576, $9}' >&2
