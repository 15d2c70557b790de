/*
** fg_lua.h: shared declarations of the Lua bindings. The bindings translate between Lua values
** and the runtime's structs; they never decide gameplay.
*/
#ifndef FG_LUA_H
#define FG_LUA_H

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "framegate.h"

/* Opens the module table (what `require "framegate"` returns). [-0, +1, m] */
int luaopen_framegate(lua_State *L);

/* Registers the module in package.preload so scripts of a host state can require it. [-0, +0, m] */
void fg_lua_preload(lua_State *L);

#endif
