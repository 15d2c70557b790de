/*
** l_world.c: Lua bindings of framegate/world.h.
*/
#include "fg_lua.h"

void fg_lua_open_world(lua_State *L) { (void)L; }
