/* SPDX-License-Identifier: MIT */
/*
** l_determinism.c: Lua bindings of framegate/determinism.h.
**
**   w:diff(snap_a, snap_b)            -> { {path=, a=, b=, hashed=, text=}, ... }
**   w:synctest{check = 2}             -> SyncTest: st:advance([n]) -> true | false, report
**   w:record(path | nil, opts)        -> Recording: rec:finish() -> files | bytes
**   w:replay_player(reader, opts)     -> Player: p:step(), p:run(), p:status()
**   w:trace_records([from_tick])      -> every trace record with its kind and fields
**   w:replace_rules(rules [, slot])   swaps a slot's ruleset (what a hot reload does underneath)
**   fg.replay.world(reader, rules)    -> a World built and set up as the replay's started
**   fg.replay.rules(reader [, slot])  -> recorded path, { {path=, text=}, ... }
**   fg.load_rules_source(path, text [, files]) -> Rules from text (a replay's embedded sources)
**   fg.input_fuzz(seed [, activity])  -> Fuzz: fz:tick(world) pushes one tick of random input
**
** Lua rules run inside every tick these drive (fg_lua_world_step), re-simulated ticks included;
** presentation hooks fire once per tick. A recording lives with its world: the world's tick
** records itself, detects hot reloads done through any method (the slot's Rules in the world's
** store carries the sources), and in `takes` mode starts a new file when the world is restored
** or edited between ticks.
*/
#include "fg_lua.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SYNCTEST_T "framegate.SyncTest"
#define RECORDING_T "framegate.Recording"
#define PLAYER_T "framegate.Player"
#define FUZZ_T "framegate.InputFuzz"
#define MAX_FILES 16

void fg_lua_push_hex(lua_State *L, uint64_t h) {
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
    lua_pushstring(L, hex);
}

/* {====================================================================== diff */

void fg_lua_push_diffs(lua_State *L, const fg_state_diff *d, uint32_t n) {
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        char line[256];
        fg_state_diff_format(&d[i], line, sizeof line);
        lua_createtable(L, 0, 5);
        lua_pushstring(L, d[i].path);
        lua_setfield(L, -2, "path");
        lua_pushstring(L, d[i].a);
        lua_setfield(L, -2, "a");
        lua_pushstring(L, d[i].b);
        lua_setfield(L, -2, "b");
        lua_pushboolean(L, d[i].hashed);
        lua_setfield(L, -2, "hashed");
        lua_pushstring(L, line);
        lua_setfield(L, -2, "text");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
}

/* An 8-byte aligned copy of a snapshot string (Lua strings carry no alignment promise). */
static const void *aligned_copy(lua_State *L, int idx, size_t *len) {
    const char *s = luaL_checklstring(L, idx, len);
    void *p = lua_newuserdatauv(L, *len ? *len : 1, 0);
    memcpy(p, s, *len);
    return p;
}

/* w:diff(a, b [, max]) -> differences between two snapshots of this world (w:save()). */
static int world_diff(lua_State *L) {
    fg_world *w = fg_lua_check_world(L, 1)->w;
    lua_Integer max = luaL_optinteger(L, 4, 64);
    luaL_argcheck(L, max >= 1 && max <= 4096, 4, "max must be 1..4096");
    lua_settop(L, 3);
    size_t na, nb;
    const void *a = aligned_copy(L, 2, &na);
    const void *b = aligned_copy(L, 3, &nb);
    fg_state_diff *out = lua_newuserdatauv(L, sizeof *out * (size_t)max, 0);
    uint32_t count = 0;
    fg_error err = {0};
    if (fg_world_diff(w, a, na, b, nb, out, (uint32_t)max, &count, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    fg_lua_push_diffs(L, out, count < (uint32_t)max ? count : (uint32_t)max);
    lua_pushinteger(L, count);
    return 2;
}

/* }====================================================================== */

/* {====================================================================== sync test */

typedef struct lua_synctest {
    fg_synctest *st;
    lua_State *L;  /* during st:advance */
    int world_idx; /* stack index of the World during st:advance */
} lua_synctest;

static lua_synctest *check_synctest(lua_State *L, int idx) {
    lua_synctest *ls = luaL_checkudata(L, idx, SYNCTEST_T);
    if (!ls->st) luaL_error(L, "attempt to use a closed sync test");
    return ls;
}

static fg_status synctest_step(void *ud, fg_world *w, bool again, fg_error *err) {
    (void)w;
    lua_synctest *ls = ud;
    return fg_lua_world_step(ls->L, ls->world_idx, again, err);
}

static void push_report(lua_State *L, const fg_synctest_report *r) {
    lua_createtable(L, 0, 8);
    lua_pushinteger(L, r->tick);
    lua_setfield(L, -2, "tick");
    lua_pushinteger(L, r->checked_at);
    lua_setfield(L, -2, "checked_at");
    lua_pushinteger(L, r->distance);
    lua_setfield(L, -2, "distance");
    fg_lua_push_hex(L, r->expected);
    lua_setfield(L, -2, "expected");
    fg_lua_push_hex(L, r->got);
    lua_setfield(L, -2, "got");
    fg_lua_push_diffs(L, r->diffs, r->ndiffs < FG_SYNCTEST_MAX_DIFFS ? r->ndiffs : FG_SYNCTEST_MAX_DIFFS);
    lua_setfield(L, -2, "diffs");
    lua_pushinteger(L, r->ndiffs);
    lua_setfield(L, -2, "ndiffs");
    char text[4096];
    int n = fg_synctest_report_format(r, text, sizeof text);
    if (n < (int)sizeof text) {
        lua_pushstring(L, n < 0 ? "?" : text);
    } else { /* many long fields: rendered again in a buffer of its size */
        luaL_Buffer b;
        fg_synctest_report_format(r, luaL_buffinitsize(L, &b, (size_t)n + 1), (size_t)n + 1);
        luaL_pushresultsize(&b, (size_t)n);
    }
    lua_setfield(L, -2, "text");
}

/* w:synctest{check = 2} -> SyncTest. The world's state now is the first tick boundary. */
static int world_synctest(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    fg_synctest_config c = fg_synctest_config_default();
    if (lua_istable(L, 2)) c.check = (uint32_t)fg_lua_range_field(L, 2, "check", c.check, 0, UINT32_MAX);
    lua_synctest *ls = lua_newuserdatauv(L, sizeof *ls, 1);
    memset(ls, 0, sizeof *ls);
    luaL_setmetatable(L, SYNCTEST_T);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    c.advance = synctest_step;
    c.ud = ls;
    fg_error err = {0};
    if (fg_synctest_create(lw->w, &c, &ls->st, &err) != FG_OK) return fg_lua_raise(L, &err);
    return 1;
}

/* st:advance([n]) -> true | false, report: runs n ticks (default 1), each checked by rolling
** back and re-simulating. Stops at the first failed check. Other errors raise. */
static int synctest_advance(lua_State *L) {
    lua_synctest *ls = check_synctest(L, 1);
    lua_Integer n = luaL_optinteger(L, 2, 1);
    luaL_argcheck(L, n >= 0, 2, "tick count must be >= 0");
    lua_settop(L, 2);
    lua_getiuservalue(L, 1, 1);
    fg_lua_check_world(L, 3);
    ls->L = L;
    ls->world_idx = 3;
    for (lua_Integer i = 0; i < n; i++) {
        fg_error err = {0};
        fg_status st = fg_synctest_advance(ls->st, &err);
        if (st == FG_EMISMATCH && fg_synctest_last_report(ls->st)->tick >= 0) {
            fg_error_clear(&err); /* the report says it all */
            ls->L = NULL;
            lua_pushboolean(L, 0);
            push_report(L, fg_synctest_last_report(ls->st));
            return 2;
        }
        if (st != FG_OK) {
            ls->L = NULL;
            return fg_lua_raise(L, &err);
        }
    }
    ls->L = NULL;
    lua_pushboolean(L, 1);
    return 1;
}

static int synctest_stats(lua_State *L) {
    fg_synctest_stats s = fg_synctest_get_stats(check_synctest(L, 1)->st);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, s.ticks);
    lua_setfield(L, -2, "ticks");
    lua_pushinteger(L, (lua_Integer)s.rollbacks);
    lua_setfield(L, -2, "rollbacks");
    lua_pushinteger(L, (lua_Integer)s.resimulated);
    lua_setfield(L, -2, "resimulated");
    lua_pushinteger(L, (lua_Integer)s.compared);
    lua_setfield(L, -2, "compared");
    lua_pushinteger(L, (lua_Integer)s.resets);
    lua_setfield(L, -2, "resets");
    return 1;
}

static int synctest_report(lua_State *L) {
    const fg_synctest_report *r = fg_synctest_last_report(check_synctest(L, 1)->st);
    if (r->tick < 0) lua_pushnil(L);
    else push_report(L, r);
    return 1;
}

static int synctest_close(lua_State *L) {
    lua_synctest *ls = luaL_checkudata(L, 1, SYNCTEST_T);
    fg_synctest_destroy(ls->st);
    ls->st = NULL;
    return 0;
}

/* }====================================================================== */

/* {====================================================================== rules of a slot */

/* Pushes the Rules of a world's slot (from the world's store), or nil. */
static void push_slot_rules(lua_State *L, int world_idx, uint32_t slot) {
    lua_getiuservalue(L, world_idx, 1);
    lua_getfield(L, -1, "rules");
    lua_rawgeti(L, -1, (lua_Integer)slot + 1);
    lua_replace(L, -3);
    lua_pop(L, 1);
}

/* Reads the sources of the Rules at idx (rules:sources()) into files; strings stay owned by the
** Rules. Returns the count. */
static uint32_t rules_files(lua_State *L, int idx, fg_replay_file *files, uint32_t max) {
    idx = lua_absindex(L, idx);
    if (!fg_lua_test_rules(L, idx)) return 0;
    lua_getiuservalue(L, idx, 1);
    if (lua_getfield(L, -1, "sources") != LUA_TTABLE) {
        lua_pop(L, 2);
        return 0;
    }
    uint32_t n = 0;
    for (lua_Integer i = 1; n < max; i++) {
        if (lua_rawgeti(L, -1, i) != LUA_TTABLE) {
            lua_pop(L, 1);
            break;
        }
        size_t pl = 0, tl = 0;
        lua_getfield(L, -1, "path");
        const char *path = lua_tolstring(L, -1, &pl);
        lua_getfield(L, -2, "text");
        const char *text = lua_tolstring(L, -1, &tl);
        lua_pop(L, 3); /* the strings stay referenced by the sources table */
        if (!path || !text) continue;
        files[n].path.s = path;
        files[n].path.len = (uint32_t)pl;
        files[n].text.s = text;
        files[n].text.len = (uint32_t)tl;
        n++;
    }
    lua_pop(L, 2);
    return n;
}

/* Replaces a slot's ruleset with the Rules at rules_idx: in the world (new requests use it at
** the next tick) and in the store (its hooks run from then on). */
fg_status fg_lua_world_replace_rules(lua_State *L, int world_idx, uint32_t slot, int rules_idx,
                                     fg_error *err) {
    world_idx = lua_absindex(L, world_idx);
    rules_idx = lua_absindex(L, rules_idx);
    fg_lua_world *lw = fg_lua_check_world(L, world_idx);
    fg_lua_rules *lr = fg_lua_check_rules(L, rules_idx);
    fg_status st = fg_world_replace_rules(lw->w, slot, lr->rules, err);
    if (st != FG_OK) return st;
    fg_lua_world_set_rules(L, world_idx, slot, rules_idx);
    return FG_OK;
}

/* w:replace_rules(rules [, slot]): swaps a slot's ruleset at the next tick boundary (the low-level
** step a hot reload builds on: fg_world_replace_rules plus the Lua hooks of the new Rules). A
** recording notices it and records the reload with the new Rules' sources. */
static int world_replace_rules(lua_State *L) {
    fg_lua_check_world(L, 1);
    fg_lua_check_rules(L, 2);
    lua_Integer slot = luaL_optinteger(L, 3, 0);
    luaL_argcheck(L, slot >= 0 && slot < 8, 3, "slot must be 0..7");
    fg_error err = {0};
    if (fg_lua_world_replace_rules(L, 1, (uint32_t)slot, 2, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return 0;
}

/* }====================================================================== */

/* {====================================================================== recording */

typedef struct membuf {
    unsigned char *p;
    size_t len, cap;
} membuf;

typedef struct fg_lua_recording {
    fg_recorder *rec; /* the take being written; NULL before the first tick of a take */
    char *path;       /* NULL: in memory */
    bool takes;
    int take;          /* takes opened */
    uint32_t every;
    membuf mem;
    fg_tick ticks;     /* over every take */
    fg_replay_meta meta[32];
    uint32_t nmeta;
    char *meta_text; /* the meta strings, one allocation */
    size_t meta_size;
} fg_lua_recording;

static fg_status mem_sink(void *ud, const void *data, size_t len, fg_error *err) {
    membuf *m = ud;
    if (m->len + len > m->cap) {
        size_t cap = m->cap ? m->cap : 65536;
        while (cap < m->len + len) cap *= 2;
        unsigned char *p = realloc(m->p, cap);
        if (!p) return fg_error_set(err, FG_ENOMEM, "recording: out of memory");
        m->p = p;
        m->cap = cap;
    }
    memcpy(m->p + m->len, data, len);
    m->len += len;
    return FG_OK;
}

/* Pushes the file of a take: the path itself, then "name-2.fgr", "name-3.fgr"... [-0, +1, m] */
static const char *push_take_path(lua_State *L, const fg_lua_recording *r, int take) {
    if (take <= 1) return lua_pushstring(L, r->path);
    const char *dot = strrchr(r->path, '.');
    const char *slash = strrchr(r->path, '/');
    if (!dot || (slash && dot < slash)) dot = r->path + strlen(r->path);
    lua_pushlstring(L, r->path, (size_t)(dot - r->path));
    lua_pushfstring(L, "-%d%s", take, dot);
    lua_concat(L, 2);
    return lua_tostring(L, -1);
}

/* Opens the next take (or the only recording) at the world's state now. */
static fg_status open_take(lua_State *L, int world_idx, fg_lua_world *lw, fg_lua_recording *r,
                           fg_error *err) {
    fg_record_rules rules[8];
    fg_replay_file files[8][MAX_FILES];
    uint32_t nrules = 0;
    int top = lua_gettop(L);
    /* The slots' Rules stay on the stack while the recorder copies their sources. */
    for (uint32_t s = 0; s < 8; s++) {
        push_slot_rules(L, world_idx, s);
        if (!fg_lua_test_rules(L, -1)) {
            lua_pop(L, 1);
            break;
        }
        uint32_t n = rules_files(L, -1, files[s], MAX_FILES);
        rules[nrules].slot = s;
        rules[nrules].path = n ? files[s][0].path.s : NULL;
        rules[nrules].files = files[s];
        rules[nrules].nfiles = n;
        nrules++;
    }
    fg_record_options o;
    memset(&o, 0, sizeof o);
    o.checkpoint_every = r->every;
    o.rules = rules;
    o.nrules = nrules;
    o.meta = r->meta;
    o.nmeta = r->nmeta;
    fg_status st;
    if (r->path) {
        const char *path = push_take_path(L, r, r->take + 1); /* popped by the settop below */
        st = fg_recorder_create_file(lw->w, path, &o, &r->rec, err);
    } else {
        if (r->take > 0) {
            lua_settop(L, top);
            return fg_error_set(err, FG_ESTATE, "recording: the world was edited; an in-memory "
                                "recording holds one take");
        }
        st = fg_recorder_create_sink(lw->w, mem_sink, &r->mem, &o, &r->rec, err);
    }
    lua_settop(L, top);
    if (st == FG_OK) r->take++;
    return st;
}

static fg_status finish_take(fg_lua_recording *r, fg_error *err) {
    if (!r->rec) return FG_OK;
    fg_status st = fg_recorder_finish(r->rec, err);
    r->ticks += fg_recorder_ticks(r->rec);
    fg_recorder_destroy(r->rec);
    r->rec = NULL;
    return st;
}

fg_status fg_lua_recording_before(lua_State *L, int world_idx, fg_lua_world *lw, fg_error *err) {
    fg_lua_recording *r = lw->recording;
    if (!r->rec) return r->takes ? open_take(L, world_idx, lw, r, err) : FG_OK;
    /* A reload done through any method: the slot's Rules in the store carries its sources. */
    int slot = fg_recorder_unrecorded_reload(r->rec);
    if (slot >= 0) {
        push_slot_rules(L, world_idx, (uint32_t)slot);
        fg_replay_file files[MAX_FILES];
        uint32_t n = rules_files(L, -1, files, MAX_FILES);
        fg_status st = fg_world_record_reload(r->rec, (uint32_t)slot, files, n, err);
        lua_pop(L, 1);
        if (st != FG_OK) return st;
    }
    if (r->takes && fg_recorder_edited(r->rec, NULL)) {
        fg_status st = finish_take(r, err);
        if (st == FG_OK) st = open_take(L, world_idx, lw, r, err);
        return st;
    }
    return FG_OK;
}

fg_status fg_lua_recording_after(lua_State *L, int world_idx, fg_lua_world *lw, fg_error *err) {
    (void)L;
    (void)world_idx;
    fg_lua_recording *r = lw->recording;
    return r->rec ? fg_recorder_tick(r->rec, err) : FG_OK;
}

void fg_lua_recording_drop(fg_lua_world *lw) {
    fg_lua_recording *r = lw->recording;
    if (!r) return;
    fg_recorder_destroy(r->rec);
    free(r->path);
    free(r->mem.p);
    free(r->meta_text);
    free(r);
    lw->recording = NULL;
}

typedef struct lua_recording_handle {
    int unused;
} lua_recording_handle;

/* The recording handle's world (its user value); errors when the recording has ended. */
static fg_lua_world *handle_world(lua_State *L, int idx) {
    luaL_checkudata(L, idx, RECORDING_T);
    lua_getiuservalue(L, idx, 1);
    fg_lua_world *lw = fg_lua_check_world(L, -1);
    lua_pop(L, 1);
    return lw;
}

/* w:record(path | nil [, {every = 60, takes = false, meta = {k = v}}]) -> Recording.
** Without takes the world must be freshly set up (entities spawned, no tick run) and the
** recording starts now; with takes (a path is required) each run of ticks between edits becomes
** its own file: PATH, then PATH-2, PATH-3 ... */
static int world_record(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    const char *path = luaL_optstring(L, 2, NULL);
    if (lw->recording) return luaL_error(L, "recording: this world is already being recorded");
    bool takes = false;
    lua_Integer every = 60;
    if (lua_istable(L, 3)) {
        takes = fg_lua_opt_bool_field(L, 3, "takes", 0);
        every = fg_lua_opt_int_field(L, 3, "every", 60);
    }
    luaL_argcheck(L, every >= 1 && every <= 1000000, 3, "every must be 1..1000000 ticks");
    if (takes && !path) return luaL_error(L, "recording: takes need a path to number them");
    fg_lua_recording *r = calloc(1, sizeof *r);
    if (!r) return luaL_error(L, "recording: out of memory");
    r->takes = takes;
    r->every = (uint32_t)every;
    if (path && !(r->path = malloc(strlen(path) + 1))) {
        free(r);
        return luaL_error(L, "recording: out of memory");
    }
    if (path) memcpy(r->path, path, strlen(path) + 1);
    /* User metadata, sorted by key so the bytes never depend on pairs(). */
    if (lua_istable(L, 3) && lua_getfield(L, 3, "meta") == LUA_TTABLE) {
        int t = lua_gettop(L);
        size_t size = 0;
        const char *keys[32];
        uint32_t n = 0;
        lua_pushnil(L);
        while (lua_next(L, t)) {
            if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING || n == 32) {
                lua_pop(L, 2);
                lw->recording = r;
                fg_lua_recording_drop(lw);
                return luaL_error(L, "recording: meta must map up to 32 string keys to strings");
            }
            keys[n++] = lua_tostring(L, -2);
            size += lua_rawlen(L, -2) + lua_rawlen(L, -1) + 2;
            lua_pop(L, 1);
        }
        for (uint32_t i = 1; i < n; i++)
            for (uint32_t j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
                const char *tmp = keys[j];
                keys[j] = keys[j - 1];
                keys[j - 1] = tmp;
            }
        r->meta_text = malloc(size ? size : 1);
        r->meta_size = size;
        char *p = r->meta_text;
        for (uint32_t i = 0; p && i < n; i++) {
            lua_getfield(L, t, keys[i]);
            size_t kl = strlen(keys[i]), vl;
            const char *v = lua_tolstring(L, -1, &vl);
            memcpy(p, keys[i], kl + 1);
            r->meta[i].key.s = p;
            r->meta[i].key.len = (uint32_t)kl;
            p += kl + 1;
            memcpy(p, v, vl);
            p[vl] = '\0';
            r->meta[i].value.s = p;
            r->meta[i].value.len = (uint32_t)vl;
            p += vl + 1;
            lua_pop(L, 1);
        }
        r->nmeta = r->meta_text ? n : 0;
    }
    lw->recording = r;
    if (!takes) {
        fg_error err = {0};
        if (open_take(L, 1, lw, r, &err) != FG_OK) {
            fg_lua_recording_drop(lw);
            return fg_lua_raise(L, &err);
        }
    }
    lua_recording_handle *h = lua_newuserdatauv(L, sizeof *h, 1);
    h->unused = 0;
    luaL_setmetatable(L, RECORDING_T);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    return 1;
}

/* rec:finish() -> { path, ... } (the takes written) or the bytes of an in-memory recording.
** Ends the recording. */
static int recording_finish(lua_State *L) {
    fg_lua_world *lw = handle_world(L, 1);
    fg_lua_recording *r = lw->recording;
    if (!r) return luaL_error(L, "recording: already finished");
    fg_error err = {0};
    fg_status st = finish_take(r, &err);
    if (st != FG_OK) {
        fg_lua_recording_drop(lw);
        return fg_lua_raise(L, &err);
    }
    if (r->path) {
        lua_createtable(L, r->take, 0); /* the takes written */
        for (int k = 1; k <= r->take; k++) {
            push_take_path(L, r, k);
            lua_rawseti(L, -2, k);
        }
    } else {
        lua_pushlstring(L, (const char *)r->mem.p, r->mem.len);
    }
    lua_pushinteger(L, r->ticks);
    fg_lua_recording_drop(lw);
    return 2;
}

static int recording_ticks(lua_State *L) {
    fg_lua_world *lw = handle_world(L, 1);
    fg_lua_recording *r = lw->recording;
    lua_Integer n = 0;
    if (r) n = r->ticks + (r->rec ? fg_recorder_ticks(r->rec) : 0);
    lua_pushinteger(L, n);
    return 1;
}

/* rec:clamp(us): time the host loop clamped off since the last call. */
static int recording_clamp(lua_State *L) {
    fg_lua_world *lw = handle_world(L, 1);
    lua_Integer us = luaL_checkinteger(L, 2);
    fg_error err = {0};
    if (lw->recording && lw->recording->rec &&
        fg_recorder_clamp(lw->recording->rec, us, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return 0;
}

/* }====================================================================== */

/* {====================================================================== playback */

typedef struct lua_player {
    fg_player *p;
    lua_State *L;
    int world_idx;
} lua_player;

static lua_player *check_player(lua_State *L, int idx) {
    lua_player *lp = luaL_checkudata(L, idx, PLAYER_T);
    if (!lp->p) luaL_error(L, "attempt to use a closed replay player");
    return lp;
}

static fg_status player_step_fn(void *ud, fg_world *w, bool again, fg_error *err) {
    (void)w;
    lua_player *lp = ud;
    return fg_lua_world_step(lp->L, lp->world_idx, again, err);
}

/* A reload record: compile the embedded files (the first is the ruleset's own file, the others
** what it includes) and swap the result in. */
static fg_status player_reload_fn(void *ud, fg_world *w, uint32_t slot,
                                  const fg_replay_reload *rec, fg_error *err) {
    (void)w;
    lua_player *lp = ud;
    lua_State *L = lp->L;
    if (rec->nfiles == 0)
        return fg_error_set(err, FG_EFORMAT, "replay: the reload at tick %lld embeds no source",
                            (long long)rec->tick);
    int top = lua_gettop(L);
    lua_createtable(L, 0, (int)rec->nfiles);
    for (uint32_t i = 0; i < rec->nfiles; i++) {
        lua_pushlstring(L, rec->files[i].text.s, rec->files[i].text.len);
        lua_setfield(L, -2, rec->files[i].path.s);
    }
    fg_status st = fg_lua_load_rules(L, rec->files[0].path.s, rec->files[0].text.s,
                                     rec->files[0].text.len, -1, err);
    if (st != FG_OK) {
        fg_error_prefix(err, "replay: the reload at tick %lld", (long long)rec->tick);
        lua_settop(L, top);
        return st;
    }
    st = fg_lua_world_replace_rules(L, lp->world_idx, slot, -1, err);
    lua_settop(L, top);
    return st;
}

/* w:replay_player(reader [, {fps = 0, jitter = 0, seed = 1, verify = true}]) -> Player. The world
** must be set up from the replay (fg.replay.world does both). verify = false feeds the recorded
** input only (fg_player_options.inputs_only): the world may run other rules. */
static int world_replay_player(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    fg_replay_reader *rd = fg_lua_check_replay_reader(L, 2);
    fg_player_options o;
    memset(&o, 0, sizeof o);
    if (lua_istable(L, 3)) {
        o.fps = (uint32_t)fg_lua_range_field(L, 3, "fps", 0, 0, UINT32_MAX);
        o.jitter_pct = (uint32_t)fg_lua_range_field(L, 3, "jitter", 0, 0, UINT32_MAX);
        o.jitter_seed = (uint64_t)fg_lua_opt_int_field(L, 3, "seed", 1);
        o.inputs_only = !fg_lua_opt_bool_field(L, 3, "verify", 1);
    }
    lua_player *lp = lua_newuserdatauv(L, sizeof *lp, 2);
    memset(lp, 0, sizeof *lp);
    luaL_setmetatable(L, PLAYER_T);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    lua_pushvalue(L, 2);
    lua_setiuservalue(L, -2, 2);
    o.advance = player_step_fn;
    o.reload = player_reload_fn;
    o.ud = lp;
    fg_error err = {0};
    if (fg_player_create(lw->w, rd, &o, &lp->p, &err) != FG_OK) return fg_lua_raise(L, &err);
    return 1;
}

/* Runs up to n ticks (0: to the end). Mismatches are answers: false and the message. */
static int player_go(lua_State *L, lua_Integer n) {
    lua_player *lp = check_player(L, 1);
    lua_settop(L, 1);
    lua_getiuservalue(L, 1, 1);
    lua_getiuservalue(L, 1, 2);
    fg_lua_check_replay_reader(L, 3); /* still open */
    lp->L = L;
    lp->world_idx = 2;
    fg_error err = {0};
    fg_status st = FG_OK;
    for (lua_Integer i = 0; (n == 0 || i < n) && !fg_player_get_status(lp->p)->done; i++)
        if ((st = fg_player_step(lp->p, &err)) != FG_OK) break;
    lp->L = NULL;
    if (st == FG_EMISMATCH) {
        lua_pushboolean(L, 0);
        fg_lua_push_error(L, &err);
        return 2;
    }
    if (st != FG_OK) return fg_lua_raise(L, &err);
    lua_pushboolean(L, 1);
    return 1;
}

static int player_step(lua_State *L) { return player_go(L, luaL_optinteger(L, 2, 1)); }
static int player_run(lua_State *L) { return player_go(L, 0); }

static int player_status(lua_State *L) {
    const fg_player_status *s = fg_player_get_status(check_player(L, 1)->p);
    lua_createtable(L, 0, 14);
#define SETI(name, v)                                                                             \
    do {                                                                                          \
        lua_pushinteger(L, (lua_Integer)(v));                                                     \
        lua_setfield(L, -2, name);                                                                \
    } while (0)
    SETI("tick", s->tick);
    SETI("last_tick", s->last_tick);
    SETI("checkpoints", s->checkpoints);
    SETI("commands", s->commands);
    SETI("inputs", s->inputs);
    SETI("reloads", s->reloads);
    SETI("frames", s->frames);
    SETI("clamped_us", s->clamped_us);
    SETI("loop_clamped_us", s->loop_clamped_us);
    SETI("last_good_tick", s->last_good_tick);
#undef SETI
    lua_pushboolean(L, s->done);
    lua_setfield(L, -2, "done");
    lua_pushboolean(L, s->diverged);
    lua_setfield(L, -2, "diverged");
    if (s->diverged) {
        lua_pushinteger(L, s->divergent_tick);
        lua_setfield(L, -2, "divergent_tick");
        fg_lua_push_hex(L, s->expected);
        lua_setfield(L, -2, "expected");
        fg_lua_push_hex(L, s->got);
        lua_setfield(L, -2, "got");
    }
    return 1;
}

static int player_close(lua_State *L) {
    lua_player *lp = luaL_checkudata(L, 1, PLAYER_T);
    fg_player_destroy(lp->p);
    lp->p = NULL;
    return 0;
}

/* fg.replay.world(reader, rules [, opts]) -> World: created with the replay's rate, seed and
** capacities and the given Rules (or path), its entities spawned as recorded and the starting
** hash checked. opts.trace sets the trace capacity. */
static int l_replay_world(lua_State *L) {
    fg_replay_reader *rd = fg_lua_check_replay_reader(L, 1);
    fg_world_config c = fg_world_config_default();
    fg_error err = {0};
    if (fg_replay_world_config(rd, &c, &err) != FG_OK) return fg_lua_raise(L, &err);
    lua_Integer trace = lua_istable(L, 3) ? fg_lua_opt_int_field(L, 3, "trace", 4096) : 4096;
    /* Built through fg.world, so the World has its hooks and store like any other. */
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_createtable(L, 0, 9);
    lua_pushvalue(L, 2);
    lua_setfield(L, -2, "rules");
    lua_pushinteger(L, c.tick_rate);
    lua_setfield(L, -2, "rate");
    lua_pushinteger(L, (lua_Integer)c.seed);
    lua_setfield(L, -2, "seed");
    lua_pushinteger(L, c.max_entities);
    lua_setfield(L, -2, "entities");
    lua_pushinteger(L, c.buffer_capacity);
    lua_setfield(L, -2, "buffer");
    lua_pushinteger(L, c.motion_bytes);
    lua_setfield(L, -2, "motion_bytes");
    lua_pushinteger(L, trace);
    lua_setfield(L, -2, "trace");
    if (c.jump_button) {
        lua_createtable(L, 0, 3);
        lua_pushstring(L, c.jump_button);
        lua_setfield(L, -2, "button");
        lua_pushinteger(L, c.jump.buffer_ticks);
        lua_setfield(L, -2, "buffer");
        lua_pushinteger(L, c.jump.coyote_ticks);
        lua_setfield(L, -2, "coyote");
        if (c.jump_action) {
            lua_pushstring(L, c.jump_action);
            lua_setfield(L, -2, "action");
        }
        lua_setfield(L, -2, "jump");
    }
    if (c.ground != FG_GROUND_DEFAULT) {
        lua_pushstring(L, fg_ground_mode_name(c.ground));
        lua_setfield(L, -2, "ground");
    }
    lua_call(L, 1, 1);
    fg_lua_world *lw = fg_lua_check_world(L, -1);
    if (fg_replay_setup(lw->w, rd, &err) != FG_OK) return fg_lua_raise(L, &err);
    return 1;
}

/* fg.replay.rules(reader [, slot]) -> path or nil, { {path=, text=}, ... } as recorded. */
static int l_replay_rules(lua_State *L) {
    fg_replay_reader *rd = fg_lua_check_replay_reader(L, 1);
    lua_Integer slot = luaL_optinteger(L, 2, 0);
    luaL_argcheck(L, slot >= 0 && slot < 8, 2, "slot must be 0..7");
    const char *path = fg_replay_rules_path(rd, (uint32_t)slot);
    if (path) lua_pushstring(L, path);
    else lua_pushnil(L);
    fg_replay_file files[MAX_FILES];
    uint32_t n = fg_replay_rules_files(rd, (uint32_t)slot, files, MAX_FILES);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n && i < MAX_FILES; i++) {
        lua_createtable(L, 0, 2);
        lua_pushlstring(L, files[i].path.s, files[i].path.len);
        lua_setfield(L, -2, "path");
        lua_pushlstring(L, files[i].text.s, files[i].text.len);
        lua_setfield(L, -2, "text");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 2;
}

/* fg.load_rules_source(path, text [, files]) -> Rules compiled from text, in the sandbox; path
** names it in messages and anchors includes, which come from files ({ {path=, text=}, ... }, as
** fg.replay.rules returns them) instead of the disk when given. */
static int l_load_rules_source(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    size_t len;
    const char *text = luaL_checklstring(L, 2, &len);
    int map = 0;
    if (!lua_isnoneornil(L, 3)) {
        luaL_checktype(L, 3, LUA_TTABLE);
        lua_newtable(L);
        map = lua_gettop(L);
        for (lua_Integer i = 1; lua_rawgeti(L, 3, i) == LUA_TTABLE; i++) {
            lua_getfield(L, -1, "path");
            lua_getfield(L, -2, "text");
            if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TSTRING)
                lua_settable(L, map);
            else
                lua_pop(L, 2);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    fg_error err = {0};
    if (fg_lua_load_rules(L, path, text, len, map, &err) != FG_OK)
        return fg_lua_raise_load_error(L, path, &err);
    return 1;
}

/* }====================================================================== */

/* {====================================================================== trace records */

static const char *trace_kind_name(int k) {
    static const char *const names[] = {"input",      "jump",  "contact", "decision",
                                        "transition", "hit",   "command", "rule_error",
                                        "event",      "cue",   "reload",  "miss",
                                        "throw",      "true",  "var"};
    return k >= 0 && k < 15 ? names[k] : "other";
}

/* w:trace_records([from_tick]) -> { {tick=, entity=, kind=, code=, a=, b=, c=, d=, text=,
** reason=, decision=}, ... } oldest first. */
static int world_trace_records(lua_State *L) {
    fg_world *w = fg_lua_check_world(L, 1)->w;
    lua_Integer from = luaL_optinteger(L, 2, LUA_MININTEGER);
    lua_newtable(L);
    lua_Integer k = 0;
    for (uint32_t i = 0; i < fg_world_trace_count(w); i++) {
        const fg_trace_record *r = fg_world_trace_at(w, i);
        if (r->tick < from) continue;
        lua_createtable(L, 0, 11);
        lua_pushinteger(L, r->tick);
        lua_setfield(L, -2, "tick");
        lua_pushinteger(L, r->entity);
        lua_setfield(L, -2, "entity");
        lua_pushstring(L, trace_kind_name(r->kind));
        lua_setfield(L, -2, "kind");
        lua_pushinteger(L, r->code);
        lua_setfield(L, -2, "code");
        lua_pushinteger(L, r->a);
        lua_setfield(L, -2, "a");
        lua_pushinteger(L, r->b);
        lua_setfield(L, -2, "b");
        lua_pushinteger(L, r->c);
        lua_setfield(L, -2, "c");
        lua_pushinteger(L, r->d);
        lua_setfield(L, -2, "d");
        if (r->kind == FG_TRACE_DECISION) {
            lua_pushstring(L, fg_decision_kind_name((fg_decision_kind)r->decision.kind));
            lua_setfield(L, -2, "decision");
            lua_pushstring(L, fg_reason_name((fg_reason)r->decision.reason));
            lua_setfield(L, -2, "reason");
        }
        if (r->kind == FG_TRACE_TRANSITION) {
            lua_pushstring(L, fg_transition_reason_name((fg_transition_reason)r->code));
            lua_setfield(L, -2, "reason");
        }
        fg_lua_push_trace_line(L, w, r);
        lua_setfield(L, -2, "text");
        lua_rawseti(L, -2, ++k);
    }
    return 1;
}

/* }====================================================================== */

/* {====================================================================== random input */

/* fg.input_fuzz(seed [, activity]): activity in percent, 100 = frantic mashing (default). */
static int l_input_fuzz(lua_State *L) {
    lua_Integer seed = luaL_checkinteger(L, 1);
    lua_Integer activity = luaL_optinteger(L, 2, 100);
    luaL_argcheck(L, activity >= 1 && activity <= 100, 2, "activity must be 1..100 percent");
    fg_input_fuzz *f = lua_newuserdatauv(L, sizeof *f, 0);
    fg_input_fuzz_init(f, (uint64_t)seed);
    f->activity = (uint32_t)activity;
    luaL_setmetatable(L, FUZZ_T);
    return 1;
}

/* fz:tick(world): pushes the random input of the world's next tick (it does not run it). */
static int fuzz_push(lua_State *L) {
    fg_input_fuzz *f = luaL_checkudata(L, 1, FUZZ_T);
    fg_world *w = fg_lua_check_world(L, 2)->w;
    fg_error err = {0};
    if (fg_input_fuzz_tick(f, w, &err) != FG_OK) return fg_lua_raise(L, &err);
    return 0;
}

/* }====================================================================== */

void fg_lua_open_determinism(lua_State *L) {
    static const luaL_Reg world_methods[] = {
        {"diff", world_diff},
        {"synctest", world_synctest},
        {"record", world_record},
        {"replay_player", world_replay_player},
        {"trace_records", world_trace_records},
        {"replace_rules", world_replace_rules},
        {NULL, NULL},
    };
    luaL_getmetatable(L, FG_LUA_WORLD_T);
    lua_getfield(L, -1, "__index");
    luaL_setfuncs(L, world_methods, 0);
    lua_pop(L, 2);

    static const luaL_Reg synctest_methods[] = {
        {"advance", synctest_advance}, {"stats", synctest_stats},
        {"report", synctest_report},   {"close", synctest_close},
        {NULL, NULL},
    };
    static const luaL_Reg synctest_meta[] = {{"__gc", synctest_close},
                                             {"__close", synctest_close}, {NULL, NULL}};
    fg_lua_class(L, SYNCTEST_T, synctest_methods, synctest_meta);
    static const luaL_Reg recording_methods[] = {
        {"finish", recording_finish}, {"ticks", recording_ticks}, {"clamp", recording_clamp},
        {NULL, NULL},
    };
    fg_lua_class(L, RECORDING_T, recording_methods, NULL);
    static const luaL_Reg player_methods[] = {
        {"step", player_step},     {"run", player_run},
        {"status", player_status}, {"close", player_close},
        {NULL, NULL},
    };
    static const luaL_Reg player_meta[] = {{"__gc", player_close}, {"__close", player_close},
                                           {NULL, NULL}};
    fg_lua_class(L, PLAYER_T, player_methods, player_meta);
    static const luaL_Reg fuzz_methods[] = {{"tick", fuzz_push}, {NULL, NULL}};
    fg_lua_class(L, FUZZ_T, fuzz_methods, NULL);

    lua_pushcfunction(L, l_input_fuzz);
    lua_setfield(L, -2, "input_fuzz");
    lua_pushcfunction(L, l_load_rules_source);
    lua_setfield(L, -2, "load_rules_source");
    /* fg.replay gains world() and rules(); world() calls fg.world (as registered) through its
    ** upvalue. */
    lua_getfield(L, -1, "replay");
    lua_getfield(L, -2, "world");
    lua_pushcclosure(L, l_replay_world, 1);
    lua_setfield(L, -2, "world");
    lua_pushcfunction(L, l_replay_rules);
    lua_setfield(L, -2, "rules");
    lua_pop(L, 1);
}
