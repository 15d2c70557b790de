/* SPDX-License-Identifier: MIT */
/*
** l_combat.c: an entity's combat state for Lua: p:combat() (combo, scaled damage, juggle points,
** launch, knockdown, throws, bounces armed), p:boxes([kind]) (the live boxes as the collision
** phase tests them, for a debug draw), and p:team(n) / p:owner(e) (who may hit whom). Reading only translates; the
** state changes through the tick alone (teams and owners are host edits, like positions).
*/
#include "fg_lua.h"

#include <string.h>

static void set_int(lua_State *L, const char *k, lua_Integer v) {
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

/* p:combat() -> { combo =, combo_damage =, juggle =, juggle_limit =, launched =, knockdown =,
**   grabbed_by =, tech_until =, throw_invuln_until =, pushback =, team =, owner =,
**   wall_bounce =, ground_bounce = (the bounces a hit armed and it has not used yet),
**   bounces = (how many the current combo used) } */
static int entity_combat(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    fg_combat_view v;
    fg_error err = {0};
    if (fg_world_combat(w, e, &v, &err) != FG_OK) return fg_lua_raise(L, &err);
    lua_createtable(L, 0, 15);
    set_int(L, "combo", v.combo);
    set_int(L, "combo_damage", v.combo_damage);
    set_int(L, "juggle", v.juggle);
    set_int(L, "juggle_limit", v.juggle_limit);
    lua_pushboolean(L, v.launched);
    lua_setfield(L, -2, "launched");
    lua_pushstring(L, fg_knockdown_name(v.knockdown));
    lua_setfield(L, -2, "knockdown");
    set_int(L, "grabbed_by", v.grabbed_by);
    set_int(L, "tech_until", v.tech_until);
    set_int(L, "throw_invuln_until", v.throw_invuln_until);
    lua_pushnumber(L, (lua_Number)v.pushback_left / FG_FX_ONE);
    lua_setfield(L, -2, "pushback");
    set_int(L, "team", v.team);
    set_int(L, "owner", v.owner);
    lua_pushboolean(L, v.wall_bounce);
    lua_setfield(L, -2, "wall_bounce");
    lua_pushboolean(L, v.ground_bounce);
    lua_setfield(L, -2, "ground_bounce");
    set_int(L, "bounces", v.bounces);
    return 1;
}

static int kind_arg(lua_State *L, int idx) {
    static const char *const kinds[] = {"hurt", "hit", "push", "throw", NULL};
    return luaL_checkoption(L, idx, NULL, kinds);
}

static void push_boxes(lua_State *L, const fg_world *w, fg_entity e, fg_box_kind kind, int *n) {
    fg_placed_box boxes[64];
    uint32_t count = fg_world_boxes(w, e, kind, boxes, 64);
    for (uint32_t i = 0; i < count && i < 64; i++) {
        lua_createtable(L, 0, 7);
        lua_pushstring(L, fg_box_kind_name(kind));
        lua_setfield(L, -2, "kind");
        const fg_fx v[4] = {boxes[i].rect.x0, boxes[i].rect.y0, boxes[i].rect.x1,
                            boxes[i].rect.y1};
        static const char *const names[4] = {"x0", "y0", "x1", "y1"};
        for (int k = 0; k < 4; k++) {
            lua_pushnumber(L, (lua_Number)v[k] / FG_FX_ONE);
            lua_setfield(L, -2, names[k]);
        }
        if (boxes[i].index == 0xFF) lua_pushstring(L, "default");
        else lua_pushinteger(L, boxes[i].index + 1);
        lua_setfield(L, -2, "index");
        lua_rawseti(L, -2, ++*n);
    }
}

/* p:boxes([kind]) -> list of { kind =, x0 =, y0 =, x1 =, y1 =, index = } in world pixels. */
static int entity_boxes(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    int kind = lua_isnoneornil(L, 2) ? -1 : kind_arg(L, 2);
    lua_newtable(L);
    int n = 0;
    for (int k = 0; k < FG_BOX_KINDS; k++)
        if (kind < 0 || kind == k) push_boxes(L, w, e, (fg_box_kind)k, &n);
    return 1;
}

/* p:team(n): 0 fights its opponent only; entities with teams fight every other team. */
static int entity_team(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    lua_Integer team = luaL_checkinteger(L, 2);
    luaL_argcheck(L, team >= 0 && team <= UINT32_MAX, 2, "a team is 0..4294967295");
    fg_error err = {0};
    if (fg_world_set_team(w, e, (uint32_t)team, &err) != FG_OK) return fg_lua_raise(L, &err);
    return 0;
}

/* p:owner(q or nil): p never hits its owner (a projectile and who threw it). */
static int entity_owner(lua_State *L) {
    fg_world *w, *w2;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    fg_entity owner = lua_isnoneornil(L, 2) ? 0 : fg_lua_check_entity(L, 2, &w2);
    luaL_argcheck(L, owner == 0 || w2 == w, 2, "the owner must be in the same world");
    fg_error err = {0};
    if (fg_world_set_owner(w, e, owner, &err) != FG_OK) return fg_lua_raise(L, &err);
    return 0;
}

void fg_lua_open_combat(lua_State *L) {
    static const luaL_Reg methods[] = {{"combat", entity_combat}, {"boxes", entity_boxes},
                                       {"team", entity_team},     {"owner", entity_owner},
                                       {NULL, NULL}};
    luaL_getmetatable(L, FG_LUA_ENTITY_T);
    lua_getfield(L, -1, "__index");
    luaL_setfuncs(L, methods, 0);
    lua_pop(L, 2);
}
