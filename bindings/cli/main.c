/* SPDX-License-Identifier: MIT */
/*
** main.c: the `framegate` command-line host. It embeds Lua with the framegate module preloaded.
** `framegate lua FILE ...` runs a script in a full (unsandboxed) state, as the test host does;
** every other command (run, check, test, watch, play, replay, synctest, trace) is implemented in
** scripts/framegate/cli.lua on top of the module, found relative to this executable (paths.c).
** The same host, built with FG_CLI_MODULE and FG_CLI_PRELOAD, is `framegate-play`: its
** commands are framegate.play's, with the window module preloaded.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fg_lua.h"

#ifndef FG_CLI_MODULE
#define FG_CLI_MODULE "framegate.cli"
#endif
#ifdef FG_CLI_PRELOAD
void FG_CLI_PRELOAD(lua_State *L); /* registers the host's own modules in package.preload */
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

/* Puts the scripts folder (paths.c) first on package.path. Returns 0, or prints why the
** scripts cannot be found and returns 1. */
static int add_script_path(lua_State *L, const char *argv0) {
    fg_cli_push_scripts_dir(L, argv0);
    if (lua_isstring(L, -1)) {
        fprintf(stderr, "framegate: %s\n", lua_tostring(L, -1));
        lua_pop(L, 2);
        return 1;
    }
    lua_pop(L, 1);
    const char *dir = lua_tostring(L, -1);
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "path");
    lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;%s", dir, dir, lua_tostring(L, -1));
    lua_setfield(L, -3, "path");
    lua_pop(L, 3);
    return 0;
}

/* arg table as the stock interpreter builds it: arg[0] = script, arg[1..] = its arguments. */
static void set_args(lua_State *L, int argc, char **argv, int script) {
    lua_createtable(L, argc - script - 1, script + 1);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i - script);
    }
    lua_setglobal(L, "arg");
}

static int run_protected(lua_State *L, int nargs) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, msghandler);
    lua_insert(L, base);
    int status = lua_pcall(L, nargs, 1, base);
    lua_remove(L, base);
    if (status != LUA_OK) {
        fprintf(stderr, "framegate: %s\n", lua_tostring(L, -1));
        lua_pop(L, 1);
        return 1;
    }
    /* A numeric result is the exit code. */
    int code = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 0;
    lua_pop(L, 1);
    return code;
}

static int run_script(lua_State *L, int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "framegate lua: which script? usage: framegate lua FILE [ARGS...]\n");
        return 2;
    }
    set_args(L, argc, argv, 2);
    if (luaL_loadfilex(L, argv[2], "t") != LUA_OK) {
        fprintf(stderr, "framegate: %s\n", lua_tostring(L, -1));
        return 1;
    }
    int n = 0;
    for (int i = 3; i < argc; i++, n++) lua_pushstring(L, argv[i]);
    return run_protected(L, n);
}

/* Every other command goes to framegate.cli's (FG_CLI_MODULE's) main(argv...). */
static int run_cli(lua_State *L, int argc, char **argv) {
    set_args(L, argc, argv, 0);
    lua_getglobal(L, "require");
    lua_pushstring(L, FG_CLI_MODULE);
    if (run_protected(L, 1) != 0) return 1;
    lua_getglobal(L, "require");
    lua_pushstring(L, FG_CLI_MODULE);
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "main");
    lua_remove(L, -2);
    for (int i = 1; i < argc; i++) lua_pushstring(L, argv[i]);
    return run_protected(L, argc - 1);
}

int main(int argc, char **argv) {
    lua_State *L = luaL_newstate();
    if (!L) {
        fprintf(stderr, "framegate: cannot create a Lua state (out of memory)\n");
        return 1;
    }
    luaL_openlibs(L);
    fg_lua_preload(L);
    fg_cli_preload_fs(L);
#ifdef FG_CLI_PRELOAD
    FG_CLI_PRELOAD(L);
#endif
    int code = 1;
    /* `framegate lua FILE` runs FILE; `framegate lua --help` is the CLI's help for it. */
    int script = argc >= 3 && strcmp(argv[1], "lua") == 0 && strcmp(argv[2], "-h") != 0 &&
                 strcmp(argv[2], "--help") != 0;
    if (add_script_path(L, argc > 0 ? argv[0] : NULL) == 0)
        code = script ? run_script(L, argc, argv) : run_cli(L, argc, argv);
    lua_close(L);
    return code;
}
