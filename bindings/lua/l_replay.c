/* SPDX-License-Identifier: MIT */
/*
** l_replay.c: Lua bindings of framegate/replay.h, for tools and tests: read a replay into tables
** or iterate its records, and write one from tables. Everything lives in the module's `replay`
** table:
**
**   replay.open(path [, opts]) / replay.load(bytes [, opts])   -> reader
**   replay.read(path [, opts]) / replay.decode(bytes [, opts]) -> {header=, records=, stats=}
**   replay.writer(path | nil, header [, opts])                 -> writer
**   replay.write(path | nil, {header=, records=} [, opts])     -> true | bytes
**
** Hashes are Lua integers holding the 64 bits (0xffffffffffffffff == -1). Header lists are maps
** (name -> hash, key -> value), written in bytewise key order so the bytes never depend on pairs().
*/
#include "fg_lua.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READER_MT "framegate.ReplayReader"
#define WRITER_MT "framegate.ReplayWriter"

static const char *const KIND_NAMES[] = {"press", "release", "dir", NULL};
static const char *const SOURCE_NAMES[] = {"device", "ai", "replay", "network", "script", NULL};

/* {====================================================================== reader */

typedef struct lreader {
    fg_replay_reader *r; /* NULL once closed */
} lreader;

static lreader *check_reader(lua_State *L, int idx) {
    lreader *lr = luaL_checkudata(L, idx, READER_MT);
    if (!lr->r) luaL_error(L, "replay reader is closed");
    return lr;
}

fg_replay_reader *fg_lua_check_replay_reader(lua_State *L, int idx) {
    return check_reader(L, idx)->r;
}

static void set_int(lua_State *L, const char *k, lua_Integer v) {
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}
static void set_str(lua_State *L, const char *k, fg_replay_str s) {
    lua_pushlstring(L, s.s, s.len);
    lua_setfield(L, -2, k);
}
static void set_name(lua_State *L, const char *k, const char *const *names, unsigned v) {
    unsigned n = 0;
    while (names[n]) n++;
    if (v < n) lua_pushstring(L, names[v]);
    else lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}
static lua_Integer int_of_u64(uint64_t v) {
    lua_Integer i;
    memcpy(&i, &v, sizeof i); /* the 64 bits, as Lua's integer arithmetic wraps them */
    return i;
}

static void push_header(lua_State *L, const fg_replay_header *h) {
    lua_createtable(L, 0, 7);
    set_str(L, "runtime_version", h->runtime_version);
    set_int(L, "tick_rate", h->tick_rate);
    set_int(L, "seed", int_of_u64(h->seed));
    set_int(L, "start_tick", h->start_tick);
    set_int(L, "ruleset_hash", int_of_u64(h->ruleset_hash));
    lua_createtable(L, 0, (int)h->nhashes);
    for (uint32_t i = 0; i < h->nhashes; i++) {
        lua_pushlstring(L, h->hashes[i].name.s, h->hashes[i].name.len);
        lua_pushinteger(L, int_of_u64(h->hashes[i].hash));
        lua_settable(L, -3);
    }
    lua_setfield(L, -2, "hashes");
    lua_createtable(L, 0, (int)h->nmeta);
    for (uint32_t i = 0; i < h->nmeta; i++) {
        lua_pushlstring(L, h->meta[i].key.s, h->meta[i].key.len);
        lua_pushlstring(L, h->meta[i].value.s, h->meta[i].value.len);
        lua_settable(L, -3);
    }
    lua_setfield(L, -2, "meta");
}

static void push_stats(lua_State *L, const fg_replay_stats *s) {
    lua_createtable(L, 0, 12);
    lua_pushfstring(L, "%d.%d", (int)s->version_major, (int)s->version_minor);
    lua_setfield(L, -2, "version");
    set_int(L, "bytes", (lua_Integer)s->bytes);
    set_int(L, "chunks", (lua_Integer)s->chunks);
    set_int(L, "records", (lua_Integer)s->records);
    set_int(L, "unknown", (lua_Integer)s->unknown);
    set_int(L, "skipped_bytes", (lua_Integer)s->skipped_bytes);
    set_int(L, "last_tick", s->last_tick);
    set_int(L, "valid_bytes", (lua_Integer)s->valid_bytes);
    lua_pushboolean(L, s->complete);
    lua_setfield(L, -2, "complete");
    if (s->has_final) {
        set_int(L, "final_tick", s->final_tick);
        set_int(L, "final_hash", int_of_u64(s->final_hash));
    }
    lua_createtable(L, 0, FG_REPLAY_TYPE_COUNT);
    for (int t = 1; t < FG_REPLAY_TYPE_COUNT; t++)
        set_int(L, fg_replay_type_name(t), (lua_Integer)s->by_type[t]);
    lua_setfield(L, -2, "counts");
}

static void push_record(lua_State *L, const fg_replay_record *rec) {
    lua_createtable(L, 0, 10);
    lua_pushstring(L, fg_replay_type_name(rec->type));
    lua_setfield(L, -2, "type");
    set_int(L, "index", (lua_Integer)rec->index);
    set_int(L, "offset", (lua_Integer)rec->offset);
    switch (rec->type) {
    case FG_REPLAY_INPUT: {
        const fg_replay_input *in = &rec->as.input;
        set_int(L, "entity", in->entity);
        set_int(L, "tick", in->tick);
        set_int(L, "time_us", in->time_us);
        set_name(L, "kind", KIND_NAMES, in->kind);
        set_int(L, "action", in->action);
        set_int(L, "dir", in->dir);
        set_name(L, "source", SOURCE_NAMES, in->source);
        break;
    }
    case FG_REPLAY_COMMAND:
        set_int(L, "entity", rec->as.command.entity);
        set_int(L, "tick", rec->as.command.tick);
        set_int(L, "motion", rec->as.command.motion);
        break;
    case FG_REPLAY_CHECKPOINT:
    case FG_REPLAY_FINAL:
        set_int(L, "tick", rec->as.checkpoint.tick);
        set_int(L, "hash", int_of_u64(rec->as.checkpoint.hash));
        break;
    case FG_REPLAY_CLAMP:
        set_int(L, "tick", rec->as.clamp.tick);
        set_int(L, "clamped_us", rec->as.clamp.clamped_us);
        break;
    case FG_REPLAY_RELOAD: {
        const fg_replay_reload *rl = &rec->as.reload;
        set_int(L, "tick", rl->tick);
        set_int(L, "old_hash", int_of_u64(rl->old_hash));
        set_int(L, "new_hash", int_of_u64(rl->new_hash));
        lua_createtable(L, (int)rl->nfiles, 0);
        for (uint32_t i = 0; i < rl->nfiles; i++) {
            lua_createtable(L, 0, 2);
            set_str(L, "path", rl->files[i].path);
            set_str(L, "text", rl->files[i].text);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
        lua_setfield(L, -2, "files");
        break;
    }
    case FG_REPLAY_END:
        set_int(L, "records", (lua_Integer)rec->as.end.records);
        lua_pushboolean(L, rec->as.end.truncated);
        lua_setfield(L, -2, "truncated");
        break;
    default: break;
    }
}

/* opts: {name = string, partial = boolean} */
static fg_replay_read_options read_options(lua_State *L, int idx) {
    fg_replay_read_options opt = {NULL, NULL, 0};
    if (lua_isnoneornil(L, idx)) return opt;
    luaL_checktype(L, idx, LUA_TTABLE);
    opt.name = fg_lua_opt_str_field(L, idx, "name", NULL);
    if (fg_lua_opt_bool_field(L, idx, "partial", 0)) opt.flags |= FG_REPLAY_READ_PARTIAL;
    return opt;
}

/* Pushes a reader userdata; keeps `keep` (the borrowed bytes) alive as its user value. */
static lreader *new_reader(lua_State *L) {
    lreader *lr = lua_newuserdatauv(L, sizeof *lr, 1);
    lr->r = NULL;
    luaL_setmetatable(L, READER_MT);
    return lr;
}

static int l_open(lua_State *L) {
    const char *path = luaL_checkstring(L, 1);
    fg_replay_read_options opt = read_options(L, 2);
    lreader *lr = new_reader(L);
    fg_error err = {0};
    if (fg_replay_reader_create_file(path, &opt, &lr->r, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return 1;
}

static int l_load(lua_State *L) {
    size_t len;
    const char *bytes = luaL_checklstring(L, 1, &len);
    fg_replay_read_options opt = read_options(L, 2);
    lreader *lr = new_reader(L);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1); /* the reader borrows the string's bytes */
    fg_error err = {0};
    if (fg_replay_reader_create_memory(bytes, len, &opt, &lr->r, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return 1;
}

/* Pushes the next record, or nil at the end marker. */
static int reader_next(lua_State *L, lreader *lr) {
    fg_replay_record rec;
    fg_error err = {0};
    if (fg_replay_next(lr->r, &rec, &err) != FG_OK) return fg_lua_raise(L, &err);
    if (rec.type == FG_REPLAY_END) lua_pushnil(L);
    else push_record(L, &rec);
    return 1;
}

static int l_reader_next(lua_State *L) {
    return reader_next(L, check_reader(L, 1));
}

static int l_reader_peek(lua_State *L) {
    lreader *lr = check_reader(L, 1);
    fg_replay_record rec;
    fg_error err = {0};
    if (fg_replay_peek(lr->r, &rec, &err) != FG_OK) return fg_lua_raise(L, &err);
    if (rec.type == FG_REPLAY_END) lua_pushnil(L);
    else push_record(L, &rec);
    return 1;
}

/* for rec in reader:records() do ... end: from the first record after the header, every time. */
static int l_reader_records(lua_State *L) {
    lreader *lr = check_reader(L, 1);
    fg_replay_reader_rewind(lr->r);
    lua_pushcfunction(L, l_reader_next);
    lua_pushvalue(L, 1);
    return 2;
}

static int l_reader_rewind(lua_State *L) {
    fg_replay_reader_rewind(check_reader(L, 1)->r);
    lua_settop(L, 1);
    return 1;
}

static int l_reader_header(lua_State *L) {
    push_header(L, fg_replay_reader_header(check_reader(L, 1)->r));
    return 1;
}

static int l_reader_stats(lua_State *L) {
    push_stats(L, fg_replay_reader_stats(check_reader(L, 1)->r));
    return 1;
}

static int l_reader_name(lua_State *L) {
    lua_pushstring(L, fg_replay_reader_name(check_reader(L, 1)->r));
    return 1;
}

/* A mismatch is an answer, not a misuse: true, or false and the message. */
static int l_reader_check_ruleset(lua_State *L) {
    lreader *lr = check_reader(L, 1);
    lua_Integer loaded = luaL_checkinteger(L, 2);
    uint64_t h;
    memcpy(&h, &loaded, sizeof h);
    fg_error err = {0};
    if (fg_replay_check_ruleset(lr->r, h, &err) == FG_OK) {
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushboolean(L, 0);
    fg_lua_push_error(L, &err);
    return 2;
}

static int l_reader_close(lua_State *L) {
    lreader *lr = luaL_checkudata(L, 1, READER_MT);
    fg_replay_reader_destroy(lr->r);
    lr->r = NULL;
    return 0;
}

static int l_reader_tostring(lua_State *L) {
    lreader *lr = luaL_checkudata(L, 1, READER_MT);
    if (!lr->r) lua_pushstring(L, READER_MT " (closed)");
    else
        lua_pushfstring(L, READER_MT ": %s (%I records)", fg_replay_reader_name(lr->r),
                        (lua_Integer)fg_replay_reader_stats(lr->r)->records);
    return 1;
}

/* {header=, records={...}, stats=} of an open reader at the top of the stack. */
static int collect(lua_State *L) {
    lreader *lr = check_reader(L, -1);
    int ud = lua_gettop(L);
    lua_createtable(L, 0, 3);
    push_header(L, fg_replay_reader_header(lr->r));
    lua_setfield(L, -2, "header");
    push_stats(L, fg_replay_reader_stats(lr->r));
    lua_setfield(L, -2, "stats");
    lua_createtable(L, (int)fg_replay_reader_stats(lr->r)->records, 0);
    fg_replay_reader_rewind(lr->r);
    for (lua_Integer i = 1;; i++) {
        reader_next(L, lr);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            break;
        }
        lua_rawseti(L, -2, i);
    }
    lua_setfield(L, -2, "records");
    fg_replay_reader_destroy(lr->r);
    lr->r = NULL;
    lua_remove(L, ud);
    return 1;
}

static int l_read(lua_State *L) {
    l_open(L);
    return collect(L);
}

static int l_decode(lua_State *L) {
    l_load(L);
    return collect(L);
}

/* }====================================================================== */

/* {====================================================================== writer */

typedef struct lwriter {
    fg_replay_writer *w; /* NULL once closed */
    bool to_memory;
    bool finished;
    char *mem; /* memory writers: the bytes so far, from Lua's allocator */
    size_t len, cap;
    lua_Alloc allocf;
    void *alloc_ud;
} lwriter;

static fg_status mem_sink(void *ud, const void *data, size_t len, fg_error *err) {
    lwriter *lw = ud;
    if (lw->cap - lw->len < len) {
        size_t cap = lw->cap ? lw->cap : 4096;
        while (cap - lw->len < len) {
            if (cap > SIZE_MAX / 2) return fg_error_set(err, FG_ENOMEM, "replay too large");
            cap *= 2;
        }
        char *p = lw->allocf(lw->alloc_ud, lw->mem, lw->mem ? lw->cap : 0, cap);
        if (!p) return fg_error_set(err, FG_ENOMEM, "out of memory for %zu bytes", cap);
        lw->mem = p;
        lw->cap = cap;
    }
    memcpy(lw->mem + lw->len, data, len);
    lw->len += len;
    return FG_OK;
}

static void writer_release(lwriter *lw) {
    fg_replay_writer_destroy(lw->w);
    lw->w = NULL;
    if (lw->mem) lw->allocf(lw->alloc_ud, lw->mem, lw->cap, 0);
    lw->mem = NULL;
    lw->len = lw->cap = 0;
}

static lwriter *check_writer(lua_State *L, int idx) {
    lwriter *lw = luaL_checkudata(L, idx, WRITER_MT);
    if (!lw->w) luaL_error(L, "replay writer is closed");
    return lw;
}

static int64_t int_field(lua_State *L, int t, const char *k) {
    t = lua_absindex(L, t);
    if (lua_getfield(L, t, k) == LUA_TNIL) luaL_error(L, "%s: expected an integer, got nil", k);
    lua_pop(L, 1);
    return fg_lua_opt_int_field(L, t, k, 0);
}

static uint64_t u64_field(lua_State *L, int t, const char *k, bool required) {
    lua_Integer v = required ? int_field(L, t, k) : fg_lua_opt_int_field(L, t, k, 0);
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* A field that is a name from names, or its index as an integer. */
static unsigned enum_field(lua_State *L, int t, const char *k, const char *const *names,
                           unsigned def) {
    t = lua_absindex(L, t);
    int ty = lua_getfield(L, t, k);
    unsigned v = def;
    if (ty == LUA_TSTRING) {
        const char *s = lua_tostring(L, -1);
        unsigned i = 0;
        while (names[i] && strcmp(names[i], s) != 0) i++;
        if (!names[i]) {
            luaL_Buffer b;
            luaL_buffinit(L, &b);
            for (unsigned j = 0; names[j]; j++) {
                if (j) luaL_addstring(&b, ", ");
                luaL_addstring(&b, names[j]);
            }
            luaL_pushresult(&b);
            luaL_error(L, "%s: \"%s\" is not one of %s", k, s, lua_tostring(L, -1));
        }
        v = i;
    } else if (ty != LUA_TNIL) {
        int ok = 0;
        lua_Integer i = lua_tointegerx(L, -1, &ok);
        if (!ok || i < 0 || i > 255)
            luaL_error(L, "%s: expected a name or an integer 0-255, got %s", k,
                       luaL_typename(L, -1));
        v = (unsigned)i;
    }
    lua_pop(L, 1);
    return v;
}

static uint8_t u8_field(lua_State *L, int t, const char *k, lua_Integer def) {
    lua_Integer v = fg_lua_opt_int_field(L, t, k, def);
    if (v < 0 || v > 255) fg_lua_range_error(L, k, v, 0, 255, NULL);
    return (uint8_t)v;
}

static uint32_t u32_field(lua_State *L, int t, const char *k, bool required) {
    lua_Integer v = required ? int_field(L, t, k) : fg_lua_opt_int_field(L, t, k, 0);
    if (v < 0 || v > (lua_Integer)UINT32_MAX)
        fg_lua_range_error(L, k, v, 0, UINT32_MAX, NULL);
    return (uint32_t)v;
}

static int raise_status(lua_State *L, fg_status st, fg_error *err) {
    if (st != FG_OK) return fg_lua_raise(L, err);
    return 0;
}

static void write_input(lua_State *L, lwriter *lw, int t) {
    fg_replay_input in;
    in.entity = u32_field(L, t, "entity", true);
    in.tick = int_field(L, t, "tick");
    in.time_us = fg_lua_opt_int_field(L, t, "time_us", 0);
    in.kind = (uint8_t)enum_field(L, t, "kind", KIND_NAMES, FG_EDGE_PRESS);
    in.action = u8_field(L, t, "action", 0);
    in.dir = u8_field(L, t, "dir", 5);
    in.source = (uint8_t)enum_field(L, t, "source", SOURCE_NAMES, FG_SOURCE_DEVICE);
    fg_error err = {0};
    raise_status(L, fg_replay_write_input(lw->w, in, &err), &err);
}

static void write_command(lua_State *L, lwriter *lw, int t) {
    fg_replay_command c;
    c.entity = u32_field(L, t, "entity", true);
    c.tick = int_field(L, t, "tick");
    c.motion = u32_field(L, t, "motion", true);
    fg_error err = {0};
    raise_status(L, fg_replay_write_command(lw->w, c, &err), &err);
}

/* files = {{path=, text=}, ...}; the array of structs lives in a temporary userdata. */
static void write_reload(lua_State *L, lwriter *lw, int t) {
    t = lua_absindex(L, t);
    fg_replay_reload rl;
    rl.tick = int_field(L, t, "tick");
    rl.old_hash = u64_field(L, t, "old_hash", true);
    rl.new_hash = u64_field(L, t, "new_hash", true);
    int ty = lua_getfield(L, t, "files");
    if (ty != LUA_TTABLE && ty != LUA_TNIL)
        luaL_error(L, "field 'files': expected a list of {path=, text=}, got %s",
                   luaL_typename(L, -1));
    lua_Integer n = ty == LUA_TNIL ? 0 : luaL_len(L, -1);
    if (n > 1024) luaL_error(L, "field 'files': %I files (at most 1024)", n);
    int files = lua_gettop(L);
    fg_replay_file *f = lua_newuserdatauv(L, sizeof *f * (size_t)(n ? n : 1), 0);
    for (lua_Integer i = 0; i < n; i++) {
        if (lua_geti(L, files, i + 1) != LUA_TTABLE)
            luaL_error(L, "field 'files[%I]': expected a table {path=, text=}, got %s", i + 1,
                       luaL_typename(L, -1));
        size_t plen = 0, tlen = 0;
        lua_getfield(L, -1, "path");
        lua_getfield(L, -2, "text");
        const char *path = lua_tolstring(L, -2, &plen);
        const char *text = lua_tolstring(L, -1, &tlen);
        if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
            luaL_error(L, "field 'files[%I]': path and text must be strings, got %s and %s", i + 1,
                       luaL_typename(L, -2), luaL_typename(L, -1));
        if (plen > UINT32_MAX || tlen > UINT32_MAX)
            luaL_error(L, "field 'files[%I]': longer than 4294967295 bytes", i + 1);
        f[i].path.s = path; /* anchored by the files table, which stays on the stack */
        f[i].path.len = (uint32_t)plen;
        f[i].text.s = text;
        f[i].text.len = (uint32_t)tlen;
        lua_pop(L, 3);
    }
    rl.nfiles = (uint32_t)n;
    rl.files = f;
    fg_error err = {0};
    fg_status st = fg_replay_write_reload(lw->w, &rl, &err);
    lua_settop(L, files - 1);
    raise_status(L, st, &err);
}

static void write_tick_u64(lua_State *L, lwriter *lw, int t, fg_replay_type type) {
    fg_tick tick = int_field(L, t, "tick");
    fg_error err = {0};
    fg_status st;
    if (type == FG_REPLAY_CLAMP)
        st = fg_replay_write_clamp(lw->w, tick, int_field(L, t, "clamped_us"), &err);
    else if (type == FG_REPLAY_FINAL)
        st = fg_replay_write_final(lw->w, tick, u64_field(L, t, "hash", true), &err);
    else st = fg_replay_write_checkpoint(lw->w, tick, u64_field(L, t, "hash", true), &err);
    raise_status(L, st, &err);
}

/* One record table as reader:records() returns it; "end" and "header" are not written. */
static void write_record(lua_State *L, lwriter *lw, int t) {
    luaL_checktype(L, t, LUA_TTABLE);
    const char *type = fg_lua_opt_str_field(L, t, "type", NULL);
    if (!type) luaL_error(L, "record: field 'type' is missing");
    if (strcmp(type, "input") == 0) write_input(L, lw, t);
    else if (strcmp(type, "command") == 0) write_command(L, lw, t);
    else if (strcmp(type, "checkpoint") == 0) write_tick_u64(L, lw, t, FG_REPLAY_CHECKPOINT);
    else if (strcmp(type, "final") == 0) write_tick_u64(L, lw, t, FG_REPLAY_FINAL);
    else if (strcmp(type, "clamp") == 0) write_tick_u64(L, lw, t, FG_REPLAY_CLAMP);
    else if (strcmp(type, "reload") == 0) write_reload(L, lw, t);
    else if (strcmp(type, "end") != 0 && strcmp(type, "header") != 0)
        luaL_error(L, "record: type \"%s\" is not one of input, command, checkpoint, final, "
                      "clamp, reload", type);
}

static int l_w_input(lua_State *L) {
    lwriter *lw = check_writer(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    write_input(L, lw, 2);
    lua_settop(L, 1);
    return 1;
}
static int l_w_command(lua_State *L) {
    lwriter *lw = check_writer(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    write_command(L, lw, 2);
    lua_settop(L, 1);
    return 1;
}
static int l_w_reload(lua_State *L) {
    lwriter *lw = check_writer(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    write_reload(L, lw, 2);
    lua_settop(L, 1);
    return 1;
}
static int l_w_record(lua_State *L) {
    lwriter *lw = check_writer(L, 1);
    write_record(L, lw, 2);
    lua_settop(L, 1);
    return 1;
}

static int tick_hash_method(lua_State *L, fg_replay_type type) {
    lwriter *lw = check_writer(L, 1);
    fg_tick tick = luaL_checkinteger(L, 2);
    lua_Integer v = luaL_checkinteger(L, 3);
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    fg_error err = {0};
    fg_status st = type == FG_REPLAY_CLAMP      ? fg_replay_write_clamp(lw->w, tick, v, &err)
                   : type == FG_REPLAY_FINAL    ? fg_replay_write_final(lw->w, tick, u, &err)
                                                : fg_replay_write_checkpoint(lw->w, tick, u, &err);
    raise_status(L, st, &err);
    lua_settop(L, 1);
    return 1;
}
static int l_w_checkpoint(lua_State *L) {
    return tick_hash_method(L, FG_REPLAY_CHECKPOINT);
}
static int l_w_final(lua_State *L) {
    return tick_hash_method(L, FG_REPLAY_FINAL);
}
static int l_w_clamp(lua_State *L) {
    return tick_hash_method(L, FG_REPLAY_CLAMP);
}

static int l_w_flush(lua_State *L) {
    lwriter *lw = check_writer(L, 1);
    fg_error err = {0};
    raise_status(L, fg_replay_writer_flush(lw->w, &err), &err);
    lua_settop(L, 1);
    return 1;
}

/* Writes the end marker. A memory writer returns its bytes; a file writer returns true. */
static int l_w_finish(lua_State *L) {
    lwriter *lw = check_writer(L, 1);
    fg_error err = {0};
    raise_status(L, fg_replay_writer_finish(lw->w, &err), &err);
    lw->finished = true;
    if (lw->to_memory) lua_pushlstring(L, lw->mem ? lw->mem : "", lw->len);
    else lua_pushboolean(L, 1);
    return 1;
}

/* The bytes so far of a memory writer (what a crash would leave after the last flush). */
static int l_w_bytes(lua_State *L) {
    lwriter *lw = check_writer(L, 1);
    if (!lw->to_memory) return luaL_error(L, "replay writer writes to a file, not to memory");
    lua_pushlstring(L, lw->mem ? lw->mem : "", lw->len);
    return 1;
}

static int l_w_stats(lua_State *L) {
    lwriter *lw = check_writer(L, 1);
    lua_createtable(L, 0, 3);
    set_int(L, "records", (lua_Integer)fg_replay_writer_records(lw->w));
    set_int(L, "bytes", (lua_Integer)fg_replay_writer_bytes(lw->w));
    lua_pushboolean(L, lw->finished);
    lua_setfield(L, -2, "finished");
    return 1;
}

static int l_w_close(lua_State *L) {
    writer_release(luaL_checkudata(L, 1, WRITER_MT));
    return 0;
}

static int l_w_tostring(lua_State *L) {
    lwriter *lw = luaL_checkudata(L, 1, WRITER_MT);
    if (!lw->w) lua_pushstring(L, WRITER_MT " (closed)");
    else
        lua_pushfstring(L, WRITER_MT ": %s (%I records, %I bytes%s)",
                        lw->to_memory ? "memory" : "file",
                        (lua_Integer)fg_replay_writer_records(lw->w),
                        (lua_Integer)fg_replay_writer_bytes(lw->w),
                        lw->finished ? ", finished" : "");
    return 1;
}

/* Sorted (bytewise) keys of the map at t, pushed as a new list; returns the count. */
static lua_Integer sorted_keys(lua_State *L, int t, const char *field) {
    lua_Integer n = fg_lua_sorted_keys(L, t);
    if (n < 0)
        luaL_error(L, "header.%s: keys must be strings, got %s", field, luaL_typename(L, -1));
    return n;
}

/* Reads the header table at idx into h, with arrays in temporary userdata left on the stack. */
static void read_header(lua_State *L, int idx, fg_replay_header *h) {
    luaL_checktype(L, idx, LUA_TTABLE);
    idx = lua_absindex(L, idx);
    memset(h, 0, sizeof *h);
    const char *version = fg_lua_opt_str_field(L, idx, "runtime_version", NULL);
    if (version) h->runtime_version = fg_replay_str_of(version);
    lua_Integer rate = fg_lua_opt_int_field(L, idx, "tick_rate", FG_TICK_RATE_DEFAULT);
    if (rate < 1 || rate > FG_TICK_RATE_MAX)
        fg_lua_range_error(L, "header.tick_rate", rate, 1, FG_TICK_RATE_MAX, "Hz");
    h->tick_rate = (uint32_t)rate;
    h->seed = u64_field(L, idx, "seed", false);
    h->start_tick = fg_lua_opt_int_field(L, idx, "start_tick", 0);
    h->ruleset_hash = u64_field(L, idx, "ruleset_hash", false);

    int ty = lua_getfield(L, idx, "hashes");
    if (ty != LUA_TNIL) {
        if (ty != LUA_TTABLE) luaL_error(L, "header.hashes: expected a table name -> hash");
        lua_Integer n = sorted_keys(L, -1, "hashes");
        if (n > 1024) luaL_error(L, "header.hashes: %I entries (at most 1024)", n);
        fg_replay_named_hash *a = lua_newuserdatauv(L, sizeof *a * (size_t)(n ? n : 1), 0);
        for (lua_Integer i = 0; i < n; i++) {
            lua_rawgeti(L, -2, i + 1);
            size_t len;
            const char *name = lua_tolstring(L, -1, &len);
            lua_gettable(L, -4);
            int ok = 0;
            lua_Integer v = lua_tointegerx(L, -1, &ok);
            if (!ok) luaL_error(L, "header.hashes[\"%s\"]: expected an integer hash", name);
            a[i].name.s = name; /* anchored by the key list */
            a[i].name.len = (uint32_t)len;
            memcpy(&a[i].hash, &v, sizeof v);
            lua_pop(L, 1);
        }
        h->nhashes = (uint32_t)n;
        h->hashes = a;
    }
    /* stack: [hashes-or-nil, (keys, array)] stay until the caller resets the stack */
    ty = lua_getfield(L, idx, "meta");
    if (ty != LUA_TNIL) {
        if (ty != LUA_TTABLE) luaL_error(L, "header.meta: expected a table key -> value");
        lua_Integer n = sorted_keys(L, -1, "meta");
        if (n > 1024) luaL_error(L, "header.meta: %I entries (at most 1024)", n);
        fg_replay_meta *a = lua_newuserdatauv(L, sizeof *a * (size_t)(n ? n : 1), 0);
        for (lua_Integer i = 0; i < n; i++) {
            lua_rawgeti(L, -2, i + 1);
            size_t klen, vlen;
            const char *key = lua_tolstring(L, -1, &klen);
            lua_gettable(L, -4);
            if (lua_type(L, -1) != LUA_TSTRING)
                luaL_error(L, "header.meta[\"%s\"]: expected a string, got %s", key,
                           luaL_typename(L, -1));
            const char *value = lua_tolstring(L, -1, &vlen);
            a[i].key.s = key;
            a[i].key.len = (uint32_t)klen;
            a[i].value.s = value; /* anchored by the meta table */
            a[i].value.len = (uint32_t)vlen;
            lua_pop(L, 1);
        }
        h->nmeta = (uint32_t)n;
        h->meta = a;
    }
}

/* Creates the writer userdata (to memory when path is NULL) and opens it. */
static lwriter *open_writer(lua_State *L, const char *path, int header_idx, int opts_idx) {
    header_idx = lua_absindex(L, header_idx);
    fg_replay_write_options opt = {NULL, 0};
    if (!lua_isnoneornil(L, opts_idx)) {
        luaL_checktype(L, opts_idx, LUA_TTABLE);
        lua_Integer cs = fg_lua_opt_int_field(L, opts_idx, "chunk_size", 0);
        if (cs < 0 || cs > (lua_Integer)FG_REPLAY_CHUNK_MAX)
            fg_lua_range_error(L, "chunk_size", cs, FG_REPLAY_CHUNK_MIN, FG_REPLAY_CHUNK_MAX,
                               "(0 = the default)");
        opt.chunk_size = (uint32_t)cs;
    }
    lwriter *lw = lua_newuserdatauv(L, sizeof *lw, 0);
    memset(lw, 0, sizeof *lw);
    lw->allocf = lua_getallocf(L, &lw->alloc_ud);
    luaL_setmetatable(L, WRITER_MT);
    int ud = lua_gettop(L);
    fg_replay_header h;
    read_header(L, header_idx, &h);
    fg_error err = {0};
    fg_status st;
    if (path) {
        st = fg_replay_writer_create_file(path, &h, &opt, &lw->w, &err);
    } else {
        lw->to_memory = true;
        st = fg_replay_writer_create_sink(&h, mem_sink, lw, &opt, &lw->w, &err);
    }
    lua_settop(L, ud);
    if (st != FG_OK) fg_lua_raise(L, &err);
    return lw;
}

static int l_writer(lua_State *L) {
    const char *path = lua_isnil(L, 1) ? NULL : luaL_checkstring(L, 1);
    open_writer(L, path, 2, 3);
    return 1;
}

/* replay.write(path | nil, {header=, records=}, opts): encoded in memory first, so a record the
** writer refuses leaves no file behind. */
static int l_write(lua_State *L) {
    const char *path = lua_isnil(L, 1) ? NULL : luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    if (lua_getfield(L, 2, "header") != LUA_TTABLE)
        return luaL_error(L, "field 'header': expected a table, got %s", luaL_typename(L, -1));
    int header = lua_gettop(L);
    lwriter *lw = open_writer(L, NULL, header, 3);
    int ty = lua_getfield(L, 2, "records");
    if (ty != LUA_TTABLE && ty != LUA_TNIL)
        return luaL_error(L, "field 'records': expected a list, got %s", luaL_typename(L, -1));
    lua_Integer n = ty == LUA_TNIL ? 0 : luaL_len(L, -1);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, -1, i);
        if (!lua_istable(L, -1))
            return luaL_error(L, "records[%I]: expected a table, got %s", i, luaL_typename(L, -1));
        write_record(L, lw, lua_gettop(L));
        lua_pop(L, 1);
    }
    fg_error err = {0};
    raise_status(L, fg_replay_writer_finish(lw->w, &err), &err);
    if (!path) {
        lua_pushlstring(L, lw->mem, lw->len);
    } else {
        FILE *f = fopen(path, "wb");
        if (!f) return luaL_error(L, "%s: cannot create: %s", path, strerror(errno));
        size_t put = fwrite(lw->mem, 1, lw->len, f);
        int closed = fclose(f);
        if (put != lw->len || closed != 0) {
            remove(path);
            return luaL_error(L, "%s: write failed: %s", path, strerror(errno));
        }
        lua_pushboolean(L, 1);
    }
    writer_release(lw);
    return 1;
}

/* }====================================================================== */

void fg_lua_open_replay(lua_State *L) {
    static const luaL_Reg reader_methods[] = {
        {"next", l_reader_next},     {"peek", l_reader_peek},
        {"records", l_reader_records},
        {"rewind", l_reader_rewind}, {"header", l_reader_header},
        {"stats", l_reader_stats},   {"name", l_reader_name},
        {"check_ruleset", l_reader_check_ruleset}, {"close", l_reader_close},
        {NULL, NULL}};
    static const luaL_Reg reader_meta[] = {{"__gc", l_reader_close},
                                           {"__close", l_reader_close},
                                           {"__tostring", l_reader_tostring},
                                           {NULL, NULL}};
    static const luaL_Reg writer_methods[] = {
        {"input", l_w_input},   {"command", l_w_command}, {"checkpoint", l_w_checkpoint},
        {"final", l_w_final},   {"clamp", l_w_clamp},     {"reload", l_w_reload},
        {"record", l_w_record}, {"flush", l_w_flush},     {"finish", l_w_finish},
        {"bytes", l_w_bytes},   {"stats", l_w_stats},     {"close", l_w_close},
        {NULL, NULL}};
    static const luaL_Reg writer_meta[] = {{"__gc", l_w_close},
                                           {"__close", l_w_close},
                                           {"__tostring", l_w_tostring},
                                           {NULL, NULL}};
    static const luaL_Reg funcs[] = {{"open", l_open},     {"load", l_load},
                                     {"read", l_read},     {"decode", l_decode},
                                     {"writer", l_writer}, {"write", l_write},
                                     {NULL, NULL}};
    fg_lua_class(L, READER_MT, reader_methods, reader_meta);
    fg_lua_class(L, WRITER_MT, writer_methods, writer_meta);
    luaL_newlib(L, funcs);
    lua_pushinteger(L, FG_REPLAY_VERSION_MAJOR);
    lua_setfield(L, -2, "format_major");
    lua_pushinteger(L, FG_REPLAY_VERSION_MINOR);
    lua_setfield(L, -2, "format_minor");
    lua_setfield(L, -2, "replay");
}
