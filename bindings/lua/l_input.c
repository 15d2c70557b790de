/*
** l_input.c: Lua bindings of framegate/input.h.
*/
#include "fg_lua.h"

void fg_lua_open_input(lua_State *L) { (void)L; }
