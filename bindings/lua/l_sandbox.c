/*
** l_sandbox.c: loading rule files. A rules file is text only (never a binary chunk), runs in an
** environment of its own whose globals do not leak, and must return a ruleset declaration
** (fg.ruleset "name" { ... }).
*/
#include "fg_lua.h"

#include <string.h>

void fg_lua_load_rules_file(lua_State *L, const char *path) {
    lua_pushfstring(L, "@%s", path);
    const char *chunkname = lua_tostring(L, -1);
    (void)chunkname;
    lua_pop(L, 1);
    if (luaL_loadfilex(L, path, "t") != LUA_OK) lua_error(L);
    /* A fresh environment over the standard globals; writes stay in it. */
    lua_newtable(L);
    lua_newtable(L);
    lua_pushglobaltable(L);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    lua_setupvalue(L, -2, 1);
    lua_call(L, 0, 1);
    fg_lua_build_rules(L, -1, path);
    lua_remove(L, -2);
}
