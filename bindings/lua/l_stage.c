/* SPDX-License-Identifier: MIT */
/*
** l_stage.c: the stage in Lua: reading a stage table (a ruleset's `stage`, w:stage{...}) into an
** fg_stage with the field reader, so every error names its path; the stage back as a table; the
** world's ground mode and an entity's support.
**
**   stage = { floor = 0, walls = { -400, 400 },
**             platforms = { { x = -60, y = 80, w = 120, one_way = true } },
**             blocks = { { x = 200, y = 0, w = 40, h = 60 } } }
*/
#include "fg_lua.h"

#include <math.h>
#include <string.h>

/* Element i of the list on top as a distance in units (fixed point). */
static fg_fx read_fx_at(fg_lua_reader *rd, int t, lua_Integer i, fg_fx def) {
    lua_State *L = rd->L;
    fg_fx v = def;
    size_t old = fg_lua_reader_push(rd, "[%lld]", (long long)i);
    char buf[80];
    if (lua_geti(L, t, i) != LUA_TNUMBER)
        fg_lua_reader_note(rd, "expected a number, got %s",
                           fg_lua_describe_value(L, -1, buf, sizeof buf));
    else if (!isfinite(lua_tonumber(L, -1)) || fabs(lua_tonumber(L, -1)) > 30000.0)
        fg_lua_reader_note(rd, "%s, expected a finite value within +-30000",
                           fg_lua_describe_value(L, -1, buf, sizeof buf));
    else
        v = (fg_fx)lround(lua_tonumber(L, -1) * FG_FX_ONE);
    lua_pop(L, 1);
    fg_lua_reader_pop(rd, old);
    return v;
}

/* A list field of at most max tables; returns its length (-1 when absent) and leaves it on the
** stack (nil when absent). */
static int open_list(fg_lua_reader *rd, int t, const char *k, uint32_t max, const char *what) {
    lua_State *L = rd->L;
    if (!fg_lua_reader_get(rd, t, k)) return -1;
    size_t old = fg_lua_reader_push(rd, ".%s", k);
    fg_lua_reader_table(rd, -1, what);
    lua_Integer n = luaL_len(L, -1);
    if (n > (lua_Integer)max) fg_lua_reader_fail(rd, "%lld entries, at most %u", (long long)n, max);
    fg_lua_reader_pop(rd, old);
    return (int)n;
}

void fg_lua_read_stage(fg_lua_reader *rd, int t, fg_stage *s) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    static const char *const fields[] = {"floor", "walls", "platforms", "blocks", NULL};
    static const char *const pfields[] = {"x", "y", "w", "one_way", NULL};
    static const char *const bfields[] = {"x", "y", "w", "h", NULL};
    fg_lua_reader_table(rd, t, "{ floor =, walls = { left, right }, platforms =, blocks = }");
    fg_lua_reader_only(rd, t, fields);
    s->floor = fg_lua_read_fx(rd, t, "floor", s->floor);
    if (fg_lua_reader_get(rd, t, "walls")) {
        size_t old = fg_lua_reader_push(rd, ".walls");
        fg_lua_reader_table(rd, -1, "{ left, right }");
        if (luaL_len(L, -1) != 2)
            fg_lua_reader_note(rd, "%lld values, expected 2: { left, right }",
                               (long long)luaL_len(L, -1));
        s->wall_min = read_fx_at(rd, lua_gettop(L), 1, s->wall_min);
        s->wall_max = read_fx_at(rd, lua_gettop(L), 2, s->wall_max);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    int n = open_list(rd, t, "platforms", FG_STAGE_MAX_PLATFORMS,
                      "a list of { x =, y =, w =, one_way = }");
    if (n >= 0) s->nplatforms = (uint32_t)n;
    for (uint32_t i = 0; n > 0 && i < s->nplatforms; i++) {
        size_t old = fg_lua_reader_push(rd, ".platforms[%u]", i + 1);
        lua_geti(L, -1, i + 1);
        fg_lua_reader_table(rd, -1, "{ x =, y =, w =, one_way = }");
        fg_lua_reader_only(rd, -1, pfields);
        fg_platform *p = &s->platforms[i];
        p->x = fg_lua_read_fx(rd, -1, "x", 0);
        p->y = fg_lua_read_fx(rd, -1, "y", 0);
        p->w = fg_lua_read_fx(rd, -1, "w", 0);
        p->one_way = fg_lua_read_bool(rd, -1, "one_way", true);
        lua_pop(L, 1);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    n = open_list(rd, t, "blocks", FG_STAGE_MAX_BLOCKS, "a list of { x =, y =, w =, h = }");
    if (n >= 0) s->nblocks = (uint32_t)n;
    for (uint32_t i = 0; n > 0 && i < s->nblocks; i++) {
        size_t old = fg_lua_reader_push(rd, ".blocks[%u]", i + 1);
        lua_geti(L, -1, i + 1);
        fg_lua_reader_table(rd, -1, "{ x =, y =, w =, h = }");
        fg_lua_reader_only(rd, -1, bfields);
        fg_block *b = &s->blocks[i];
        b->x = fg_lua_read_fx(rd, -1, "x", 0);
        b->y = fg_lua_read_fx(rd, -1, "y", 0);
        b->w = fg_lua_read_fx(rd, -1, "w", 0);
        b->h = fg_lua_read_fx(rd, -1, "h", 0);
        lua_pop(L, 1);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    /* What the table's types allowed may still be out of the stage's ranges. */
    char path[64], msg[160];
    if (fg_stage_problem(s, path, sizeof path, msg, sizeof msg)) {
        size_t old = fg_lua_reader_push(rd, "%s", path + strlen("stage"));
        fg_lua_reader_note(rd, "%s", msg);
        fg_lua_reader_pop(rd, old);
    }
}

static void set_fx(lua_State *L, const char *k, fg_fx v) {
    lua_pushnumber(L, (lua_Number)v / FG_FX_ONE);
    lua_setfield(L, -2, k);
}

void fg_lua_push_stage(lua_State *L, const fg_stage *s) {
    lua_createtable(L, 0, 4);
    set_fx(L, "floor", s->floor);
    lua_createtable(L, 2, 0);
    lua_pushnumber(L, (lua_Number)s->wall_min / FG_FX_ONE);
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, (lua_Number)s->wall_max / FG_FX_ONE);
    lua_rawseti(L, -2, 2);
    lua_setfield(L, -2, "walls");
    lua_createtable(L, (int)s->nplatforms, 0);
    for (uint32_t i = 0; i < s->nplatforms; i++) {
        lua_createtable(L, 0, 4);
        set_fx(L, "x", s->platforms[i].x);
        set_fx(L, "y", s->platforms[i].y);
        set_fx(L, "w", s->platforms[i].w);
        lua_pushboolean(L, s->platforms[i].one_way);
        lua_setfield(L, -2, "one_way");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "platforms");
    lua_createtable(L, (int)s->nblocks, 0);
    for (uint32_t i = 0; i < s->nblocks; i++) {
        lua_createtable(L, 0, 4);
        set_fx(L, "x", s->blocks[i].x);
        set_fx(L, "y", s->blocks[i].y);
        set_fx(L, "w", s->blocks[i].w);
        set_fx(L, "h", s->blocks[i].h);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "blocks");
}

/* w:stage() -> the stage table; w:stage{...} replaces it (an edit between ticks; fields left
** out keep their value). [-0, +1, v] */
static int world_stage(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    if (lua_isnoneornil(L, 2)) {
        fg_lua_push_stage(L, fg_world_stage(lw->w));
        return 1;
    }
    fg_stage s = *fg_world_stage(lw->w);
    fg_lua_reader rd;
    fg_lua_reader_callee(&rd, L);
    fg_lua_read_stage(&rd, 2, &s);
    fg_error err = {0};
    if (fg_world_set_stage(lw->w, &s, &err) != FG_OK) return fg_lua_raise(L, &err);
    lua_settop(L, 1);
    return 1;
}

/* w:ground_mode() -> "stage" | "contacts". */
static int world_ground_mode(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    lua_pushstring(L, fg_ground_mode_name(fg_world_ground_mode(lw->w)));
    return 1;
}

/* entity:support() -> "air" | "floor" | "platform N" | "block N" (after the last movement). */
static int entity_support(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    char buf[32];
    fg_stage_support_name(fg_world_support(w, e), buf, sizeof buf);
    lua_pushstring(L, buf);
    return 1;
}

void fg_lua_open_stage(lua_State *L) {
    static const luaL_Reg world_fns[] = {
        {"stage", world_stage}, {"ground_mode", world_ground_mode}, {NULL, NULL}};
    static const luaL_Reg entity_fns[] = {{"support", entity_support}, {NULL, NULL}};
    fg_lua_add_methods(L, FG_LUA_WORLD_T, world_fns);
    fg_lua_add_methods(L, FG_LUA_ENTITY_T, entity_fns);
}
