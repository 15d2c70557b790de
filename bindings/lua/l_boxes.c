/*
** l_boxes.c: entity:boxes(), the boxes the collision phase tests for an entity after the last
** tick (framegate/hit.h): declared hurt, hit, push and throw boxes of its running actions and
** the defaults of its state group or fighter, placed in the world. A host draws them; nothing
** here decides anything.
*/
#include "fg_lua.h"

/* Large enough for every box of every layer, plus a default. */
#define BOXES_MAX (FG_MAX_BOXES * FG_MAX_LAYERS + 1)

static void set_px(lua_State *L, const char *k, fg_fx v) {
    lua_pushnumber(L, (lua_Number)v / FG_FX_ONE);
    lua_setfield(L, -2, k);
}

/* entity:boxes() -> { {kind=, x0=, y0=, x1=, y1=, layer=, index=}, ... } in pixels, by kind
** (hurt, hit, push, throw); a default box has no layer and no index. */
static int entity_boxes(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    static const fg_box_kind kinds[] = {FG_BOX_HURT, FG_BOX_HIT, FG_BOX_PUSH, FG_BOX_THROW};
    fg_placed_box boxes[BOXES_MAX];
    lua_newtable(L);
    int n = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        uint32_t count = fg_world_boxes(w, e, kinds[k], boxes, BOXES_MAX);
        for (uint32_t i = 0; i < count && i < BOXES_MAX; i++) {
            const fg_placed_box *b = &boxes[i];
            lua_createtable(L, 0, 7);
            lua_pushstring(L, fg_box_kind_name(kinds[k]));
            lua_setfield(L, -2, "kind");
            set_px(L, "x0", b->rect.x0);
            set_px(L, "y0", b->rect.y0);
            set_px(L, "x1", b->rect.x1);
            set_px(L, "y1", b->rect.y1);
            if (b->layer != 0xFF) {
                lua_pushinteger(L, b->layer);
                lua_setfield(L, -2, "layer");
                lua_pushinteger(L, b->index + 1);
                lua_setfield(L, -2, "index");
            }
            lua_rawseti(L, -2, ++n);
        }
    }
    return 1;
}

void fg_lua_open_boxes(lua_State *L) {
    static const luaL_Reg entity_methods[] = {{"boxes", entity_boxes}, {NULL, NULL}};
    luaL_getmetatable(L, FG_LUA_ENTITY_T);
    lua_getfield(L, -1, "__index");
    luaL_setfuncs(L, entity_methods, 0);
    lua_pop(L, 2);
}
