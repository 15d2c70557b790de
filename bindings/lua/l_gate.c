/* SPDX-License-Identifier: MIT */
/*
** l_gate.c: Lua bindings of framegate/gate.h: fg.dispatcher, fg.cycle_track, fg.playback_owner.
**
** The C objects hold marker ids only; each userdata keeps its names in its user value (a table
** mapping name -> id and id -> name) so scripts can speak in names. Marker ids of a dispatcher or
** a track come from its names sorted bytewise, never from table order. Channels and slots are ids
** as in C (the first channel is 0).
*/
#include "fg_lua.h"

#include <stdlib.h>
#include <string.h>

#define DISPATCHER "framegate.Dispatcher"
#define CYCLE_TRACK "framegate.CycleTrack"
#define OWNER "framegate.PlaybackOwner"

/* {====================================================================== state methods */

/* o:hash(), o:snapshot(), o:restore(bytes) and o:describe() are the same for every gate object
** (each is plain data with _hash, _bytes, _restore and _describe functions in C): written once
** here, instantiated per class as NAME_hash, NAME_snapshot, NAME_restore and NAME_describe over
** the object at field F of the userdata that CHECK returns. */
#define STATE_METHODS(NAME, CHECK, F, C)                                                         \
    static int NAME##_hash(lua_State *L) {                                                       \
        fg_hasher hs = fg_hasher_begin(0);                                                       \
        C##_hash(CHECK(L, 1)->F, &hs);                                                           \
        lua_pushinteger(L, (lua_Integer)fg_hasher_end(&hs));                                     \
        return 1;                                                                                \
    }                                                                                            \
    static int NAME##_snapshot(lua_State *L) {                                                   \
        const void *obj = CHECK(L, 1)->F;                                                        \
        lua_pushlstring(L, (const char *)obj, C##_bytes(obj));                                  \
        return 1;                                                                                \
    }                                                                                            \
    static int NAME##_restore(lua_State *L) {                                                    \
        size_t len;                                                                              \
        const char *s = luaL_checklstring(L, 2, &len);                                           \
        fg_error err;                                                                            \
        if (C##_restore(CHECK(L, 1)->F, s, len, &err) != FG_OK) return fg_lua_raise(L, &err);    \
        lua_settop(L, 1);                                                                        \
        return 1;                                                                                \
    }                                                                                            \
    static int NAME##_describe(lua_State *L) {                                                   \
        size_t n = C##_describe(CHECK(L, 1)->F, NULL, 0);                                        \
        luaL_Buffer b;                                                                           \
        char *p = luaL_buffinitsize(L, &b, n + 1);                                               \
        C##_describe(CHECK(L, 1)->F, p, n + 1);                                                  \
        luaL_pushresultsize(&b, n);                                                              \
        return 1;                                                                                \
    }

/* }====================================================================== */

/* {====================================================================== argument helpers */

/* Options arguments are read with the bindings' field reader (util.c): errors name the called
** function and the field, `dispatch.seq: expected an integer, got string 'x'`, at the caller. */

static int field_error(lua_State *L, int arg, const char *field, const char *msg) {
    (void)arg;
    return fg_lua_field_error(L, field, "%s", msg);
}

/* Integer field `field` of the table at index t, reported as `label`; nil gives def unless
** required. */
static lua_Integer int_field_at(lua_State *L, int t, int arg, const char *field, const char *label,
                                int required, lua_Integer def) {
    int ty = lua_getfield(L, t, field);
    lua_Integer v = def;
    if (ty == LUA_TNIL) {
        if (required) field_error(L, arg, label, "expected an integer, got nil");
    } else {
        int ok = 0;
        v = lua_tointegerx(L, -1, &ok);
        if (!ok) {
            char buf[80];
            fg_lua_field_error(L, label, "expected an integer, got %s",
                               fg_lua_describe_value(L, -1, buf, sizeof buf));
        }
    }
    lua_pop(L, 1);
    return v;
}

static lua_Integer int_field(lua_State *L, int arg, const char *field, int required,
                             lua_Integer def) {
    return int_field_at(L, arg, arg, field, field, required, def);
}

static void int_range(lua_State *L, int arg, const char *label, lua_Integer v, lua_Integer lo,
                      lua_Integer hi) {
    (void)arg;
    if (v < lo || v > hi) {
        char range[64];
        fg_lua_range_text(range, sizeof range, lo, hi);
        fg_lua_field_error(L, label, "%lld is out of range, expected %s", (long long)v, range);
    }
}

/* Optional string field (the string stays reachable through the table). */
static const char *str_field(lua_State *L, int arg, const char *field) {
    int ty = lua_getfield(L, arg, field);
    const char *v = NULL;
    char buf[80];
    if (ty == LUA_TSTRING)
        v = lua_tostring(L, -1);
    else if (ty != LUA_TNIL)
        fg_lua_field_error(L, field, "expected a string, got %s",
                           fg_lua_describe_value(L, -1, buf, sizeof buf));
    lua_pop(L, 1);
    return v;
}

/* Optional number field. */
static lua_Number num_field(lua_State *L, int arg, const char *field, lua_Number def) {
    int ty = lua_getfield(L, arg, field);
    lua_Number v = def;
    char buf[80];
    if (ty == LUA_TNUMBER)
        v = lua_tonumber(L, -1);
    else if (ty != LUA_TNIL)
        fg_lua_field_error(L, field, "expected a number, got %s",
                           fg_lua_describe_value(L, -1, buf, sizeof buf));
    lua_pop(L, 1);
    return v;
}

/* Integer argument in [lo, hi]. */
static lua_Integer check_range(lua_State *L, int arg, const char *what, lua_Integer lo,
                               lua_Integer hi) {
    lua_Integer v = luaL_checkinteger(L, arg);
    if (v < lo || v > hi) fg_lua_range_error(L, what, v, lo, hi, NULL);
    return v;
}

/* A token {slot = s, generation = g} in the table at index t; errors name prefix..field of
** argument arg. */
static fg_playback_token read_token(lua_State *L, int t, int arg, const char *slot_label,
                                    const char *gen_label) {
    fg_playback_token tok;
    lua_Integer slot = int_field_at(L, t, arg, "slot", slot_label, 1, 0);
    int_range(L, arg, slot_label, slot, 0, UINT32_MAX);
    lua_Integer gen = int_field_at(L, t, arg, "generation", gen_label, 1, 0);
    int_range(L, arg, gen_label, gen, 0, UINT32_MAX);
    tok.slot = (uint32_t)slot;
    tok.generation = (uint32_t)gen;
    return tok;
}

/* A token argument: a table {slot =, generation =}. */
static fg_playback_token check_token(lua_State *L, int arg) {
    luaL_checktype(L, arg, LUA_TTABLE);
    return read_token(L, arg, arg, "slot", "generation");
}

static void push_token(lua_State *L, fg_playback_token t) {
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, t.slot);
    lua_setfield(L, -2, "slot");
    lua_pushinteger(L, t.generation);
    lua_setfield(L, -2, "generation");
}

/* Pushes a names table (name -> id, id -> name) of the given strings: ids follow bytewise order
** of the distinct names, so they never depend on the order of a Lua table. Sorts names. */
static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void push_names(lua_State *L, const char **names, size_t n) {
    qsort(names, n, sizeof names[0], cmp_str);
    lua_createtable(L, (int)n, (int)n);
    lua_Integer id = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(names[i - 1], names[i]) == 0) continue;
        lua_pushinteger(L, id);
        lua_setfield(L, -2, names[i]);
        lua_pushstring(L, names[i]);
        lua_rawseti(L, -2, id);
        id++;
    }
}

/* Name of a marker id in the names table at index t, or NULL. */
static const char *name_of(lua_State *L, int t, lua_Integer id) {
    lua_rawgeti(L, t, id);
    const char *s = lua_tostring(L, -1);
    lua_pop(L, 1); /* the string stays reachable from the table */
    return s;
}

/* Installs __index as a closure over the methods table that also answers read-only properties. */
static void make_class(lua_State *L, const char *tname, const luaL_Reg *methods,
                       const luaL_Reg *meta, lua_CFunction index) {
    fg_lua_class(L, tname, NULL, meta);
    luaL_getmetatable(L, tname);
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_pushcclosure(L, index, 1);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
}

static int methods_index(lua_State *L) {
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(1));
    return 1;
}

static fg_allocator lua_allocator(lua_State *L) {
    fg_allocator a;
    a.realloc = lua_getallocf(L, &a.ud);
    return a;
}

/* }====================================================================== */

/* {====================================================================== fg.dispatcher */

typedef struct ldispatcher {
    fg_dispatcher *d;
    fg_allocator a;
} ldispatcher;

static ldispatcher *check_dispatcher(lua_State *L, int i) {
    ldispatcher *u = luaL_checkudata(L, i, DISPATCHER);
    if (!u->d) luaL_error(L, "attempt to use a collected dispatcher");
    return u;
}

/* fg.dispatcher{channels = 1, capacity = 16, markers = {"damage", ...}} */
static int dispatcher_new(lua_State *L) {
    if (lua_isnoneornil(L, 1)) {
        lua_settop(L, 0);
        lua_newtable(L);
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer channels = int_field(L, 1, "channels", 0, 1);
    int_range(L, 1, "channels", channels, 1, FG_DISPATCH_MAX_CHANNELS);
    lua_Integer capacity = int_field(L, 1, "capacity", 0, 16);
    int_range(L, 1, "capacity", capacity, 1, FG_DISPATCH_MAX_CAPACITY);
    int ty = lua_getfield(L, 1, "markers");
    size_t n = 0;
    if (ty != LUA_TNIL && ty != LUA_TTABLE)
        field_error(L, 1, "markers",
                    lua_pushfstring(L, "expected a list of names, got %s", luaL_typename(L, -1)));
    if (ty == LUA_TTABLE) n = (size_t)luaL_len(L, -1);
    const char **names = n ? lua_newuserdatauv(L, n * sizeof *names, 0) : NULL;
    if (!n) lua_pushnil(L);
    for (size_t i = 0; i < n; i++) {
        lua_rawgeti(L, -2, (lua_Integer)i + 1);
        if (lua_type(L, -1) != LUA_TSTRING || lua_rawlen(L, -1) == 0)
            field_error(L, 1, "markers",
                        lua_pushfstring(L, "[%d] expected a non-empty name, got %s", (int)i + 1,
                                        lua_type(L, -1) == LUA_TSTRING ? "an empty string"
                                                                       : luaL_typename(L, -1)));
        names[i] = lua_tostring(L, -1);
        lua_pop(L, 1); /* the string stays reachable from the markers table */
    }
    ldispatcher *u = lua_newuserdatauv(L, sizeof *u, 1);
    u->d = NULL;
    u->a = lua_allocator(L);
    luaL_setmetatable(L, DISPATCHER);
    push_names(L, names, n);
    lua_setiuservalue(L, -2, 1);
    fg_error err = {0};
    if (fg_dispatcher_create((uint32_t)channels, (uint32_t)capacity, &u->a, &u->d, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return 1;
}

static int dispatcher_gc(lua_State *L) {
    ldispatcher *u = luaL_checkudata(L, 1, DISPATCHER);
    if (u->d) fg_dispatcher_destroy(u->d);
    u->d = NULL;
    return 0;
}

static int dispatcher_tostring(lua_State *L) {
    ldispatcher *u = luaL_checkudata(L, 1, DISPATCHER);
    if (!u->d) {
        lua_pushliteral(L, DISPATCHER " (collected)");
        return 1;
    }
    lua_pushfstring(L, DISPATCHER " (channels %d, capacity %d)", (int)u->d->channels,
                    (int)u->d->capacity);
    return 1;
}

static uint32_t check_channel(lua_State *L, const ldispatcher *u, int arg) {
    return (uint32_t)check_range(L, arg, "channel", 0, (lua_Integer)u->d->channels - 1);
}

/* d:begin(channel, seq) */
static int dispatcher_begin(lua_State *L) {
    ldispatcher *u = check_dispatcher(L, 1);
    uint32_t channel = check_channel(L, u, 2);
    lua_Integer seq = luaL_checkinteger(L, 3);
    fg_error err = {0};
    if (fg_dispatcher_begin(u->d, channel, seq, &err) != FG_OK) return fg_lua_raise(L, &err);
    lua_settop(L, 1);
    return 1;
}

/* Reads {channel=, seq=, marker=, occurrence=, clip=, time=} at index 2 into c. */
static void read_candidate(lua_State *L, const ldispatcher *u, fg_event_candidate *c) {
    luaL_checktype(L, 2, LUA_TTABLE);
    memset(c, 0, sizeof *c);
    lua_Integer channel = int_field(L, 2, "channel", 0, 0);
    int_range(L, 2, "channel", channel, 0, (lua_Integer)u->d->channels - 1);
    c->stamp.channel = (uint32_t)channel;
    c->stamp.sequence = int_field(L, 2, "seq", 1, 0);
    lua_Integer occ = int_field(L, 2, "occurrence", 0, 0);
    int_range(L, 2, "occurrence", occ, 0, LUA_MAXINTEGER);
    c->stamp.occurrence = (uint64_t)occ;
    lua_getiuservalue(L, 1, 1);
    int names = lua_gettop(L);
    int ty = lua_getfield(L, 2, "marker");
    if (ty == LUA_TSTRING) {
        const char *name = lua_tostring(L, -1);
        if (lua_getfield(L, names, name) != LUA_TNUMBER)
            field_error(
                L, 2, "marker",
                lua_pushfstring(L, "'%s' is not a declared marker of this dispatcher", name));
        c->stamp.marker = (fg_marker)lua_tointeger(L, -1);
        c->marker_name = name;
        lua_pop(L, 1);
    } else if (ty == LUA_TNUMBER && lua_isinteger(L, -1)) {
        lua_Integer id = lua_tointeger(L, -1);
        int_range(L, 2, "marker", id, 0, UINT32_MAX);
        c->stamp.marker = (fg_marker)id;
        c->marker_name = name_of(L, names, id);
    } else {
        field_error(
            L, 2, "marker",
            lua_pushfstring(L, "expected a marker name or id, got %s",
                            ty == LUA_TNUMBER ? "a number with a fraction" : luaL_typename(L, -1)));
    }
    lua_pop(L, 2); /* marker value, names: strings stay reachable from their tables */
    c->clip = str_field(L, 2, "clip");
    c->time = (float)num_field(L, 2, "time", 0.0);
}

static int dispatcher_decide(lua_State *L, int record) {
    ldispatcher *u = check_dispatcher(L, 1);
    fg_event_candidate c;
    read_candidate(L, u, &c);
    fg_dispatch_result r;
    fg_error err = {0};
    fg_status st = record ? fg_dispatcher_dispatch(u->d, &c, &r, &err)
                          : fg_dispatcher_classify(u->d, &c, &r, &err);
    if (st != FG_OK) return fg_lua_raise(L, &err);
    lua_pushstring(L, fg_dispatch_result_name(r));
    return 1;
}

/* d:dispatch{...} -> "Accepted" | "Duplicate" | "StaleAction" */
static int dispatcher_dispatch(lua_State *L) { return dispatcher_decide(L, 1); }

/* d:classify{...}: the same answer, nothing recorded. */
static int dispatcher_classify(lua_State *L) { return dispatcher_decide(L, 0); }

/* d:live(channel) -> live sequence (0: none yet) */
static int dispatcher_live(lua_State *L) {
    ldispatcher *u = check_dispatcher(L, 1);
    lua_pushinteger(L, fg_dispatcher_live(u->d, check_channel(L, u, 2)));
    return 1;
}

/* d:ledger(channel) -> { {marker=, id=, closed_below=, window=}, ... } */
static int dispatcher_ledger(lua_State *L) {
    ldispatcher *u = check_dispatcher(L, 1);
    uint32_t channel = check_channel(L, u, 2);
    lua_getiuservalue(L, 1, 1);
    int names = lua_gettop(L);
    uint32_t n = fg_dispatcher_ledger_count(u->d, channel);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        const fg_ledger_entry *e = fg_dispatcher_ledger_at(u->d, channel, i);
        lua_createtable(L, 0, 4);
        const char *name = name_of(L, names, e->marker);
        if (name)
            lua_pushstring(L, name);
        else
            lua_pushinteger(L, e->marker);
        lua_setfield(L, -2, "marker");
        lua_pushinteger(L, e->marker);
        lua_setfield(L, -2, "id");
        lua_pushinteger(L, (lua_Integer)e->closed_below);
        lua_setfield(L, -2, "closed_below");
        lua_pushinteger(L, (lua_Integer)e->window);
        lua_setfield(L, -2, "window");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

STATE_METHODS(dispatcher, check_dispatcher, d, fg_dispatcher)

/* Properties: channels, capacity, bytes; everything else is a method. */
static int dispatcher_index(lua_State *L) {
    ldispatcher *u = check_dispatcher(L, 1);
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";
    if (strcmp(k, "channels") == 0) {
        lua_pushinteger(L, u->d->channels);
    } else if (strcmp(k, "capacity") == 0) {
        lua_pushinteger(L, u->d->capacity);
    } else if (strcmp(k, "bytes") == 0) {
        lua_pushinteger(L, (lua_Integer)fg_dispatcher_bytes(u->d));
    } else {
        return methods_index(L);
    }
    return 1;
}

/* }====================================================================== */

/* {====================================================================== fg.cycle_track */

typedef struct ltrack {
    fg_cycle_track t;
} ltrack;

/* fg.cycle_track{duration = 1000, markers = {{tick = 50, name = "FootLeft"}, ...}} */
static int track_new(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer duration = int_field(L, 1, "duration", 1, 0);
    int ty = lua_getfield(L, 1, "markers");
    if (ty != LUA_TNIL && ty != LUA_TTABLE)
        field_error(L, 1, "markers",
                    lua_pushfstring(L, "expected a list of {tick =, name =}, got %s",
                                    luaL_typename(L, -1)));
    int list = lua_gettop(L);
    lua_Integer n = ty == LUA_TTABLE ? luaL_len(L, list) : 0;
    if (n > FG_TRACK_MAX_MARKERS)
        field_error(L, 1, "markers",
                    lua_pushfstring(L, "%I markers, at most %d allowed", (LUAI_UACINT)n,
                                    FG_TRACK_MAX_MARKERS));
    fg_track_marker_spec spec[FG_TRACK_MAX_MARKERS];
    const char *sorted[FG_TRACK_MAX_MARKERS];
    for (lua_Integer i = 0; i < n; i++) {
        if (lua_rawgeti(L, list, i + 1) != LUA_TTABLE)
            field_error(L, 1, "markers",
                        lua_pushfstring(L, "[%I] expected a table {tick =, name =}, got %s",
                                        (LUAI_UACINT)(i + 1), luaL_typename(L, -1)));
        int m = lua_gettop(L);
        lua_getfield(L, m, "tick");
        int ok = 0;
        spec[i].tick = lua_tointegerx(L, -1, &ok);
        if (!ok)
            field_error(L, 1, "markers",
                        lua_pushfstring(L, "[%I].tick: expected an integer, got %s",
                                        (LUAI_UACINT)(i + 1), luaL_typename(L, -1)));
        lua_pop(L, 1);
        lua_getfield(L, m, "name");
        if (lua_type(L, -1) != LUA_TSTRING || lua_rawlen(L, -1) == 0)
            field_error(L, 1, "markers",
                        lua_pushfstring(L, "[%I].name: expected a non-empty string, got %s",
                                        (LUAI_UACINT)(i + 1),
                                        lua_type(L, -1) == LUA_TSTRING ? "an empty string"
                                                                       : luaL_typename(L, -1)));
        spec[i].name = sorted[i] = lua_tostring(L, -1);
        lua_pop(L, 2); /* name and marker table stay reachable from the list */
    }
    ltrack *u = lua_newuserdatauv(L, sizeof *u, 1);
    luaL_setmetatable(L, CYCLE_TRACK);
    push_names(L, sorted, (size_t)n);
    int names = lua_gettop(L);
    for (lua_Integer i = 0; i < n; i++) {
        lua_getfield(L, names, spec[i].name);
        spec[i].marker = (fg_marker)lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    lua_setiuservalue(L, -2, 1);
    fg_error err = {0};
    if (fg_cycle_track_init(&u->t, duration, spec, (uint32_t)n, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return 1;
}

static ltrack *check_track(lua_State *L, int i) { return luaL_checkudata(L, i, CYCLE_TRACK); }

static int track_tostring(lua_State *L) {
    ltrack *u = check_track(L, 1);
    lua_pushfstring(L, CYCLE_TRACK " (duration %I, markers %d)", (LUAI_UACINT)u->t.duration,
                    (int)u->t.count);
    return 1;
}

/* Pushes {tick=, marker=name, id=, occurrence=} for an event, names at index names. */
static void push_event(lua_State *L, int names, const fg_track_event *e) {
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, e->tick);
    lua_setfield(L, -2, "tick");
    const char *name = name_of(L, names, e->marker);
    if (name)
        lua_pushstring(L, name);
    else
        lua_pushinteger(L, e->marker);
    lua_setfield(L, -2, "marker");
    lua_pushinteger(L, e->marker);
    lua_setfield(L, -2, "id");
    lua_pushinteger(L, (lua_Integer)e->occurrence);
    lua_setfield(L, -2, "occurrence");
}

/* track:sample(token, from, to) -> {token =, from =, to =, events = {...}} */
static int track_sample(lua_State *L) {
    ltrack *u = check_track(L, 1);
    fg_playback_token token = check_token(L, 2);
    lua_Integer from = luaL_checkinteger(L, 3);
    lua_Integer to = luaL_checkinteger(L, 4);
    uint64_t n;
    fg_error err = {0};
    if (fg_cycle_track_count(&u->t, from, to, &n, &err) != FG_OK) return fg_lua_raise(L, &err);
    if (n > (uint64_t)INT32_MAX / sizeof(fg_track_event))
        return luaL_error(L,
                          "cycle track: interval (%I, %I] holds too many events to sample at once",
                          (LUAI_UACINT)from, (LUAI_UACINT)to);
    fg_track_event *out = n ? lua_newuserdatauv(L, (size_t)n * sizeof *out, 0) : NULL;
    fg_track_batch batch;
    if (fg_cycle_track_sample(&u->t, token, from, to, out, (uint32_t)n, &batch, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    lua_getiuservalue(L, 1, 1);
    int names = lua_gettop(L);
    lua_createtable(L, 0, 4);
    push_token(L, token);
    lua_setfield(L, -2, "token");
    lua_pushinteger(L, from);
    lua_setfield(L, -2, "from");
    lua_pushinteger(L, to);
    lua_setfield(L, -2, "to");
    lua_createtable(L, (int)batch.count, 0);
    for (uint32_t i = 0; i < batch.count; i++) {
        push_event(L, names, &batch.events[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "events");
    return 1;
}

/* track:markers() -> { {tick=, name=, id=}, ... } in tick order */
static int track_markers(lua_State *L) {
    ltrack *u = check_track(L, 1);
    lua_getiuservalue(L, 1, 1);
    int names = lua_gettop(L);
    lua_createtable(L, (int)u->t.count, 0);
    for (uint32_t i = 0; i < u->t.count; i++) {
        const fg_track_marker *m = &u->t.markers[i];
        lua_createtable(L, 0, 3);
        lua_pushinteger(L, m->tick);
        lua_setfield(L, -2, "tick");
        lua_pushstring(L, name_of(L, names, m->marker));
        lua_setfield(L, -2, "name");
        lua_pushinteger(L, m->marker);
        lua_setfield(L, -2, "id");
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int track_index(lua_State *L) {
    ltrack *u = check_track(L, 1);
    if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "duration") == 0) {
        lua_pushinteger(L, u->t.duration);
        return 1;
    }
    return methods_index(L);
}

/* }====================================================================== */

/* {====================================================================== fg.playback_owner */

typedef struct lowner {
    fg_playback_owner *o;
    fg_allocator a;
} lowner;

static lowner *check_owner(lua_State *L, int i) {
    lowner *u = luaL_checkudata(L, i, OWNER);
    if (!u->o) luaL_error(L, "attempt to use a collected playback owner");
    return u;
}

/* fg.playback_owner{queue = 64} */
static int owner_new(lua_State *L) {
    if (lua_isnoneornil(L, 1)) {
        lua_settop(L, 0);
        lua_newtable(L);
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer queue = int_field(L, 1, "queue", 0, 64);
    int_range(L, 1, "queue", queue, 1, FG_PLAYBACK_MAX_QUEUE);
    lowner *u = lua_newuserdatauv(L, sizeof *u, 1);
    u->o = NULL;
    u->a = lua_allocator(L);
    luaL_setmetatable(L, OWNER);
    lua_newtable(L); /* marker names seen in committed batches: id -> name */
    lua_setiuservalue(L, -2, 1);
    fg_error err = {0};
    if (fg_playback_owner_create((uint32_t)queue, &u->a, &u->o, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return 1;
}

static int owner_gc(lua_State *L) {
    lowner *u = luaL_checkudata(L, 1, OWNER);
    if (u->o) fg_playback_owner_destroy(u->o);
    u->o = NULL;
    return 0;
}

static int owner_tostring(lua_State *L) {
    lowner *u = luaL_checkudata(L, 1, OWNER);
    if (!u->o) {
        lua_pushliteral(L, OWNER " (collected)");
        return 1;
    }
    if (u->o->live)
        lua_pushfstring(L, OWNER " (slot %d generation %d, cursor %I)", (int)u->o->token.slot,
                        (int)u->o->token.generation, (LUAI_UACINT)u->o->cursor);
    else
        lua_pushliteral(L, OWNER " (no live playback)");
    return 1;
}

/* o:begin(token, cursor = 0) */
static int owner_begin(lua_State *L) {
    lowner *u = check_owner(L, 1);
    fg_playback_token token = check_token(L, 2);
    lua_Integer cursor = luaL_optinteger(L, 3, 0);
    fg_error err = {0};
    if (fg_playback_owner_begin(u->o, token, cursor, &err) != FG_OK) return fg_lua_raise(L, &err);
    lua_settop(L, 1);
    return 1;
}

static int owner_stop(lua_State *L) {
    lowner *u = check_owner(L, 1);
    fg_playback_owner_end(u->o);
    lua_settop(L, 1);
    return 1;
}

/* o:commit(batch) -> "Committed" | "AlreadyCommitted" | "StalePlayback" | "CursorGap" */
static int owner_commit(lua_State *L) {
    lowner *u = check_owner(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    fg_track_batch b;
    memset(&b, 0, sizeof b);
    lua_getfield(L, 2, "token");
    if (!lua_istable(L, -1))
        field_error(
            L, 2, "token",
            lua_pushfstring(L, "expected {slot =, generation =}, got %s", luaL_typename(L, -1)));
    b.token = read_token(L, lua_gettop(L), 2, "token.slot", "token.generation");
    lua_pop(L, 1);
    b.from = int_field(L, 2, "from", 1, 0);
    b.to = int_field(L, 2, "to", 1, 0);
    int ty = lua_getfield(L, 2, "events");
    if (ty != LUA_TNIL && ty != LUA_TTABLE)
        field_error(L, 2, "events",
                    lua_pushfstring(L, "expected a list of events, got %s", luaL_typename(L, -1)));
    int list = lua_gettop(L);
    lua_Integer n = ty == LUA_TTABLE ? luaL_len(L, list) : 0;
    if (n > (lua_Integer)FG_PLAYBACK_MAX_QUEUE)
        field_error(L, 2, "events",
                    lua_pushfstring(L, "%I events, more than any queue holds", (LUAI_UACINT)n));
    fg_track_event *ev = n ? lua_newuserdatauv(L, (size_t)n * sizeof *ev, 0) : NULL;
    for (lua_Integer i = 0; i < n; i++) {
        if (lua_rawgeti(L, list, i + 1) != LUA_TTABLE)
            field_error(L, 2, "events",
                        lua_pushfstring(L, "[%I] expected an event table, got %s",
                                        (LUAI_UACINT)(i + 1), luaL_typename(L, -1)));
        int e = lua_gettop(L);
        const char *keys[3] = {"tick", "id", "occurrence"};
        lua_Integer vals[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++) {
            int kty = lua_getfield(L, e, keys[k]);
            int ok = 0;
            vals[k] = lua_tointegerx(L, -1, &ok);
            if (!ok && !(k == 2 && kty == LUA_TNIL))
                field_error(L, 2, "events",
                            lua_pushfstring(L, "[%I].%s: expected an integer, got %s",
                                            (LUAI_UACINT)(i + 1), keys[k], luaL_typename(L, -1)));
            lua_pop(L, 1);
        }
        if (vals[1] < 0 || vals[1] > (lua_Integer)UINT32_MAX || vals[2] < 0)
            field_error(L, 2, "events",
                        lua_pushfstring(L, "[%I]: id %I or occurrence %I is negative or too large",
                                        (LUAI_UACINT)(i + 1), (LUAI_UACINT)vals[1],
                                        (LUAI_UACINT)vals[2]));
        ev[i].tick = vals[0];
        ev[i].marker = (fg_marker)vals[1];
        ev[i].occurrence = (uint64_t)vals[2];
        ev[i].reserved = 0;
        lua_pop(L, 1);
    }
    b.count = (uint32_t)n;
    b.events = ev;
    fg_commit_result r;
    fg_error err = {0};
    if (fg_playback_owner_commit(u->o, &b, &r, &err) != FG_OK) return fg_lua_raise(L, &err);
    if (r == FG_COMMIT_COMMITTED && n > 0) {
        /* Remember the names of delivered markers, for :delivered() and :drain(). */
        lua_getiuservalue(L, 1, 1);
        int names = lua_gettop(L);
        for (lua_Integer i = 0; i < n; i++) {
            lua_rawgeti(L, list, i + 1);
            if (lua_getfield(L, -1, "marker") == LUA_TSTRING)
                lua_rawseti(L, names, (lua_Integer)ev[i].marker);
            else
                lua_pop(L, 1);
            lua_pop(L, 1);
        }
    }
    lua_pushstring(L, fg_commit_result_name(r));
    return 1;
}

static int push_pending(lua_State *L, lowner *u, int drain) {
    lua_getiuservalue(L, 1, 1);
    int names = lua_gettop(L);
    uint32_t n = fg_playback_owner_pending(u->o);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        push_event(L, names, fg_playback_owner_at(u->o, i));
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    if (drain) fg_playback_owner_drain(u->o, NULL, n);
    return 1;
}

/* o:delivered() -> delivered events not drained yet, oldest first */
static int owner_delivered(lua_State *L) { return push_pending(L, check_owner(L, 1), 0); }

/* o:drain() -> the same list, and the queue is emptied */
static int owner_drain(lua_State *L) { return push_pending(L, check_owner(L, 1), 1); }

STATE_METHODS(owner, check_owner, o, fg_playback_owner)

/* Properties: cursor, live, token (nil when nothing is live), pending, delivered_total. */
static int owner_index(lua_State *L) {
    lowner *u = check_owner(L, 1);
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";
    fg_playback_token t;
    if (strcmp(k, "cursor") == 0) {
        lua_pushinteger(L, fg_playback_owner_cursor(u->o));
    } else if (strcmp(k, "live") == 0) {
        lua_pushboolean(L, fg_playback_owner_live(u->o, NULL));
    } else if (strcmp(k, "token") == 0) {
        if (fg_playback_owner_live(u->o, &t))
            push_token(L, t);
        else
            lua_pushnil(L);
    } else if (strcmp(k, "pending") == 0) {
        lua_pushinteger(L, fg_playback_owner_pending(u->o));
    } else if (strcmp(k, "delivered_total") == 0) {
        lua_pushinteger(L, (lua_Integer)u->o->delivered);
    } else {
        return methods_index(L);
    }
    return 1;
}

/* }====================================================================== */

void fg_lua_open_gate(lua_State *L) {
    static const luaL_Reg dispatcher_methods[] = {
        {"begin", dispatcher_begin},       {"dispatch", dispatcher_dispatch},
        {"classify", dispatcher_classify}, {"live", dispatcher_live},
        {"ledger", dispatcher_ledger},     {"hash", dispatcher_hash},
        {"snapshot", dispatcher_snapshot}, {"restore", dispatcher_restore},
        {"describe", dispatcher_describe}, {NULL, NULL}};
    static const luaL_Reg dispatcher_meta[] = {
        {"__gc", dispatcher_gc}, {"__tostring", dispatcher_tostring}, {NULL, NULL}};
    static const luaL_Reg track_methods[] = {
        {"sample", track_sample}, {"markers", track_markers}, {NULL, NULL}};
    static const luaL_Reg track_meta[] = {{"__tostring", track_tostring}, {NULL, NULL}};
    static const luaL_Reg owner_methods[] = {
        {"begin", owner_begin},       {"stop", owner_stop},
        {"commit", owner_commit},     {"delivered", owner_delivered},
        {"drain", owner_drain},       {"hash", owner_hash},
        {"snapshot", owner_snapshot}, {"restore", owner_restore},
        {"describe", owner_describe}, {NULL, NULL}};
    static const luaL_Reg owner_meta[] = {
        {"__gc", owner_gc}, {"__tostring", owner_tostring}, {NULL, NULL}};
    static const luaL_Reg functions[] = {{"dispatcher", dispatcher_new},
                                         {"cycle_track", track_new},
                                         {"playback_owner", owner_new},
                                         {NULL, NULL}};

    make_class(L, DISPATCHER, dispatcher_methods, dispatcher_meta, dispatcher_index);
    make_class(L, CYCLE_TRACK, track_methods, track_meta, track_index);
    make_class(L, OWNER, owner_methods, owner_meta, owner_index);
    luaL_setfuncs(L, functions, 0);
}
