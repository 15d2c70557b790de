-- The Lua module for LuaRocks: `luarocks make` in a checkout builds it with CMake, so the
-- compiler flags determinism relies on (-ffp-contract=off, C11) are the project's own.
rockspec_format = "3.0"
package = "framegate"
version = "0.1.0-1"
source = {
  url = "git+file://.",
}
description = {
  summary = "Deterministic gameplay-logic runtime for action and fighting games",
  detailed = [[
    Input buffer, motion matcher, request layer, action state machines, event dispatcher and
    commit gate in C11, scripted in Lua 5.4: require "framegate".
  ]],
  license = "MIT",
}
dependencies = {
  "lua >= 5.4, < 5.5",
}
build = {
  type = "cmake",
  variables = {
    CMAKE_BUILD_TYPE = "Release",
    CMAKE_INSTALL_PREFIX = "$(PREFIX)",
    -- LuaRocks deploys every file under the rock's lib/ as a Lua C module: the C libraries
    -- (for C programs, not for require) stay in a folder of their own inside the rock.
    CMAKE_INSTALL_LIBDIR = "c-lib",
    FG_INSTALL_LUA_CDIR = "$(LIBDIR)",
    FG_INSTALL_LUA_DIR = "$(LUADIR)",
    FG_CLI = "OFF",
    FG_TESTS = "OFF",
    FG_BENCH = "OFF",
  },
}
