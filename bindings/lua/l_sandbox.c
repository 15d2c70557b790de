/*
** l_sandbox.c: loading rule files. A rules file is text only (never a binary chunk), runs in an
** environment of its own whose globals do not leak, and must return a ruleset declaration
** (fg.ruleset "name" { ... }). The Rules it produces remember the source text of every file
** read, so a replay can embed exactly what ran.
*/
#include "fg_lua.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs the chunk on top of the stack in a fresh environment and builds the Rules from what it
** returns. The chunk is replaced by the Rules. */
static void run_chunk(lua_State *L, const char *path, const char *text, size_t len) {
    lua_newtable(L);
    lua_newtable(L);
    lua_pushglobaltable(L);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
    lua_setupvalue(L, -2, 1);
    lua_call(L, 0, 1);
    fg_lua_build_rules(L, -1, path);
    lua_remove(L, -2);
    /* rules.sources = { { path =, text = } } */
    lua_getiuservalue(L, -1, 1);
    lua_createtable(L, 1, 0);
    lua_createtable(L, 0, 2);
    lua_pushstring(L, path);
    lua_setfield(L, -2, "path");
    lua_pushlstring(L, text, len);
    lua_setfield(L, -2, "text");
    lua_rawseti(L, -2, 1);
    lua_setfield(L, -2, "sources");
    lua_pop(L, 1);
}

void fg_lua_load_rules_source(lua_State *L, const char *path, const char *text, size_t len) {
    lua_pushfstring(L, "@%s", path);
    if (luaL_loadbufferx(L, text, len, lua_tostring(L, -1), "t") != LUA_OK) lua_error(L);
    lua_remove(L, -2);
    run_chunk(L, path, text, len);
}

void fg_lua_load_rules_file(lua_State *L, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        luaL_error(L, "rules: cannot open '%s'", path);
        return;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) luaL_addlstring(&b, chunk, n);
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        luaL_error(L, "rules: cannot read '%s'", path);
        return;
    }
    luaL_pushresult(&b);
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    fg_lua_load_rules_source(L, path, text, len);
    lua_remove(L, -2);
}
