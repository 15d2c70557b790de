/* SPDX-License-Identifier: MIT */
/*
** l_vars.c: per-entity variables for Lua. The declaration's `vars` into the builder; the
** proposals a request rule makes (fg.set, fg.add), which the runtime checks and the gate commits;
** and reading them back (p:var, p:vars, rules:vars). Deciding whether a change is allowed is the
** runtime's (framegate/vars.h): this file only translates.
**
**   vars = { stance = { min = 0, max = 2, start = 0 }, armed = { flag = true },
**            charge = 0,        -- an integer starting at 0 (range -1,000,000..1,000,000)
**            parried = false }  -- a flag starting false
*/
#include "fg_lua.h"

#include <stdio.h>
#include <string.h>

/* {====================================================================== declaration */

static void read_var(fg_lua_reader *rd, const char *name, fg_var_def *v) {
    lua_State *L = rd->L;
    *v = fg_var_def_default(name);
    switch (lua_type(L, -1)) {
    case LUA_TBOOLEAN:
        v->flag = true;
        v->start = lua_toboolean(L, -1);
        return;
    case LUA_TNUMBER: {
        int ok;
        lua_Integer start = lua_tointegerx(L, -1, &ok);
        if (!ok || start < INT32_MIN || start > INT32_MAX)
            fg_lua_reader_note(rd, "%g, expected an integer start value", lua_tonumber(L, -1));
        else v->start = (int32_t)start;
        return;
    }
    default:
        fg_lua_reader_table(rd, -1, "{ min =, max =, start = }, { flag = true }, a number or a "
                            "boolean");
    }
    static const char *const fields[] = {"flag", "min", "max", "start", NULL};
    fg_lua_reader_only(rd, -1, fields);
    v->flag = fg_lua_read_bool(rd, -1, "flag", false);
    if (v->flag) {
        v->start = fg_lua_read_bool(rd, -1, "start", false);
        return;
    }
    /* Wide on purpose: the builder says what is out of range, with the declared bounds. */
    const lua_Integer wide = 2000000000;
    v->min = (int32_t)fg_lua_read_int(rd, -1, "min", v->min, -wide, wide);
    v->max = (int32_t)fg_lua_read_int(rd, -1, "max", v->max, -wide, wide);
    lua_Integer lo = v->min > 0 ? v->min : 0;
    v->start = (int32_t)fg_lua_read_int(rd, -1, "start", lo < v->max ? lo : v->max, -wide, wide);
}

void fg_lua_read_ruleset_vars(fg_lua_reader *rd, int idx, fg_ruleset_builder *b) {
    lua_State *L = rd->L;
    idx = lua_absindex(L, idx);
    if (!fg_lua_reader_get(rd, idx, "vars")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = fg_lua_reader_push(rd, "vars");
    fg_lua_reader_table(rd, -1, "a table of name = { min =, max =, start = } or { flag = true }");
    int n = fg_lua_reader_keys(rd, -1);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *k = lua_tostring(L, -1);
        lua_getfield(L, -3, k);
        size_t o2 = fg_lua_reader_push(rd, ".%s", k);
        fg_var_def v;
        read_var(rd, k, &v);
        fg_error err = {0};
        if (fg_ruleset_add_var(b, &v, &err) != FG_OK) fg_lua_reader_note_error(rd, &err);
        fg_lua_reader_pop(rd, o2);
        lua_pop(L, 2);
    }
    lua_pop(L, 2);
    fg_lua_reader_pop(rd, old);
}

/* A window's condition on one variable: `when = { stance = 2 }` (that value), `{ armed = true }`
** (a flag set), `{ charge = { min = 3 } }` or `{ charge = { min = 3, max = 5 } }` (a range). The
** builder checks that the variable exists. */
void fg_lua_read_window_when(fg_lua_reader *rd, int t, fg_cancel_def *c) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    if (!fg_lua_reader_get(rd, t, "when")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = fg_lua_reader_push(rd, ".when");
    fg_lua_reader_table(rd, -1, "{ <variable> = value } or { <variable> = { min =, max = } }");
    int n = fg_lua_reader_keys(rd, -1);
    if (n != 1)
        fg_lua_reader_note(rd, "%d variables, expected one ({ stance = 2 })", n);
    if (n >= 1) {
        lua_rawgeti(L, -1, 1);
        const char *k = lua_tostring(L, -1);
        snprintf(c->when_var, sizeof c->when_var, "%s", k);
        lua_getfield(L, -3, k);
        size_t o2 = fg_lua_reader_push(rd, ".%s", k);
        const lua_Integer wide = 2000000000;
        int ok = 0;
        lua_Integer v = 0;
        if (lua_type(L, -1) == LUA_TBOOLEAN) {
            v = lua_toboolean(L, -1);
            ok = 1;
        } else if (lua_type(L, -1) == LUA_TNUMBER) {
            v = lua_tointegerx(L, -1, &ok);
        }
        if (ok && v >= -wide && v <= wide) {
            c->when_min = c->when_max = (int32_t)v;
        } else if (lua_istable(L, -1)) {
            static const char *const fields[] = {"min", "max", NULL};
            fg_lua_reader_only(rd, -1, fields);
            c->when_min = (int32_t)fg_lua_read_int(rd, -1, "min", -wide, -wide, wide);
            c->when_max = (int32_t)fg_lua_read_int(rd, -1, "max", wide, -wide, wide);
        } else {
            char buf[64];
            fg_lua_reader_note(rd, "%s, expected an integer, a boolean or { min =, max = }",
                               fg_lua_describe_value(L, -1, buf, sizeof buf));
        }
        fg_lua_reader_pop(rd, o2);
        lua_pop(L, 2);
    }
    lua_pop(L, 1); /* the keys */
    fg_lua_reader_pop(rd, old);
    lua_pop(L, 1);
}

/* }====================================================================== */

/* {====================================================================== proposals */

/* The variable named at idx in the entity's rules, or an error listing the declared ones. */
static uint32_t check_var(lua_State *L, const fg_world *w, fg_entity e, int idx,
                          const char *fn) {
    const char *name = luaL_checkstring(L, idx);
    const fg_ruleset *r = fg_world_rules(w, e);
    int id = r ? fg_ruleset_find_var(r, name) : -1;
    if (id >= 0) return (uint32_t)id;
    char list[FG_MAX_VARS * FG_NAME_MAX + 16] = "";
    uint32_t n = r ? fg_ruleset_var_count(r) : 0;
    for (uint32_t i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                 fg_ruleset_var(r, i)->name);
    return (uint32_t)luaL_error(L, "%s: '%s' is not a variable of '%s' (vars: %s)", fn, name,
                                r ? fg_ruleset_name(r) : "?", n ? list : "none declared");
}

static int propose(lua_State *L, fg_var_op op, const char *fn) {
    fg_world *w;
    fg_entity e = fg_lua_check_view_entity(L, 1, &w);
    uint32_t var = check_var(L, w, e, 2, fn);
    const fg_var_def *d = fg_ruleset_var(fg_world_rules(w, e), var);
    lua_Integer value;
    if (op == FG_VAR_SET && d->flag && lua_type(L, 3) == LUA_TBOOLEAN) {
        value = lua_toboolean(L, 3);
    } else {
        int ok;
        value = lua_tointegerx(L, 3, &ok);
        if (!ok)
            return luaL_error(L, "%s %s: expected %s, got %s", fn, d->name,
                              d->flag && op == FG_VAR_SET ? "a boolean or 0/1" : "an integer",
                              luaL_typename(L, 3));
        if (value < INT32_MIN || value > INT32_MAX)
            return luaL_error(L, "%s %s: %I is out of range (expected %d..%d)", fn, d->name,
                              (LUAI_UACINT)value, d->min, d->max);
    }
    fg_error err = {0};
    if (fg_world_propose_var(w, e, var, op, (int32_t)value, &err) != FG_OK)
    {
        fg_error_prefix(&err, "%s", fn);
        return fg_lua_raise(L, &err);
    }
    return 0;
}

/* fg.set(me, name, value): proposes the value (a boolean for a flag). */
static int l_set(lua_State *L) { return propose(L, FG_VAR_SET, "fg.set"); }
/* fg.add(me, name, n): proposes adding n (kept in the variable's range when committed). */
static int l_add(lua_State *L) { return propose(L, FG_VAR_ADD, "fg.add"); }

/* }====================================================================== */

/* {====================================================================== reading */

static void push_value(lua_State *L, const fg_var_def *d, int32_t v) {
    if (d->flag) lua_pushboolean(L, v != 0);
    else lua_pushinteger(L, v);
}

/* p:var(name) -> its value (a boolean for a flag). */
static int entity_var(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    uint32_t var = check_var(L, w, e, 2, "var");
    push_value(L, fg_ruleset_var(fg_world_rules(w, e), var), fg_world_var(w, e, var));
    return 1;
}

/* p:vars() -> { name = value, ... } */
static int entity_vars(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    const fg_ruleset *r = fg_world_rules(w, e);
    uint32_t n = r ? fg_ruleset_var_count(r) : 0;
    lua_createtable(L, 0, (int)n);
    for (uint32_t i = 0; i < n; i++) {
        push_value(L, fg_ruleset_var(r, i), fg_world_var(w, e, i));
        lua_setfield(L, -2, fg_ruleset_var(r, i)->name);
    }
    return 1;
}

/* rules:vars() -> { name = { min =, max =, start =, flag = }, ... } as declared. */
int fg_lua_push_rules_vars(lua_State *L, const fg_ruleset *r) {
    uint32_t n = fg_ruleset_var_count(r);
    lua_createtable(L, 0, (int)n);
    for (uint32_t i = 0; i < n; i++) {
        const fg_var_def *d = fg_ruleset_var(r, i);
        lua_createtable(L, 0, 4);
        lua_pushinteger(L, d->min);
        lua_setfield(L, -2, "min");
        lua_pushinteger(L, d->max);
        lua_setfield(L, -2, "max");
        push_value(L, d, d->start);
        lua_setfield(L, -2, "start");
        lua_pushboolean(L, d->flag);
        lua_setfield(L, -2, "flag");
        lua_setfield(L, -2, d->name);
    }
    return 1;
}

void fg_lua_open_vars(lua_State *L) {
    lua_pushcfunction(L, l_set);
    lua_setfield(L, -2, "set");
    lua_pushcfunction(L, l_add);
    lua_setfield(L, -2, "add");
    static const luaL_Reg methods[] = {{"var", entity_var}, {"vars", entity_vars}, {NULL, NULL}};
    luaL_getmetatable(L, FG_LUA_ENTITY_T);
    lua_getfield(L, -1, "__index");
    luaL_setfuncs(L, methods, 0);
    lua_pop(L, 2);
}

/* }====================================================================== */
