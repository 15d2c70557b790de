/*
** module.c: luaopen_framegate, the table `require "framegate"` returns. Each layer's bindings
** add their functions here; the metatables of every userdata are registered on open.
*/
#include "fg_lua.h"

static int l_version(lua_State *L) {
    lua_pushstring(L, fg_version());
    return 1;
}

static const luaL_Reg module_funcs[] = {
    {"runtime_version", l_version},
    {NULL, NULL},
};

int luaopen_framegate(lua_State *L) {
    luaL_newlib(L, module_funcs);
    lua_pushstring(L, fg_version());
    lua_setfield(L, -2, "version");
    return 1;
}

void fg_lua_preload(lua_State *L) {
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_framegate);
    lua_setfield(L, -2, "framegate");
    lua_pop(L, 1);
}
