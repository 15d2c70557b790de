/* placeholder */
#include "fg_lua.h"
void fg_lua_open_reload(lua_State *L) { (void)L; }
