/* SPDX-License-Identifier: MIT */
/*
** l_session.c: netplay from Lua.
**   fg.link{nodes=2, latency_ms=, jitter_ms=, loss=, duplicate=, reorder=, seed=,
**           over=transport} -> Link (over: a shim in front of a real transport)
**     link:node(i) -> Transport, link:time(us), link:cut(i, bool), link:stats()
**   fg.enet{node=, nodes=, host=, port=} -> ENet (when built with ENet; fg.enet is nil otherwise)
**     enet:transport(), enet:port(), enet:connected(), enet:rtt(), enet:drop(), enet:rejoins()
**   fg.session{world=, transport=, node=, players=2, spectators=0, delay=2, max_prediction=8,
**              hash_every=30, interrupt_ms=500, disconnect_ms=5000, rejoin_ms=0, rejoin=false,
**              ticks=0} -> Session
**     s:press(name), s:release(name), s:direction(numpad), s:input_from(world, entity),
**     s:input_tick(), s:delay([n]),
**     s:advance(now_us) -> true | false, message, s:state(), s:stats(), s:report(),
**     s:hash(tick), s:record(player, tick), s:close()
**   fg.feed(world, entity, source_world, source_entity): a record's input without a session
** Nodes and players count from 1 here, as entities do; the C API counts nodes from 0.
*/
#include "fg_lua.h"

#include <string.h>

#ifdef FG_HAVE_ENET
#include "framegate/enet.h"
#endif

#define LINK_T "framegate.Link"
#define TRANSPORT_T "framegate.Transport"
#define ENET_T "framegate.ENet"
#define SESSION_T "framegate.Session"

/* {====================================================================== helpers */

static uint32_t uint_field(lua_State *L, int t, const char *field, lua_Integer def,
                           lua_Integer lo, lua_Integer hi) {
    lua_Integer v = fg_lua_opt_int_field(L, t, field, def);
    if (v < lo || v > hi)
        luaL_error(L, "field '%s': %I, expected %I..%I", field, v, lo, hi);
    return (uint32_t)v;
}

/* A Transport userdata over t, keeping the object at owner_idx alive. [-0, +1, m] */
static void push_transport(lua_State *L, fg_transport t, int owner_idx) {
    owner_idx = lua_absindex(L, owner_idx);
    fg_transport *p = lua_newuserdatauv(L, sizeof *p, 1);
    *p = t;
    luaL_setmetatable(L, TRANSPORT_T);
    lua_pushvalue(L, owner_idx);
    lua_setiuservalue(L, -2, 1);
}

static int transport_tostring(lua_State *L) {
    luaL_checkudata(L, 1, TRANSPORT_T);
    lua_getiuservalue(L, 1, 1);
    lua_pushfstring(L, "framegate.Transport (over %s)", luaL_tolstring(L, -1, NULL));
    return 1;
}

/* }====================================================================== */

/* {====================================================================== link */

typedef struct lua_link {
    fg_link *l;
    uint32_t nodes;
} lua_link;

static lua_link *check_link(lua_State *L, int idx) {
    lua_link *ll = luaL_checkudata(L, idx, LINK_T);
    if (!ll->l) luaL_error(L, "attempt to use a closed link");
    return ll;
}

static int l_link(lua_State *L) {
    static const char *const known[] = {"nodes", "latency_ms", "jitter_ms", "loss", "duplicate",
                                        "reorder", "seed", "capacity", "over", NULL};
    fg_link_config c = fg_link_config_default();
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        fg_lua_check_fields(L, 1, "link", known);
        c.nodes = uint_field(L, 1, "nodes", 2, 2, FG_SESSION_MAX_NODES);
        c.latency_us = (int64_t)uint_field(L, 1, "latency_ms", 0, 0, 10000) * 1000;
        c.jitter_us = (int64_t)uint_field(L, 1, "jitter_ms", 0, 0, 10000) * 1000;
        c.loss_pct = uint_field(L, 1, "loss", 0, 0, 100);
        c.duplicate_pct = uint_field(L, 1, "duplicate", 0, 0, 100);
        c.reorder_pct = uint_field(L, 1, "reorder", 0, 0, 100);
        c.capacity = uint_field(L, 1, "capacity", 1024, 1, 65536);
        c.seed = (uint64_t)fg_lua_opt_int_field(L, 1, "seed", 1);
        if (lua_getfield(L, 1, "over") != LUA_TNIL) {
            fg_transport *inner = luaL_testudata(L, -1, TRANSPORT_T);
            if (!inner) return luaL_error(L, "field 'over': expected a transport, got %s",
                                          luaL_typename(L, -1));
            c.inner = *inner;
        }
    } else {
        lua_pushnil(L);
    }
    int over = lua_gettop(L);
    lua_link *ll = lua_newuserdatauv(L, sizeof *ll, 1);
    memset(ll, 0, sizeof *ll);
    luaL_setmetatable(L, LINK_T);
    lua_pushvalue(L, over); /* the inner transport lives as long as the link */
    lua_setiuservalue(L, -2, 1);
    fg_error err = {0};
    if (fg_link_create(&c, &ll->l, &err) != FG_OK) return fg_lua_raise(L, &err);
    ll->nodes = c.nodes;
    return 1;
}

static int link_node(lua_State *L) {
    lua_link *ll = check_link(L, 1);
    lua_Integer i = luaL_checkinteger(L, 2);
    luaL_argcheck(L, i >= 1 && i <= ll->nodes, 2, "no such node");
    push_transport(L, fg_link_transport(ll->l, (uint32_t)(i - 1)), 1);
    return 1;
}

static int link_time(lua_State *L) {
    fg_link_set_time(check_link(L, 1)->l, (int64_t)luaL_checkinteger(L, 2));
    return 0;
}

static int link_cut(lua_State *L) {
    lua_link *ll = check_link(L, 1);
    lua_Integer i = luaL_checkinteger(L, 2);
    luaL_argcheck(L, i >= 1 && i <= ll->nodes, 2, "no such node");
    fg_link_set_cut(ll->l, (uint32_t)(i - 1), lua_isnoneornil(L, 3) || lua_toboolean(L, 3));
    return 0;
}

static int link_stats(lua_State *L) {
    fg_link_stats s = fg_link_get_stats(check_link(L, 1)->l);
    lua_createtable(L, 0, 6);
    const struct {
        const char *name;
        uint64_t v;
    } f[] = {{"sent", s.sent},           {"delivered", s.delivered}, {"lost", s.lost},
             {"duplicated", s.duplicated}, {"reordered", s.reordered}, {"bytes", s.bytes}};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
        lua_pushinteger(L, (lua_Integer)f[i].v);
        lua_setfield(L, -2, f[i].name);
    }
    return 1;
}

static int link_gc(lua_State *L) {
    lua_link *ll = luaL_checkudata(L, 1, LINK_T);
    fg_link_destroy(ll->l);
    ll->l = NULL;
    return 0;
}

static int link_tostring(lua_State *L) {
    lua_link *ll = luaL_checkudata(L, 1, LINK_T);
    lua_pushfstring(L, ll->l ? "framegate.Link (%d nodes)" : "framegate.Link (closed)",
                    (int)ll->nodes);
    return 1;
}

/* }====================================================================== */

/* {====================================================================== enet */

#ifdef FG_HAVE_ENET
typedef struct lua_enet {
    fg_enet *e;
} lua_enet;

static lua_enet *check_enet(lua_State *L, int idx) {
    lua_enet *le = luaL_checkudata(L, idx, ENET_T);
    if (!le->e) luaL_error(L, "attempt to use a closed ENet host");
    return le;
}

static int l_enet(lua_State *L) {
    static const char *const known[] = {"node", "nodes", "host", "port", NULL};
    luaL_checktype(L, 1, LUA_TTABLE);
    fg_lua_check_fields(L, 1, "enet", known);
    fg_enet_config c;
    c.nodes = uint_field(L, 1, "nodes", 2, 2, FG_SESSION_MAX_NODES);
    c.node = uint_field(L, 1, "node", 1, 1, c.nodes) - 1;
    c.host = fg_lua_opt_str_field(L, 1, "host", NULL);
    c.port = (uint16_t)uint_field(L, 1, "port", 0, 0, 65535);
    lua_enet *le = lua_newuserdatauv(L, sizeof *le, 0);
    le->e = NULL;
    luaL_setmetatable(L, ENET_T);
    fg_error err = {0};
    if (fg_enet_create(&c, &le->e, &err) != FG_OK) return fg_lua_raise(L, &err);
    return 1;
}

static int enet_transport(lua_State *L) {
    push_transport(L, fg_enet_transport(check_enet(L, 1)->e), 1);
    return 1;
}

static int enet_port(lua_State *L) {
    lua_pushinteger(L, fg_enet_port(check_enet(L, 1)->e));
    return 1;
}

static int enet_connected(lua_State *L) {
    lua_pushinteger(L, fg_enet_connected(check_enet(L, 1)->e));
    return 1;
}

static int enet_rtt(lua_State *L) {
    lua_pushinteger(L, fg_enet_rtt_ms(check_enet(L, 1)->e));
    return 1;
}

static int enet_drop(lua_State *L) {
    fg_enet_drop(check_enet(L, 1)->e);
    return 0;
}

static int enet_rejoins(lua_State *L) {
    lua_pushinteger(L, fg_enet_rejoins(check_enet(L, 1)->e));
    return 1;
}

static int enet_gc(lua_State *L) {
    lua_enet *le = luaL_checkudata(L, 1, ENET_T);
    fg_enet_destroy(le->e);
    le->e = NULL;
    return 0;
}

static int enet_tostring(lua_State *L) {
    lua_enet *le = luaL_checkudata(L, 1, ENET_T);
    if (le->e) lua_pushfstring(L, "framegate.ENet (port %d)", (int)fg_enet_port(le->e));
    else lua_pushliteral(L, "framegate.ENet (closed)");
    return 1;
}
#endif

/* }====================================================================== */

/* {====================================================================== session */

typedef struct lua_session {
    fg_session *s;
    lua_State *L;  /* during s:advance */
    int world_idx; /* the World's stack index during s:advance */
    uint32_t nplayers;
} lua_session;

static lua_session *check_session(lua_State *L, int idx) {
    lua_session *ls = luaL_checkudata(L, idx, SESSION_T);
    if (!ls->s) luaL_error(L, "attempt to use a closed session");
    return ls;
}

static fg_status session_step(void *ud, fg_world *w, bool again, fg_error *err) {
    (void)w;
    lua_session *ls = ud;
    return fg_lua_world_step(ls->L, ls->world_idx, again, err);
}

/* The World of a session, pushed. [-0, +1, -] */
static fg_lua_world *push_world(lua_State *L, int idx) {
    lua_getiuservalue(L, idx, 1);
    lua_getfield(L, -1, "world");
    lua_remove(L, -2);
    return fg_lua_check_world(L, -1);
}

static int l_session(lua_State *L) {
    static const char *const known[] = {"world", "transport", "node", "players", "spectators",
                                        "delay", "max_prediction", "hash_every", "interrupt_ms",
                                        "disconnect_ms", "rejoin_ms", "rejoin", "ticks", NULL};
    luaL_checktype(L, 1, LUA_TTABLE);
    fg_lua_check_fields(L, 1, "session", known);
    lua_getfield(L, 1, "world");
    fg_lua_world *lw = fg_lua_check_world(L, -1);
    lua_getfield(L, 1, "transport");
    fg_transport *t = luaL_testudata(L, -1, TRANSPORT_T);
    if (!t) return luaL_error(L, "field 'transport': expected a transport (link:node(i), "
                                 "enet:transport()), got %s", luaL_typename(L, -1));
    fg_session_config c = fg_session_config_default();
    c.nplayers = uint_field(L, 1, "players", 2, 1, FG_SESSION_MAX_PLAYERS);
    c.nspectators = uint_field(L, 1, "spectators", 0, 0, FG_SESSION_MAX_SPECTATORS);
    c.local = uint_field(L, 1, "node", 1, 1, c.nplayers + c.nspectators) - 1;
    c.input_delay = uint_field(L, 1, "delay", c.input_delay, 0, FG_SESSION_MAX_DELAY);
    c.max_prediction = uint_field(L, 1, "max_prediction", c.max_prediction, 1,
                                  FG_SESSION_MAX_PREDICTION);
    c.hash_every = uint_field(L, 1, "hash_every", c.hash_every, 1, FG_SESSION_MAX_HASH_EVERY);
    c.interrupt_us = (int64_t)uint_field(L, 1, "interrupt_ms", 500, 1, 600000) * 1000;
    c.disconnect_us = (int64_t)uint_field(L, 1, "disconnect_ms", 5000, 1, 600000) * 1000;
    c.rejoin_us = (int64_t)uint_field(L, 1, "rejoin_ms", 0, 0,
                                      FG_SESSION_MAX_REJOIN_US / 1000) * 1000;
    c.rejoin = fg_lua_opt_bool_field(L, 1, "rejoin", false);
    lua_Integer ticks = fg_lua_opt_int_field(L, 1, "ticks", 0);
    if (ticks < 0) return luaL_error(L, "field 'ticks': %I, expected 0 (endless) or more", ticks);
    c.ticks = (fg_tick)ticks;
    c.transport = *t;
    lua_session *ls = lua_newuserdatauv(L, sizeof *ls, 1);
    memset(ls, 0, sizeof *ls);
    luaL_setmetatable(L, SESSION_T);
    lua_createtable(L, 0, 2);
    lua_pushvalue(L, -4);
    lua_setfield(L, -2, "world");
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, "transport");
    lua_setiuservalue(L, -2, 1);
    c.advance = session_step;
    c.ud = ls;
    ls->nplayers = c.nplayers;
    fg_error err = {0};
    if (fg_session_create(lw->w, &c, &ls->s, &err) != FG_OK) return fg_lua_raise(L, &err);
    return 1;
}

static int input_edge(lua_State *L, fg_edge_kind kind) {
    lua_session *ls = check_session(L, 1);
    int value;
    if (kind == FG_EDGE_DIR) {
        lua_Integer n = luaL_checkinteger(L, 2);
        luaL_argcheck(L, n >= 1 && n <= 9, 2, "expected a numpad direction 1..9");
        value = (int)n;
    } else {
        const char *name = luaL_checkstring(L, 2);
        fg_lua_world *lw = push_world(L, 1);
        value = fg_world_action_id(lw->w, name);
        if (value < FG_IN_FIRST_BUTTON)
            return luaL_error(L, "session:%s('%s'): not a button of this world",
                              kind == FG_EDGE_PRESS ? "press" : "release", name);
    }
    fg_error err = {0};
    if (fg_session_input(ls->s, kind, value, &err) != FG_OK) return fg_lua_raise(L, &err);
    return 0;
}

static int session_press(lua_State *L) { return input_edge(L, FG_EDGE_PRESS); }
static int session_release(lua_State *L) { return input_edge(L, FG_EDGE_RELEASE); }
static int session_direction(lua_State *L) { return input_edge(L, FG_EDGE_DIR); }

/* s:input_from(world, entity): this node's input for the next tick is what the entity consumed
** in that world's last tick (a scratch world a script or a device drives). */
static int session_input_from(lua_State *L) {
    lua_session *ls = check_session(L, 1);
    fg_lua_world *lw = fg_lua_check_world(L, 2);
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 3, &w);
    luaL_argcheck(L, w == lw->w, 3, "not an entity of that world");
    fg_input_record r;
    fg_error err = {0};
    if (fg_input_record_of_tick(fg_world_buffer(w, e), fg_world_last_input(w, e), NULL, &r,
                                &err) != FG_OK ||
        fg_session_input_record(ls->s, &r, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return 0;
}

/* fg.feed(world, entity, source_world, source_entity): pushes into world, for its next tick, the
** entity's input as a peer would receive it: the record of what source_entity consumed in
** source_world's last tick. A session's ticks without the session, for a local reference. */
static int l_feed(lua_State *L) {
    fg_world *w, *src;
    fg_lua_check_world(L, 1);
    fg_entity e = fg_lua_check_entity(L, 2, &w);
    fg_lua_check_world(L, 3);
    fg_entity se = fg_lua_check_entity(L, 4, &src);
    luaL_argcheck(L, w == fg_lua_check_world(L, 1)->w, 2, "not an entity of that world");
    luaL_argcheck(L, src == fg_lua_check_world(L, 3)->w, 4, "not an entity of that world");
    fg_input_record r;
    fg_error err = {0};
    if (fg_input_record_of_tick(fg_world_buffer(src, se), fg_world_last_input(src, se), NULL, &r,
                                &err) != FG_OK ||
        fg_input_record_push(&r, w, e, fg_world_tick(w), &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return 0;
}

static int session_input_tick(lua_State *L) {
    lua_pushinteger(L, fg_session_input_tick(check_session(L, 1)->s));
    return 1;
}

/* s:delay() -> n; s:delay(n) sets it from the next tick on. */
static int session_delay(lua_State *L) {
    lua_session *ls = check_session(L, 1);
    if (!lua_isnoneornil(L, 2)) {
        lua_Integer n = luaL_checkinteger(L, 2);
        fg_error err = {0};
        if (n < 0 || n > FG_SESSION_MAX_DELAY ||
            fg_session_set_delay(ls->s, (uint32_t)n, &err) != FG_OK)
            return luaL_error(L, "session:delay(%I): expected 0..%d ticks", n,
                              FG_SESSION_MAX_DELAY);
    }
    lua_pushinteger(L, fg_session_get_stats(ls->s).input_delay);
    return 1;
}

/* s:advance(now_us) -> true | false, message. A desync, a disconnect or a refused rejoin is an
** answer, not an error; anything else (a transport failure, a time going back, a rule's tick
** failing) raises. While the match waits for a lost peer (s:state() "waiting") or this node
** rejoins ("rejoining"), it returns true and runs no tick. */
static int session_advance(lua_State *L) {
    lua_session *ls = check_session(L, 1);
    lua_Integer now = luaL_checkinteger(L, 2);
    lua_settop(L, 2);
    push_world(L, 1);
    ls->L = L;
    ls->world_idx = 3;
    fg_error err = {0};
    fg_status st = fg_session_advance(ls->s, (int64_t)now, &err);
    ls->L = NULL;
    if (st == FG_OK) {
        lua_pushboolean(L, 1);
        return 1;
    }
    fg_session_state state = fg_session_get_state(ls->s);
    if (state == FG_SESSION_DESYNCED || state == FG_SESSION_DISCONNECTED) {
        lua_pushboolean(L, 0);
        fg_lua_push_error(L, &err);
        return 2;
    }
    return fg_lua_raise(L, &err);
}

static int session_state(lua_State *L) {
    lua_pushstring(L, fg_session_state_name(fg_session_get_state(check_session(L, 1)->s)));
    return 1;
}

static int session_stats(lua_State *L) {
    fg_session_stats s = fg_session_get_stats(check_session(L, 1)->s);
    lua_createtable(L, 0, 24);
    const struct {
        const char *name;
        int64_t v;
    } f[] = {{"tick", s.tick},
             {"confirmed", s.confirmed},
             {"frames", (int64_t)s.frames},
             {"stalls", (int64_t)s.stalls},
             {"waits", (int64_t)s.waits},
             {"rollbacks", (int64_t)s.rollbacks},
             {"resimulated", (int64_t)s.resimulated},
             {"deepest", s.deepest},
             {"rtt_us", s.rtt_us},
             {"advantage", s.advantage},
             {"delay", s.input_delay},
             {"bytes_sent", (int64_t)s.bytes_sent},
             {"bytes_received", (int64_t)s.bytes_received},
             {"datagrams_sent", (int64_t)s.datagrams_sent},
             {"datagrams_received", (int64_t)s.datagrams_received},
             {"rejected", (int64_t)s.rejected},
             {"hashes_compared", (int64_t)s.hashes_compared},
             {"interrupted", s.interrupted},
             {"waiting", s.waiting},
             {"rejoins", s.rejoins},
             {"state_bytes", (int64_t)s.state_bytes}};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
        lua_pushinteger(L, f[i].v);
        lua_setfield(L, -2, f[i].name);
    }
    if (s.rejoined_at >= 0) {
        lua_pushinteger(L, s.rejoined_at);
        lua_setfield(L, -2, "rejoined_at");
    }
    int peer = fg_session_disconnected_peer(check_session(L, 1)->s);
    if (peer >= 0) {
        lua_pushinteger(L, peer + 1);
        lua_setfield(L, -2, "disconnected");
    }
    return 1;
}

/* s:report() -> nil (no desync) or {detected_at=, tick=, node=, here=, there=, fields_known=,
** diffs={...}, ndiffs=, text=}. */
static int session_report(lua_State *L) {
    lua_session *ls = check_session(L, 1);
    const fg_session_report *r = fg_session_get_report(ls->s);
    if (r->detected_at < 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 9);
    lua_pushinteger(L, r->detected_at);
    lua_setfield(L, -2, "detected_at");
    lua_pushinteger(L, r->tick);
    lua_setfield(L, -2, "tick");
    lua_pushinteger(L, r->peer + 1);
    lua_setfield(L, -2, "node");
    fg_lua_push_hex(L, r->local_hash);
    lua_setfield(L, -2, "here");
    fg_lua_push_hex(L, r->peer_hash);
    lua_setfield(L, -2, "there");
    lua_pushboolean(L, r->fields_known);
    lua_setfield(L, -2, "fields_known");
    fg_lua_push_diffs(L, r->diffs, r->ndiffs < FG_SESSION_MAX_DIFFS ? r->ndiffs
                                                                    : FG_SESSION_MAX_DIFFS);
    lua_setfield(L, -2, "diffs");
    lua_pushinteger(L, r->ndiffs);
    lua_setfield(L, -2, "ndiffs");
    int n = fg_session_report_format(ls->s, NULL, 0);
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, (size_t)n + 1);
    fg_session_report_format(ls->s, p, (size_t)n + 1);
    luaL_pushresultsize(&b, (size_t)n);
    lua_setfield(L, -2, "text");
    return 1;
}

static int session_hash(lua_State *L) {
    lua_session *ls = check_session(L, 1);
    uint64_t h;
    if (fg_session_confirmed_hash(ls->s, (fg_tick)luaL_checkinteger(L, 2), &h))
        fg_lua_push_hex(L, h);
    else
        lua_pushnil(L);
    return 1;
}

/* s:record(player, tick) -> "2 3 6 +LP | held LP, dir 6" or nil. */
static int session_record(lua_State *L) {
    lua_session *ls = check_session(L, 1);
    lua_Integer p = luaL_checkinteger(L, 2);
    luaL_argcheck(L, p >= 1 && p <= ls->nplayers, 2, "no such player");
    fg_input_record r;
    if (!fg_session_record(ls->s, (uint32_t)(p - 1), (fg_tick)luaL_checkinteger(L, 3), &r)) {
        lua_pushnil(L);
        return 1;
    }
    fg_lua_world *lw = push_world(L, 1);
    char text[256];
    fg_input_record_format(&r, fg_world_action_names(lw->w), text, sizeof text);
    lua_pushstring(L, text);
    return 1;
}

static int session_close(lua_State *L) {
    lua_session *ls = luaL_checkudata(L, 1, SESSION_T);
    fg_session_destroy(ls->s);
    ls->s = NULL;
    return 0;
}

static int session_tostring(lua_State *L) {
    lua_session *ls = luaL_checkudata(L, 1, SESSION_T);
    if (!ls->s) {
        lua_pushliteral(L, "framegate.Session (closed)");
        return 1;
    }
    fg_session_stats s = fg_session_get_stats(ls->s);
    lua_pushfstring(L, "framegate.Session (%s, tick %I, %I confirmed)",
                    fg_session_state_name(fg_session_get_state(ls->s)), (lua_Integer)s.tick,
                    (lua_Integer)s.confirmed);
    return 1;
}

/* }====================================================================== */

void fg_lua_open_session(lua_State *L) {
    static const luaL_Reg link_methods[] = {{"node", link_node},   {"time", link_time},
                                            {"cut", link_cut},     {"stats", link_stats},
                                            {NULL, NULL}};
    static const luaL_Reg link_meta[] = {{"__gc", link_gc}, {"__tostring", link_tostring},
                                         {NULL, NULL}};
    static const luaL_Reg transport_meta[] = {{"__tostring", transport_tostring}, {NULL, NULL}};
    static const luaL_Reg session_methods[] = {
        {"press", session_press},   {"release", session_release},
        {"direction", session_direction}, {"input_tick", session_input_tick},
        {"input_from", session_input_from},
        {"delay", session_delay},   {"advance", session_advance},
        {"state", session_state},   {"stats", session_stats},
        {"report", session_report}, {"hash", session_hash},
        {"record", session_record}, {"close", session_close},
        {NULL, NULL}};
    static const luaL_Reg session_meta[] = {{"__gc", session_close},
                                            {"__tostring", session_tostring}, {NULL, NULL}};
    fg_lua_class(L, LINK_T, link_methods, link_meta);
    fg_lua_class(L, TRANSPORT_T, NULL, transport_meta);
    fg_lua_class(L, SESSION_T, session_methods, session_meta);
    lua_pushcfunction(L, l_link);
    lua_setfield(L, -2, "link");
    lua_pushcfunction(L, l_session);
    lua_setfield(L, -2, "session");
    lua_pushcfunction(L, l_feed);
    lua_setfield(L, -2, "feed");
#ifdef FG_HAVE_ENET
    static const luaL_Reg enet_methods[] = {{"transport", enet_transport}, {"port", enet_port},
                                            {"connected", enet_connected}, {"rtt", enet_rtt},
                                            {"drop", enet_drop}, {"rejoins", enet_rejoins},
                                            {NULL, NULL}};
    static const luaL_Reg enet_meta[] = {{"__gc", enet_gc}, {"__tostring", enet_tostring},
                                         {NULL, NULL}};
    fg_lua_class(L, ENET_T, enet_methods, enet_meta);
    lua_pushcfunction(L, l_enet);
    lua_setfield(L, -2, "enet");
#endif
}
