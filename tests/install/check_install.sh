#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the build into a temporary prefix whose path has a space in it, then, from an unrelated
# working directory, uses it as a studio would: the installed `framegate` runs check, test, run
# and replay; samples/embed builds against the package with find_package(framegate) and with
# pkg-config, and runs; a program of a fresh project (tests/install/app) loads Lua rules through
# framegate/lua.h, built with CMake and with `cc $(pkg-config --cflags --libs framegate-lua)`, and
# one sends datagrams over the ENet transport (framegate::enet, framegate-enet.pc);
# embed_lua reloads the rules when the file changes. Usage: check_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/installed framegate"
cmake --install "$build" --prefix "$prefix" >/dev/null
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"

fail() { echo "check_install: $*" >&2; exit 1; }

# The installed CLI, with nothing of the source or build tree on its search paths.
fg() { env -u FG_SCRIPTS -u LUA_PATH -u LUA_CPATH "$prefix/bin/framegate" "$@"; }
if strings "$prefix/bin/framegate" | grep -qF "$src"; then
  fail "the installed framegate has the source path $src compiled in"
fi
# expect TEXT CMD...: CMD succeeds and prints TEXT.
expect() {
  local text=$1
  shift
  "$@" >out.txt 2>&1 || { cat out.txt; fail "$* exited $?"; }
  grep -qF -- "$text" out.txt || { cat out.txt; fail "$* did not print '$text'"; }
}
expect "framegate 0." fg --version
expect ": ok: ruleset 'duelist'" fg check "$src/samples/duel/rules.lua"
expect "OK" fg test "$src/samples/duel/scenarios"
expect "e1 accepted: hadouken cancels jab" fg run "$src/samples/duel"
expect "final hash" fg replay "$src/samples/duel/replays/playtest.fgr" --fps 60

# The manual page and the bash completion, generated from the option parser, installed.
if command -v man >/dev/null; then
  expect "framegate run" env MANWIDTH=100 man -l "$prefix/share/man/man1/framegate.1"
else
  grep -q '^\.SS run$' "$prefix/share/man/man1/framegate.1" || fail "no 'run' in the manual page"
fi
completion="$prefix/share/bash-completion/completions/framegate"
words=$(bash -c 'source "$1"; COMP_WORDS=(framegate re); COMP_CWORD=1; _framegate; echo "${COMPREPLY[*]}"' _ "$completion")
[ "$words" = "replay" ] || fail "completion of 'framegate re': '$words'"
words=$(bash -c 'source "$1"; COMP_WORDS=(framegate test --up); COMP_CWORD=2; _framegate; echo "${COMPREPLY[*]}"' _ "$completion")
[ "$words" = "--update-golden" ] || fail "completion of 'framegate test --up': '$words'"

# The installed packages: CMake's and pkg-config's.
cmake -S "$src/samples/embed" -B "$tmp/embed" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/embed" >/dev/null
"$tmp/embed/embed" | tail -1
pcdir=$(dirname "$(find "$prefix" -name framegate.pc)")
# pkg-config escapes the space with a backslash, which a shell's $(...) does not undo: the
# compiler is given the prefix through a link.
ln -s "$prefix" "$tmp/prefix"
export PKG_CONFIG_PATH="${pcdir/$prefix/$tmp/prefix}"
[ "$(pkg-config --variable=includedir framegate)" -ef "$prefix/include" ] \
  || fail "pkg-config's includedir $(pkg-config --variable=includedir framegate) is not $prefix/include"
[ "$(pkg-config --variable=libdir framegate)" -ef "$pcdir/.." ] \
  || fail "pkg-config's libdir $(pkg-config --variable=libdir framegate) is not $pcdir/.."
cc -std=c11 "$src/samples/embed/main.c" $(pkg-config --cflags framegate) \
   $(pkg-config --libs-only-L framegate) -Wl,-Bstatic -lframegate -Wl,-Bdynamic -lm -o "$tmp/embed_pc"
"$tmp/embed_pc" | tail -1
[ -n "$(find "$prefix" -path '*/lua/5.4/framegate.so')" ] || fail "no Lua module installed"

# Lua rules from C: a fresh CMake project and a plain cc line give the same run.
cmake -S "$src/tests/install/app" -B "$tmp/app" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/app" >/dev/null
"$tmp/app/app" "$src/samples/duel/rules.lua" >app_cmake.txt
cc -std=c11 "$src/tests/install/app/app.c" $(pkg-config --cflags --libs framegate-lua) \
   -Wl,-rpath,"$(pkg-config --variable=libdir framegate-lua)" -o "$tmp/app_pc"
"$tmp/app_pc" "$src/samples/duel/rules.lua" >app_pc.txt
grep -q "e1 accepted: jab from idle" app_pc.txt || { cat app_pc.txt; fail "app (pkg-config)"; }
cmp -s app_cmake.txt app_pc.txt || fail "the CMake and pkg-config builds of app differ"
cat app_pc.txt

# The ENet transport, where the build has it: framegate::enet and framegate-enet.pc link a
# program that sends a datagram each way over 127.0.0.1.
if [ -n "$(find "$prefix" -name 'libframegate-enet.a')" ]; then
  [ -f "$prefix/include/framegate/enet.h" ] || fail "no framegate/enet.h installed"
  [ -x "$tmp/app/enet_app" ] || fail "framegate::enet missing from the CMake package"
  "$tmp/app/enet_app" >enet_cmake.txt || { cat enet_cmake.txt; fail "enet_app (CMake)"; }
  cc -std=c11 "$src/tests/install/app/enet_app.c" $(pkg-config --cflags --libs framegate-enet) \
     -Wl,-rpath,"$(pkg-config --variable=libdir framegate)" -o "$tmp/enet_pc"
  "$tmp/enet_pc" >enet_pc.txt || { cat enet_pc.txt; fail "enet_app (pkg-config)"; }
  grep -q "node 0 got 'ping' from node 1, node 1 got 'pong' from node 0" enet_pc.txt \
    || { cat enet_pc.txt; fail "enet_app (pkg-config) output"; }
  cmp -s enet_cmake.txt enet_pc.txt || fail "the CMake and pkg-config builds of enet_app differ"
  cat enet_pc.txt
  enet_done=", the ENet transport"
else
  echo "install: this build has no ENet transport (libenet-dev): framegate::enet not checked"
  enet_done=
fi

# embed_lua reloads the rules when the file changes: an edit saved while it runs.
cp "$src/samples/duel/rules.lua" rules.lua
"$tmp/embed/embed_lua" rules.lua --seconds 6 --realtime >embed_lua.txt &
pid=$!
# Edit once it has loaded the rules and runs (a loaded machine may take a while to start it).
for _ in $(seq 200); do grep -q "^embed_lua: rules" embed_lua.txt && break; sleep 0.1; done
sleep 0.5
sed -i 's/startup = 4, active = 2, recovery = 7/startup = 6, active = 2, recovery = 7/' rules.lua
wait "$pid" || { cat embed_lua.txt; fail "embed_lua failed"; }
grep -q "reload: ok, 'duelist' hash [0-9a-f]*; 0 added, 1 changed, 0 removed" embed_lua.txt \
  || { cat embed_lua.txt; fail "embed_lua did not reload the changed rules"; }
grep "reload: ok" embed_lua.txt
echo "install: the CLI (check, test, run, replay) from another folder, library, headers, Lua module, C API for Lua rules${enet_done}, CMake package and pkg-config files work"
