#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# framegate as a subproject: a studio's project (tests/install/app) pulls it in with
# add_subdirectory. Only the libraries are built (no CLI, no tests, no benchmarks), the program
# loads Lua rules through framegate::lua and runs. The same tree, installed with the /usr prefix
# into a staging folder, gives pkg-config files whose folders are GNUInstallDirs' (on Debian,
# lib/x86_64-linux-gnu) and resolve inside the staging folder.
# Usage: check_subproject.sh SOURCE_DIR
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check_subproject: $*" >&2; exit 1; }

cmake -S "$src/tests/install/app" -B "$tmp/build" -DFRAMEGATE_SOURCE="$src" \
  -DCMAKE_INSTALL_PREFIX=/usr -DFG_INSTALL=ON >/dev/null
cmake --build "$tmp/build" -j2 >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "build failed"; }
[ ! -e "$tmp/build/framegate/framegate" ] || fail "the framegate CLI was built in a subproject"
if grep -qE "Linking C executable .*(test_|bench_|fuzz_)" "$tmp/build.log"; then
  fail "tests, benchmarks or fuzz targets were built in a subproject"
fi
tests=$(cd "$tmp/build" && ctest -N | tail -1)
[ "$tests" = "Total Tests: 0" ] || fail "the subproject registered tests ($tests)"
"$tmp/build/app" "$src/samples/duel/rules.lua" >"$tmp/app.out" || fail "app failed"
grep -q "e1 accepted: jab from idle" "$tmp/app.out" || { cat "$tmp/app.out"; fail "app output"; }
cat "$tmp/app.out"

DESTDIR="$tmp/stage" cmake --install "$tmp/build" >/dev/null
pc=$(find "$tmp/stage/usr" -name framegate-lua.pc)
[ -n "$pc" ] || fail "no framegate-lua.pc installed"
libdir=$(cmake -LA -N "$tmp/build" | sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p')
[ "$(dirname "$pc")" = "$tmp/stage/usr/$libdir/pkgconfig" ] || fail "$pc is not under $libdir"
for name in framegate framegate-lua; do
  export PKG_CONFIG_PATH="$(dirname "$pc")"
  [ "$(pkg-config --variable=includedir $name)" -ef "$tmp/stage/usr/include" ] \
    || fail "$name.pc: includedir $(pkg-config --variable=includedir $name)"
  [ "$(pkg-config --variable=libdir $name)" -ef "$tmp/stage/usr/$libdir" ] \
    || fail "$name.pc: libdir $(pkg-config --variable=libdir $name)"
done
echo "subproject: libraries only, framegate::lua works; /usr install: pkg-config folders $libdir and include"
