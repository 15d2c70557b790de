/*
** main.c: `framegate-play`, the playtest window. The same Lua host as the `framegate` command
** line, with the framegate.sdl module preloaded; the session itself is framegate.play.
** `framegate-play lua FILE` runs a script with both modules available (the window's tests).
*/
#include <string.h>

#include "fg_lua.h"
#include "play.h"

int main(int argc, char **argv) {
    lua_State *L = fg_lua_host_new("framegate-play");
    if (!L) return 1;
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    lua_pushcfunction(L, luaopen_framegate_sdl);
    lua_setfield(L, -2, "framegate.sdl");
    lua_pop(L, 1);
    int code;
    if (argc >= 2 && strcmp(argv[1], "lua") == 0) {
        code = fg_lua_host_script(L, argc, argv, "framegate-play");
    } else {
        fg_lua_host_args(L, argc, argv, 0);
        code = fg_lua_host_main(L, "framegate.play", argc, argv, "framegate-play");
    }
    lua_close(L);
    return code;
}
