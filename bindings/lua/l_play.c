/* SPDX-License-Identifier: MIT */
/*
** l_play.c: the gameplay side of the World and Entity bindings: requests, decisions with their
** reasons, action history, committed events, the frame meter, resources, host animation reports
** and presentation cues; and the protected call every rule and hook goes through.
*/
#include "fg_lua.h"

#include <stdio.h>
#include <string.h>

#define CUE_TARGET_KEY "framegate.cue_target"

/* {====================================================================== calling rules */

/* fg_lua_call_rule, the budgeted protected call, lives in l_sandbox.c with the budgets. */

void fg_lua_report_hook_error(fg_world *w, fg_entity e, fg_error *err) {
    fg_world_note_error(w, e, fg_error_message(err));
    fg_error_clear(err);
}

/* }====================================================================== */

/* {====================================================================== events and cues */

/* A committed event as Lua sees it: a read-only record holding a copy of the event and its
** names, resolved when it is made, so a hook that keeps one sees the same values after the tick,
** after a reload and after the world is closed. The names are packed after the event (a hook
** makes one record per event, all of it garbage by the next tick). */
#define EVENT_T "framegate.Event"

typedef struct event_record {
    fg_event ev;
    uint8_t action, layer; /* where the action's and the layer's names start in names */
    char names[];          /* the marker's, the action's, the layer's, each NUL-terminated */
} event_record;

#define EVENT_MARKER(rec) ((rec)->names)
#define EVENT_ACTION(rec) ((rec)->names + (rec)->action)
#define EVENT_LAYER(rec) ((rec)->names + (rec)->layer)

/* Sorted bytewise: the order pairs() walks them in. */
static const char *const event_fields[] = {
    "action", "bounce", "combo", "contact", "counter", "damage", "entity", "hit_box", "hurt_box",
    "kind", "layer", "marker", "miss", "occurrence", "other", "projectile", "reported", "sequence",
    "target", "tick", "x", "y",
    NULL};
enum {
    EF_ACTION, EF_BOUNCE, EF_COMBO, EF_CONTACT, EF_COUNTER, EF_DAMAGE, EF_ENTITY, EF_HIT_BOX,
    EF_HURT_BOX, EF_KIND, EF_LAYER, EF_MARKER, EF_MISS, EF_OCCURRENCE, EF_OTHER, EF_PROJECTILE,
    EF_REPORTED, EF_SEQUENCE, EF_TARGET, EF_TICK, EF_X, EF_Y
};

/* The field named k, or -1. A hook reads a field or two of every event, so the name is found by
** its first letter and length, then confirmed by one comparison, not by a chain of them. */
static int event_key(const char *k) {
    size_t len = strlen(k);
    int f;
    switch (k[0]) {
    case 'a': f = EF_ACTION; break;
    case 'b': f = EF_BOUNCE; break;
    case 'c': f = len == 5 ? EF_COMBO : len == 7 && k[2] == 'n' ? EF_CONTACT : EF_COUNTER; break;
    case 'd': f = EF_DAMAGE; break;
    case 'e': f = EF_ENTITY; break;
    case 'h': f = len == 7 ? EF_HIT_BOX : EF_HURT_BOX; break;
    case 'k': f = EF_KIND; break;
    case 'l': f = EF_LAYER; break;
    case 'm': f = len == 4 ? EF_MISS : EF_MARKER; break;
    case 'o': f = len == 5 ? EF_OTHER : EF_OCCURRENCE; break;
    case 'p': f = EF_PROJECTILE; break;
    case 'r': f = EF_REPORTED; break;
    case 's': f = EF_SEQUENCE; break;
    case 't': f = len == 4 ? EF_TICK : EF_TARGET; break;
    case 'x': f = EF_X; break;
    case 'y': f = EF_Y; break;
    default: return -1;
    }
    return strcmp(event_fields[f], k) == 0 ? f : -1;
}

/* A name's length as it is kept: at most FG_NAME_MAX - 1 bytes, as names are everywhere. */
static size_t name_len(const char *name) {
    size_t n = strlen(name);
    return n < FG_NAME_MAX ? n : FG_NAME_MAX - 1;
}

static size_t put_name(char *dst, const char *name, size_t n) {
    memcpy(dst, name, n);
    dst[n] = '\0';
    return n + 1;
}

void fg_lua_push_event(lua_State *L, const fg_world *w, const fg_event *ev) {
    const fg_ruleset *r = fg_world_rules(w, ev->entity);
    const fg_action_def *a = r ? fg_ruleset_action(r, ev->action) : NULL;
    const char *marker = ev->marker == FG_EVENT_NO_MARKER
                             ? ""
                             : fg_world_marker_name(w, ev->entity, ev->marker);
    const char *names[3] = {marker ? marker : "?", a ? a->name : "(ended)",
                            r ? fg_ruleset_layer_name(r, ev->layer) : "?"};
    size_t len[3] = {name_len(names[0]), name_len(names[1]), name_len(names[2])};
    event_record *rec =
        lua_newuserdatauv(L, sizeof *rec + len[0] + len[1] + len[2] + 3, 0);
    rec->ev = *ev;
    size_t at = put_name(rec->names, names[0], len[0]);
    rec->action = (uint8_t)at;
    at += put_name(rec->names + at, names[1], len[1]);
    rec->layer = (uint8_t)at;
    put_name(rec->names + at, names[2], len[2]);
    luaL_setmetatable(L, EVENT_T);
}

/* Pushes field f (EF_*, or -1) of an event, or returns 0 when it has no such field. A marker
** event has no contact fields: they read nil. */
static int event_field(lua_State *L, const event_record *rec, int f) {
    const fg_event *ev = &rec->ev;
    bool contact = ev->kind != FG_EVENT_MARKER;
    switch (f) {
    case EF_MARKER:
        if (EVENT_MARKER(rec)[0]) lua_pushstring(L, EVENT_MARKER(rec));
        else lua_pushnil(L);
        break;
    case EF_KIND:
        lua_pushstring(L, ev->kind == FG_EVENT_HIT     ? "hit"
                          : ev->kind == FG_EVENT_THROW ? "throw"
                          : ev->kind == FG_EVENT_CLASH ? "clash"
                          : ev->kind == FG_EVENT_STRUCK ? "struck"
                          : ev->kind == FG_EVENT_BOUNCE ? "bounce"
                                                       : "marker");
        break;
    case EF_BOUNCE:
        if (ev->kind == FG_EVENT_BOUNCE) lua_pushstring(L, fg_bounce_kind_name(ev->bounce));
        else lua_pushnil(L);
        break;
    case EF_PROJECTILE:
    case EF_OTHER: {
        uint32_t id = f == EF_PROJECTILE ? ev->projectile : ev->other;
        if (id) lua_pushinteger(L, id);
        else lua_pushnil(L);
        break;
    }
    case EF_X:
    case EF_Y:
    case EF_DAMAGE:
    case EF_COMBO:
    case EF_COUNTER:
    case EF_MISS:
    case EF_HIT_BOX:
    case EF_HURT_BOX:
        if (!contact) lua_pushnil(L);
        else if (f == EF_X || f == EF_Y)
            lua_pushnumber(L, (lua_Number)(f == EF_X ? ev->x : ev->y) / FG_FX_ONE);
        else if (f == EF_DAMAGE) lua_pushinteger(L, ev->damage);
        else if (f == EF_COMBO) lua_pushinteger(L, ev->combo);
        else if (f == EF_COUNTER) lua_pushboolean(L, ev->counter);
        else if (f == EF_MISS)
            lua_pushstring(L, ev->miss ? fg_miss_reason_name((fg_miss_reason)ev->miss) : "none");
        else {
            uint8_t i = f == EF_HIT_BOX ? ev->hit_box : ev->hurt_box;
            if (i == 0xFF) lua_pushstring(L, "default"); /* a default box, or the range shorthand */
            else lua_pushinteger(L, i + 1);
        }
        break;
    case EF_ACTION: lua_pushstring(L, EVENT_ACTION(rec)); break;
    case EF_LAYER: lua_pushstring(L, EVENT_LAYER(rec)); break;
    case EF_TICK: lua_pushinteger(L, ev->tick); break;
    case EF_ENTITY: lua_pushinteger(L, ev->entity); break;
    case EF_SEQUENCE: lua_pushinteger(L, ev->seq); break;
    case EF_OCCURRENCE: lua_pushinteger(L, (lua_Integer)ev->occurrence); break;
    case EF_TARGET: lua_pushinteger(L, ev->target); break;
    case EF_REPORTED: lua_pushboolean(L, ev->from_host); break;
    case EF_CONTACT:
        lua_pushstring(L, ev->contact == FG_ON_HIT     ? "hit"
                          : ev->contact == FG_ON_BLOCK ? "block"
                          : ev->contact == FG_ON_WHIFF ? "whiff"
                                                       : "none");
        break;
    default: return 0;
    }
    return 1;
}

/* The event at index 1 of an Event metamethod: its metatable against the class's (upvalue 1),
** which costs less than a lookup by name; anything else takes luaL_checkudata and its message. */
static const event_record *self_event(lua_State *L) {
    bool cached;
    const event_record *rec = fg_lua_self_udata(L, &cached);
    return rec ? rec : luaL_checkudata(L, 1, EVENT_T);
}

static int event_index(lua_State *L) {
    const event_record *rec = self_event(L);
    const char *k = lua_tostring(L, 2);
    if (!k || !event_field(L, rec, event_key(k))) lua_pushnil(L);
    return 1;
}

static int event_newindex(lua_State *L) {
    const char *k = lua_tostring(L, 2);
    return luaL_error(L, "framegate: event field '%s' is read-only (the event is already "
                      "committed)", k ? k : luaL_typename(L, 2));
}

static int event_next(lua_State *L) {
    const event_record *rec = luaL_checkudata(L, 1, EVENT_T);
    int i = 0;
    if (!lua_isnil(L, 2)) {
        const char *key = luaL_checkstring(L, 2);
        while (event_fields[i] && strcmp(event_fields[i], key) != 0) i++;
        if (!event_fields[i]) return luaL_error(L, "framegate: '%s' is not a field of an event",
                                                key);
        i++;
    }
    /* A marker event has no contact fields: pairs skips them. */
    for (; event_fields[i]; i++) {
        lua_pushstring(L, event_fields[i]);
        event_field(L, rec, i);
        if (!lua_isnil(L, -1)) return 2;
        lua_pop(L, 2);
    }
    lua_pushnil(L);
    return 1;
}

static int event_pairs(lua_State *L) {
    luaL_checkudata(L, 1, EVENT_T);
    lua_pushcfunction(L, event_next);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

static int event_tostring(lua_State *L) {
    const event_record *rec = luaL_checkudata(L, 1, EVENT_T);
    lua_pushfstring(L, "framegate.Event (%s of entity %d, %s, tick %I)",
                    EVENT_MARKER(rec), (int)rec->ev.entity, EVENT_ACTION(rec), (LUAI_UACINT)rec->ev.tick);
    return 1;
}

/* While a presentation hook runs, fg.cue knows which world and entity the cue is for: a
** userdata of the state (in the registry, and fg.cue's upvalue), written around every hook call
** without a table lookup. */
fg_lua_cue_target *fg_lua_cue_target_of(lua_State *L) {
    fg_lua_cue_target *t;
    if (lua_getfield(L, LUA_REGISTRYINDEX, CUE_TARGET_KEY) == LUA_TUSERDATA) {
        t = lua_touserdata(L, -1);
    } else {
        lua_pop(L, 1);
        t = lua_newuserdatauv(L, sizeof *t, 0);
        t->w = NULL;
        t->e = 0;
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, CUE_TARGET_KEY);
    }
    lua_pop(L, 1);
    return t;
}

/* fg.cue(name [, params]): a presentation request for the host (sound, effect, camera). Only
** inside on_event. params.a / params.b (or an event's target / occurrence) travel with it.
** Upvalues: the cue target, the Event metatable. */
static int l_cue(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    const fg_lua_cue_target *t = lua_touserdata(L, lua_upvalueindex(1));
    if (!t->w) return luaL_error(L, "fg.cue: cues can only be emitted from an on_event hook");
    int64_t a = 0, b = 0;
    const event_record *rec = lua_touserdata(L, 2);
    if (rec && lua_type(L, 2) == LUA_TUSERDATA && lua_getmetatable(L, 2)) {
        if (!lua_rawequal(L, -1, lua_upvalueindex(2))) rec = NULL;
        lua_pop(L, 1);
    } else {
        rec = NULL;
    }
    if (rec) { /* an event has no field a or b: its target and occurrence, read directly */
        a = rec->ev.target;
        b = (int64_t)rec->ev.occurrence;
    } else if (lua_istable(L, 2)) {
        if (lua_getfield(L, 2, "a") == LUA_TNUMBER) a = lua_tointeger(L, -1);
        else if (lua_getfield(L, 2, "target") == LUA_TNUMBER) a = lua_tointeger(L, -1);
        if (lua_getfield(L, 2, "b") == LUA_TNUMBER) b = lua_tointeger(L, -1);
        else if (lua_getfield(L, 2, "occurrence") == LUA_TNUMBER) b = lua_tointeger(L, -1);
    }
    fg_error err = {0};
    if (fg_world_push_cue(t->w, t->e, name, a, b, &err) != FG_OK) return fg_lua_raise(L, &err);
    return 0;
}

/* }====================================================================== */

/* {====================================================================== World methods */

static fg_entity check_entity_of(lua_State *L, int idx, fg_world *w) {
    if (lua_type(L, idx) == LUA_TNUMBER) {
        fg_entity id = fg_lua_check_entity_id(L, idx, "entity id");
        if (!fg_world_entity_exists(w, id)) luaL_argerror(L, idx, "no such entity");
        return id;
    }
    fg_world *ew;
    fg_entity e = fg_lua_check_entity(L, idx, &ew);
    if (ew != w) luaL_argerror(L, idx, "entity of another world");
    return e;
}

static uint32_t check_action_name(lua_State *L, int idx, const fg_ruleset *r) {
    const char *name = luaL_checkstring(L, idx);
    int id = fg_ruleset_find_action(r, name);
    if (id < 0)
        luaL_argerror(L, idx, lua_pushfstring(L, "'%s' is not an action of '%s'", name,
                                              fg_ruleset_name(r)));
    return (uint32_t)id;
}

static const fg_ruleset *rules_or_error(lua_State *L, fg_world *w, fg_entity e) {
    const fg_ruleset *r = fg_world_rules(w, e);
    if (!r) luaL_error(L, "this world has no rules (create it with fg.world{ rules = ... })");
    return r;
}

/* world:request(entity, action [, source]) — decided at the start of the next tick. */
static int world_request(lua_State *L) {
    fg_world *w = fg_lua_check_world(L, 1)->w;
    fg_entity e = check_entity_of(L, 2, w);
    const fg_ruleset *r = rules_or_error(L, w, e);
    uint32_t a = check_action_name(L, 3, r);
    static const char *const sources[] = {"command", "ai", "replay", "script", NULL};
    int src = luaL_checkoption(L, 4, "script", sources);
    fg_error err = {0};
    if (fg_world_request(w, e, a, (fg_request_source)src, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return 0;
}

void fg_lua_push_decision_text(lua_State *L, const fg_ruleset *r, const fg_decision *d) {
    char text[256];
    int n = fg_decision_describe(r, d, text, sizeof text);
    if (n < (int)sizeof text) {
        lua_pushstring(L, n < 0 ? "?" : text);
        return;
    }
    /* A long one (an input many actions share): rendered again in a buffer of its size. */
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, (size_t)n + 1);
    fg_decision_describe(r, d, p, (size_t)n + 1);
    luaL_pushresultsize(&b, (size_t)n);
}

void fg_lua_push_trace_line(lua_State *L, const fg_world *w, const fg_trace_record *r) {
    char line[512];
    int n = fg_world_trace_format(w, r, line, sizeof line);
    if (n < (int)sizeof line) {
        lua_pushstring(L, n < 0 ? "?" : line);
        return;
    }
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, (size_t)n + 1);
    fg_world_trace_format(w, r, p, (size_t)n + 1);
    luaL_pushresultsize(&b, (size_t)n);
}

/* world:evaluate(entity, action) -> kind, text: what a request would get now, changing nothing. */
static int world_evaluate(lua_State *L) {
    fg_world *w = fg_lua_check_world(L, 1)->w;
    fg_entity e = check_entity_of(L, 2, w);
    const fg_ruleset *r = rules_or_error(L, w, e);
    uint32_t a = check_action_name(L, 3, r);
    fg_decision d = fg_world_evaluate(w, e, a, FG_REQ_SCRIPT);
    lua_pushstring(L, fg_decision_kind_name((fg_decision_kind)d.kind));
    fg_lua_push_decision_text(L, r, &d);
    return 2;
}

/* A decision's names are read in the ruleset version it was made with. */
static void push_decision(lua_State *L, const fg_world *w, const fg_decision *d,
                          uint32_t version) {
    const fg_ruleset *r = fg_world_rules_version(w, version);
    if (!r) r = fg_world_rules(w, d->entity);
    lua_createtable(L, 0, 8);
    lua_pushinteger(L, d->tick);
    lua_setfield(L, -2, "tick");
    lua_pushinteger(L, d->entity);
    lua_setfield(L, -2, "entity");
    const fg_action_def *a = fg_ruleset_action(r, d->action);
    lua_pushstring(L, a ? a->name : "?");
    lua_setfield(L, -2, "action");
    lua_pushstring(L, fg_decision_kind_name((fg_decision_kind)d->kind));
    lua_setfield(L, -2, "decision");
    lua_pushstring(L, fg_reason_name((fg_reason)d->reason));
    lua_setfield(L, -2, "reason");
    lua_pushstring(L, fg_request_source_name((fg_request_source)d->source));
    lua_setfield(L, -2, "source");
    fg_lua_push_decision_text(L, r, d);
    lua_setfield(L, -2, "text");
}

/* world:decisions([entity]) -> every request decision still in the trace, oldest first. */
static int world_decisions(lua_State *L) {
    fg_world *w = fg_lua_check_world(L, 1)->w;
    fg_entity only = lua_isnoneornil(L, 2) ? 0 : check_entity_of(L, 2, w);
    lua_newtable(L);
    lua_Integer k = 0;
    for (uint32_t i = 0; i < fg_world_trace_count(w); i++) {
        const fg_trace_record *rec = fg_world_trace_at(w, i);
        if (rec->kind != FG_TRACE_DECISION || (only && rec->entity != only)) continue;
        push_decision(L, w, &rec->decision, rec->version);
        lua_rawseti(L, -2, ++k);
    }
    return 1;
}

/* world:committed(marker) -> how many events of that marker the gate committed. */
static int world_committed(lua_State *L) {
    fg_lua_check_world(L, 1);
    const char *marker = luaL_checkstring(L, 2);
    lua_getiuservalue(L, 1, 1);
    lua_getfield(L, -1, "committed");
    lua_getfield(L, -1, marker);
    lua_pushinteger(L, lua_tointeger(L, -1));
    return 1;
}

/* world:events() -> the events the last tick committed. */
static int world_events(lua_State *L) {
    fg_world *w = fg_lua_check_world(L, 1)->w;
    lua_createtable(L, (int)fg_world_event_count(w), 0);
    for (uint32_t i = 0; i < fg_world_event_count(w); i++) {
        fg_lua_push_event(L, w, fg_world_event_at(w, i));
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* world:meter([from, to]) -> the frame meter text for a tick range (default: the last 60). */
static int world_meter(lua_State *L) {
    fg_world *w = fg_lua_check_world(L, 1)->w;
    fg_tick now = fg_world_tick(w);
    lua_Integer from = luaL_optinteger(L, 2, now - 60 < 0 ? 0 : now - 60);
    lua_Integer to = luaL_optinteger(L, 3, now - 1);
    char buf[8192];
    int n = fg_world_meter_render(w, from, to, buf, sizeof buf);
    if (n < (int)sizeof buf) {
        lua_pushstring(L, buf);
    } else { /* many fighters: rendered again in a buffer of its size */
        luaL_Buffer b;
        fg_world_meter_render(w, from, to, luaL_buffinitsize(L, &b, (size_t)n + 1), (size_t)n + 1);
        luaL_pushresultsize(&b, (size_t)n);
    }
    return 1;
}

/* world:cues() -> the cues hooks emitted since the last call, drained. */
static int world_cues(lua_State *L) {
    fg_world *w = fg_lua_check_world(L, 1)->w;
    lua_createtable(L, (int)fg_world_cue_count(w), 0);
    for (uint32_t i = 0; i < fg_world_cue_count(w); i++) {
        const fg_cue *c = fg_world_cue_at(w, i);
        lua_createtable(L, 0, 5);
        lua_pushstring(L, c->name);
        lua_setfield(L, -2, "name");
        lua_pushinteger(L, c->tick);
        lua_setfield(L, -2, "tick");
        lua_pushinteger(L, c->entity);
        lua_setfield(L, -2, "entity");
        lua_pushinteger(L, c->a);
        lua_setfield(L, -2, "a");
        lua_pushinteger(L, c->b);
        lua_setfield(L, -2, "b");
        lua_rawseti(L, -2, i + 1);
    }
    fg_world_cues_clear(w);
    return 1;
}

/* world:report_event(entity, layer, sequence, marker [, occurrence]) — the host's animation
** system saw a marker; the gate decides it with the next tick. */
static int world_report_event(lua_State *L) {
    fg_world *w = fg_lua_check_world(L, 1)->w;
    fg_entity e = check_entity_of(L, 2, w);
    const fg_ruleset *r = rules_or_error(L, w, e);
    luaL_checkany(L, 3);
    uint32_t layer = fg_lua_opt_layer(L, 3, r);
    lua_Integer seq = luaL_checkinteger(L, 4);
    const char *marker = luaL_checkstring(L, 5);
    lua_Integer occ = luaL_optinteger(L, 6, 0);
    luaL_argcheck(L, occ >= 0, 6, "occurrence must be >= 0");
    fg_error err = {0};
    if (fg_world_report_event(w, e, layer, seq, marker, (uint64_t)occ, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return 0;
}

/* world:play(entity, script [, opts]): schedules an input script relative to the next tick:
**   "LP@0 2@6 3@8 6@10 P@11"   LP tapped at tick 0 (down for one tick), the stick at 2 from
**                               tick 6, ... a group name (P) taps its first member
**   "HP@3-9"                    HP held from tick 3 to tick 9
**   "6@0 5@20"                  hold forward from 0, neutral from 20
** Directions are read like notation, relative to the side the entity faces when play is called
** (6 = toward the opponent); opts.absolute = true reads them as screen directions. opts.hold = n
** makes a plain tap last n ticks (default 1). Returns the tick after the last event. Errors name
** the column of the bad token. */
static int world_play(lua_State *L) {
    fg_world *w = fg_lua_check_world(L, 1)->w;
    fg_entity e = check_entity_of(L, 2, w);
    const char *script = luaL_checkstring(L, 3);
    lua_Integer hold = 1;
    bool absolute = false;
    if (lua_istable(L, 4)) {
        hold = fg_lua_opt_int_field(L, 4, "hold", 1);
        absolute = fg_lua_opt_bool_field(L, 4, "absolute", 0);
    }
    fg_facing facing = absolute ? FG_FACING_RIGHT : fg_world_facing(w, e);
    luaL_argcheck(L, hold >= 1 && hold <= 600, 4, "hold must be 1..600 ticks");
    const fg_ruleset *r = fg_world_rules(w, e);
    fg_motion_buttons fallback;
    const fg_motion_buttons *buttons;
    if (r) {
        buttons = fg_motion_set_buttons(fg_ruleset_motions(r));
    } else {
        const fg_action_names *names = fg_world_action_names(w);
        const char *list[FG_INPUT_MAX_ACTIONS];
        for (uint32_t i = FG_IN_FIRST_BUTTON; i < names->count; i++)
            list[i - FG_IN_FIRST_BUTTON] = names->names[i];
        fg_error berr = {0};
        if (fg_motion_buttons_init(&fallback, list, names->count - FG_IN_FIRST_BUTTON, NULL, 0,
                                   &berr) != FG_OK)
            return fg_lua_raise(L, &berr);
        buttons = &fallback;
    }
    enum { MAX_EVENTS = 256 };
    fg_motion_script_event *ev = lua_newuserdatauv(L, sizeof *ev * MAX_EVENTS, 0);
    uint32_t n = 0;
    fg_error err = {0};
    if (fg_motion_script_parse(script, buttons, ev, MAX_EVENTS, &n, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    fg_tick base = fg_world_tick(w), last = base;
    uint32_t rate = fg_world_tick_rate(w);
    /* A press with no release later in the script is a tap: add its release. Taps and explicit
    ** events are then pushed in tick order; within a tick, in script order. */
    typedef struct { fg_tick tick; int order; uint8_t kind, action, value; } item;
    item *items = lua_newuserdatauv(L, sizeof *items * MAX_EVENTS * 2, 0);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (ev[i].kind == FG_MOTION_SCRIPT_FACE || ev[i].kind == FG_MOTION_SCRIPT_FREEZE)
            return luaL_error(L, "play: 'face=' and 'freeze@' are for motion experiments; in a "
                                 "world, facing and hitstop come from the simulation");
        items[m++] = (item){ev[i].tick, (int)i, ev[i].kind, ev[i].action, ev[i].value};
        if (ev[i].kind != FG_MOTION_SCRIPT_PRESS) continue;
        bool released = false;
        for (uint32_t j = i + 1; j < n && !released; j++)
            released = ev[j].kind == FG_MOTION_SCRIPT_RELEASE && ev[j].action == ev[i].action;
        if (!released)
            items[m++] = (item){ev[i].tick + hold, (int)i, FG_MOTION_SCRIPT_RELEASE,
                                ev[i].action, 0};
    }
    for (uint32_t i = 1; i < m; i++) /* insertion sort: stable, keeps script order per tick */
        for (uint32_t j = i; j > 0 && (items[j - 1].tick > items[j].tick ||
                                       (items[j - 1].tick == items[j].tick &&
                                        items[j - 1].order > items[j].order));
             j--) {
            item tmp = items[j];
            items[j] = items[j - 1];
            items[j - 1] = tmp;
        }
    fg_tick prev_tick = -1;
    int64_t k = 0;
    for (uint32_t i = 0; i < m; i++) {
        fg_tick t = base + items[i].tick;
        k = t == prev_tick ? k + 1 : 0; /* keep events of one tick in order */
        prev_tick = t;
        int64_t us = fg_us_of_tick(t, rate) + k;
        fg_status st;
        if (items[i].kind == FG_MOTION_SCRIPT_DIR)
            st = fg_world_direction(w, e, fg_numpad_relative(items[i].value, facing), us,
                                    FG_SOURCE_SCRIPT, &err);
        else if (items[i].kind == FG_MOTION_SCRIPT_PRESS)
            st = fg_world_press(w, e, items[i].action, us, FG_SOURCE_SCRIPT, &err);
        else
            st = fg_world_release(w, e, items[i].action, us, FG_SOURCE_SCRIPT, &err);
        if (st != FG_OK) return fg_lua_raise(L, &err);
        if (t > last) last = t;
    }
    lua_pushinteger(L, last + 1);
    return 1;
}

/* }====================================================================== */

/* {====================================================================== Entity methods */

/* entity:request(action [, source]) */
static int entity_request(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    const fg_ruleset *r = rules_or_error(L, w, e);
    uint32_t a = check_action_name(L, 2, r);
    static const char *const sources[] = {"command", "ai", "replay", "script", NULL};
    int src = luaL_checkoption(L, 3, "script", sources);
    fg_error err = {0};
    if (fg_world_request(w, e, a, (fg_request_source)src, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return 0;
}

/* entity:history() -> names of the actions requests started, oldest first (from the trace). */
static int entity_history(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    lua_newtable(L);
    lua_Integer k = 0;
    for (uint32_t i = 0; i < fg_world_trace_count(w); i++) {
        const fg_trace_record *rec = fg_world_trace_at(w, i);
        if (rec->kind != FG_TRACE_TRANSITION || rec->entity != e || rec->code != FG_TR_REQUEST)
            continue;
        const fg_ruleset *r = fg_world_rules_version(w, rec->version);
        const fg_action_def *a = r ? fg_ruleset_action(r, (uint32_t)rec->c) : NULL;
        lua_pushstring(L, a ? a->name : "?");
        lua_rawseti(L, -2, ++k);
    }
    return 1;
}

/* entity:action([layer]) -> name, tick, duration, phase, sequence (nil when nothing runs). The
** sequence is what the host hands its animation system for the gate's event stamps. */
static int entity_action(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    const fg_ruleset *r = rules_or_error(L, w, e);
    uint32_t layer = fg_lua_opt_layer(L, 2, r);
    const fg_instance *inst = fg_world_instance(w, e, layer);
    if (!inst || inst->action == FG_NO_ACTION) {
        lua_pushnil(L);
        return 1;
    }
    const fg_action_def *a = fg_ruleset_action(fg_world_rules_version(w, inst->version),
                                               inst->action);
    lua_pushstring(L, a->name);
    lua_pushinteger(L, inst->elapsed);
    lua_pushinteger(L, inst->duration);
    lua_pushstring(L, fg_phase_name(fg_world_phase(w, e, layer)));
    lua_pushinteger(L, (lua_Integer)inst->seq);
    return 5;
}

/* entity:state([layer]) -> "grounded/jab (recovery, tick 9 of 13)". */
static int entity_state(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    uint32_t layer = fg_lua_opt_layer(L, 2, rules_or_error(L, w, e));
    char buf[160];
    fg_world_describe_layer(w, e, layer, buf, sizeof buf);
    lua_pushstring(L, buf);
    return 1;
}

static int entity_resource(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    const fg_ruleset *r = rules_or_error(L, w, e);
    const char *name = luaL_checkstring(L, 2);
    int k = fg_ruleset_find_resource(r, name);
    if (k < 0) return luaL_argerror(L, 2, lua_pushfstring(L, "no resource '%s'", name));
    if (!lua_isnoneornil(L, 3)) {
        fg_error err = {0};
        lua_Integer v = fg_lua_check_range(L, 3, lua_pushfstring(L, "resource %s", name), 0,
                                           INT32_MAX);
        if (fg_world_set_resource(w, e, (uint32_t)k, (int32_t)v, &err) != FG_OK)
            return fg_lua_raise(L, &err);
        return 0;
    }
    lua_pushinteger(L, fg_world_resource(w, e, (uint32_t)k));
    return 1;
}

/* entity:position([x, y]) -> x, y in pixels. */
static int entity_position(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    if (!lua_isnoneornil(L, 2)) {
        lua_settop(L, 3);
        if (lua_isnil(L, 3)) {
            lua_pushinteger(L, 0);
            lua_replace(L, 3);
        }
        fg_fx x = fg_lua_check_fx(L, 2, "position x");
        fg_fx y = fg_lua_check_fx(L, 3, "position y");
        fg_error err = {0};
        if (fg_world_set_position(w, e, x, y, &err) != FG_OK) return fg_lua_raise(L, &err);
        return 0;
    }
    fg_fx x, y;
    fg_world_position(w, e, &x, &y);
    lua_pushnumber(L, (double)x / FG_FX_ONE);
    lua_pushnumber(L, (double)y / FG_FX_ONE);
    return 2;
}

/* entity:decision() -> the last decision about this entity's requests (table) or nil. */
static int entity_decision(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    const fg_decision *d = fg_world_last_decision(w, e);
    if (!d) {
        lua_pushnil(L);
        return 1;
    }
    push_decision(L, w, d, UINT32_MAX); /* the entity's current rules */
    return 1;
}

static int entity_frozen(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    lua_pushinteger(L, fg_world_frozen_for(w, e));
    return 1;
}

/* entity:explain(name) -> text, details: why the motion `name` (or the input of the action
** `name`) did or did not fire, from this fighter's own buffer and matcher. */
static int entity_explain(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    const fg_ruleset *r = rules_or_error(L, w, e);
    fg_motion_explanation x;
    fg_error err = {0};
    if (fg_world_explain(w, e, luaL_checkstring(L, 2), &x, &err) != FG_OK)
    {
        fg_lua_push_error(L, &err);
        return luaL_argerror(L, 2, lua_tostring(L, -1));
    }
    return fg_lua_push_explanation(L, fg_ruleset_motions(r), x.fired ? &x.command : NULL,
                                   &x.miss);
}

/* entity:view() -> the read-only table a rule would see. */
static int entity_view(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    lua_getiuservalue(L, 1, 1); /* the entity's world */
    fg_lua_push_view(L, -1, e);
    return 1;
}

/* }====================================================================== */

void fg_lua_open_play(lua_State *L) {
    static const luaL_Reg world_methods[] = {
        {"request", world_request},     {"evaluate", world_evaluate},
        {"decisions", world_decisions}, {"committed", world_committed},
        {"events", world_events},       {"meter", world_meter},
        {"cues", world_cues},           {"report_event", world_report_event},
        {"play", world_play},
        {NULL, NULL},
    };
    static const luaL_Reg entity_methods[] = {
        {"request", entity_request},   {"history", entity_history},   {"action", entity_action},
        {"state", entity_state},       {"resource", entity_resource}, {"position", entity_position},
        {"decision", entity_decision}, {"frozen", entity_frozen},     {"view", entity_view},
        {"explain", entity_explain},
        {NULL, NULL},
    };
    static const luaL_Reg event_meta[] = {
        {"__index", event_index}, {"__newindex", event_newindex}, {"__pairs", event_pairs},
        {"__tostring", event_tostring}, {NULL, NULL},
    };
    fg_lua_add_methods(L, FG_LUA_WORLD_T, world_methods);
    fg_lua_add_methods(L, FG_LUA_ENTITY_T, entity_methods);
    fg_lua_class(L, EVENT_T, NULL, event_meta);
    fg_lua_cue_target_of(L);
    lua_getfield(L, LUA_REGISTRYINDEX, CUE_TARGET_KEY);
    luaL_getmetatable(L, EVENT_T);
    lua_pushcclosure(L, l_cue, 2);
    lua_setfield(L, -2, "cue");
}
