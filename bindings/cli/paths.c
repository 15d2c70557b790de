/* SPDX-License-Identifier: MIT */
/*
** paths.c: where the CLI's Lua scripts are. Nothing here is an absolute path fixed at build
** time: the scripts are looked for relative to the running executable, so one binary works from
** any working directory and from any install prefix (a relocated or unpacked install included).
**
**   $FG_SCRIPTS                        when set, and only then: a developer's override
**   <exe dir>/FG_SCRIPTS_RELDIR        an installed tree (bin/ -> share/lua/5.4 by default)
**   <exe dir>/scripts                  the build tree (CMake links it to the source's scripts/)
*/
#define _DEFAULT_SOURCE /* realpath, readlink */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#ifndef FG_SCRIPTS_RELDIR
#define FG_SCRIPTS_RELDIR "../share/lua/5.4"
#endif

/* The path the system gives for the running executable (Linux: /proc/self/exe), grown until
** it fits. Pushes it, or nothing when the system does not say. [-0, +0|1, m] */
static int push_proc_exe(lua_State *L) {
    size_t size = 256;
    for (;;) {
        char *buf = lua_newuserdatauv(L, size, 0);
        ssize_t n = readlink("/proc/self/exe", buf, size);
        if (n < 0) {
            lua_pop(L, 1);
            return 0;
        }
        if ((size_t)n < size) {
            lua_pushlstring(L, buf, (size_t)n);
            lua_remove(L, -2);
            return 1;
        }
        lua_pop(L, 1);
        size *= 2;
    }
}

static int is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* argv[0] as a shell found it: a path when it has a slash, else the first match on $PATH.
** Pushes it, or nothing. [-0, +0|1, m] */
static int push_argv0(lua_State *L, const char *argv0) {
    if (!argv0 || !*argv0) return 0;
    if (strchr(argv0, '/')) {
        lua_pushstring(L, argv0);
        return 1;
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        if (len) lua_pushlstring(L, path, len);
        else lua_pushliteral(L, ".");
        lua_pushfstring(L, "%s/%s", lua_tostring(L, -1), argv0);
        lua_remove(L, -2);
        if (is_file(lua_tostring(L, -1)) && access(lua_tostring(L, -1), X_OK) == 0) return 1;
        lua_pop(L, 1);
        path = end ? end + 1 : NULL;
    }
    return 0;
}

/* Replaces the path on top with the same path, symbolic links resolved (as it is when it
** cannot be). [-1, +1, m] */
static void to_real(lua_State *L) {
    char *real = realpath(lua_tostring(L, -1), NULL);
    if (real) {
        lua_pop(L, 1);
        lua_pushstring(L, real);
        free(real);
    }
}

/* Replaces the path on top with its real folder. [-1, +1, m] */
static void to_real_dir(lua_State *L) {
    to_real(L);
    const char *p = lua_tostring(L, -1);
    const char *slash = strrchr(p, '/');
    if (!slash) {
        lua_pop(L, 1);
        lua_pushliteral(L, ".");
    } else {
        lua_pushlstring(L, p, slash == p ? 1 : (size_t)(slash - p));
        lua_remove(L, -2);
    }
}

/* True (and the folder left on top) when dir holds framegate/cli.lua; else pops it. */
static int has_scripts(lua_State *L) {
    lua_pushfstring(L, "%s/framegate/cli.lua", lua_tostring(L, -1));
    int found = is_file(lua_tostring(L, -1));
    lua_pop(L, 1);
    if (!found) lua_pop(L, 1);
    return found;
}

void fg_cli_push_scripts_dir(lua_State *L, const char *argv0) {
    const char *env = getenv("FG_SCRIPTS");
    if (env && *env) {
        lua_pushstring(L, env);
        if (has_scripts(L)) {
            lua_pushnil(L);
            return;
        }
        luaL_pushfail(L);
        lua_pushfstring(L, "FG_SCRIPTS=%s: no framegate/cli.lua there (unset it to use the "
                           "scripts installed with this program)", env);
        return;
    }
    if (!push_proc_exe(L) && !push_argv0(L, argv0)) {
        luaL_pushfail(L);
        lua_pushliteral(L, "cannot tell where this program is, so not where its Lua scripts "
                           "are; set FG_SCRIPTS to the folder holding framegate/cli.lua");
        return;
    }
    to_real_dir(L);
    int exe_dir = lua_gettop(L);
    lua_pushfstring(L, "%s/" FG_SCRIPTS_RELDIR, lua_tostring(L, exe_dir));
    if (has_scripts(L)) goto found;
    lua_pushfstring(L, "%s/scripts", lua_tostring(L, exe_dir));
    if (has_scripts(L)) goto found;
    lua_pushfstring(L, "no framegate/cli.lua in %s/" FG_SCRIPTS_RELDIR " or %s/scripts (is the "
                       "installation complete? FG_SCRIPTS names another folder)",
                    lua_tostring(L, exe_dir), lua_tostring(L, exe_dir));
    lua_remove(L, exe_dir);
    luaL_pushfail(L);
    lua_insert(L, -2);
    return;
found:
    to_real(L); /* messages name the real files, not the build tree's link */
    lua_remove(L, exe_dir);
    lua_pushnil(L);
}
