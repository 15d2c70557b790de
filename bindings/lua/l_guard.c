/* SPDX-License-Identifier: MIT */
/*
** l_guard.c: the parts of Lua that would let a rule work outside its budget, replaced in the
** sandbox's copies of the libraries.
**
** - C functions of the string, table and utf8 libraries are charged, before they run, the work
**   their arguments imply (the instruction budget counts Lua instructions only, and a C call
**   cannot be interrupted once running). Pattern functions are charged (len + 1)^k, k the
**   repetitions (`*`, `+`, `-`) plus one when unanchored: a bound on the matcher's backtracking.
** - xpcall runs its handler after the protected call has returned, as ordinary code: Lua runs a
**   message handler inside the erroring call, where a budget overrun (raised from the count hook)
**   leaves hooks off, so a looping handler would run unbudgeted.
** - setmetatable refuses __gc: a finalizer runs whenever the host's collector gets to it, outside
**   any budget.
*/
#include "fg_lua.h"

#include <math.h>
#include <string.h>

enum {
    COST_LINEAR,  /* the lengths of the string arguments */
    COST_PATTERN, /* find, match, gsub, gmatch: subject and pattern */
    COST_RANGE,   /* table.move, table.unpack: the index range (args 2, 3) */
    COST_CONCAT,  /* table.concat: the index range (args 3, 4) */
    COST_LENGTH,  /* table.insert, table.remove: the table's length */
    COST_SORT     /* table.sort: n log n comparisons */
};

typedef struct guarded {
    const char *name;
    int kind;
} guarded;

static double string_bytes(lua_State *L) {
    double n = 0;
    for (int i = 1; i <= lua_gettop(L); i++)
        if (lua_type(L, i) == LUA_TSTRING) n += (double)lua_rawlen(L, i);
    return n + lua_gettop(L);
}

/* Repetitions in a pattern; items inside a set count too, which only overcharges. */
static int repetitions(const char *p, size_t len) {
    int q = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '%') i++;
        else if (p[i] == '*' || p[i] == '+' || p[i] == '-') q++;
    }
    return q;
}

static double pattern_cost(lua_State *L, const char *name) {
    size_t n = 0, m = 0;
    if (lua_type(L, 1) == LUA_TSTRING) lua_tolstring(L, 1, &n);
    const char *p = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &m) : "";
    bool plain = strcmp(name, "string.find") == 0 && lua_toboolean(L, 4);
    if (plain) return ((double)n + 1) * ((double)m + 1);
    int k = repetitions(p, m) + (m > 0 && p[0] == '^' ? 0 : 1);
    return pow((double)n + 1, k) + ((double)n + 1) * ((double)m + 1);
}

static double range_cost(lua_State *L, int at) {
    lua_Integer from = lua_isinteger(L, at) ? lua_tointeger(L, at) : 1;
    lua_Integer to = lua_isinteger(L, at + 1) ? lua_tointeger(L, at + 1)
                     : lua_istable(L, 1)  ? (lua_Integer)lua_rawlen(L, 1)
                                          : 0;
    return to >= from ? (double)to - (double)from + 1 : 1;
}

static int guarded_call(lua_State *L) {
    const guarded *g = lua_touserdata(L, lua_upvalueindex(2));
    double cost;
    switch (g->kind) {
    case COST_PATTERN: cost = pattern_cost(L, g->name); break;
    case COST_RANGE: cost = range_cost(L, 2); break;
    case COST_CONCAT: cost = range_cost(L, 3) + string_bytes(L); break;
    case COST_LENGTH: cost = lua_istable(L, 1) ? (double)lua_rawlen(L, 1) + 1 : 1; break;
    case COST_SORT: {
        double n = lua_istable(L, 1) ? (double)lua_rawlen(L, 1) + 1 : 1;
        cost = n * (log2(n) + 1);
        break;
    }
    default: cost = string_bytes(L); break;
    }
    fg_lua_budget_charge(L, cost, g->name);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* Replaces the functions named in list in the library copy on top of the stack. */
static void guard_lib(lua_State *L, const guarded *list) {
    for (const guarded *g = list; g->name; g++) {
        const char *field = strchr(g->name, '.') + 1;
        if (lua_getfield(L, -1, field) != LUA_TFUNCTION) {
            lua_pop(L, 1);
            continue;
        }
        lua_pushlightuserdata(L, (void *)g);
        lua_pushcclosure(L, guarded_call, 2);
        lua_setfield(L, -2, field);
    }
}

void fg_lua_guard_string(lua_State *L) {
    static const guarded list[] = {
        {"string.find", COST_PATTERN},  {"string.match", COST_PATTERN},
        {"string.gmatch", COST_PATTERN}, {"string.gsub", COST_PATTERN},
        {"string.format", COST_LINEAR}, {"string.byte", COST_LINEAR},
        {"string.sub", COST_LINEAR},    {"string.upper", COST_LINEAR},
        {"string.lower", COST_LINEAR},  {"string.reverse", COST_LINEAR},
        {"string.pack", COST_LINEAR},   {"string.unpack", COST_LINEAR},
        {NULL, 0},
    };
    guard_lib(L, list);
}

void fg_lua_guard_table(lua_State *L) {
    static const guarded list[] = {
        {"table.move", COST_RANGE},     {"table.unpack", COST_RANGE},
        {"table.concat", COST_CONCAT},   {"table.insert", COST_LENGTH},
        {"table.remove", COST_LENGTH},  {"table.sort", COST_SORT},
        {NULL, 0},
    };
    guard_lib(L, list);
}

void fg_lua_guard_utf8(lua_State *L) {
    static const guarded list[] = {
        {"utf8.len", COST_LINEAR},       {"utf8.offset", COST_LINEAR},
        {"utf8.codepoint", COST_LINEAR}, {"utf8.char", COST_LINEAR},
        {NULL, 0},
    };
    guard_lib(L, list);
}

/* xpcall(f, handler, ...): f runs protected; on failure the handler gets the error object once
** the call is over, under the same budget as any other code of the rule. */
static int sandbox_xpcall(lua_State *L) {
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_insert(L, 1); /* handler, f, handler, args */
    lua_remove(L, 3);
    if (lua_pcall(L, n - 2, LUA_MULTRET, 0) == LUA_OK) {
        lua_pushboolean(L, 1);
        lua_replace(L, 1);
        return lua_gettop(L);
    }
    lua_pushvalue(L, 1);
    lua_insert(L, -2);
    lua_pcall(L, 1, 1, 0); /* if the handler fails too, its error is the result */
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
}

static bool has_gc(lua_State *L, int mt) {
    lua_pushliteral(L, "__gc");
    bool yes = lua_rawget(L, mt) != LUA_TNIL;
    lua_pop(L, 1);
    return yes;
}

static int sandbox_setmetatable(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (lua_istable(L, 2) && has_gc(L, 2))
        return luaL_error(L, "framegate: __gc metamethods are not available in rules (a "
                          "finalizer would run outside the rule, whenever memory is collected)");
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

void fg_lua_guard_base(lua_State *L, int base) {
    base = lua_absindex(L, base);
    lua_pushcfunction(L, sandbox_xpcall);
    lua_setfield(L, base, "xpcall");
    lua_getfield(L, base, "setmetatable");
    lua_pushcclosure(L, sandbox_setmetatable, 1);
    lua_setfield(L, base, "setmetatable");
}

/* Pushes a copy of the table at idx made with raw access only: nested tables are copied too,
** metatables are left behind, other values are kept as they are. What the host keeps of a rule's
** tables (a declaration, what on_reload saw) can then be read without running a rule's code. */
static void plain_copy(lua_State *L, int idx, int depth) {
    idx = lua_absindex(L, idx);
    if (depth > 32) luaL_error(L, "framegate: tables nested deeper than 32 levels");
    luaL_checkstack(L, 4, "table copy");
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        fg_lua_budget_charge(L, 1, "copying a rule's table");
        lua_pushvalue(L, -2);
        if (lua_type(L, -2) == LUA_TTABLE) plain_copy(L, -2, depth + 1);
        else lua_pushvalue(L, -2);
        lua_rawset(L, -5);
        lua_pop(L, 1);
    }
}

void fg_lua_plain_copy(lua_State *L, int idx) {
    luaL_checktype(L, idx, LUA_TTABLE);
    plain_copy(L, idx, 0);
}
