#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds samples/embed against it twice: with
# find_package(framegate) and with pkg-config. Then runs both. Usage: check_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/samples/embed" -B "$tmp/embed" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/embed" >/dev/null
"$tmp/embed/embed" | tail -1
libdir=$(ls -d "$tmp/prefix"/lib*/pkgconfig | head -1)
export PKG_CONFIG_PATH="$libdir"
cc -std=c11 "$src/samples/embed/main.c" $(pkg-config --cflags framegate) \
   $(pkg-config --libs-only-L framegate) -Wl,-Bstatic -lframegate -Wl,-Bdynamic -lm -o "$tmp/embed_pc"
"$tmp/embed_pc" | tail -1
test -x "$tmp/prefix/bin/framegate"
ls "$tmp/prefix"/lib*/lua/5.4/framegate.so >/dev/null
test -f "$tmp/prefix/include/framegate.h"
echo "install: library, headers, Lua module, CLI, CMake package and pkg-config file work"
