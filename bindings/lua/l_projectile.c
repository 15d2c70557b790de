/* SPDX-License-Identifier: MIT */
/*
** l_projectile.c: projectiles in Lua. It translates a declaration's `projectiles` and an action's
** `spawn` into the builder's structs (framegate/projectile.h; the validator checks the values),
** and reads a world's live projectiles back.
**
**   projectiles = { fireball = { vx = 4, vy = 0, lifetime = 90, durability = 1, limit = 1,
**                                opens_cancels = true, boxes = { { x =, y =, w =, h = } },
**                                hit = { damage =, hitstun =, ... } } }
**   actions.hadouken.spawn = { "fireball", marker = "spawn", x = 40, y = 60 }
**   w:projectiles()  -> { { id =, owner =, team =, name =, x =, y =, vx =, vy =, facing =,
**                           age =, lifetime =, hits =, durability =, boxes = { ... } }, ... }
**   w:spawn_projectile(p, "fireball", { x =, y =, facing = "left" }) -> id
*/
#include "fg_lua.h"

#include "framegate/projectile.h"

#include <string.h>

/* {====================================================================== declarations */

static void read_projectile(fg_lua_reader *rd, const char *name, fg_ruleset_builder *b) {
    lua_State *L = rd->L;
    static const char *const fields[] = {"vx",         "vy",    "lifetime",      "durability",
                                         "limit",      "boxes", "opens_cancels", "hit",
                                         NULL};
    fg_lua_reader_table(rd, -1, "a projectile { vx =, lifetime =, boxes =, hit = }");
    fg_lua_reader_only(rd, -1, fields);
    fg_projectile_def p = fg_projectile_def_default(name);
    p.vx = fg_lua_read_fx(rd, -1, "vx", 0);
    p.vy = fg_lua_read_fx(rd, -1, "vy", 0);
    p.lifetime = (int32_t)fg_lua_read_int(rd, -1, "lifetime", p.lifetime, -1000000, 1000000);
    p.durability = (int32_t)fg_lua_read_int(rd, -1, "durability", 1, -1000000, 1000000);
    p.limit = (int32_t)fg_lua_read_int(rd, -1, "limit", 0, -1000000, 1000000);
    p.opens_cancels = fg_lua_read_bool(rd, -1, "opens_cancels", false);
    /* A box without `kind` is a hit box; "hurt" boxes are where a fighter's hit box strikes it. */
    fg_lua_read_box_list(rd, -1, p.boxes, &p.nboxes, FG_PROJECTILE_BOXES, p.lifetime + 1,
                         FG_BOX_HIT);
    memset(&p.hit, 0, sizeof p.hit);
    if (fg_lua_reader_get(rd, -1, "hit")) {
        size_t old = fg_lua_reader_push(rd, ".hit");
        fg_lua_reader_table(rd, -1, "{ damage =, hitstun =, blockstun =, hitstop =, ... }");
        fg_lua_read_hit_fields(rd, &p.hit);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    fg_error err = {0};
    if (fg_ruleset_add_projectile(b, &p, &err) != FG_OK) fg_lua_reader_note_error(rd, &err);
}

void fg_lua_read_projectiles(fg_lua_reader *rd, int idx, fg_ruleset_builder *b) {
    lua_State *L = rd->L;
    idx = lua_absindex(L, idx);
    if (!fg_lua_reader_get(rd, idx, "projectiles")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = fg_lua_reader_push(rd, "projectiles");
    fg_lua_reader_table(rd, -1, "{ <name> = { vx =, lifetime =, boxes =, hit = }, ... }");
    int t = lua_gettop(L);
    int n = fg_lua_reader_keys(rd, t);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *k = lua_tostring(L, -1);
        size_t o2 = fg_lua_reader_push(rd, ".%s", k);
        lua_getfield(L, t, k);
        read_projectile(rd, k, b);
        lua_pop(L, 2);
        fg_lua_reader_pop(rd, o2);
    }
    lua_pop(L, 2);
    fg_lua_reader_pop(rd, old);
}

/* spawn = "fireball" or { "fireball", marker =, x =, y = } */
void fg_lua_read_spawn(fg_lua_reader *rd, int t, fg_action_def *a) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    if (!fg_lua_reader_get(rd, t, "spawn")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = fg_lua_reader_push(rd, ".spawn");
    fg_spawn_def *s = &a->spawn;
    if (lua_type(L, -1) == LUA_TSTRING) {
        fg_lua_read_name(rd, t, "spawn", s->projectile, sizeof s->projectile);
    } else {
        fg_lua_reader_table(rd, -1, "a projectile's name or { \"fireball\", marker =, x =, y = }");
        /* The positional name, then the named fields (on a copy without it). */
        lua_rawgeti(L, -1, 1);
        if (lua_type(L, -1) == LUA_TSTRING)
            snprintf(s->projectile, sizeof s->projectile, "%s", lua_tostring(L, -1));
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushnil(L);
        while (lua_next(L, -3)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, -4);
        }
        lua_pushnil(L);
        lua_rawseti(L, -2, 1);
        static const char *const fields[] = {"projectile", "marker", "x", "y", NULL};
        fg_lua_reader_only(rd, -1, fields);
        if (!s->projectile[0])
            fg_lua_read_name(rd, -1, "projectile", s->projectile, sizeof s->projectile);
        if (!s->projectile[0]) fg_lua_reader_note(rd, "names no projectile ({ \"fireball\", ... })");
        fg_lua_read_name(rd, -1, "marker", s->marker, sizeof s->marker);
        s->x = fg_lua_read_fx(rd, -1, "x", 0);
        s->y = fg_lua_read_fx(rd, -1, "y", 0);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    fg_lua_reader_pop(rd, old);
}

/* }====================================================================== */

/* {====================================================================== worlds */

static void set_px(lua_State *L, const char *k, fg_fx v) {
    lua_pushnumber(L, (lua_Number)v / FG_FX_ONE);
    lua_setfield(L, -2, k);
}

static void set_int(lua_State *L, const char *k, lua_Integer v) {
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static void push_boxes(lua_State *L, const fg_world *w, uint32_t i) {
    fg_placed_box boxes[FG_PROJECTILE_BOXES];
    uint32_t n = fg_world_projectile_boxes(w, i, boxes, FG_PROJECTILE_BOXES);
    lua_createtable(L, (int)n, 0);
    for (uint32_t k = 0; k < n && k < FG_PROJECTILE_BOXES; k++) {
        lua_createtable(L, 0, 6);
        lua_pushstring(L, fg_box_kind_name((fg_box_kind)boxes[k].kind));
        lua_setfield(L, -2, "kind");
        set_px(L, "x0", boxes[k].rect.x0);
        set_px(L, "y0", boxes[k].rect.y0);
        set_px(L, "x1", boxes[k].rect.x1);
        set_px(L, "y1", boxes[k].rect.y1);
        set_int(L, "index", boxes[k].index + 1);
        lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
}

/* w:projectiles() -> the live projectiles, in id order. */
static int world_projectiles(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    uint32_t n = fg_world_projectile_count(lw->w);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        fg_projectile_view v;
        if (!fg_world_projectile_at(lw->w, i, &v)) break;
        lua_createtable(L, 0, 16);
        set_int(L, "id", v.id);
        fg_lua_push_entity(L, 1, v.owner);
        lua_setfield(L, -2, "owner");
        set_int(L, "team", v.team);
        lua_pushstring(L, v.name);
        lua_setfield(L, -2, "name");
        lua_pushstring(L, v.facing == FG_FACING_LEFT ? "left" : "right");
        lua_setfield(L, -2, "facing");
        set_px(L, "x", v.x);
        set_px(L, "y", v.y);
        set_px(L, "vx", v.vx);
        set_px(L, "vy", v.vy);
        set_px(L, "prev_x", v.prev_x);
        set_px(L, "prev_y", v.prev_y);
        set_int(L, "age", v.age);
        set_int(L, "lifetime", v.lifetime);
        set_int(L, "hits", v.hits);
        set_int(L, "durability", v.durability);
        push_boxes(L, lw->w, i);
        lua_setfield(L, -2, "boxes");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

/* w:spawn_projectile(owner, name, { x =, y =, facing = }) -> id: a host's spawn (an edit). */
static int world_spawn_projectile(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    fg_world *ew;
    fg_entity owner = fg_lua_check_entity(L, 2, &ew);
    luaL_argcheck(L, ew == lw->w, 2, "the owner must be in this world");
    const char *name = luaL_checkstring(L, 3);
    fg_fx x, y;
    fg_world_position(lw->w, owner, &x, &y);
    fg_facing facing = fg_world_facing(lw->w, owner);
    if (!lua_isnoneornil(L, 4)) {
        luaL_checktype(L, 4, LUA_TTABLE);
        if (lua_getfield(L, 4, "x") != LUA_TNIL) x = fg_lua_check_fx(L, -1, "spawn_projectile x");
        if (lua_getfield(L, 4, "y") != LUA_TNIL) y = fg_lua_check_fx(L, -1, "spawn_projectile y");
        if (lua_getfield(L, 4, "facing") != LUA_TNIL) {
            static const char *const facings[] = {"right", "left", NULL};
            facing = (fg_facing)luaL_checkoption(L, -1, NULL, facings);
        }
        lua_pop(L, 3);
    }
    uint32_t id = 0;
    fg_error err = {0};
    if (fg_world_spawn_projectile(lw->w, owner, name, x, y, facing, &id, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    lua_pushinteger(L, id);
    return 1;
}

void fg_lua_open_projectiles(lua_State *L) {
    static const luaL_Reg methods[] = {{"projectiles", world_projectiles},
                                       {"spawn_projectile", world_spawn_projectile},
                                       {NULL, NULL}};
    luaL_getmetatable(L, FG_LUA_WORLD_T);
    lua_getfield(L, -1, "__index");
    luaL_setfuncs(L, methods, 0);
    lua_pop(L, 2);
}

/* }====================================================================== */
