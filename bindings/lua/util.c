/* SPDX-License-Identifier: MIT */
/*
** util.c: helpers shared by the bindings: class registration in the style of the standard
** library (liolib.c) and the one table-field reader (fg_lua_reader): it keeps the path of the
** field being read (`actions.jab.cancels[1].to`), so every error names the field, the value and
** what was expected, and every range error names the range (`motion.window: 0 is out of range,
** expected 1-255`).
*/
#include "fg_lua.h"

#include <limits.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A class's self cache: the addresses of userdata of the class that a method found valid in full
** (the class's metatable, an open world, not finalized), looked up by address. A hit costs what
** reading two pointers costs, where the full check asks Lua for the metatable each time. An
** address leaves the cache when its object is finalized (fg_lua_self_forget from __gc), before
** its memory can be reused, and a finalized object is never cached again. */
typedef struct self_cache {
    const void *slot[FG_LUA_SELF_SLOTS];
} self_cache;

static const void **self_slot(lua_State *L, const void *p) {
    self_cache *c = lua_touserdata(L, lua_upvalueindex(2));
    return &c->slot[((uintptr_t)p >> 4) & (FG_LUA_SELF_SLOTS - 1)];
}

void *fg_lua_self_udata(lua_State *L, bool *cached) {
    void *p = lua_touserdata(L, 1);
    if (!p) return NULL;
    /* A light userdata may carry any address: only a full one is looked up. */
    if (*self_slot(L, p) == p && lua_type(L, 1) == LUA_TUSERDATA) return *cached = true, p;
    *cached = false;
    if (!lua_getmetatable(L, 1)) return NULL;
    bool same = lua_rawequal(L, -1, lua_upvalueindex(1));
    lua_pop(L, 1);
    return same ? p : NULL;
}

void fg_lua_self_remember(lua_State *L, const void *p) { *self_slot(L, p) = p; }

void fg_lua_self_forget(lua_State *L, const void *p) {
    const void **s = self_slot(L, p);
    if (*s == p) *s = NULL;
}

/* Pushes a class's upvalues: its metatable (at index mt) and its self cache (registry[mt]). */
static void push_class_upvalues(lua_State *L, int mt) {
    lua_pushvalue(L, mt);
    lua_pushvalue(L, mt);
    lua_rawget(L, LUA_REGISTRYINDEX);
}

void fg_lua_class(lua_State *L, const char *tname, const luaL_Reg *methods, const luaL_Reg *meta) {
    if (!luaL_newmetatable(L, tname)) {
        lua_pop(L, 1);
        return;
    }
    int mt = lua_gettop(L);
    lua_pushvalue(L, mt);
    memset(lua_newuserdatauv(L, sizeof(self_cache), 0), 0, sizeof(self_cache));
    lua_rawset(L, LUA_REGISTRYINDEX);
    if (meta) {
        push_class_upvalues(L, mt);
        luaL_setfuncs(L, meta, 2);
    }
    if (methods) {
        lua_newtable(L);
        push_class_upvalues(L, mt); /* upvalues of every method (fg_lua_self_world) */
        luaL_setfuncs(L, methods, 2);
        lua_setfield(L, mt, "__index");
    }
    lua_pop(L, 1);
}

/* Adds functions to the method table (__index) of the class tname, from a file of its own. */
void fg_lua_add_methods(lua_State *L, const char *tname, const luaL_Reg *methods) {
    luaL_getmetatable(L, tname);
    int mt = lua_gettop(L);
    lua_getfield(L, mt, "__index");
    push_class_upvalues(L, mt);
    luaL_setfuncs(L, methods, 2);
    lua_pop(L, 2);
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

int fg_lua_raise(lua_State *L, fg_error *err) {
    fg_lua_push_error(L, err);
    return fg_lua_raise_top(L);
}

int fg_lua_raise_top(lua_State *L) {
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
    return lua_error(L);
}

void fg_lua_push_error(lua_State *L, fg_error *err) {
    const char *msg = fg_error_message(err);
    lua_pushstring(L, msg[0] ? msg : "framegate: unknown error");
    /* Lua owns the text now; lua_error jumps past the caller, which could not free it later. */
    fg_error_clear(err);
}

/* The allocation-free readers of one optional field: the common case (the field is absent or
** right) costs a table lookup; a wrong value raises through fg_lua_field_error, so the message
** names the call and the field like the reader's (`spawn.x: expected a number, got string 'a'`). */
static int wrong_field(lua_State *L, const char *field, const char *expected) {
    char buf[80];
    return fg_lua_field_error(L, field, "expected %s, got %s", expected,
                              fg_lua_describe_value(L, -1, buf, sizeof buf));
}

lua_Integer fg_lua_opt_int_field(lua_State *L, int t, const char *field, lua_Integer def) {
    t = lua_absindex(L, t);
    lua_Integer v = def;
    if (lua_getfield(L, t, field) != LUA_TNIL) {
        int ok = 0;
        v = lua_tointegerx(L, -1, &ok);
        if (!ok) wrong_field(L, field, "an integer");
    }
    lua_pop(L, 1);
    return v;
}

lua_Number fg_lua_opt_num_field(lua_State *L, int t, const char *field, lua_Number def) {
    t = lua_absindex(L, t);
    lua_Number v = def;
    int ty = lua_getfield(L, t, field);
    if (ty != LUA_TNIL) {
        if (ty != LUA_TNUMBER) wrong_field(L, field, "a number");
        v = lua_tonumber(L, -1);
    }
    lua_pop(L, 1);
    return v;
}

const char *fg_lua_opt_str_field(lua_State *L, int t, const char *field, const char *def) {
    t = lua_absindex(L, t);
    const char *v = def;
    int ty = lua_getfield(L, t, field);
    if (ty != LUA_TNIL) {
        if (ty != LUA_TSTRING) wrong_field(L, field, "a string");
        v = lua_tostring(L, -1);
    }
    lua_pop(L, 1); /* the string stays reachable through the table */
    return v;
}

int fg_lua_opt_bool_field(lua_State *L, int t, const char *field, int def) {
    t = lua_absindex(L, t);
    int v = def;
    int ty = lua_getfield(L, t, field);
    if (ty != LUA_TNIL) {
        if (ty != LUA_TBOOLEAN) wrong_field(L, field, "true or false");
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

/* {====================================================================== the field reader */

/* The path lives in a userdata on the Lua stack that the reader replaces with a bigger one when
** it fills, so a path (and a message built from it) is never cut, and an error that unwinds the
** stack leaves the garbage collector to free it. */
static void path_reserve(fg_lua_reader *rd, size_t need) {
    if (need <= rd->cap) return;
    size_t cap = rd->cap * 2;
    while (cap < need) cap *= 2;
    char *p = lua_newuserdatauv(rd->L, cap, 0);
    memcpy(p, rd->path, rd->len + 1);
    lua_replace(rd->L, rd->box);
    rd->path = p;
    rd->cap = cap;
}

void fg_lua_reader_init(fg_lua_reader *rd, lua_State *L, const char *root, const char *chunk) {
    memset(rd, 0, sizeof *rd);
    rd->L = L;
    rd->chunk = chunk;
    rd->cap = 128;
    rd->path = lua_newuserdatauv(L, rd->cap, 0);
    rd->box = lua_gettop(L);
    rd->path[0] = '\0';
    if (root) fg_lua_reader_push(rd, "%s", root);
}

size_t fg_lua_reader_push(fg_lua_reader *rd, const char *fmt, ...) {
    size_t old = rd->len;
    /* A field of the root itself has no parent: "actoins", not ".actoins". */
    if (old == 0 && fmt[0] == '.') fmt++;
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n > 0) {
        path_reserve(rd, old + (size_t)n + 1);
        vsnprintf(rd->path + old, (size_t)n + 1, fmt, again);
        rd->len = old + (size_t)n;
    }
    va_end(again);
    return old;
}

void fg_lua_reader_pop(fg_lua_reader *rd, size_t old) {
    rd->len = old;
    rd->path[old] = '\0';
}

/* Pushes "path: message". */
static void push_finding(fg_lua_reader *rd, const char *fmt, va_list ap) {
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    size_t plen = rd->len, size = plen + 2 + (n > 0 ? (size_t)n : 0);
    luaL_Buffer b;
    char *p = luaL_buffinitsize(rd->L, &b, size + 1);
    memcpy(p, rd->path, plen);
    memcpy(p + plen, ": ", 2);
    if (n > 0) vsnprintf(p + plen + 2, (size_t)n + 1, fmt, again);
    va_end(again);
    luaL_pushresultsize(&b, size);
}

/* Raises the finding on top of the stack: after the chunk when there is one, else at the Lua
** code that called the binding. */
static int raise_finding(fg_lua_reader *rd) {
    lua_State *L = rd->L;
    if (rd->chunk) {
        lua_pushstring(L, rd->chunk);
        lua_pushliteral(L, ": ");
        lua_rotate(L, -3, 2);
    } else {
        luaL_where(L, 1);
        lua_insert(L, -2);
    }
    lua_concat(L, rd->chunk ? 3 : 2);
    return lua_error(L);
}

void fg_lua_reader_note(fg_lua_reader *rd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    push_finding(rd, fmt, ap);
    va_end(ap);
    if (!rd->notes) raise_finding(rd);
    lua_rawseti(rd->L, rd->notes, (lua_Integer)lua_rawlen(rd->L, rd->notes) + 1);
}

void fg_lua_reader_note_error(fg_lua_reader *rd, fg_error *err) {
    fg_lua_push_error(rd->L, err); /* held by Lua: the note may raise */
    fg_lua_reader_note(rd, "%s", lua_tostring(rd->L, -1));
    lua_pop(rd->L, 1);
}

int fg_lua_reader_fail(fg_lua_reader *rd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    push_finding(rd, fmt, ap);
    va_end(ap);
    if (!rd->notes || lua_rawlen(rd->L, rd->notes) == 0 || !rd->summary) return raise_finding(rd);
    lua_rawseti(rd->L, rd->notes, (lua_Integer)lua_rawlen(rd->L, rd->notes) + 1);
    rd->summary(rd);
    return lua_error(rd->L);
}

void fg_lua_reader_range(fg_lua_reader *rd, lua_Integer v, lua_Integer lo, lua_Integer hi,
                         const char *unit) {
    char range[64];
    fg_lua_range_text(range, sizeof range, lo, hi);
    fg_lua_reader_note(rd, "%lld is out of range, expected %s%s%s", (long long)v, range,
                       unit ? " " : "", unit ? unit : "");
}

void fg_lua_range_text(char *buf, size_t size, lua_Integer lo, lua_Integer hi) {
    /* "1-255"; with a negative bound the dash would read as a sign: "-100 to 100". */
    if (lo < 0) snprintf(buf, size, "%lld to %lld", (long long)lo, (long long)hi);
    else snprintf(buf, size, "%lld-%lld", (long long)lo, (long long)hi);
}

int fg_lua_range_error(lua_State *L, const char *path, lua_Integer v, lua_Integer lo,
                       lua_Integer hi, const char *unit) {
    char range[64];
    fg_lua_range_text(range, sizeof range, lo, hi);
    return luaL_error(L, "%s: %I is out of range, expected %s%s%s", path, (LUAI_UACINT)v, range,
                      unit ? " " : "", unit ? unit : "");
}

const char *fg_lua_describe_value(lua_State *L, int idx, char *buf, size_t size) {
    switch (lua_type(L, idx)) {
    case LUA_TSTRING: {
        /* A long string is shown by its start, marked as such. */
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        if (len + 10 <= size) snprintf(buf, size, "string '%s'", s);
        else snprintf(buf, size, "string '%.*s...'", (int)(size > 16 ? size - 16 : 0), s);
        break;
    }
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) snprintf(buf, size, "%lld", (long long)lua_tointeger(L, idx));
        else snprintf(buf, size, "%g", lua_tonumber(L, idx));
        break;
    default: snprintf(buf, size, "%s", luaL_typename(L, idx));
    }
    return buf;
}

/* A key to sort: its bytes and where it sits in the unsorted list. */
typedef struct key_ref {
    const char *s;
    size_t len;
    lua_Integer at;
} key_ref;

/* Bytewise, a prefix first: names may hold any byte, NUL included. */
static int cmp_key(const void *pa, const void *pb) {
    const key_ref *a = pa, *b = pb;
    int c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

lua_Integer fg_lua_sorted_keys(lua_State *L, int t) {
    t = lua_absindex(L, t);
    lua_newtable(L);
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            lua_remove(L, -2); /* the bad key stands where the list would */
            return -1;
        }
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, ++n);
    }
    if (n < 2) return n;
    /* The strings stay alive as keys of t while the refs point at them. */
    key_ref *keys = lua_newuserdatauv(L, sizeof *keys * (size_t)n, 0);
    for (lua_Integer i = 0; i < n; i++) {
        lua_rawgeti(L, -2, i + 1);
        keys[i].s = lua_tolstring(L, -1, &keys[i].len);
        keys[i].at = i + 1;
        lua_pop(L, 1);
    }
    qsort(keys, (size_t)n, sizeof keys[0], cmp_key);
    lua_createtable(L, (int)(n < INT_MAX ? n : INT_MAX), 0);
    for (lua_Integer i = 0; i < n; i++) {
        lua_rawgeti(L, -3, keys[i].at);
        lua_rawseti(L, -2, i + 1);
    }
    lua_replace(L, -3); /* the sorted list replaces the unsorted one */
    lua_pop(L, 1);      /* the refs */
    return n;
}

int fg_lua_reader_keys(fg_lua_reader *rd, int idx) {
    lua_State *L = rd->L;
    lua_Integer n = fg_lua_sorted_keys(L, idx);
    if (n < 0) {
        char v[64];
        fg_lua_reader_fail(rd, "expected name = value entries, found key %s",
                           fg_lua_describe_value(L, -1, v, sizeof v));
    }
    return (int)n;
}

void fg_lua_reader_only(fg_lua_reader *rd, int idx, const char *const *allowed) {
    lua_State *L = rd->L;
    idx = lua_absindex(L, idx);
    int n = fg_lua_reader_keys(rd, idx);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *k = lua_tostring(L, -1);
        bool ok = false;
        for (const char *const *a = allowed; *a; a++) ok |= strcmp(*a, k) == 0;
        if (!ok) {
            luaL_Buffer b;
            luaL_buffinit(L, &b);
            for (const char *const *a = allowed; *a; a++) {
                luaL_addstring(&b, *a);
                if (a[1]) luaL_addstring(&b, ", ");
            }
            luaL_pushresult(&b);
            size_t old = fg_lua_reader_push(rd, ".%s", k);
            fg_lua_reader_note(rd, "unknown field (expected one of: %s)", lua_tostring(L, -1));
            fg_lua_reader_pop(rd, old);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

bool fg_lua_reader_get(fg_lua_reader *rd, int t, const char *k) {
    return lua_getfield(rd->L, t, k) != LUA_TNIL;
}

lua_Integer fg_lua_read_int(fg_lua_reader *rd, int t, const char *k, lua_Integer def,
                            lua_Integer lo, lua_Integer hi) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    lua_Integer v = def;
    if (fg_lua_reader_get(rd, t, k)) {
        int ok;
        char buf[80];
        size_t old = fg_lua_reader_push(rd, ".%s", k);
        v = lua_tointegerx(L, -1, &ok);
        if (!ok) {
            fg_lua_reader_note(rd, "expected an integer, got %s",
                               fg_lua_describe_value(L, -1, buf, sizeof buf));
            v = def;
        } else if (v < lo || v > hi) {
            fg_lua_reader_range(rd, v, lo, hi, NULL);
            v = def;
        }
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    return v;
}

lua_Number fg_lua_read_num(fg_lua_reader *rd, int t, const char *k, lua_Number def,
                           lua_Number lo, lua_Number hi) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    lua_Number v = def;
    if (fg_lua_reader_get(rd, t, k)) {
        char buf[80];
        size_t old = fg_lua_reader_push(rd, ".%s", k);
        lua_Number d = lua_tonumber(L, -1);
        if (lua_type(L, -1) != LUA_TNUMBER)
            fg_lua_reader_note(rd, "expected a number, got %s",
                               fg_lua_describe_value(L, -1, buf, sizeof buf));
        else if (d < lo || d > hi) /* NaN is left to the runtime's own checks */
            fg_lua_reader_note(rd, "%s is out of range, expected %g to %g",
                               fg_lua_describe_value(L, -1, buf, sizeof buf), lo, hi);
        else
            v = d;
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    return v;
}

/* A distance or speed in pixels (fractions allowed), stored as 16.16 fixed point. */
fg_fx fg_lua_read_fx(fg_lua_reader *rd, int t, const char *k, fg_fx def) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    fg_fx v = def;
    if (fg_lua_reader_get(rd, t, k)) {
        char buf[80];
        size_t old = fg_lua_reader_push(rd, ".%s", k);
        double d = lua_tonumber(L, -1);
        if (lua_type(L, -1) != LUA_TNUMBER)
            fg_lua_reader_note(rd, "expected a number, got %s",
                               fg_lua_describe_value(L, -1, buf, sizeof buf));
        else if (!isfinite(d) || fabs(d) > 30000.0)
            fg_lua_reader_note(rd, "%s, expected a finite value within +-30000",
                               fg_lua_describe_value(L, -1, buf, sizeof buf));
        else
            v = (fg_fx)lround(d * FG_FX_ONE);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    return v;
}

bool fg_lua_read_bool(fg_lua_reader *rd, int t, const char *k, bool def) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    bool v = def;
    if (fg_lua_reader_get(rd, t, k)) {
        char buf[80];
        size_t old = fg_lua_reader_push(rd, ".%s", k);
        if (!lua_isboolean(L, -1))
            fg_lua_reader_note(rd, "expected true or false, got %s",
                               fg_lua_describe_value(L, -1, buf, sizeof buf));
        else
            v = lua_toboolean(L, -1);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    return v;
}

const char *fg_lua_read_str(fg_lua_reader *rd, int t, const char *k, const char *def) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    const char *v = def;
    if (fg_lua_reader_get(rd, t, k)) {
        char buf[80];
        size_t old = fg_lua_reader_push(rd, ".%s", k);
        if (lua_type(L, -1) != LUA_TSTRING)
            fg_lua_reader_note(rd, "expected a string, got %s",
                               fg_lua_describe_value(L, -1, buf, sizeof buf));
        else
            v = lua_tostring(L, -1); /* stays reachable through the table */
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    return v;
}

void fg_lua_read_name(fg_lua_reader *rd, int t, const char *k, char *out, size_t size) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    if (fg_lua_reader_get(rd, t, k)) {
        char buf[80];
        size_t old = fg_lua_reader_push(rd, ".%s", k);
        size_t len = 0;
        const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
        if (!s)
            fg_lua_reader_note(rd, "expected a string, got %s",
                               fg_lua_describe_value(L, -1, buf, sizeof buf));
        else if (len >= size)
            fg_lua_reader_note(rd, "'%s' is longer than %d characters", s, (int)size - 1);
        else
            memcpy(out, s, len + 1);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
}

uint32_t fg_lua_read_names(fg_lua_reader *rd, int t, const char *k, char (*out)[FG_NAME_MAX],
                           uint32_t max) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    uint32_t n = 0;
    if (fg_lua_reader_get(rd, t, k)) {
        char buf[80];
        size_t old = fg_lua_reader_push(rd, ".%s", k);
        if (lua_type(L, -1) == LUA_TSTRING) {
            snprintf(out[n++], FG_NAME_MAX, "%s", lua_tostring(L, -1));
        } else if (lua_istable(L, -1)) {
            lua_Integer len = luaL_len(L, -1);
            if (len > (lua_Integer)max)
                fg_lua_reader_fail(rd, "%lld names, at most %u", (long long)len, max);
            for (lua_Integer i = 1; i <= len; i++) {
                lua_geti(L, -1, i);
                if (lua_type(L, -1) != LUA_TSTRING) {
                    fg_lua_reader_push(rd, "[%lld]", (long long)i);
                    fg_lua_reader_fail(rd, "expected a name, got %s",
                                       fg_lua_describe_value(L, -1, buf, sizeof buf));
                }
                const char *s = lua_tostring(L, -1);
                if (strlen(s) >= FG_NAME_MAX) fg_lua_reader_fail(rd, "'%s' is too long", s);
                snprintf(out[n++], FG_NAME_MAX, "%s", s);
                lua_pop(L, 1);
            }
        } else {
            fg_lua_reader_fail(rd, "expected a name or a list of names, got %s",
                               fg_lua_describe_value(L, -1, buf, sizeof buf));
        }
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    return n;
}

void fg_lua_reader_table(fg_lua_reader *rd, int idx, const char *what) {
    char buf[80];
    if (!lua_istable(rd->L, idx))
        fg_lua_reader_fail(rd, "expected %s, got %s", what,
                           fg_lua_describe_value(rd->L, idx, buf, sizeof buf));
}


/* Finds the key under which table t holds the function on top of the stack; pushes it, or
** nothing. */
static bool push_key_of(lua_State *L, int t) {
    t = lua_absindex(L, t);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_rawequal(L, -1, -3) && lua_type(L, -2) == LUA_TSTRING) {
            lua_pop(L, 1);
            return true;
        }
        lua_pop(L, 1);
    }
    return false;
}

/* The name the running C function is known by: the call's own name when Lua has one, else its
** key in the module table or in the __index of its first argument's class (a call through
** pcall has no name). Pushes it. */
static void push_callee_name(lua_State *L) {
    lua_Debug ar;
    if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "n", &ar) && ar.name) {
        lua_pushstring(L, ar.name);
        return;
    }
    int top = lua_gettop(L);
    if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "f", &ar)) {
        int f = lua_gettop(L);
        if (lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE) == LUA_TTABLE &&
            lua_getfield(L, -1, "framegate") == LUA_TTABLE) {
            lua_pushvalue(L, f);
            if (push_key_of(L, -2)) {
                lua_replace(L, top + 1);
                lua_settop(L, top + 1);
                return;
            }
        }
        lua_settop(L, f);
        if (lua_getmetatable(L, 1) && lua_getfield(L, -1, "__index") == LUA_TTABLE) {
            lua_pushvalue(L, f);
            if (push_key_of(L, -2)) {
                lua_replace(L, top + 1);
                lua_settop(L, top + 1);
                return;
            }
        }
    }
    lua_settop(L, top);
    lua_pushliteral(L, "?");
}

void fg_lua_reader_callee(fg_lua_reader *rd, lua_State *L) {
    push_callee_name(L);
    fg_lua_reader_init(rd, L, lua_tostring(L, -1), NULL);
    lua_remove(L, -2); /* the name: copied into the path */
    rd->box = lua_gettop(L);
}

int fg_lua_field_error(lua_State *L, const char *field, const char *fmt, ...) {
    fg_lua_reader rd;
    fg_lua_reader_callee(&rd, L);
    fg_lua_reader_push(&rd, ".%s", field);
    va_list ap;
    va_start(ap, fmt);
    push_finding(&rd, fmt, ap);
    va_end(ap);
    return raise_finding(&rd);
}

/* }====================================================================== */
