/*
** l_replication.c: Lua bindings of framegate/replication.h.
*/
#include "fg_lua.h"

void fg_lua_open_replication(lua_State *L) { (void)L; }
