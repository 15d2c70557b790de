/*
** fg_lua.h: shared declarations of the Lua bindings. The bindings translate between Lua values
** and the runtime's structs; they never decide gameplay.
**
** Each layer's bindings live in their own l_<layer>.c and expose one opener that adds the
** layer's functions to the module table on top of the stack and registers its metatables.
*/
#ifndef FG_LUA_H
#define FG_LUA_H

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "framegate.h"

/* Opens the module table (what `require "framegate"` returns). [-0, +1, m] */
int luaopen_framegate(lua_State *L);

/* Registers the module in package.preload so scripts of a host state can require it. [-0, +0, m] */
void fg_lua_preload(lua_State *L);

/* Layer openers: each adds fields to the module table at the top of the stack. [-0, +0, m] */
void fg_lua_open_input(lua_State *L);
void fg_lua_open_motion(lua_State *L);
void fg_lua_open_gate(lua_State *L);
void fg_lua_open_world(lua_State *L);
void fg_lua_open_replay(lua_State *L);
void fg_lua_open_locomotion(lua_State *L);
void fg_lua_open_replication(lua_State *L);

/* {====================================================================== worlds */

#define FG_LUA_WORLD_T "framegate.World"
#define FG_LUA_ENTITY_T "framegate.Entity"

/* The World userdata. */
typedef struct fg_lua_world {
    fg_world *w;
} fg_lua_world;

/* Checks that idx is an open World. [-0, +0, v] */
fg_lua_world *fg_lua_check_world(lua_State *L, int idx);
/* Pushes an Entity userdata for id, tied to the World at world_idx. [-0, +1, m] */
void fg_lua_push_entity(lua_State *L, int world_idx, fg_entity id);

/* }====================================================================== */

/* {====================================================================== helpers */

/* Creates metatable tname (with __name) whose __index is a table of methods, plus the given
** metamethods (__gc, __tostring, ...). Leaves nothing on the stack. [-0, +0, m] */
void fg_lua_class(lua_State *L, const char *tname, const luaL_Reg *methods, const luaL_Reg *meta);

/* Raises err's message as a Lua error positioned at the calling Lua code. [-0, +0, v] */
int fg_lua_raise(lua_State *L, const fg_error *err);

/* Reads an optional integer field of the table at index t; errors name the field. [-0, +0, v] */
lua_Integer fg_lua_opt_int_field(lua_State *L, int t, const char *field, lua_Integer def);
/* Reads an optional number field. [-0, +0, v] */
lua_Number fg_lua_opt_num_field(lua_State *L, int t, const char *field, lua_Number def);
/* Reads an optional string field (pointer valid while the table is alive). [-0, +0, v] */
const char *fg_lua_opt_str_field(lua_State *L, int t, const char *field, const char *def);
/* Reads an optional boolean field. [-0, +0, v] */
int fg_lua_opt_bool_field(lua_State *L, int t, const char *field, int def);

/* }====================================================================== */

#endif
