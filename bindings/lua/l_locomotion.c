/* SPDX-License-Identifier: MIT */
/*
** l_locomotion.c: Lua bindings of framegate/locomotion.h. One userdata, framegate.locomotion,
** carries a config and one entity's persistent state; :step(input) runs a tick and returns the
** signals as a table (filled into the caller's table when one is given, so a per-tick loop does
** not make garbage). Field names are those of the C structs, so error messages match what the
** script wrote.
*/
#include <math.h>
#include <string.h>

#include "fg_lua.h"

#define LOCO_MT "framegate.Locomotion"

typedef struct l_loco {
    fg_loco_config cfg;
    fg_loco_state st;
    uint32_t rate;
} l_loco;

static l_loco *check_loco(lua_State *L, int i) { return luaL_checkudata(L, i, LOCO_MT); }

/* {====================================================================== config from a table */

static const char *const config_fields[] = {
    "rate",          "forward_limit_deg", "backward_limit_deg", "dead_zone_deg", "hysteresis",
    "move_speed",    "accel_threshold",   "pivot_min_ticks",    "pivot_min_time",
    "pivot_turn_deg", "wall_ticks",       "wall_time",          "wall_speed",
    "braking_deceleration", NULL};

/* Seconds to ticks, to the nearest tick: `wall_time = 0.2` or `wall_ticks = 12`, not both. */
static uint32_t ticks_field(fg_lua_reader *rd, int t, const char *ticks_name,
                            const char *time_name, uint32_t rate, uint32_t def, uint32_t lo) {
    lua_State *L = rd->L;
    bool has_ticks = lua_getfield(L, t, ticks_name) != LUA_TNIL;
    bool has_time = lua_getfield(L, t, time_name) != LUA_TNIL;
    lua_pop(L, 2);
    if (has_ticks && has_time)
        luaL_error(L, "locomotion: give %s or %s, not both", ticks_name, time_name);
    if (!has_time) return (uint32_t)fg_lua_read_int(rd, t, ticks_name, def, lo, UINT16_MAX);
    lua_Number sec = fg_lua_read_num(rd, t, time_name, 0, -HUGE_VAL, HUGE_VAL);
    double ticks = floor(sec * rate + 0.5);
    if (!(ticks >= lo && ticks <= UINT16_MAX))
        luaL_error(L, "locomotion.%s: %f s is %f ticks at %I Hz, out of range, expected %I-%I "
                   "ticks", time_name, (lua_Number)sec, (lua_Number)ticks, (LUAI_UACINT)rate,
                   (LUAI_UACINT)lo, (LUAI_UACINT)UINT16_MAX);
    return (uint32_t)ticks;
}

static float num_field(fg_lua_reader *rd, int t, const char *field, float def) {
    return (float)fg_lua_read_num(rd, t, field, def, -HUGE_VAL, HUGE_VAL);
}

/* Reads a config table (or none: the defaults at 60 Hz) into out; raises on any error. */
static void read_config(lua_State *L, int t, fg_loco_config *out, uint32_t *rate_out) {
    uint32_t rate = FG_TICK_RATE_DEFAULT;
    if (lua_isnoneornil(L, t)) {
        *out = fg_loco_config_default(rate);
        *rate_out = rate;
        return;
    }
    luaL_checktype(L, t, LUA_TTABLE);
    t = lua_absindex(L, t);
    fg_lua_check_fields(L, t, "locomotion", config_fields);
    fg_lua_reader rd;
    fg_lua_reader_init(&rd, L, "locomotion", NULL);
    rate = (uint32_t)fg_lua_read_int(&rd, t, "rate", FG_TICK_RATE_DEFAULT, 1, FG_TICK_RATE_MAX);
    fg_loco_config c = fg_loco_config_default(rate);
    c.forward_limit_deg = num_field(&rd, t, "forward_limit_deg", c.forward_limit_deg);
    c.backward_limit_deg = num_field(&rd, t, "backward_limit_deg", c.backward_limit_deg);
    c.dead_zone_deg = num_field(&rd, t, "dead_zone_deg", c.dead_zone_deg);
    const char *hy = fg_lua_read_str(&rd, t, "hysteresis", "one_way");
    int h = fg_loco_hysteresis_parse(hy);
    if (h < 0)
        luaL_error(L, "locomotion.hysteresis: '%s', expected one_way or both_ways", hy);
    c.hysteresis = (fg_loco_hysteresis)h;
    c.move_speed = num_field(&rd, t, "move_speed", c.move_speed);
    c.accel_threshold = num_field(&rd, t, "accel_threshold", c.accel_threshold);
    c.pivot_min_ticks = ticks_field(&rd, t, "pivot_min_ticks", "pivot_min_time", rate,
                                    c.pivot_min_ticks, 0);
    c.pivot_turn_deg = num_field(&rd, t, "pivot_turn_deg", c.pivot_turn_deg);
    c.wall_ticks = ticks_field(&rd, t, "wall_ticks", "wall_time", rate, c.wall_ticks, 1);
    c.wall_speed = num_field(&rd, t, "wall_speed", c.wall_speed);
    c.braking_deceleration = num_field(&rd, t, "braking_deceleration", c.braking_deceleration);
    lua_remove(L, rd.box);
    fg_error err = {0};
    if (fg_loco_config_check(&c, &err) != FG_OK) fg_lua_raise(L, &err);
    *out = c;
    *rate_out = rate;
}

static void push_config(lua_State *L, const fg_loco_config *c, uint32_t rate) {
    lua_createtable(L, 0, 11);
    lua_pushinteger(L, rate);
    lua_setfield(L, -2, "rate");
#define NUM(f)                                                                                   \
    lua_pushnumber(L, c->f);                                                                     \
    lua_setfield(L, -2, #f)
#define INT(f)                                                                                   \
    lua_pushinteger(L, c->f);                                                                    \
    lua_setfield(L, -2, #f)
    NUM(forward_limit_deg);
    NUM(backward_limit_deg);
    NUM(dead_zone_deg);
    lua_pushstring(L, fg_loco_hysteresis_name(c->hysteresis));
    lua_setfield(L, -2, "hysteresis");
    NUM(move_speed);
    NUM(accel_threshold);
    INT(pivot_min_ticks);
    NUM(pivot_turn_deg);
    INT(wall_ticks);
    NUM(wall_speed);
    NUM(braking_deceleration);
#undef NUM
#undef INT
}

/* }====================================================================== */

/* {====================================================================== cardinals */

static fg_cardinal check_cardinal(lua_State *L, int i) {
    const char *name = luaL_checkstring(L, i);
    int c = fg_cardinal_parse(name);
    if (c < 0)
        luaL_error(L, "cardinal: '%s' is not one of Forward, Right, Backward, Left", name);
    return (fg_cardinal)c;
}

/* fg.locomotion_warp(angle, cardinal) -> normalise(angle - base(cardinal)) */
static int l_warp(lua_State *L) {
    float a = (float)luaL_checknumber(L, 1);
    lua_pushnumber(L, fg_loco_warp_angle(a, check_cardinal(L, 2)));
    return 1;
}

/* fg.locomotion_normalize(angle) -> angle in (-180, 180] */
static int l_normalize(lua_State *L) {
    lua_pushnumber(L, fg_loco_normalize_deg((float)luaL_checknumber(L, 1)));
    return 1;
}

/* }====================================================================== */

/* {====================================================================== the userdata */

/* fg.locomotion([config]) */
static int l_new(lua_State *L) {
    fg_loco_config cfg;
    uint32_t rate;
    read_config(L, 1, &cfg, &rate);
    l_loco *lo = lua_newuserdatauv(L, sizeof *lo, 0);
    lo->cfg = cfg;
    lo->rate = rate;
    fg_loco_state_init(&lo->st);
    luaL_setmetatable(L, LOCO_MT);
    return 1;
}

static const char *const input_fields[] = {"vx", "vy", "ax", "ay", "yaw", "aim", "strafe",
                                           "airborne", NULL};

static void set_bool(lua_State *L, const char *k, bool v) {
    lua_pushboolean(L, v);
    lua_setfield(L, -2, k);
}

static void set_num(lua_State *L, const char *k, lua_Number v) {
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

/* loco:step{vx=, vy=, ax=, ay=, yaw=, aim=, strafe=, airborne=} [, out] -> out */
static int l_step(lua_State *L) {
    l_loco *lo = check_loco(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    if (!lua_isnoneornil(L, 3)) luaL_checktype(L, 3, LUA_TTABLE);
    fg_lua_check_fields(L, 2, "locomotion input", input_fields);
    fg_loco_input in;
    memset(&in, 0, sizeof in);
    in.velocity.x = (float)fg_lua_opt_num_field(L, 2, "vx", 0.0f);
    in.velocity.y = (float)fg_lua_opt_num_field(L, 2, "vy", 0.0f);
    in.acceleration.x = (float)fg_lua_opt_num_field(L, 2, "ax", 0.0f);
    in.acceleration.y = (float)fg_lua_opt_num_field(L, 2, "ay", 0.0f);
    in.actor_yaw = (float)fg_lua_opt_num_field(L, 2, "yaw", 0.0f);
    in.aim_yaw = (float)fg_lua_opt_num_field(L, 2, "aim", in.actor_yaw);
    in.strafe = fg_lua_opt_bool_field(L, 2, "strafe", 0) != 0;
    in.airborne = fg_lua_opt_bool_field(L, 2, "airborne", 0) != 0;
    fg_loco_output o;
    fg_loco_step(&lo->cfg, &lo->st, &in, &o);

    if (lua_istable(L, 3))
        lua_settop(L, 3);
    else
        lua_createtable(L, 0, 24);
    set_num(L, "angle", o.locomotion_angle);
    set_num(L, "warp", o.warp_angle);
    set_num(L, "aim_offset", o.aim_offset);
    set_num(L, "speed", o.speed);
    set_num(L, "stop_distance", o.stop_distance);
    lua_pushstring(L, fg_cardinal_name((fg_cardinal)o.cardinal));
    lua_setfield(L, -2, "cardinal");
    lua_pushstring(L, fg_dir8_name((fg_dir8)o.dir8));
    lua_setfield(L, -2, "dir8");
    lua_pushinteger(L, o.pivot_id);
    lua_setfield(L, -2, "pivot_id");
    static const struct {
        uint32_t bit;
        const char *name;
    } flags[] = {
        {FG_LOCO_MOVING, "moving"},
        {FG_LOCO_ACCELERATING, "accelerating"},
        {FG_LOCO_AIRBORNE, "airborne"},
        {FG_LOCO_STRAFE, "strafe"},
        {FG_LOCO_START, "start"},
        {FG_LOCO_STOPPING, "stopping"},
        {FG_LOCO_STOP, "stop"},
        {FG_LOCO_PIVOT, "pivot"},
        {FG_LOCO_PIVOT_ENTER, "pivot_enter"},
        {FG_LOCO_PIVOT_REENTER, "pivot_reenter"},
        {FG_LOCO_PIVOT_EXIT, "pivot_exit"},
        {FG_LOCO_PIVOT_CANCEL, "pivot_cancel"},
        {FG_LOCO_WALL, "wall"},
        {FG_LOCO_CARDINAL_CHANGED, "cardinal_changed"},
        {FG_LOCO_BAD_INPUT, "bad_input"},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        set_bool(L, flags[i].name, (o.flags & flags[i].bit) != 0);
    return 1;
}

/* loco:state() -> the persistent state as a table */
static int l_state(lua_State *L) {
    l_loco *lo = check_loco(L, 1);
    lua_createtable(L, 0, 6);
    lua_pushstring(L, fg_cardinal_name((fg_cardinal)lo->st.cardinal));
    lua_setfield(L, -2, "cardinal");
    set_bool(L, "in_pivot", lo->st.in_pivot != 0);
    lua_pushinteger(L, lo->st.pivot_id);
    lua_setfield(L, -2, "pivot_id");
    lua_pushinteger(L, lo->st.pivot_ticks);
    lua_setfield(L, -2, "pivot_ticks");
    lua_pushinteger(L, lo->st.wall_ticks);
    lua_setfield(L, -2, "wall_ticks");
    return 1;
}

/* loco:hash() -> 64-bit hash of the persistent state (an integer) */
static int l_hash(lua_State *L) {
    l_loco *lo = check_loco(L, 1);
    fg_hasher h = fg_hasher_begin(0);
    fg_loco_state_hash(&lo->st, &h);
    lua_pushinteger(L, (lua_Integer)fg_hasher_end(&h));
    return 1;
}

/* loco:reset([cardinal]) */
static int l_reset(lua_State *L) {
    l_loco *lo = check_loco(L, 1);
    fg_cardinal c = lua_isnoneornil(L, 2) ? FG_CARDINAL_FORWARD : check_cardinal(L, 2);
    fg_loco_state_init(&lo->st);
    lo->st.cardinal = (uint8_t)c;
    return 0;
}

/* loco:clone() -> an independent copy, config and state */
static int l_clone(lua_State *L) {
    l_loco *lo = check_loco(L, 1);
    l_loco *cp = lua_newuserdatauv(L, sizeof *cp, 0);
    *cp = *lo;
    luaL_setmetatable(L, LOCO_MT);
    return 1;
}

/* loco:config() -> the config as a table (the names the constructor accepts) */
static int l_config(lua_State *L) {
    l_loco *lo = check_loco(L, 1);
    push_config(L, &lo->cfg, lo->rate);
    return 1;
}

/* loco:cardinal_of(angle, current) -> the trigger alone, with this object's boundaries */
static int l_cardinal_of(lua_State *L) {
    l_loco *lo = check_loco(L, 1);
    float a = (float)luaL_checknumber(L, 2);
    fg_cardinal cur = check_cardinal(L, 3);
    lua_pushstring(L, fg_cardinal_name(fg_loco_cardinal(a, cur, &lo->cfg)));
    return 1;
}

static int l_tostring(lua_State *L) {
    l_loco *lo = check_loco(L, 1);
    if (lo->st.in_pivot)
        lua_pushfstring(L, "framegate.Locomotion (%s, in pivot %d)",
                        fg_cardinal_name((fg_cardinal)lo->st.cardinal), (int)lo->st.pivot_id);
    else
        lua_pushfstring(L, "framegate.Locomotion (%s)",
                        fg_cardinal_name((fg_cardinal)lo->st.cardinal));
    return 1;
}

/* Nothing to release: the state lives inside the userdata. */
static int l_gc(lua_State *L) {
    (void)check_loco(L, 1);
    return 0;
}

/* }====================================================================== */

void fg_lua_open_locomotion(lua_State *L) {
    static const luaL_Reg methods[] = {
        {"step", l_step},     {"state", l_state},   {"hash", l_hash},
        {"reset", l_reset},   {"clone", l_clone},   {"config", l_config},
        {"cardinal_of", l_cardinal_of}, {NULL, NULL}};
    static const luaL_Reg meta[] = {{"__tostring", l_tostring}, {"__gc", l_gc}, {NULL, NULL}};
    fg_lua_class(L, LOCO_MT, methods, meta);
    lua_pushcfunction(L, l_new);
    lua_setfield(L, -2, "locomotion");
    lua_pushcfunction(L, l_warp);
    lua_setfield(L, -2, "locomotion_warp");
    lua_pushcfunction(L, l_normalize);
    lua_setfield(L, -2, "locomotion_normalize");
}
