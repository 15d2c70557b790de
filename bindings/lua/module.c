/* SPDX-License-Identifier: MIT */
/*
** module.c: luaopen_framegate, the table `require "framegate"` returns. Each layer's bindings
** add their functions to it through their opener (see fg_lua.h).
*/
#include "fg_lua.h"

int luaopen_framegate(lua_State *L) {
    luaL_checkversion(L);
    lua_newtable(L);
    lua_pushstring(L, fg_version());
    lua_setfield(L, -2, "version");
    fg_lua_open_sandbox(L);
    fg_lua_open_input(L);
    fg_lua_open_motion(L);
    fg_lua_open_gate(L);
    fg_lua_open_view(L);
    fg_lua_open_rules(L);
    fg_lua_open_load(L);
    fg_lua_open_world(L);
    fg_lua_open_replay(L);
    fg_lua_open_locomotion(L);
    fg_lua_open_replication(L);
    fg_lua_open_reload(L);
    fg_lua_open_determinism(L);
    fg_lua_open_session(L);
    return 1;
}

void fg_lua_preload(lua_State *L) {
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_framegate);
    lua_setfield(L, -2, "framegate");
    lua_pop(L, 1);
}
