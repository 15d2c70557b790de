#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# framegate developer entry point.
#   bash tools/dev.sh run    install what is missing, build, run the main sample
#   bash tools/dev.sh test   install what is missing, build with -Werror and run every test, then
#                            rebuild under ASan+UBSan and run every test again
#   bash tools/dev.sh deps   only install what is missing
#   bash tools/dev.sh bench  build in Release and run every benchmark (bench --smoke: a tiny run)
#   bash tools/dev.sh icount instructions per fighter-tick (callgrind) against the baseline;
#                            icount --update rewrites tests/bench/baseline/icount.txt
set -euo pipefail
cd "$(dirname "$0")/.."

MAIN_SAMPLE=${FG_MAIN_SAMPLE:-samples/duel}
JOBS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)

# Each entry: a Debian package and the check that proves it is present.
need_packages() {
  local missing=()
  command -v cmake >/dev/null       || missing+=(cmake)
  command -v cc >/dev/null          || missing+=(gcc)
  command -v make >/dev/null        || missing+=(make)
  command -v pkg-config >/dev/null  || missing+=(pkg-config)
  command -v lua5.4 >/dev/null      || missing+=(lua5.4)
  [ -f /usr/include/lua5.4/lua.h ]  || missing+=(liblua5.4-dev)
  [ -f /usr/share/lua/5.4/luaunit.lua ] || missing+=(lua-unit)
  [ -f /usr/include/cmocka.h ]      || missing+=(libcmocka-dev)
  command -v luacheck >/dev/null    || missing+=(lua-check)
  [ -f /usr/share/lua/5.4/argparse.lua ] || missing+=(lua-argparse)
  # The ENet transport (framegate netplay over UDP); optional for the library.
  [ -f /usr/include/enet/enet.h ]   || missing+=(libenet-dev)
  # The playtest window (framegate-play) and its headless tests; optional for the library.
  [ -f /usr/include/SDL2/SDL.h ]    || missing+=(libsdl2-dev)
  # LuaJIT and LOVE for the FFI header and the LOVE sample, xvfb to run the windows without a
  # display, luarocks for the rockspec's check.
  command -v luajit >/dev/null      || missing+=(luajit)
  command -v love >/dev/null        || missing+=(love)
  command -v xvfb-run >/dev/null    || missing+=(xvfb)
  command -v luarocks >/dev/null    || missing+=(luarocks)
  # callgrind counts the tick's instructions for the CI check against the committed baseline.
  command -v valgrind >/dev/null    || missing+=(valgrind)
  echo "${missing[@]:-}"
}

deps() {
  local missing
  missing=$(need_packages)
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "framegate: installing missing Debian packages: $missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 \
      || { apt-get update >/dev/null 2>&1 && apt-get install -y --no-install-recommends $missing >/dev/null; }
  elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
    echo "framegate: installing missing Debian packages with sudo: $missing"
    sudo apt-get install -y --no-install-recommends $missing >/dev/null
  else
    echo "framegate: missing packages: $missing" >&2
    echo "framegate: install them with: apt-get install $missing" >&2
    exit 1
  fi
}

build() { # preset: configure and build quietly; show the log only when something went wrong
  mkdir -p build
  local log="build/$1.log"
  if ! { cmake --preset "$1" && cmake --build --preset "$1" -j "$JOBS"; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "framegate: the $1 build failed (log: $log)" >&2
    return 1
  fi
  grep -E 'warning:' "$log" >&2 || true
}

# Every benchmark in name order (C programs from build/release/tests, Lua ones through the CLI),
# then the stress pipeline's instruction counts under callgrind, each under an "== name" line.
# Paths are relative and the machine is described first, so the output can be committed.
run_benchmarks() {
  echo "== machine"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') x $(getconf _NPROCESSORS_ONLN)"
  echo "compiler: $(cc --version | head -n1), release preset (link-time optimisation)"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  local found=0 b s n
  for b in build/release/tests/bench_*; do
    [ -x "$b" ] && [ -f "$b" ] || continue
    found=1
    echo "== $(basename "$b")"
    "$b" "$@"
  done
  [ "$found" = 1 ] || { echo "framegate: no benchmark was built in build/release/tests" >&2; return 1; }
  for s in tests/bench/bench_*.lua; do
    echo "== $(basename "$s" .lua)"
    ./build/release/framegate lua "$s" "$@"
  done
  echo "== icount"
  if ! command -v valgrind >/dev/null; then
    echo "valgrind is missing: no instruction counts (Debian package valgrind)"
  else
    # Fighters and ticks per size: a few hundred thousand fighter-ticks at most under callgrind.
    for n in 2:1800 100:600 1000:300 3000:150 10000:90; do
      [ "${1:-}" = --smoke ] && n=4:60
      lua5.4 tools/icount.lua build/release/tests/bench_stress --build Release-lto \
        --fighters "${n%%:*}" --ticks "${n##*:}" --hash-share | grep -E '^(instructions|state hash)'
      [ "${1:-}" = --smoke ] && break
    done
  fi
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
}

case "${1:-}" in
  deps) deps ;;
  run)
    deps
    build default
    exec ./build/default/framegate run "$MAIN_SAMPLE"
    ;;
  test)
    deps
    build ci
    ctest --preset ci -j "$JOBS" --timeout 600 || status=$?
    if [ -z "${FG_SKIP_SANITIZERS:-}" ]; then
      echo "== again under AddressSanitizer + UBSan =="
      build asan
      ctest --preset asan -j "$JOBS" --timeout 900 || status=$?
    fi
    exit "${status:-0}"
    ;;
  bench)
    deps
    build release
    if [ "${2:-}" = --smoke ]; then
      run_benchmarks --smoke
    else
      # The full run is the committed baseline; the README's and docs' figures are generated from
      # it (tools/bench_table.lua; CTest lint.bench_table fails when they differ).
      run_benchmarks | tee build/release/bench.txt
      cp build/release/bench.txt tests/bench/baseline/bench.txt
      lua5.4 tools/bench_table.lua --write
    fi
    ;;
  icount)
    deps
    build ci
    # The CTest entry knows the build's identity; FG_ICOUNT_UPDATE=1 makes it write the baseline.
    [ "${2:-}" = --update ] && export FG_ICOUNT_UPDATE=1
    ctest --preset ci -R '^perf\.instructions_per_fighter_tick$' -V | grep -E '^[0-9]+: ' \
      | grep -vE '^[0-9]+: (Test command|Working Directory|Test timeout)' | sed 's/^[0-9]*: //'
    exit "${PIPESTATUS[0]}"
    ;;
  *)
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
