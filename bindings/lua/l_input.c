/* SPDX-License-Identifier: MIT */
/*
** l_input.c: Lua bindings of framegate/input.h and framegate/loop.h: notation helpers, stick
** shaping for experiments, and the fixed-step loop (framegate.Loop).
*/
#include "fg_lua.h"

#include <math.h>
#include <string.h>

#define LOOP_T "framegate.Loop"

/* fg.tick_of_us(us, rate) -> tick. [-2, +1, v] */
static int l_tick_of_us(lua_State *L) {
    lua_Integer us = luaL_checkinteger(L, 1);
    lua_Integer rate = luaL_optinteger(L, 2, FG_TICK_RATE_DEFAULT);
    if (rate < 1 || rate > FG_TICK_RATE_MAX)
        fg_lua_range_error(L, "rate", rate, 1, FG_TICK_RATE_MAX, "Hz");
    lua_pushinteger(L, fg_tick_of_us(us, (uint32_t)rate));
    return 1;
}

/* fg.us_of_tick(tick, rate) -> first microsecond of the tick. [-2, +1, v] */
static int l_us_of_tick(lua_State *L) {
    lua_Integer t = luaL_checkinteger(L, 1);
    lua_Integer rate = luaL_optinteger(L, 2, FG_TICK_RATE_DEFAULT);
    if (rate < 1 || rate > FG_TICK_RATE_MAX)
        fg_lua_range_error(L, "rate", rate, 1, FG_TICK_RATE_MAX, "Hz");
    lua_pushinteger(L, fg_us_of_tick(t, (uint32_t)rate));
    return 1;
}

/* fg.ms(n) -> microseconds. [-1, +1, v] */
static int l_ms(lua_State *L) {
    /* +-2^53 us: every integer there is exact as a double. */
    lua_Number ms = fg_lua_check_finite(L, 1, "fg.ms", -9007199254740.992, 9007199254740.992);
    lua_pushinteger(L, (lua_Integer)llround(ms * 1000.0));
    return 1;
}

/* fg.relative(numpad, "left"|"right") -> numpad mirrored for a left-facing entity. [-2, +1, v] */
static int l_relative(lua_State *L) {
    lua_Integer n = luaL_checkinteger(L, 1);
    static const char *const facings[] = {"right", "left", NULL};
    int f = luaL_checkoption(L, 2, "right", facings);
    luaL_argcheck(L, n >= 1 && n <= 9, 1, "numpad direction 1..9 expected");
    lua_pushinteger(L, fg_numpad_relative((int)n, (fg_facing)f));
    return 1;
}

/* fg.stick(x, y, {deadzone=, outer=, exponent=, threshold=}) -> x, y, numpad. [-3, +3, v] */
static int l_stick(lua_State *L) {
    fg_vec2 raw = {(float)luaL_checknumber(L, 1), (float)luaL_checknumber(L, 2)}, out;
    fg_stick_config c = fg_stick_config_default();
    if (!lua_isnoneornil(L, 3)) {
        luaL_checktype(L, 3, LUA_TTABLE);
        c.deadzone = (float)fg_lua_opt_num_field(L, 3, "deadzone", c.deadzone);
        c.outer = (float)fg_lua_opt_num_field(L, 3, "outer", c.outer);
        c.exponent = (float)fg_lua_opt_num_field(L, 3, "exponent", c.exponent);
        c.direction_threshold =
            (float)fg_lua_opt_num_field(L, 3, "threshold", c.direction_threshold);
    }
    fg_error err = {0};
    if (fg_stick_config_check(&c, &err) != FG_OK || fg_stick_shape(raw, &c, &out, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    lua_pushnumber(L, out.x);
    lua_pushnumber(L, out.y);
    lua_pushinteger(L, fg_numpad_of_vec(out, c.direction_threshold));
    return 3;
}

/* {====================================================================== Loop */

static fg_loop *check_loop(lua_State *L) { return luaL_checkudata(L, 1, LOOP_T); }

/* fg.loop{rate=60, max_frame_us=250000} -> Loop. [-1, +1, v] */
static int l_loop(lua_State *L) {
    fg_loop_config c = fg_loop_config_default();
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        c.tick_rate = (uint32_t)fg_lua_range_field(L, 1, "rate", c.tick_rate, 1, FG_TICK_RATE_MAX);
        c.max_frame_us = fg_lua_opt_int_field(L, 1, "max_frame_us", c.max_frame_us);
    }
    fg_loop *l = lua_newuserdatauv(L, sizeof *l, 0);
    fg_error err = {0};
    if (fg_loop_init(l, &c, &err) != FG_OK) return fg_lua_raise(L, &err);
    luaL_setmetatable(L, LOOP_T);
    return 1;
}

/* loop:frame(host_now_us) -> ticks due. [-2, +1, v] */
static int loop_frame(lua_State *L) {
    fg_loop *l = check_loop(L);
    uint32_t due;
    fg_error err = {0};
    if (fg_loop_frame(l, luaL_checkinteger(L, 2), &due, &err) != FG_OK) return fg_lua_raise(L, &err);
    lua_pushinteger(L, due);
    return 1;
}

static int loop_tick_done(lua_State *L) {
    fg_loop_tick_done(check_loop(L));
    return 0;
}

static int loop_map(lua_State *L) {
    fg_loop *l = check_loop(L);
    lua_pushinteger(L, fg_loop_map_time(l, luaL_checkinteger(L, 2)));
    return 1;
}

static int loop_alpha(lua_State *L) {
    lua_pushnumber(L, fg_loop_alpha(check_loop(L)));
    return 1;
}

static int loop_due(lua_State *L) {
    lua_pushinteger(L, fg_loop_due(check_loop(L)));
    return 1;
}

/* loop:stats() -> {frames, sim_us, clamped_us, clamped_frames, ticks}. [-1, +1, m] */
static int loop_stats(lua_State *L) {
    fg_loop *l = check_loop(L);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, (lua_Integer)l->frames);
    lua_setfield(L, -2, "frames");
    lua_pushinteger(L, l->sim_us);
    lua_setfield(L, -2, "sim_us");
    lua_pushinteger(L, l->clamped_us);
    lua_setfield(L, -2, "clamped_us");
    lua_pushinteger(L, (lua_Integer)l->clamped_frames);
    lua_setfield(L, -2, "clamped_frames");
    lua_pushinteger(L, l->ticks_done);
    lua_setfield(L, -2, "ticks");
    return 1;
}

static int loop_tostring(lua_State *L) {
    fg_loop *l = check_loop(L);
    lua_pushfstring(L, "framegate.Loop (%d Hz, %d ticks, %d us clamped)", (int)l->tick_rate,
                    (int)l->ticks_done, (int)l->clamped_us);
    return 1;
}

static int loop_gc(lua_State *L) {
    (void)L; /* plain data: nothing to release */
    return 0;
}

/* }====================================================================== */

void fg_lua_open_input(lua_State *L) {
    static const luaL_Reg funcs[] = {
        {"tick_of_us", l_tick_of_us}, {"us_of_tick", l_us_of_tick}, {"ms", l_ms},
        {"relative", l_relative},     {"stick", l_stick},           {"loop", l_loop},
        {NULL, NULL},
    };
    static const luaL_Reg loop_methods[] = {
        {"frame", loop_frame}, {"tick_done", loop_tick_done}, {"map", loop_map},
        {"alpha", loop_alpha}, {"due", loop_due},             {"stats", loop_stats},
        {NULL, NULL},
    };
    static const luaL_Reg loop_meta[] = {
        {"__tostring", loop_tostring}, {"__gc", loop_gc}, {NULL, NULL},
    };
    luaL_setfuncs(L, funcs, 0);
    fg_lua_class(L, LOOP_T, loop_methods, loop_meta);
}
