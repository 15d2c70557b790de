/*
** l_replay.c: Lua bindings of framegate/replay.h.
*/
#include "fg_lua.h"

void fg_lua_open_replay(lua_State *L) { (void)L; }
