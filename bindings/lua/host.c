/*
** host.c: what every program embedding the framegate Lua module needs to run a script the way
** the stock interpreter would: a state with the standard libraries and the module preloaded,
** the shipped scripts on package.path, the arg table, and protected calls that print the error
** with a traceback and turn a numeric result into an exit code. The `framegate` command line
** and the `framegate-play` window both start here.
*/
#include <stdio.h>
#include <stdlib.h>

#include "fg_lua.h"

#ifndef FG_SCRIPTS_DIR
#define FG_SCRIPTS_DIR "scripts"
#endif
#ifndef FG_INSTALL_SCRIPTS_DIR
#define FG_INSTALL_SCRIPTS_DIR "/usr/local/share/lua/5.4"
#endif

/* Message handler: adds a traceback to string errors, as the stock interpreter does. */
static int msghandler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

/* Puts the scripts folder first on package.path: FG_SCRIPTS from the environment, else the
** source tree this binary was built from, else the install location. */
static void add_script_path(lua_State *L) {
    const char *dirs[3] = {getenv("FG_SCRIPTS"), FG_SCRIPTS_DIR, FG_INSTALL_SCRIPTS_DIR};
    lua_getglobal(L, "package");
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 0; i < 3; i++) {
        if (!dirs[i] || !*dirs[i]) continue;
        lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;", dirs[i], dirs[i]);
        luaL_addvalue(&b);
    }
    lua_getfield(L, -2, "path");
    luaL_addvalue(&b);
    luaL_pushresult(&b);
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
}

lua_State *fg_lua_host_new(const char *program) {
    lua_State *L = luaL_newstate();
    if (!L) {
        fprintf(stderr, "%s: cannot create a Lua state (out of memory)\n", program);
        return NULL;
    }
    luaL_openlibs(L);
    fg_lua_preload(L);
    add_script_path(L);
    return L;
}

void fg_lua_host_args(lua_State *L, int argc, char **argv, int script) {
    lua_createtable(L, argc - script - 1, script + 1);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i - script);
    }
    lua_setglobal(L, "arg");
}

int fg_lua_host_call(lua_State *L, int nargs, const char *program) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, msghandler);
    lua_insert(L, base);
    int status = lua_pcall(L, nargs, 1, base);
    lua_remove(L, base);
    if (status != LUA_OK) {
        fprintf(stderr, "%s: %s\n", program, lua_tostring(L, -1));
        lua_pop(L, 1);
        return 1;
    }
    /* A numeric result is the exit code. */
    int code = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 0;
    lua_pop(L, 1);
    return code;
}

int fg_lua_host_main(lua_State *L, const char *module, int argc, char **argv, const char *program) {
    lua_getglobal(L, "require");
    lua_pushstring(L, module);
    if (fg_lua_host_call(L, 1, program) != 0) return 1;
    lua_getglobal(L, "require");
    lua_pushstring(L, module);
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "main");
    lua_remove(L, -2);
    for (int i = 1; i < argc; i++) lua_pushstring(L, argv[i]);
    return fg_lua_host_call(L, argc - 1, program);
}

int fg_lua_host_script(lua_State *L, int argc, char **argv, const char *program) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s lua FILE [ARGS...]\n", program);
        return 2;
    }
    fg_lua_host_args(L, argc, argv, 2);
    if (luaL_loadfilex(L, argv[2], "t") != LUA_OK) {
        fprintf(stderr, "%s: %s\n", program, lua_tostring(L, -1));
        lua_pop(L, 1);
        return 1;
    }
    int n = 0;
    for (int i = 3; i < argc; i++, n++) lua_pushstring(L, argv[i]);
    return fg_lua_host_call(L, n, program);
}
