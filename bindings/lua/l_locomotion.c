/*
** l_locomotion.c: Lua bindings of framegate/locomotion.h.
*/
#include "fg_lua.h"

void fg_lua_open_locomotion(lua_State *L) { (void)L; }
