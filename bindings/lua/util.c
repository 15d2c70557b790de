/*
** util.c: helpers shared by the bindings: class registration in the style of the standard
** library (liolib.c) and table-field readers whose errors name the field and the value.
*/
#include "fg_lua.h"

#include <string.h>

void fg_lua_class(lua_State *L, const char *tname, const luaL_Reg *methods, const luaL_Reg *meta) {
    if (!luaL_newmetatable(L, tname)) {
        lua_pop(L, 1);
        return;
    }
    if (meta) luaL_setfuncs(L, meta, 0);
    if (methods) {
        lua_newtable(L);
        luaL_setfuncs(L, methods, 0);
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
}

uint32_t fg_lua_opt_layer(lua_State *L, int idx, const fg_ruleset *r) {
    uint32_t n = fg_ruleset_layer_count(r);
    if (lua_isnoneornil(L, idx)) return 0;
    if (lua_type(L, idx) == LUA_TSTRING) {
        int id = fg_ruleset_find_layer(r, lua_tostring(L, idx));
        if (id >= 0) return (uint32_t)id;
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        lua_pushfstring(L, "'%s' is not a layer (layers:", lua_tostring(L, idx));
        luaL_addvalue(&b);
        for (uint32_t i = 0; i < n; i++) {
            luaL_addstring(&b, i ? ", " : " ");
            luaL_addstring(&b, fg_ruleset_layer_name(r, i));
        }
        luaL_addstring(&b, ")");
        luaL_pushresult(&b);
        luaL_argerror(L, idx, lua_tostring(L, -1));
    }
    int ok;
    lua_Integer v = lua_tointegerx(L, idx, &ok);
    if (!ok) luaL_typeerror(L, idx, "layer name or index");
    if (v < 0 || v >= (lua_Integer)n)
        luaL_argerror(L, idx, lua_pushfstring(L, "layer %I is out of range (0..%d)",
                                              (LUAI_UACINT)v, (int)n - 1));
    return (uint32_t)v;
}

int fg_lua_raise(lua_State *L, const fg_error *err) {
    return luaL_error(L, "%s", err && err->msg[0] ? err->msg : "framegate: unknown error");
}

static int field_type(lua_State *L, int t, const char *field) {
    return lua_getfield(L, t, field);
}

lua_Integer fg_lua_opt_int_field(lua_State *L, int t, const char *field, lua_Integer def) {
    t = lua_absindex(L, t);
    int ty = field_type(L, t, field);
    lua_Integer v = def;
    if (ty != LUA_TNIL) {
        int ok = 0;
        v = lua_tointegerx(L, -1, &ok);
        if (!ok)
            luaL_error(L, "field '%s': expected an integer, got %s", field,
                       ty == LUA_TNUMBER ? "a number with a fraction" : luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    return v;
}

lua_Number fg_lua_opt_num_field(lua_State *L, int t, const char *field, lua_Number def) {
    t = lua_absindex(L, t);
    int ty = field_type(L, t, field);
    lua_Number v = def;
    if (ty != LUA_TNIL) {
        if (ty != LUA_TNUMBER)
            luaL_error(L, "field '%s': expected a number, got %s", field, luaL_typename(L, -1));
        v = lua_tonumber(L, -1);
    }
    lua_pop(L, 1);
    return v;
}

const char *fg_lua_opt_str_field(lua_State *L, int t, const char *field, const char *def) {
    t = lua_absindex(L, t);
    int ty = field_type(L, t, field);
    const char *v = def;
    if (ty != LUA_TNIL) {
        if (ty != LUA_TSTRING)
            luaL_error(L, "field '%s': expected a string, got %s", field, luaL_typename(L, -1));
        v = lua_tostring(L, -1);
    }
    lua_pop(L, 1); /* the string stays reachable through the table */
    return v;
}

int fg_lua_opt_bool_field(lua_State *L, int t, const char *field, int def) {
    t = lua_absindex(L, t);
    int ty = field_type(L, t, field);
    int v = def;
    if (ty != LUA_TNIL) {
        if (ty != LUA_TBOOLEAN)
            luaL_error(L, "field '%s': expected a boolean, got %s", field, luaL_typename(L, -1));
        v = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    return v;
}

void fg_lua_check_fields(lua_State *L, int t, const char *what, const char *const *known) {
    /* The bytewise-smallest unknown key is the one reported: the same whatever order `pairs`
    ** would visit the keys in. */
    const char *worst = NULL;
    t = lua_absindex(L, t);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_error(L, "%s: field names must be strings, got a %s key", what,
                       luaL_typename(L, -1));
        const char *k = lua_tostring(L, -1);
        bool ok = false;
        for (int i = 0; known[i] && !ok; i++) ok = strcmp(known[i], k) == 0;
        if (!ok && (!worst || strcmp(k, worst) < 0)) worst = k; /* kept alive by the table */
    }
    if (worst) luaL_error(L, "%s: unknown field '%s'", what, worst);
}
