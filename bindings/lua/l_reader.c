/*
** l_reader.c: reading a ruleset declaration's tables (l_reader.h): paths, noted findings,
** typed fields with their ranges, sorted keys so that Lua's iteration order never shows.
*/
#include "l_reader.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {====================================================================== reading tables */

/* Whether a validator finding is about an action whose length could not be read: its windows
** and markers were checked against a default length, so the finding would mislead. */
static bool about_shaky_action(fg_rd *rd, const char *path) {
    if (strncmp(path, "actions.", 8) != 0) return false;
    const char *name = path + 8, *end = strchr(name, '.');
    if (!end) return false;
    lua_pushlstring(rd->L, name, (size_t)(end - name));
    bool shaky = lua_rawget(rd->L, rd->shaky) != LUA_TNIL;
    lua_pop(rd->L, 1);
    return shaky;
}

/* Formats a finding, "path: message", and pushes it. */
static void push_finding(fg_rd *rd, const char *fmt, va_list ap) {
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    size_t plen = strlen(rd->path), size = plen + 2 + (n > 0 ? (size_t)n : 0);
    luaL_Buffer b;
    char *p = luaL_buffinitsize(rd->L, &b, size + 1);
    memcpy(p, rd->path, plen);
    memcpy(p + plen, ": ", 2);
    if (n > 0) vsnprintf(p + plen + 2, (size_t)n + 1, fmt, again);
    va_end(again);
    luaL_pushresultsize(&b, size);
}

/* A field that cannot be read: noted, and reading goes on with the field's default, so one load
** reports every such finding (and the validator's on what could be read). */
void fg_rd_note(fg_rd *rd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    push_finding(rd, fmt, ap);
    va_end(ap);
    lua_rawseti(rd->L, rd->notes, (lua_Integer)lua_rawlen(rd->L, rd->notes) + 1);
}

/* Pushes "CHUNK: invalid ruleset 'NAME':" and one "\n  finding" line per noted finding, then
** the extra lines of the builder's findings (`more`, may be NULL). */
void fg_rd_push_invalid(fg_rd *rd, const fg_findings *more) {
    lua_State *L = rd->L;
    luaL_Buffer buf;
    luaL_buffinit(L, &buf);
    if (rd->chunk) {
        luaL_addstring(&buf, rd->chunk);
        luaL_addstring(&buf, ": ");
    }
    luaL_addstring(&buf, "invalid ruleset '");
    luaL_addstring(&buf, rd->name ? rd->name : "rules");
    luaL_addstring(&buf, "':");
    lua_Integer n = (lua_Integer)lua_rawlen(L, rd->notes);
    for (lua_Integer i = 1; i <= n; i++) {
        luaL_addstring(&buf, "\n  ");
        lua_rawgeti(L, rd->notes, i);
        luaL_addvalue(&buf);
    }
    /* One finding per line, "  path: message": errors, then the lint warnings found on the way
    ** (`framegate check` lists every finding from these lines). */
    for (int pass = 0; more && pass < 2; pass++)
        for (uint32_t i = 0; i < more->count; i++) {
            const fg_finding *x = &more->items[i];
            if (x->warning != (pass == 1) || about_shaky_action(rd, x->path)) continue;
            luaL_addstring(&buf, "\n  ");
            luaL_addstring(&buf, x->path);
            luaL_addstring(&buf, ": ");
            if (x->warning && strncmp(x->msg, "warning", 7) != 0)
                luaL_addstring(&buf, "warning: ");
            luaL_addstring(&buf, x->msg);
        }
    if (more && more->dropped) {
        lua_pushfstring(L, "\n  %s: %d more findings than the validator keeps (%d); fix these "
                        "and check again", rd->name ? rd->name : "rules", (int)more->dropped,
                        (int)(sizeof more->items / sizeof more->items[0]));
        luaL_addvalue(&buf);
    }
    luaL_pushresult(&buf);
}

/* A structure that cannot be read (a list where a table was expected, too many entries): reading
** stops here, with the findings noted so far. */
int fg_rd_fail(fg_rd *rd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (lua_rawlen(rd->L, rd->notes) == 0) {
        if (rd->chunk) {
            lua_pushstring(rd->L, rd->chunk);
            lua_pushliteral(rd->L, ": ");
            push_finding(rd, fmt, ap);
            lua_concat(rd->L, 3);
        } else {
            push_finding(rd, fmt, ap);
        }
        va_end(ap);
        return lua_error(rd->L);
    }
    push_finding(rd, fmt, ap);
    va_end(ap);
    lua_rawseti(rd->L, rd->notes, (lua_Integer)lua_rawlen(rd->L, rd->notes) + 1);
    fg_rd_push_invalid(rd, NULL);
    return lua_error(rd->L);
}

/* Path helpers: push a segment, returning the old length to restore. */
size_t fg_rd_path_push(fg_rd *rd, const char *fmt, ...) {
    size_t old = strlen(rd->path);
    /* A field of the declaration itself has no parent: "actoins", not ".actoins". */
    if (old == 0 && fmt[0] == '.') fmt++;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rd->path + old, sizeof rd->path - old, fmt, ap);
    va_end(ap);
    return old;
}

void fg_rd_path_pop(fg_rd *rd, size_t old) { rd->path[old] = '\0'; }

const char *fg_rd_describe(lua_State *L, int idx, char *buf, size_t size) {
    switch (lua_type(L, idx)) {
    case LUA_TSTRING: snprintf(buf, size, "string '%s'", lua_tostring(L, idx)); break;
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) snprintf(buf, size, "%lld", (long long)lua_tointeger(L, idx));
        else snprintf(buf, size, "%g", lua_tonumber(L, idx));
        break;
    default: snprintf(buf, size, "%s", luaL_typename(L, idx));
    }
    return buf;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Pushes the string keys of the table at idx as a sorted array (a new table) and returns their
** count. Keys are strings only: a list item where a name was expected is an error. */
int fg_rd_sorted_keys(fg_rd *rd, int idx) {
    lua_State *L = rd->L;
    idx = lua_absindex(L, idx);
    int n = 0;
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            char v[64];
            fg_rd_fail(rd, "expected name = value entries, found key %s", fg_rd_describe(L, -1, v, sizeof v));
        }
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, ++n);
    }
    /* Sort through a C array of pointers; the strings stay alive in the keys table. */
    const char **keys = n ? lua_newuserdatauv(L, sizeof(char *) * (size_t)n, 0) : NULL;
    if (n) {
        for (int i = 0; i < n; i++) {
            lua_rawgeti(L, -2, i + 1);
            keys[i] = lua_tostring(L, -1);
            lua_pop(L, 1);
        }
        qsort(keys, (size_t)n, sizeof keys[0], cmp_str);
        lua_createtable(L, n, 0);
        for (int i = 0; i < n; i++) {
            lua_pushstring(L, keys[i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_replace(L, -3); /* sorted table replaces the unsorted one */
        lua_pop(L, 1);      /* the pointer array */
    }
    return n;
}

/* Checks that every key of the table at idx is one of `allowed`. */
void fg_rd_only_fields(fg_rd *rd, int idx, const char *const *allowed) {
    lua_State *L = rd->L;
    idx = lua_absindex(L, idx);
    int n = fg_rd_sorted_keys(rd, idx);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *k = lua_tostring(L, -1);
        bool ok = false;
        for (const char *const *a = allowed; *a; a++) ok |= strcmp(*a, k) == 0;
        if (!ok) {
            /* The whole list, however long: a message the designer reads is never cut. */
            luaL_Buffer b;
            luaL_buffinit(L, &b);
            for (const char *const *a = allowed; *a; a++) {
                luaL_addstring(&b, *a);
                if (a[1]) luaL_addstring(&b, ", ");
            }
            luaL_pushresult(&b);
            size_t old = fg_rd_path_push(rd, ".%s", k);
            fg_rd_note(rd, "unknown field (expected one of: %s)", lua_tostring(L, -1));
            fg_rd_path_pop(rd, old);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

bool fg_rd_get(fg_rd *rd, int t, const char *k) {
    return lua_getfield(rd->L, t, k) != LUA_TNIL;
}

lua_Integer fg_rd_int(fg_rd *rd, int t, const char *k, lua_Integer def, lua_Integer lo,
                             lua_Integer hi) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    lua_Integer v = def;
    if (fg_rd_get(rd, t, k)) {
        int ok;
        char buf[80];
        size_t old = fg_rd_path_push(rd, ".%s", k);
        v = lua_tointegerx(L, -1, &ok);
        if (!ok) {
            fg_rd_note(rd, "expected an integer, got %s", fg_rd_describe(L, -1, buf, sizeof buf));
            v = def;
        } else if (v < lo || v > hi) {
            fg_rd_note(rd, "%lld, expected %lld..%lld", (long long)v, (long long)lo, (long long)hi);
            v = def;
        }
        fg_rd_path_pop(rd, old);
    }
    lua_pop(L, 1);
    return v;
}

/* A distance or speed in pixels (fractions allowed), stored as 16.16 fixed point. */
fg_fx fg_rd_fx(fg_rd *rd, int t, const char *k, fg_fx def) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    fg_fx v = def;
    if (fg_rd_get(rd, t, k)) {
        char buf[80];
        size_t old = fg_rd_path_push(rd, ".%s", k);
        double d = lua_tonumber(L, -1);
        if (lua_type(L, -1) != LUA_TNUMBER)
            fg_rd_note(rd, "expected a number, got %s", fg_rd_describe(L, -1, buf, sizeof buf));
        else if (!isfinite(d) || fabs(d) > 30000.0)
            fg_rd_note(rd, "%s, expected a finite value within +-30000",
                 fg_rd_describe(L, -1, buf, sizeof buf));
        else
            v = (fg_fx)lround(d * FG_FX_ONE);
        fg_rd_path_pop(rd, old);
    }
    lua_pop(L, 1);
    return v;
}

bool fg_rd_bool(fg_rd *rd, int t, const char *k, bool def) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    bool v = def;
    if (fg_rd_get(rd, t, k)) {
        char buf[80];
        size_t old = fg_rd_path_push(rd, ".%s", k);
        if (!lua_isboolean(L, -1))
            fg_rd_note(rd, "expected true or false, got %s", fg_rd_describe(L, -1, buf, sizeof buf));
        else
            v = lua_toboolean(L, -1);
        fg_rd_path_pop(rd, old);
    }
    lua_pop(L, 1);
    return v;
}

void fg_rd_str(fg_rd *rd, int t, const char *k, char *out, size_t size) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    if (fg_rd_get(rd, t, k)) {
        char buf[80];
        size_t old = fg_rd_path_push(rd, ".%s", k);
        size_t len = 0;
        const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
        if (!s)
            fg_rd_note(rd, "expected a string, got %s", fg_rd_describe(L, -1, buf, sizeof buf));
        else if (len >= size)
            fg_rd_note(rd, "'%s' is longer than %d characters", s, (int)size - 1);
        else
            memcpy(out, s, len + 1);
        fg_rd_path_pop(rd, old);
    }
    lua_pop(L, 1);
}

/* Reads a list of names (or one name) at field k into out[max][FG_NAME_MAX]. */
uint32_t fg_rd_names(fg_rd *rd, int t, const char *k, char (*out)[FG_NAME_MAX],
                           uint32_t max) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    uint32_t n = 0;
    if (fg_rd_get(rd, t, k)) {
        char buf[80];
        size_t old = fg_rd_path_push(rd, ".%s", k);
        if (lua_type(L, -1) == LUA_TSTRING) {
            snprintf(out[n++], FG_NAME_MAX, "%s", lua_tostring(L, -1));
        } else if (lua_istable(L, -1)) {
            lua_Integer len = luaL_len(L, -1);
            if (len > (lua_Integer)max) fg_rd_fail(rd, "%lld names, at most %u", (long long)len, max);
            for (lua_Integer i = 1; i <= len; i++) {
                lua_geti(L, -1, i);
                if (lua_type(L, -1) != LUA_TSTRING) {
                    size_t o2 = fg_rd_path_push(rd, "[%lld]", (long long)i);
                    fg_rd_fail(rd, "expected a name, got %s", fg_rd_describe(L, -1, buf, sizeof buf));
                    fg_rd_path_pop(rd, o2);
                }
                const char *s = lua_tostring(L, -1);
                if (strlen(s) >= FG_NAME_MAX) fg_rd_fail(rd, "'%s' is too long", s);
                snprintf(out[n++], FG_NAME_MAX, "%s", s);
                lua_pop(L, 1);
            }
        } else {
            fg_rd_fail(rd, "expected a name or a list of names, got %s",
                 fg_rd_describe(L, -1, buf, sizeof buf));
        }
        fg_rd_path_pop(rd, old);
    }
    lua_pop(L, 1);
    return n;
}

void fg_rd_check_table(fg_rd *rd, int idx, const char *what) {
    char buf[80];
    if (!lua_istable(rd->L, idx))
        fg_rd_fail(rd, "expected %s, got %s", what, fg_rd_describe(rd->L, idx, buf, sizeof buf));
}

/* }====================================================================== */

