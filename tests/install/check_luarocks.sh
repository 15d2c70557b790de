#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The rockspec: `luarocks make` builds the module with the project's CMake (so its flags, such as
# -ffp-contract=off, are kept) into a temporary tree, and the stock interpreter requires it from
# there, with the Lua scripts beside it. Usage: check_luarocks.sh SOURCE_DIR
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# luarocks builds in the source folder: give it a copy.
mkdir "$tmp/src"
for part in CMakeLists.txt LICENSE cmake runtime bindings scripts tools framegate-*.rockspec; do
  cp -R "$src"/$part "$tmp/src/"
done
cd "$tmp/src"
luarocks --lua-version 5.4 make --tree "$tmp/tree" framegate-*.rockspec >"$tmp/make.log" 2>&1 \
  || { cat "$tmp/make.log"; exit 1; }
grep -q -- "-ffp-contract=off" "$tmp/src/build.luarocks/CMakeFiles/fg_runtime_objects.dir/flags.make" \
  || { echo "the rock was not built with the project's flags"; exit 1; }
cd "$tmp"
eval "$(luarocks --lua-version 5.4 --tree "$tmp/tree" path)"
TREE="$tmp/tree" lua5.4 -e '
  local fg = require "framegate"
  local where = package.searchpath("framegate", package.cpath)
  assert(where and where:find(os.getenv("TREE"), 1, true), "framegate.so not from the tree: " .. tostring(where))
  local scenario = require "framegate.scenario"
  assert(type(scenario.new) == "function")
  local w = fg.world { rules = fg.ruleset "rock" { actions = { idle = { neutral = true, loop = true } } } }
  w:spawn {}
  w:run(10)
  print("luarocks: framegate " .. fg.version .. " from " .. where .. ", tick " .. w:tick())
'
