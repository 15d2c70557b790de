/*
** l_motion.c: Lua bindings of framegate/motion.h.
*/
#include "fg_lua.h"

void fg_lua_open_motion(lua_State *L) { (void)L; }
