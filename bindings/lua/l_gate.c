/*
** l_gate.c: Lua bindings of framegate/gate.h.
*/
#include "fg_lua.h"

void fg_lua_open_gate(lua_State *L) { (void)L; }
