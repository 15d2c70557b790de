/*
** main.c: the `framegate` command-line host. It embeds Lua with the framegate module preloaded.
** `framegate lua FILE ...` runs a script in a full (unsandboxed) state, as the test host does;
** every other command (run, check, test, watch, replay, synctest, trace, play) is implemented in
** scripts/framegate/cli.lua on top of the module.
*/
#include <string.h>

#include "fg_lua.h"

int main(int argc, char **argv) {
    lua_State *L = fg_lua_host_new("framegate");
    if (!L) return 1;
    int code;
    if (argc >= 2 && strcmp(argv[1], "lua") == 0) {
        code = fg_lua_host_script(L, argc, argv, "framegate");
    } else {
        fg_lua_host_args(L, argc, argv, 0);
        code = fg_lua_host_main(L, "framegate.cli", argc, argv, "framegate");
    }
    lua_close(L);
    return code;
}
