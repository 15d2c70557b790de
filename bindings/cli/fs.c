/* SPDX-License-Identifier: MIT */
/*
** fs.c: the little file-system access the CLI's Lua commands need (list a folder, tell a folder
** from a file), as the preloaded module `framegate.fs`. The commands never shell out: a path
** with quotes or spaces is just a path here. Only the host has it; the sandbox never sees it.
*/
#define _DEFAULT_SOURCE /* opendir, stat */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* fs.kind(path): "directory", "file", "other", or nil and the system's message. */
static int fs_kind(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    struct stat st;
    if (stat(path, &st) != 0) {
        luaL_pushfail(L);
        lua_pushfstring(L, "%s: %s", path, strerror(errno));
        return 2;
    }
    lua_pushstring(L, S_ISDIR(st.st_mode) ? "directory" : S_ISREG(st.st_mode) ? "file" : "other");
    return 1;
}

/* A DIR handle owned by a to-be-closed userdata, so an error while listing cannot leak it. */
typedef struct fs_dir {
    DIR *d;
} fs_dir;

static int fs_dir_close(lua_State *L) {
    fs_dir *h = luaL_checkudata(L, 1, "framegate.fs_dir");
    if (h->d) closedir(h->d);
    h->d = NULL;
    return 0;
}

static int fs_dir_tostring(lua_State *L) {
    fs_dir *h = luaL_checkudata(L, 1, "framegate.fs_dir");
    lua_pushstring(L, h->d ? "framegate.fs_dir (open)" : "framegate.fs_dir (closed)");
    return 1;
}

/* fs.dir(path): the names in a folder (without . and ..), sorted bytewise; nil, message when it
** cannot be read. */
static int fs_list(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    fs_dir *h = lua_newuserdatauv(L, sizeof *h, 0);
    h->d = NULL;
    luaL_setmetatable(L, "framegate.fs_dir");
    lua_toclose(L, -1);
    h->d = opendir(path);
    if (!h->d) {
        luaL_pushfail(L);
        lua_pushfstring(L, "%s: %s", path, strerror(errno));
        return 2;
    }
    lua_newtable(L);
    lua_Integer n = 0;
    struct dirent *e;
    while ((e = readdir(h->d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        lua_pushstring(L, e->d_name);
        lua_rawseti(L, -2, ++n);
    }
    lua_getglobal(L, "table");
    lua_getfield(L, -1, "sort");
    lua_pushvalue(L, -3);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    return 1;
}

static int luaopen_fs(lua_State *L) {
    static const luaL_Reg meta[] = {
        {"__gc", fs_dir_close}, {"__close", fs_dir_close}, {"__tostring", fs_dir_tostring},
        {NULL, NULL}};
    if (luaL_newmetatable(L, "framegate.fs_dir")) luaL_setfuncs(L, meta, 0);
    lua_pop(L, 1);
    static const luaL_Reg funcs[] = {{"dir", fs_list}, {"kind", fs_kind}, {NULL, NULL}};
    luaL_newlib(L, funcs);
    return 1;
}

void fg_cli_preload_fs(lua_State *L) {
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_fs);
    lua_setfield(L, -2, "framegate.fs");
    lua_pop(L, 1);
}
