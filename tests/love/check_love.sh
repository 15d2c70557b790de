#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The LOVE sample, headless: `love samples/love --frames N` under xvfb-run plays the scripted
# keyboard input through LOVE's own loop (update and draw every frame) and prints the final state
# hash; the same script under plain LuaJIT (samples/love/headless.lua) must print the same line,
# and the scripted jab must have landed (e2 lost health).
# Usage: check_love.sh SOURCE_DIR FFI_HEADER LIBRARY FRAMES
set -euo pipefail
src=$1 header=$2 lib=$3 frames=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
luajit "$src/samples/love/headless.lua" --header "$header" --lib "$lib" --frames "$frames" \
  >"$tmp/luajit.txt"
# LOVE wants a writable home for its save folder.
HOME="$tmp" timeout 120 xvfb-run -a love "$src/samples/love" --header "$header" --lib "$lib" \
  --frames "$frames" >"$tmp/love.txt" 2>"$tmp/love.err" || { cat "$tmp/love.err"; exit 1; }
cat "$tmp/love.txt"
final=$(grep "state hash" "$tmp/love.txt") || { echo "love printed no state hash"; cat "$tmp/love.err"; exit 1; }
expected=$(grep "state hash" "$tmp/luajit.txt")
[ "$final" = "$expected" ] || { echo "LOVE: $final"; echo "LuaJIT: $expected"; exit 1; }
cmp -s "$tmp/love.txt" "$tmp/luajit.txt" || { echo "the committed events differ"; exit 1; }
echo "$final" | grep -qE "e2 health ([0-9]{1,2}|[0-8][0-9]{2}|9[0-9]{2})," \
  || { echo "the scripted attacks did not land: $final"; exit 1; }
echo "love: the headless run equals the LuaJIT run"
