/* SPDX-License-Identifier: MIT */
/*
** l_number.c: numbers that cross from Lua into the runtime. Every one is range-checked here
** before a C cast could wrap it (2^32 + 1 becoming entity 1) or turn NaN into an integer, and the
** message names the argument or field, the value and the range expected.
*/
#include "fg_lua.h"

#include <math.h>
#include <stdio.h>

lua_Integer fg_lua_check_range(lua_State *L, int idx, const char *what, lua_Integer lo,
                               lua_Integer hi) {
    int ok = 0;
    lua_Integer v = lua_tointegerx(L, idx, &ok);
    if (!ok) {
        char buf[64];
        luaL_error(L, "%s: expected an integer, got %s", what,
                   fg_lua_describe_value(L, idx, buf, sizeof buf));
    }
    if (v < lo || v > hi) fg_lua_range_error(L, what, v, lo, hi, NULL);
    return v;
}

lua_Number fg_lua_check_finite(lua_State *L, int idx, const char *what, lua_Number lo,
                               lua_Number hi) {
    int ok = 0;
    lua_Number v = lua_tonumberx(L, idx, &ok);
    if (!ok || !isfinite(v) || v < lo || v > hi) {
        char buf[64], range[64];
        snprintf(range, sizeof range, "%g to %g", lo, hi);
        luaL_error(L, "%s: %s is out of range, expected a finite number from %s", what,
                   fg_lua_describe_value(L, idx, buf, sizeof buf), range);
    }
    return v;
}

fg_fx fg_lua_check_fx(lua_State *L, int idx, const char *what) {
    lua_Number units = (lua_Number)FG_POSITION_MAX / FG_FX_ONE;
    return (fg_fx)lround(fg_lua_check_finite(L, idx, what, -units, units) * FG_FX_ONE);
}

fg_fx fg_lua_fx_field(lua_State *L, int t, const char *field, lua_Number def) {
    lua_Number units = (lua_Number)FG_POSITION_MAX / FG_FX_ONE;
    lua_Number v = fg_lua_opt_num_field(L, t, field, def);
    if (!isfinite(v) || v < -units || v > units) {
        char range[64];
        snprintf(range, sizeof range, "%g to %g", -units, units);
        lua_pushnumber(L, v);
        char buf[64];
        fg_lua_field_error(L, field, "%s is out of range, expected a finite number from %s",
                           fg_lua_describe_value(L, -1, buf, sizeof buf), range);
    }
    return (fg_fx)lround(v * FG_FX_ONE);
}

fg_entity fg_lua_check_entity_id(lua_State *L, int idx, const char *what) {
    return (fg_entity)fg_lua_check_range(L, idx, what, 1, UINT32_MAX);
}

lua_Integer fg_lua_range_field(lua_State *L, int t, const char *field, lua_Integer def,
                               lua_Integer lo, lua_Integer hi) {
    lua_Integer v = fg_lua_opt_int_field(L, t, field, def);
    if (v < lo || v > hi) {
        char range[64];
        fg_lua_range_text(range, sizeof range, lo, hi);
        fg_lua_field_error(L, field, "%lld is out of range, expected %s", (long long)v, range);
    }
    return v;
}
