/* SPDX-License-Identifier: MIT */
/*
** l_files.c: reading the files a ruleset is made of, as an attacker could arrange them. A file is
** opened without blocking and read only if it is a regular file (a FIFO would hold the load for
** good, a device forever); an include must resolve, symlinks followed, to a place inside the real
** folder of the ruleset, so a link cannot carry a load out of it.
*/
#define _DEFAULT_SOURCE /* realpath */
#include "fg_lua.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool fg_lua_read_file(lua_State *L, const char *path) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        lua_pushstring(L, strerror(errno));
        return false;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        lua_pushstring(L, S_ISDIR(st.st_mode) ? "it is a folder"
                                               : "not a regular file (a FIFO, socket or device)");
        return false;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (;;) {
        char *p = luaL_prepbuffer(&b);
        ssize_t n = read(fd, p, LUAL_BUFFERSIZE);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int failed = n < 0 ? errno : 0;
            close(fd);
            luaL_pushresult(&b);
            if (!failed) return true;
            lua_pop(L, 1);
            lua_pushstring(L, strerror(failed));
            return false;
        }
        luaL_addsize(&b, (size_t)n);
    }
}

bool fg_lua_check_inside(lua_State *L, const char *root, const char *path) {
    char *real_root = realpath(root && *root ? root : ".", NULL);
    char *real = realpath(path, NULL);
    bool inside = true;
    if (real_root && real) { /* a path that does not resolve fails when it is read */
        size_t n = strlen(real_root);
        inside = strncmp(real, real_root, n) == 0 && (real[n] == '/' || n == 1);
        if (!inside)
            lua_pushfstring(L, "it resolves to '%s', outside the ruleset's folder '%s' (links may "
                               "not lead out of it)", real, real_root);
    }
    free(real_root);
    free(real);
    return inside;
}
