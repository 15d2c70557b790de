/* SPDX-License-Identifier: MIT */
/*
** l_load.c: loading rule files. Reads a ruleset's file (or text standing in for it) and every file
** it includes, runs each in a sandbox environment of its own under the load budget, hashes what
** was read, builds the Rules from the declaration (l_rules.c) and puts file:line in front of each
** field the builder or the validator complains about. Loading calls building, never the reverse.
*/
#include "fg_lua.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {====================================================================== files and includes */

/* Records a file read, once: ctx.sources[#+1] = { path =, text = }. */
static void record_source(lua_State *L, int ctx, const char *path, int text) {
    text = lua_absindex(L, text);
    lua_getfield(L, ctx, "seen");
    if (lua_getfield(L, -1, path) != LUA_TNIL) {
        lua_pop(L, 2);
        return;
    }
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, path);
    lua_pop(L, 1);
    lua_getfield(L, ctx, "sources");
    lua_createtable(L, 0, 2);
    lua_pushstring(L, path);
    lua_setfield(L, -2, "path");
    lua_pushvalue(L, text);
    lua_setfield(L, -2, "text");
    lua_rawseti(L, -2, (lua_Integer)luaL_len(L, -2) + 1);
    lua_pop(L, 1);
}

/* Gets a file's text: from the load's source map when it has one (a replay's recorded files),
** else from disk. On failure the reason is pushed instead. */
static bool push_source(lua_State *L, int ctx, const char *path) {
    if (lua_getfield(L, ctx, "map") == LUA_TTABLE) {
        lua_getfield(L, -1, path);
        lua_remove(L, -2);
        if (lua_type(L, -1) == LUA_TSTRING) return true;
        lua_pop(L, 1);
        lua_pushliteral(L, "the replay holds no such file");
        return false;
    }
    lua_pop(L, 1);
    return fg_lua_read_file(L, path);
}

/* Normalises a path relative to the ruleset's folder into out; false if it is absolute or
** climbs out of the folder. */
static bool normalise(const char *rel, char *out, size_t size) {
    if (!rel[0] || rel[0] == '/' || strchr(rel, '\\')) return false;
    size_t n = 0;
    const char *p = rel;
    while (*p) {
        const char *e = strchr(p, '/');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == 0 || (len == 1 && p[0] == '.')) {
            /* "a//b", "./a": nothing to add */
        } else if (len == 2 && p[0] == '.' && p[1] == '.') {
            if (n == 0) return false;
            while (n > 0 && out[n - 1] != '/') n--;
            if (n > 0) n--;
        } else {
            if (n + len + 2 > size) return false;
            if (n > 0) out[n++] = '/';
            memcpy(out + n, p, len);
            n += len;
        }
        p += len;
        if (*p == '/') p++;
    }
    out[n] = '\0';
    return n > 0;
}

/* Runs the text on top of the stack as the rules file `path` in a fresh environment; its
** results replace the text. */
static int load_include(lua_State *L);

/* The chunk name of a rules file: its path relative to the ruleset's folder ("chars/ryu.lua"),
** so messages and tracebacks read the same on every machine and stay short in a deep checkout. */
static void push_chunk_name(lua_State *L, int ctx, const char *path) {
    lua_getfield(L, ctx, "root");
    size_t rlen;
    const char *root = lua_tolstring(L, -1, &rlen);
    if (root && rlen > 0 && strncmp(path, root, rlen) == 0 && path[rlen] == '/') path += rlen + 1;
    lua_pop(L, 1);
    lua_pushfstring(L, "@%s", path);
}

static int run_file(lua_State *L, int ctx, const char *path) {
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    push_chunk_name(L, ctx, path);
    if (luaL_loadbufferx(L, text, len, lua_tostring(L, -1), "t") != LUA_OK) return lua_error(L);
    lua_remove(L, -2);
    lua_remove(L, -2);
    fg_lua_sandbox_env(L, ctx, load_include);
    lua_setupvalue(L, -2, 1);
    int top = lua_gettop(L) - 1;
    lua_call(L, 0, LUA_MULTRET);
    return lua_gettop(L) - top;
}

/* include "moves/specials.lua": runs another file of the ruleset (relative to its folder) in an
** environment of its own and returns what it returns. */
static int load_include(lua_State *L) {
    int ctx = lua_upvalueindex(1);
    size_t rlen;
    const char *rel = luaL_checklstring(L, 1, &rlen);
    char *norm = lua_newuserdatauv(L, rlen + 2, 0); /* normalise's bound: a name and its '/' */
    if (!normalise(rel, norm, rlen + 2))
        return luaL_error(L, "framegate: include \"%s\": only files inside the ruleset's folder "
                          "can be included (a relative path without '..' above it)", rel);
    lua_getfield(L, ctx, "root");
    const char *root = lua_tostring(L, -1);
    const char *full = lua_pushfstring(L, "%s%s%s", root && *root ? root : "",
                                       root && *root ? "/" : "", norm);
    if (lua_getfield(L, ctx, "map") != LUA_TTABLE && !fg_lua_check_inside(L, root, full))
        return luaL_error(L, "framegate: include \"%s\": %s", rel, lua_tostring(L, -1));
    lua_pop(L, 1); /* full stays on the stack below */
    /* The chain of files being run, to refuse a file that includes itself. */
    lua_getfield(L, ctx, "stack");
    int stack = lua_gettop(L);
    lua_Integer depth = luaL_len(L, stack);
    for (lua_Integer i = 1; i <= depth; i++) {
        lua_rawgeti(L, stack, i);
        bool same = strcmp(lua_tostring(L, -1), full) == 0;
        lua_pop(L, 1);
        if (same) {
            luaL_Buffer b;
            luaL_buffinit(L, &b);
            for (lua_Integer j = 1; j <= depth; j++) {
                lua_rawgeti(L, stack, j);
                luaL_addvalue(&b);
                luaL_addstring(&b, " -> ");
            }
            luaL_addstring(&b, full);
            luaL_pushresult(&b);
            return luaL_error(L, "framegate: include \"%s\": recursive include (%s)", rel,
                              lua_tostring(L, -1));
        }
    }
    if (!push_source(L, ctx, full))
        return luaL_error(L, "framegate: include \"%s\": cannot read '%s': %s", rel, full,
                          lua_tostring(L, -1));
    record_source(L, ctx, full, -1);
    lua_pushstring(L, full);
    lua_rawseti(L, stack, depth + 1);
    int nres = run_file(L, ctx, full); /* the text on top becomes the file's results */
    lua_pushnil(L);
    lua_rawseti(L, stack, depth + 1);
    return nres;
}

/* {---------------------------------------------------------------------- field lines */

/* Finds the line of a field path ("actions.jab.cancels[1].to") in a rules text: each name in
** turn, as `name =` after the previous one. Returns the number of names found and *line. */
static int locate_in(const char *text, const char *field, int *line) {
    const char *pos = text;
    int found = 0;
    char name[64];
    const char *p = field;
    while (*p) {
        size_t len = strcspn(p, ".[");
        if (len > 0 && len < sizeof name) {
            memcpy(name, p, len);
            name[len] = '\0';
            const char *hit = NULL;
            for (const char *s = strstr(pos, name); s; s = strstr(s + 1, name)) {
                char before = s > text ? s[-1] : ' ';
                if ((before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z') ||
                    (before >= '0' && before <= '9') || before == '_' || before == '.')
                    continue;
                const char *after = s + len;
                if (*after == '"' || *after == '\'') after++, before = '[';
                while (*after == ' ' || *after == '\t') after++;
                if (*after == ']') {
                    after++;
                    while (*after == ' ' || *after == '\t') after++;
                }
                if (*after == '=' && after[1] != '=') {
                    hit = s;
                    break;
                }
            }
            if (!hit) { /* not in this file (or written another way): try the next name */
                p += len;
                while (*p == '.' || *p == '[' || *p == ']' || (*p >= '0' && *p <= '9')) p++;
                continue;
            }
            pos = hit + len;
            found++;
            int l = 1;
            for (const char *c = text; c < hit; c++) l += *c == '\n';
            *line = l;
        }
        p += len;
        while (*p == '.' || *p == '[' || *p == ']' || (*p >= '0' && *p <= '9')) p++;
    }
    return found;
}

/* Rewrites "path: field: message" (and the validator's "\n  field: message" lines) so each
** field names the file and line it was declared at. */
static void add_field_lines(lua_State *L, int ctx, const char *path, const char *msg) {
    lua_getfield(L, ctx, "sources"); /* before the buffer: its stack use must stay balanced */
    int sources = lua_gettop(L);
    lua_Integer nsources = luaL_len(L, sources);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    size_t plen = strlen(path);
    const char *p = msg;
    bool first = true;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *field = p;
        size_t skip = 0;
        if (first && strncmp(p, path, plen) == 0 && p[plen] == ':' && p[plen + 1] == ' ') {
            skip = plen + 2;
            field = p + skip;
        } else if (!first && strncmp(p, "  ", 2) == 0) {
            skip = 2;
            field = p + 2;
        }
        const char *colon = field < p + len ? strstr(field, ": ") : NULL;
        char name[128];
        int line = 0, best = 0;
        const char *file = NULL;
        if (skip && colon && colon < p + len && (size_t)(colon - field) < sizeof name &&
            !memchr(field, ' ', (size_t)(colon - field))) {
            memcpy(name, field, (size_t)(colon - field));
            name[colon - field] = '\0';
            for (lua_Integer i = 1; i <= nsources; i++) {
                lua_rawgeti(L, sources, i);
                lua_getfield(L, -1, "text");
                int l = 0, found = locate_in(lua_tostring(L, -1), name, &l);
                lua_pop(L, 1);
                if (found > best) {
                    best = found;
                    line = l;
                    lua_getfield(L, -1, "path");
                    file = lua_tostring(L, -1); /* alive in ctx.sources */
                    lua_pop(L, 1);
                }
                lua_pop(L, 1);
            }
        }
        if (file && line > 0) {
            if (!first) luaL_addstring(&b, "  ");
            lua_pushfstring(L, "%s:%d: ", file, line);
            luaL_addvalue(&b);
            luaL_addlstring(&b, field, len - skip);
        } else {
            luaL_addlstring(&b, p, len);
        }
        if (eol) luaL_addchar(&b, '\n');
        p += len + (eol ? 1 : 0);
        first = false;
    }
    luaL_pushresult(&b);
    lua_remove(L, sources);
}

/* }---------------------------------------------------------------------- */

static int build_entry(lua_State *L) {
    const char *path = lua_tostring(L, 2);
    uint64_t hash = (uint64_t)lua_tointeger(L, 3);
    return fg_lua_build_rules(L, 1, path, hash);
}

/* The load itself, run protected under the load budget: (path, text|nil, map|nil) -> Rules. */
static int load_entry(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    lua_settop(L, 3);
    lua_createtable(L, 0, 6); /* ctx: root, stack, sources, seen, map */
    int ctx = lua_gettop(L);
    const char *slash = strrchr(path, '/');
    if (slash) lua_pushlstring(L, path, (size_t)(slash - path));
    else lua_pushliteral(L, "");
    lua_setfield(L, ctx, "root");
    lua_createtable(L, 4, 0);
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, 1);
    lua_setfield(L, ctx, "stack");
    lua_newtable(L);
    lua_setfield(L, ctx, "sources");
    lua_newtable(L);
    lua_setfield(L, ctx, "seen");
    if (lua_istable(L, 3)) {
        lua_pushvalue(L, 3);
        lua_setfield(L, ctx, "map");
    }
    if (lua_type(L, 2) == LUA_TSTRING) lua_pushvalue(L, 2);
    else if (!push_source(L, ctx, path))
        return luaL_error(L, "rules: cannot read '%s': %s", path, lua_tostring(L, -1));
    record_source(L, ctx, path, -1);
    int nres = run_file(L, ctx, path);
    if (nres == 0) lua_pushnil(L);
    lua_settop(L, ctx + 1); /* the declaration */
    int decl = ctx + 1;
    /* The content hash covers every file read, in the order read. */
    fg_hasher hs = fg_hasher_begin(0x7372636573u);
    lua_getfield(L, ctx, "sources");
    for (lua_Integer i = 1; i <= luaL_len(L, -1); i++) {
        size_t len;
        lua_rawgeti(L, -1, i);
        lua_getfield(L, -1, "path");
        fg_hash_str(&hs, lua_tostring(L, -1));
        lua_getfield(L, -2, "text");
        const char *text = lua_tolstring(L, -1, &len);
        fg_hash_u64(&hs, len);
        fg_hash_bytes(&hs, text, len);
        lua_pop(L, 3);
    }
    lua_pop(L, 1);
    uint64_t source_hash = fg_hasher_end(&hs);
    lua_pushcfunction(L, build_entry);
    lua_pushvalue(L, decl);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, (lua_Integer)source_hash);
    if (lua_pcall(L, 3, 1, 0) != LUA_OK) {
        add_field_lines(L, ctx, path, lua_tostring(L, -1));
        return lua_error(L);
    }
    /* The Rules remember where they came from, for reloads and replays. */
    lua_getiuservalue(L, -1, 1);
    lua_getfield(L, ctx, "sources");
    lua_setfield(L, -2, "sources");
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, "root");
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)source_hash);
    lua_pushstring(L, hex);
    lua_setfield(L, -2, "source_hash");
    lua_pop(L, 1);
    return 1;
}

fg_status fg_lua_load_rules(lua_State *L, const char *path, const char *text, size_t len,
                            int map, fg_error *err) {
    if (map) map = lua_absindex(L, map);
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, FG_LUA_FULL_ERROR_KEY);
    lua_pushcfunction(L, load_entry);
    lua_pushstring(L, path);
    if (text) lua_pushlstring(L, text, len);
    else lua_pushnil(L);
    if (map) lua_pushvalue(L, map);
    else lua_pushnil(L);
    return fg_lua_call_load(L, 3, 1, "loading the rules", err);
}

/* Lua shortens a long file name in its messages to "...<its end>" (LUA_IDSIZE): give such a
** message the whole path back, so a file in a deep folder is still named exactly. */
static void push_unshortened(lua_State *L, const char *msg, const char *path) {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    size_t plen = strlen(path);
    const char *p = msg;
    for (const char *dots; (dots = strstr(p, "...")) != NULL;) {
        const char *tail = dots + 3, *colon = strchr(tail, ':');
        size_t tlen = colon ? (size_t)(colon - tail) : 0;
        bool match = tlen > 0 && tlen < plen && memcmp(path + plen - tlen, tail, tlen) == 0;
        luaL_addlstring(&b, p, (size_t)(dots - p));
        if (match) {
            luaL_addstring(&b, path);
            p = colon;
        } else {
            luaL_addstring(&b, "...");
            p = tail;
        }
    }
    luaL_addstring(&b, p);
    luaL_pushresult(&b);
}

int fg_lua_raise_load_error(lua_State *L, const char *path, fg_error *err) {
    if (lua_getfield(L, LUA_REGISTRYINDEX, FG_LUA_FULL_ERROR_KEY) != LUA_TSTRING) {
        lua_pop(L, 1);
        return fg_lua_raise(L, err);
    }
    fg_error_clear(err);
    push_unshortened(L, lua_tostring(L, -1), path);
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, FG_LUA_FULL_ERROR_KEY);
    return lua_error(L);
}

void fg_lua_load_rules_source(lua_State *L, const char *path, const char *text, size_t len) {
    fg_error err = {0};
    if (fg_lua_load_rules(L, path, text, len, 0, &err) != FG_OK)
        fg_lua_raise_load_error(L, path, &err);
}

void fg_lua_load_rules_file(lua_State *L, const char *path) {
    fg_error err = {0};
    if (fg_lua_load_rules(L, path, NULL, 0, 0, &err) != FG_OK)
        fg_lua_raise_load_error(L, path, &err);
}

/* fg.rules(path [, text] | declaration | Rules) -> Rules. [-2, +1, v] */
static int l_rules(lua_State *L) {
    if (fg_lua_test_rules(L, 1)) {
        lua_settop(L, 1);
        return 1;
    }
    if (lua_type(L, 1) == LUA_TSTRING) {
        /* fg.rules(path, text): the text, read as if it were the file at path. */
        size_t len;
        const char *text = luaL_optlstring(L, 2, NULL, &len);
        if (text) fg_lua_load_rules_source(L, lua_tostring(L, 1), text, len);
        else fg_lua_load_rules_file(L, lua_tostring(L, 1));
        return 1;
    }
    return fg_lua_build_rules(L, 1, NULL, 0);
}

/* }====================================================================== */

void fg_lua_open_load(lua_State *L) {
    static const luaL_Reg funcs[] = {
        {"rules", l_rules},
        {NULL, NULL},
    };
    luaL_setfuncs(L, funcs, 0);
}
