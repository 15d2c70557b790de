/* SPDX-License-Identifier: MIT */
/*
** l_query.c: the per-tick input queries of framegate.Entity, built for hosts that poll every
** fighter every tick: action handles, pressed/held/released tests and records filled in place,
** one entity's (e:poll) or every entity's (w:poll), and e:drive's push and advance, one player's
** per-tick calls as plain functions.
**
** An action handle is the C action id (fg_world_action_id), so a name is looked up once, not
** on every query. None of these functions allocates Lua memory once the caller's table has its
** fields: they return booleans and integers, or write into a table the caller keeps.
*/
#include "fg_lua.h"

/* w:action_id(name) / e:action_id(name) -> the handle of a declared action or direction. */
static int world_action_id(lua_State *L) {
    fg_world *w = fg_lua_check_world(L, 1)->w;
    luaL_checktype(L, 2, LUA_TSTRING);
    lua_pushinteger(L, fg_lua_check_action(L, w, 2));
    return 1;
}

static int entity_action_id(lua_State *L) {
    fg_world *w;
    (void)fg_lua_check_entity(L, 1, &w);
    luaL_checktype(L, 2, LUA_TSTRING);
    lua_pushinteger(L, fg_lua_check_action(L, w, 2));
    return 1;
}

/* The last tick's input record of entity e of w, which a restore may have taken away. */
static const fg_tick_input *last_input(lua_State *L, const fg_world *w, fg_entity e) {
    const fg_tick_input *in = fg_world_last_input(w, e);
    if (!in) fg_lua_no_entity(L, w, e);
    return in;
}

/* Pushes whether the action at index 2 (handle or name) is in the last tick's mask chosen by
** `released`. */
static int push_in_mask(lua_State *L, int released) {
    fg_world *w;
    fg_entity e = fg_lua_self_entity(L, &w);
    const fg_tick_input *in = last_input(L, w, e);
    uint32_t bit = 1u << fg_lua_check_action(L, w, 2);
    lua_pushboolean(L, ((released ? in->released : in->pressed) & bit) != 0);
    return 1;
}

/* e:pressed(action) -> whether the last tick consumed a press of action (a direction: entered). */
static int entity_pressed(lua_State *L) { return push_in_mask(L, 0); }

/* e:released(action) -> whether the last tick consumed a release of action. */
static int entity_released(lua_State *L) { return push_in_mask(L, 1); }

/* Writes one tick's record into the table at t: tick, dir and the masks. */
static void fill_record(lua_State *L, int t, const fg_tick_input *in) {
    lua_pushinteger(L, in->tick);
    lua_setfield(L, t, "tick");
    lua_pushinteger(L, in->dir);
    lua_setfield(L, t, "dir");
    lua_pushinteger(L, in->pressed);
    lua_setfield(L, t, "pressed");
    lua_pushinteger(L, in->released);
    lua_setfield(L, t, "released");
    lua_pushinteger(L, in->held);
    lua_setfield(L, t, "held");
}

/* e:poll(t) -> t with tick, dir and the pressed, released and held masks of the last tick
** (bit `1 << handle`), so one call answers every binding. */
static int entity_poll(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_self_entity(L, &w);
    const fg_tick_input *in = last_input(L, w, e);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    fill_record(L, 2, in);
    return 1;
}

/* w:poll(t) -> t with t[id] the record e:poll fills, for every entity: one call a tick for a
** host polling every fighter. The records are made once and reused; entries past the last entity
** (after a restore to fewer) are cleared. */
static int world_poll(lua_State *L) {
    fg_world *w = fg_lua_self_world(L)->w;
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_settop(L, 2);
    lua_Integer n = fg_world_entity_count(w);
    for (lua_Integer id = 1; id <= n; id++) {
        if (lua_rawgeti(L, 2, id) != LUA_TTABLE) {
            lua_pop(L, 1);
            lua_createtable(L, 0, 5);
            lua_pushvalue(L, -1);
            lua_rawseti(L, 2, id);
        }
        fill_record(L, 3, fg_world_last_input(w, (fg_entity)id));
        lua_pop(L, 1);
    }
    for (lua_Integer id = n + 1; lua_rawgeti(L, 2, id) != LUA_TNIL; id++) {
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_rawseti(L, 2, id);
    }
    lua_settop(L, 2);
    return 1;
}

/* e:masks() -> pressed, released, held, dir: the last tick's masks (bit `1 << handle`) and
** numpad direction as plain integers, so a poll costs one call and no table at all. */
static int push_masks(lua_State *L, const fg_tick_input *in) {
    lua_pushinteger(L, in->pressed);
    lua_pushinteger(L, in->released);
    lua_pushinteger(L, in->held);
    lua_pushinteger(L, in->dir);
    return 4;
}

static int entity_masks(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_self_entity(L, &w);
    return push_masks(L, last_input(L, w, e));
}

/* Pushes the list of the world's action names (handle + 1 -> name) as Lua strings, made once per
** world and kept in its store: a record filled every tick takes its names from there, so it never
** creates a string, even when nothing else keeps one alive between ticks. The Entity is at 1. */
static int push_names(lua_State *L, const fg_world *w) {
    lua_getiuservalue(L, 1, 1); /* the World */
    lua_getiuservalue(L, -1, 1); /* its store */
    lua_remove(L, -2);
    if (lua_getfield(L, -1, "names") != LUA_TTABLE) {
        lua_pop(L, 1);
        const fg_action_names *names = fg_world_action_names(w);
        lua_createtable(L, (int)names->count, 0);
        for (uint32_t a = 0; a < names->count; a++) {
            const char *name = fg_action_names_get(names, (int)a);
            if (!name) continue;
            lua_pushstring(L, name);
            lua_rawseti(L, -2, (lua_Integer)a + 1);
        }
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, "names");
    }
    lua_remove(L, -2);
    return lua_gettop(L);
}

/* Fills the list t[field] (made once, then reused) with the names in mask, and clears the rest
** of the list. */
static void fill_names(lua_State *L, int names, const char *field, uint32_t mask) {
    if (lua_getfield(L, 2, field) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 4, 0);
        lua_pushvalue(L, -1);
        lua_setfield(L, 2, field);
    }
    lua_Integer k = 0;
    for (int a = 0; a < FG_INPUT_MAX_ACTIONS; a++)
        if (mask & (1u << a)) {
            if (lua_rawgeti(L, names, a + 1) == LUA_TNIL) lua_pop(L, 1);
            else lua_rawseti(L, -2, ++k);
        }
    while (lua_rawgeti(L, -1, k + 1) != LUA_TNIL) {
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_rawseti(L, -2, ++k);
    }
    lua_pop(L, 2);
}

/* e:input_into(t) -> t filled like e:input() returns, reusing t and its lists. */
static int entity_input_into(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    luaL_checktype(L, 2, LUA_TTABLE);
    const fg_tick_input *in = fg_world_last_input(w, e);
    lua_settop(L, 2);
    int names = push_names(L, w);
    lua_pushinteger(L, in->tick);
    lua_setfield(L, 2, "tick");
    fill_names(L, names, "pressed", in->pressed);
    fill_names(L, names, "released", in->released);
    fill_names(L, names, "held", in->held);
    lua_pushinteger(L, in->dir);
    lua_setfield(L, 2, "dir");
    lua_settop(L, 2);
    return 1;
}

/* {====================================================================== e:drive() */

/* The two functions e:drive() returns are closures over the Entity (upvalue 1, which keeps its
** World alive), and advance over its World too (upvalue 2). Called as plain functions, they skip
** what a method call costs on every call: the method's lookup through the metatable and the check
** of `self`. */

/* The open world of the driven entity, and the entity's record in it. */
static fg_lua_entity *driven(lua_State *L) {
    fg_lua_entity *le = lua_touserdata(L, lua_upvalueindex(1));
    if (!le->lw->w) luaL_error(L, "attempt to use an entity of a closed world");
    return le;
}

/* push(action, down, time_us): a press of action (a handle or a name) when down is true, a
** release when false, at time_us; as e:press and e:release. */
static int drive_push(lua_State *L) {
    const fg_lua_entity *le = driven(L);
    fg_world *w = le->lw->w;
    int a = fg_lua_check_action(L, w, 1);
    if (!lua_isboolean(L, 2))
        luaL_typeerror(L, 2, "boolean (true for a press, false for a release)");
    int64_t t = fg_lua_check_time(L, 3);
    fg_error err; /* every failure writes it (the runtime's contract) */
    fg_status st = lua_toboolean(L, 2) ? fg_world_press(w, le->id, a, t, FG_SOURCE_SCRIPT, &err)
                                       : fg_world_release(w, le->id, a, t, FG_SOURCE_SCRIPT, &err);
    return st == FG_OK ? 0 : fg_lua_raise(L, &err);
}

/* advance() -> pressed, released, held, dir: one tick as w:advance() runs it, then the entity's
** masks as e:masks() returns them. An entity a restore took away is refused before the tick. */
static int drive_advance(lua_State *L) {
    fg_lua_entity *le = driven(L);
    fg_lua_world *lw = le->lw;
    /* The record lives in the world's entity array, which never moves, and a tick takes no
    ** entity away: found before the tick, it is the tick's record after it. */
    const fg_tick_input *in = last_input(L, lw->w, le->id);
    lua_pushvalue(L, lua_upvalueindex(2));
    fg_error err; /* every failure of the step writes it (the runtime's contract) */
    if (fg_lua_world_step_open(L, lw, lua_gettop(L), false, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return push_masks(L, in);
}

/* e:drive() -> push, advance: the two calls a host makes for one player every tick, as plain
** functions bound to e. */
static int entity_drive(lua_State *L) {
    fg_world *w;
    (void)fg_lua_check_entity(L, 1, &w);
    lua_settop(L, 1);
    lua_getiuservalue(L, 1, 1); /* the World */
    lua_pushvalue(L, 1);
    lua_pushcclosure(L, drive_push, 1);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, drive_advance, 2);
    return 2;
}

/* }====================================================================== */

void fg_lua_open_queries(lua_State *L) {
    static const luaL_Reg world_fns[] = {
        {"action_id", world_action_id}, {"poll", world_poll}, {NULL, NULL},
    };
    static const luaL_Reg entity_fns[] = {
        {"action_id", entity_action_id}, {"pressed", entity_pressed},
        {"released", entity_released},   {"poll", entity_poll},  {"masks", entity_masks},
        {"input_into", entity_input_into}, {"drive", entity_drive}, {NULL, NULL},
    };
    fg_lua_add_methods(L, FG_LUA_WORLD_T, world_fns);
    fg_lua_add_methods(L, FG_LUA_ENTITY_T, entity_fns);
}
