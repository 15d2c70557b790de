/* SPDX-License-Identifier: MIT */
/*
** l_world.c: Lua bindings of framegate/world.h: framegate.World and framegate.Entity.
**
** An Entity userdata holds its id and keeps its World alive through its user value. Times are
** integer microseconds since the world's origin (fg.ms and fg.us_of_tick convert).
*/
#include "fg_lua.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* {====================================================================== access */

fg_lua_world *fg_lua_check_world(lua_State *L, int idx) {
    fg_lua_world *lw = luaL_checkudata(L, idx, FG_LUA_WORLD_T);
    if (!lw->w) luaL_error(L, "attempt to use a closed world");
    return lw;
}

int fg_lua_no_entity(lua_State *L, const fg_world *w, fg_entity e) {
    return luaL_error(L, "entity %d does not exist (%d spawned): the world was restored to a "
                      "tick before it was spawned", (int)e, (int)fg_world_entity_count(w));
}

/* Returns the entity at idx and pushes nothing; *w receives its world. */
fg_entity fg_lua_check_entity(lua_State *L, int idx, fg_world **w) {
    fg_lua_entity *le = luaL_checkudata(L, idx, FG_LUA_ENTITY_T);
    if (!le->lw->w) luaL_error(L, "attempt to use an entity of a closed world");
    if (!fg_world_entity_exists(le->lw->w, le->id)) fg_lua_no_entity(L, le->lw->w, le->id);
    *w = le->lw->w;
    return le->id;
}

fg_lua_world *fg_lua_self_world_checked(lua_State *L) {
    bool cached;
    fg_lua_world *lw = fg_lua_self_udata(L, &cached);
    if (!lw || !lw->w) return fg_lua_check_world(L, 1);
    if (!cached) fg_lua_self_remember(L, lw); /* open, so not finalized (__gc closes it) */
    return lw;
}

fg_entity fg_lua_self_entity_checked(lua_State *L, fg_world **w) {
    bool cached;
    fg_lua_entity *le = fg_lua_self_udata(L, &cached);
    if (!le || !le->lw->w) return fg_lua_check_entity(L, 1, w);
    if (!cached && !le->finalized) fg_lua_self_remember(L, le);
    *w = le->lw->w;
    return le->id;
}

void fg_lua_push_entity(lua_State *L, int world_idx, fg_entity id) {
    world_idx = lua_absindex(L, world_idx);
    fg_lua_world *lw = luaL_checkudata(L, world_idx, FG_LUA_WORLD_T);
    fg_lua_entity *le = lua_newuserdatauv(L, sizeof *le, 1);
    le->id = id;
    le->finalized = false;
    le->lw = lw;
    luaL_setmetatable(L, FG_LUA_ENTITY_T);
    lua_pushvalue(L, world_idx);
    lua_setiuservalue(L, -2, 1);
}

/* An action given by handle (the integer w:action_id returns, the C action id) or by name; the
** handles in range took the inline path (fg_lua_check_action) already. */
int fg_lua_check_action_any(lua_State *L, fg_world *w, int idx) {
    if (lua_type(L, idx) == LUA_TNUMBER) {
        lua_Integer h = luaL_checkinteger(L, idx);
        uint32_t n = fg_world_action_names(w)->count;
        if (h < 0 || (lua_Unsigned)h >= n)
            return luaL_argerror(L, idx, lua_pushfstring(L, "action handle %I is not one of this "
                                                         "world's (0 to %d)", h, (int)n - 1));
        return (int)h;
    }
    const char *name = luaL_checkstring(L, idx);
    int a = fg_world_action_id(w, name);
    if (a < 0) {
        const fg_action_names *n = fg_world_action_names(w);
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        for (uint32_t i = 0; i < n->count; i++) {
            if (i) luaL_addstring(&b, ", ");
            luaL_addstring(&b, n->names[i]);
        }
        luaL_pushresult(&b);
        return luaL_argerror(L, idx, lua_pushfstring(L, "unknown action '%s' (declared: %s)",
                                                     name, lua_tostring(L, -1)));
    }
    return a;
}

static void push_hash(lua_State *L, uint64_t h) {
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
    lua_pushstring(L, hex);
}

/* }====================================================================== */

/* {====================================================================== World */

/* {====================================================================== rule hooks */

/* The world's user value: { rules = { [slot] = Rules }, committed = { marker = count } }. */
static void push_world_store(lua_State *L, int world_idx, const char *field) {
    lua_getiuservalue(L, world_idx, 1);
    lua_getfield(L, -1, field);
    lua_remove(L, -2);
}

void fg_lua_world_set_rules(lua_State *L, int world_idx, uint32_t slot, int rules_idx) {
    world_idx = lua_absindex(L, world_idx);
    rules_idx = lua_absindex(L, rules_idx);
    push_world_store(L, world_idx, "rules");
    lua_pushvalue(L, rules_idx);
    lua_rawseti(L, -2, (lua_Integer)slot + 1);
    lua_pop(L, 1);
    /* The hooks a Rules value was built with never change: copied where the tick reads them. */
    lua_getiuservalue(L, world_idx, 2);
    if (fg_lua_test_rules(L, rules_idx)) {
        lua_getiuservalue(L, rules_idx, 1);
        lua_getfield(L, -1, "request");
        lua_rawseti(L, -3, FG_LUA_HOT_HOOKS + 2 * (lua_Integer)slot);
        lua_getfield(L, -1, "on_event");
        lua_rawseti(L, -3, FG_LUA_HOT_HOOKS + 2 * (lua_Integer)slot + 1);
        lua_pop(L, 1);
    } else {
        lua_pushnil(L);
        lua_rawseti(L, -2, FG_LUA_HOT_HOOKS + 2 * (lua_Integer)slot);
        lua_pushnil(L);
        lua_rawseti(L, -2, FG_LUA_HOT_HOOKS + 2 * (lua_Integer)slot + 1);
    }
    lua_pop(L, 1);
}

/* Pushes the hook of a slot's Rules (HOOK_REQUEST or HOOK_ON_EVENT), or nil; returns its type.
** hot: the world's user value 2. */
enum { HOOK_REQUEST = 0, HOOK_ON_EVENT = 1 };
static int push_rules_hook(lua_State *L, int hot, uint32_t slot, int hook) {
    return lua_rawgeti(L, hot, FG_LUA_HOT_HOOKS + 2 * (lua_Integer)slot + hook);
}

static bool hook_has_rule(void *ud, const fg_world *w, uint32_t slot) {
    (void)w;
    fg_lua_world *lw = ud;
    if (!lw->L) return false;
    lua_State *L = lw->L;
    lua_getiuservalue(L, lw->self, 2);
    int ty = push_rules_hook(L, lua_gettop(L), slot, HOOK_REQUEST);
    lua_pop(L, 2);
    return ty == LUA_TFUNCTION;
}

static fg_status hook_request(void *ud, fg_world *w, const fg_decision *d, fg_verdict *out,
                              fg_error *err) {
    fg_lua_world *lw = ud;
    lua_State *L = lw->L;
    int top = lua_gettop(L);
    lua_getiuservalue(L, lw->self, 2);
    push_rules_hook(L, top + 1, fg_world_rules_slot(w, d->entity), HOOK_REQUEST);
    lw->rule_calls++;
    fg_lua_push_rule_view(L, lw->self, top + 1, d->entity);
    fg_lua_push_request_view(L, lw->self, top + 1, d);
    fg_status st = fg_lua_call_rule(L, w, "request rule", 2, 1, err);
    if (st == FG_OK && !fg_lua_read_verdict(L, -1, out, err)) st = FG_ERULE;
    lua_settop(L, top);
    return st;
}

/* Calls the presentation hook with the events the last tick committed, once per tick even when
** a rollback re-simulates it. Hooks get read-only views; fg.cue is the only thing they may do. */
static void present_events(lua_State *L, fg_lua_world *lw, int world_idx) {
    fg_world *w = lw->w;
    fg_lua_cue_target *cue = fg_lua_cue_target_of(L);
    push_world_store(L, world_idx, "committed");
    int committed = lua_gettop(L);
    lua_getiuservalue(L, world_idx, 2);
    int hot = lua_gettop(L);
    for (uint32_t i = 0; i < fg_world_event_count(w); i++) {
        const fg_event *ev = fg_world_event_at(w, i);
        /* Markers are counted by name, contacts and bounces by kind ("hit", "throw",
        ** "bounce"). */
        const char *marker = ev->kind == FG_EVENT_HIT      ? "hit"
                             : ev->kind == FG_EVENT_THROW  ? "throw"
                             : ev->kind == FG_EVENT_BOUNCE ? "bounce"
                                                           : fg_world_marker_name(w, ev->entity,
                                                                                  ev->marker);
        if (marker) {
            lua_getfield(L, committed, marker);
            lua_pushinteger(L, lua_tointeger(L, -1) + 1);
            lua_setfield(L, committed, marker);
            lua_pop(L, 1);
        }
        if (push_rules_hook(L, hot, fg_world_rules_slot(w, ev->entity), HOOK_ON_EVENT) !=
            LUA_TFUNCTION) {
            lua_pop(L, 1);
            continue;
        }
        lw->hook_calls++;
        fg_lua_push_rule_view(L, world_idx, hot, ev->entity);
        fg_lua_push_event(L, w, ev);
        cue->w = w;
        cue->e = ev->entity;
        fg_error err = {0};
        /* No RNG for presentation: drawing would change the world. */
        if (fg_lua_call_rule(L, NULL, "on_event", 2, 0, &err) != FG_OK)
            fg_lua_report_hook_error(w, ev->entity, &err);
        cue->w = NULL;
        cue->e = 0;
    }
    lua_pop(L, 2);
}

/* Most ticks commit no event: the check inline, the hooks' work out of line. */
static inline void present(lua_State *L, fg_lua_world *lw, int world_idx) {
    fg_tick t = fg_world_tick(lw->w) - 1;
    if (t < lw->presented) return;
    lw->presented = t + 1;
    if (fg_world_event_count(lw->w) > 0) present_events(L, lw, world_idx);
}

/* }====================================================================== */

/* Loads a rules file (a path) into a Rules userdata. [-0, +1, v] */
static void push_rules_arg(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    if (fg_lua_test_rules(L, idx)) {
        lua_pushvalue(L, idx);
    } else if (lua_type(L, idx) == LUA_TSTRING) {
        fg_lua_load_rules_file(L, lua_tostring(L, idx));
    } else if (lua_istable(L, idx)) {
        fg_lua_build_rules(L, idx, NULL, 0);
    } else {
        luaL_error(L, "field 'rules': expected a path, a ruleset table or fg.rules(...), got %s",
                   luaL_typename(L, idx));
    }
}

/* fg.world{rules=, rate=, seed=, entities=, buffer=, trace=, projectiles=, buttons={...},
**          jump={button=, buffer=, coyote=, action=}, ground="stage"|"contacts"} -> World.
** [-1, +1, v] */
static int l_world(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    fg_world_config c = fg_world_config_default();
    c.tick_rate = (uint32_t)fg_lua_range_field(L, 1, "rate", c.tick_rate, 0, UINT32_MAX);
    c.seed = (uint64_t)fg_lua_opt_int_field(L, 1, "seed", (lua_Integer)c.seed);
    c.max_entities = (uint32_t)fg_lua_range_field(L, 1, "entities", c.max_entities, 0, UINT32_MAX);
    c.buffer_capacity = (uint32_t)fg_lua_range_field(L, 1, "buffer", c.buffer_capacity, 0, UINT32_MAX);
    c.trace_capacity = (uint32_t)fg_lua_range_field(L, 1, "trace", c.trace_capacity, 0, UINT32_MAX);
    c.trace_text_bytes = (uint32_t)fg_lua_range_field(L, 1, "trace_text", c.trace_text_bytes, 0,
                                                      FG_TRACE_TEXT_MAX);
    c.motion_bytes = (uint32_t)fg_lua_range_field(L, 1, "motion_bytes", 0, 0, UINT32_MAX);
    c.max_projectiles =
        (uint32_t)fg_lua_range_field(L, 1, "projectiles", c.max_projectiles, 0, 65536);
    int rules_idx = 0;
    if (lua_getfield(L, 1, "rules") != LUA_TNIL) {
        push_rules_arg(L, -1);
        rules_idx = lua_gettop(L);
        c.rules = fg_lua_check_rules(L, rules_idx)->rules;
    }
    const char *buttons[FG_INPUT_MAX_ACTIONS];
    uint32_t nbuttons = 0;
    if (lua_getfield(L, 1, "buttons") != LUA_TNIL) {
        luaL_argexpected(L, lua_istable(L, -1), 1, "field 'buttons' to be a list of names");
        lua_Integer n = luaL_len(L, -1);
        if (n > FG_INPUT_MAX_ACTIONS - FG_IN_FIRST_BUTTON)
            return luaL_error(L, "field 'buttons': %d names, at most %d", (int)n,
                              FG_INPUT_MAX_ACTIONS - FG_IN_FIRST_BUTTON);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_geti(L, -1, i);
            if (lua_type(L, -1) != LUA_TSTRING)
                return luaL_error(L, "field 'buttons[%d]': expected a name, got %s", (int)i,
                                  luaL_typename(L, -1));
            buttons[nbuttons++] = lua_tostring(L, -1);
            lua_pop(L, 1); /* the string stays alive in the table */
        }
    }
    lua_pop(L, 1);
    c.buttons = buttons;
    c.nbuttons = nbuttons;
    if (lua_getfield(L, 1, "jump") == LUA_TNIL && rules_idx) {
        /* The rules may declare the jump gate: jump = { button =, buffer =, coyote = }. */
        lua_pop(L, 1);
        lua_getiuservalue(L, rules_idx, 1);
        lua_getfield(L, -1, "declaration");
        lua_getfield(L, -1, "jump");
        lua_replace(L, -3);
        lua_pop(L, 1);
    }
    if (!lua_isnil(L, -1)) {
        luaL_argexpected(L, lua_istable(L, -1), 1, "field 'jump' to be a table");
        c.jump_button = fg_lua_opt_str_field(L, -1, "button", "jump");
        c.jump.buffer_ticks = fg_lua_opt_int_field(L, -1, "buffer", c.jump.buffer_ticks);
        c.jump.coyote_ticks = fg_lua_opt_int_field(L, -1, "coyote", c.jump.coyote_ticks);
        c.jump_action = fg_lua_opt_str_field(L, -1, "action", NULL);
    }
    lua_pop(L, 1);
    const char *ground = fg_lua_opt_str_field(L, 1, "ground", NULL);
    if (ground && !strcmp(ground, "stage"))
        c.ground = FG_GROUND_STAGE;
    else if (ground && !strcmp(ground, "contacts"))
        c.ground = FG_GROUND_CONTACTS;
    else if (ground)
        return fg_lua_field_error(L, "ground", "'%s', expected \"stage\" or \"contacts\"",
                                  ground);
    fg_lua_world *lw = fg_lua_new_world(L);
    c.hooks = fg_lua_world_hooks(lw);
    fg_error err = {0};
    lw->w = fg_world_create(&c, &err);
    if (!lw->w) return fg_lua_raise(L, &err);
    if (rules_idx) fg_lua_world_set_rules(L, -1, 0, rules_idx);
    return 1;
}

fg_lua_world *fg_lua_new_world(lua_State *L) {
    fg_lua_world *lw = lua_newuserdatauv(L, sizeof *lw, 2);
    memset(lw, 0, sizeof *lw);
    luaL_setmetatable(L, FG_LUA_WORLD_T);
    lua_createtable(L, 0, 2);
    lua_createtable(L, 1, 0);
    lua_setfield(L, -2, "rules");
    lua_newtable(L);
    lua_setfield(L, -2, "committed");
    lua_setiuservalue(L, -2, 1);
    lua_createtable(L, FG_LUA_HOT_HOOKS + 1, 0);
    lua_setiuservalue(L, -2, 2);
    return lw;
}

fg_world_hooks fg_lua_world_hooks(fg_lua_world *lw) {
    fg_world_hooks h;
    memset(&h, 0, sizeof h);
    h.ud = lw;
    h.has_rule = hook_has_rule;
    h.request = hook_request;
    return h;
}

static int world_close(lua_State *L) {
    fg_lua_world *lw = luaL_checkudata(L, 1, FG_LUA_WORLD_T);
    fg_lua_self_forget(L, lw); /* as __gc: its memory may be reused for anything after this */
    fg_lua_recording_drop(lw);
    if (lw->w) {
        fg_world_destroy(lw->w);
        lw->w = NULL;
    }
    return 0;
}

static int world_tostring(lua_State *L) {
    fg_lua_world *lw = luaL_checkudata(L, 1, FG_LUA_WORLD_T);
    if (!lw->w) {
        lua_pushliteral(L, "framegate.World (closed)");
        return 1;
    }
    lua_pushfstring(L, "framegate.World (tick %I, %d entities, %d Hz)",
                    (lua_Integer)fg_world_tick(lw->w), (int)fg_world_entity_count(lw->w),
                    (int)fg_world_tick_rate(lw->w));
    return 1;
}

/* The rules slot named `name` in this world (the ruleset's declared name). */
static uint32_t slot_named(lua_State *L, fg_world *w, const char *name) {
    lua_getiuservalue(L, 1, 1);
    lua_getfield(L, -1, "rules");
    for (lua_Integer i = 1;; i++) {
        if (lua_rawgeti(L, -1, i) == LUA_TNIL) break;
        fg_lua_rules *lr = fg_lua_test_rules(L, -1);
        lua_pop(L, 1);
        if (lr && strcmp(fg_ruleset_name(lr->rules), name) == 0) {
            lua_pop(L, 2);
            return (uint32_t)(i - 1);
        }
    }
    (void)w;
    return (uint32_t)luaL_error(L, "spawn: no rules named '%s' in this world", name);
}

/* world:spawn([rules_name] | {rules=, x=, y=, facing="right"|"left", grounded=true,
** opponent=entity}) -> Entity. [-2, +1, v] */
static int world_spawn(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    fg_spawn sp = {0};
    sp.grounded = true;
    if (lua_type(L, 2) == LUA_TSTRING) {
        sp.rules = slot_named(L, lw->w, lua_tostring(L, 2));
    } else if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        const char *rules = fg_lua_opt_str_field(L, 2, "rules", NULL);
        if (rules) sp.rules = slot_named(L, lw->w, rules);
        sp.x = fg_lua_fx_field(L, 2, "x", 0);
        sp.y = fg_lua_fx_field(L, 2, "y", 0);
        const char *f = fg_lua_opt_str_field(L, 2, "facing", "right");
        if (strcmp(f, "right") && strcmp(f, "left"))
            return luaL_error(L, "field 'facing': '%s', expected 'right' or 'left'", f);
        sp.facing = f[0] == 'l' ? FG_FACING_LEFT : FG_FACING_RIGHT;
        sp.grounded = fg_lua_opt_bool_field(L, 2, "grounded", 1);
        if (lua_getfield(L, 2, "opponent") != LUA_TNIL) {
            fg_world *ow;
            sp.opponent = fg_lua_check_entity(L, -1, &ow);
        }
        lua_pop(L, 1);
    }
    fg_entity id;
    fg_error err = {0};
    if (fg_world_spawn(lw->w, &sp, &id, &err) != FG_OK) return fg_lua_raise(L, &err);
    fg_lua_push_entity(L, 1, id);
    return 1;
}

/* world:entity(id) -> Entity or nil. [-2, +1, v] */
static int world_entity(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    lua_Integer id = luaL_checkinteger(L, 2);
    if (id <= 0 || id > UINT32_MAX || !fg_world_entity_exists(lw->w, (fg_entity)id)) {
        lua_pushnil(L);
        return 1;
    }
    fg_lua_push_entity(L, 1, (fg_entity)id);
    return 1;
}

fg_status fg_lua_world_step_open(lua_State *L, fg_lua_world *lw, int world_idx, bool again,
                                 fg_error *err) {
    fg_status st = FG_OK;
    if (lw->recording && !again) st = fg_lua_recording_before(L, world_idx, lw, err);
    if (st != FG_OK) return st;
    lw->L = L;
    lw->self = world_idx;
    st = fg_world_advance(lw->w, err);
    lw->L = NULL;
    if (st != FG_OK) return st;
    /* A speculative tick (re-simulated, or predicted by a session) presents nothing: only a
    ** tick run for good reaches the hooks. */
    if (!again) present(L, lw, world_idx);
    if (lw->recording && !again) st = fg_lua_recording_after(L, world_idx, lw, err);
    return st;
}

fg_status fg_lua_world_step(lua_State *L, int world_idx, bool again, fg_error *err) {
    world_idx = lua_absindex(L, world_idx);
    return fg_lua_world_step_open(L, fg_lua_check_world(L, world_idx), world_idx, again, err);
}

/* world:advance([n]) runs n ticks (default 1); returns the next tick. [-2, +1, v] */
static int world_advance(lua_State *L) {
    fg_lua_world *lw = fg_lua_self_world(L);
    lua_Integer n = 1;
    if (lua_gettop(L) >= 2) { /* w:advance() is the call made every tick: it skips these */
        if (!lua_isnil(L, 2)) n = luaL_checkinteger(L, 2);
        luaL_argcheck(L, n >= 0, 2, "tick count must be >= 0");
        lua_settop(L, 2);
    }
    fg_error err; /* every failure of step writes it (the runtime's contract) */
    for (lua_Integer i = 0; i < n; i++)
        if (fg_lua_world_step_open(L, lw, 1, false, &err) != FG_OK) return fg_lua_raise(L, &err);
    lua_pushinteger(L, fg_world_tick(lw->w));
    return 1;
}

/* world:stats() -> { rule_calls =, hook_calls =, memory = bytes, entities =, tick = }. */
static int world_stats(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, (lua_Integer)lw->rule_calls);
    lua_setfield(L, -2, "rule_calls");
    lua_pushinteger(L, (lua_Integer)lw->hook_calls);
    lua_setfield(L, -2, "hook_calls");
    lua_pushinteger(L, (lua_Integer)fg_world_memory(lw->w));
    lua_setfield(L, -2, "memory");
    lua_pushinteger(L, fg_world_entity_count(lw->w));
    lua_setfield(L, -2, "entities");
    lua_pushinteger(L, fg_world_tick(lw->w));
    lua_setfield(L, -2, "tick");
    lua_pushinteger(L, fg_world_version_count(lw->w));
    lua_setfield(L, -2, "versions");
    lua_pushinteger(L, FG_WORLD_MAX_VERSIONS);
    lua_setfield(L, -2, "versions_max");
    /* The Lua state's heap, rules and host together, and the cap rules run under. */
    lua_pushinteger(L, fg_lua_memory_in_use(L));
    lua_setfield(L, -2, "heap");
    lua_pushinteger(L, fg_lua_heap_cap(L));
    lua_setfield(L, -2, "heap_max");
    return 1;
}

static int world_tick(lua_State *L) {
    lua_pushinteger(L, fg_world_tick(fg_lua_check_world(L, 1)->w));
    return 1;
}

static int world_rate(lua_State *L) {
    lua_pushinteger(L, fg_world_tick_rate(fg_lua_check_world(L, 1)->w));
    return 1;
}

/* world:hash() -> 16 hex digits. [-1, +1, m] */
static int world_hash(lua_State *L) {
    push_hash(L, fg_world_hash(fg_lua_check_world(L, 1)->w));
    return 1;
}

/* world:save() -> snapshot string. [-1, +1, m] */
static int world_save(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    size_t size = fg_world_snapshot_size(lw->w);
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, size);
    fg_error err = {0};
    if (fg_world_save(lw->w, p, size, &err) != FG_OK) return fg_lua_raise(L, &err);
    luaL_pushresultsize(&b, size);
    return 1;
}

/* world:restore(snapshot). [-2, +0, v] */
/* world:restore(snapshot [, { fresh = true }]). By default a restore is a rollback: ticks that
** were presented already are re-simulated without calling on_event again. fresh = true starts a
** new timeline instead (a test round, a retry): presentation starts over at the restored tick. */
static int world_restore(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    size_t size;
    const char *p = luaL_checklstring(L, 2, &size);
    bool fresh = false;
    if (!lua_isnoneornil(L, 3)) {
        luaL_checktype(L, 3, LUA_TTABLE);
        fresh = fg_lua_opt_bool_field(L, 3, "fresh", 0);
    }
    fg_error err = {0};
    if (fg_world_restore(lw->w, p, size, &err) != FG_OK) return fg_lua_raise(L, &err);
    if (fresh) lw->presented = fg_world_tick(lw->w);
    return 0;
}

/* world:trace([from_tick]) -> list of {tick=, entity=, kind=, text=}. [-2, +1, m] */
static int world_trace(lua_State *L) {
    fg_lua_world *lw = fg_lua_check_world(L, 1);
    lua_Integer from = luaL_optinteger(L, 2, LUA_MININTEGER);
    static const char *const kinds[] = {"input", "jump", "contact"};
    lua_newtable(L);
    lua_Integer k = 0;
    for (uint32_t i = 0; i < fg_world_trace_count(lw->w); i++) {
        const fg_trace_record *r = fg_world_trace_at(lw->w, i);
        if (r->tick < from) continue;
        lua_createtable(L, 0, 5);
        lua_pushinteger(L, r->tick);
        lua_setfield(L, -2, "tick");
        lua_pushinteger(L, r->entity);
        lua_setfield(L, -2, "entity");
        lua_pushstring(L, r->kind < 3 ? kinds[r->kind] : "other");
        lua_setfield(L, -2, "kind");
        lua_pushinteger(L, r->code);
        lua_setfield(L, -2, "code");
        fg_lua_push_trace_line(L, lw->w, r);
        lua_setfield(L, -2, "text");
        lua_rawseti(L, -2, ++k);
    }
    return 1;
}

static int world_trace_clear(lua_State *L) {
    fg_world_trace_clear(fg_lua_check_world(L, 1)->w);
    return 0;
}

/* }====================================================================== */

/* {====================================================================== Entity */

int fg_lua_bad_time(lua_State *L, int idx) {
    return luaL_argerror(L, idx, lua_type(L, idx) == LUA_TNUMBER
                                     ? "time must be an integer number of microseconds"
                                     : "time in microseconds expected");
}

static int push_result(lua_State *L, fg_status st, fg_error *err) {
    if (st != FG_OK) return fg_lua_raise(L, err);
    return 0;
}

/* entity:press(action, time_us) */
static int entity_press(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_self_entity(L, &w);
    int a = fg_lua_check_action(L, w, 2);
    fg_error err; /* every failure writes it (the runtime's contract): nothing to clear */
    int64_t t = fg_lua_check_time(L, 3);
    return push_result(L, fg_world_press(w, e, a, t, FG_SOURCE_SCRIPT, &err), &err);
}

static int entity_release(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_self_entity(L, &w);
    int a = fg_lua_check_action(L, w, 2);
    fg_error err; /* every failure writes it (the runtime's contract): nothing to clear */
    int64_t t = fg_lua_check_time(L, 3);
    return push_result(L, fg_world_release(w, e, a, t, FG_SOURCE_SCRIPT, &err), &err);
}

/* entity:dir(numpad, time_us) */
static int entity_dir(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_self_entity(L, &w);
    lua_Integer d = luaL_checkinteger(L, 2);
    luaL_argcheck(L, d >= 1 && d <= 9, 2, "numpad direction 1..9 expected");
    fg_error err; /* every failure writes it (the runtime's contract): nothing to clear */
    int64_t t = fg_lua_check_time(L, 3);
    return push_result(L, fg_world_direction(w, e, (int)d, t, FG_SOURCE_SCRIPT, &err), &err);
}

/* entity:contact(grounded) — the host's contact report for the next tick. */
static int entity_contact(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    luaL_checktype(L, 2, LUA_TBOOLEAN);
    fg_error err = {0};
    return push_result(L, fg_world_report_contact(w, e, lua_toboolean(L, 2), &err), &err);
}

/* The input buffer of self, which a restore may have taken away. */
static const fg_buffer *self_buffer(lua_State *L, fg_world **w) {
    fg_entity e = fg_lua_self_entity(L, w);
    const fg_buffer *b = fg_world_buffer(*w, e);
    if (!b) fg_lua_no_entity(L, *w, e);
    return b;
}

static int entity_held(lua_State *L) {
    fg_world *w;
    const fg_buffer *b = self_buffer(L, &w);
    lua_pushboolean(L, fg_buffer_held(b, fg_lua_check_action(L, w, 2)));
    return 1;
}

static int entity_held_for(lua_State *L) {
    fg_world *w;
    const fg_buffer *b = self_buffer(L, &w);
    lua_pushinteger(L, fg_buffer_held_for(b, fg_lua_check_action(L, w, 2)));
    return 1;
}

/* An entity keeps its id after a restore took it away (e:id() still names it). */
static int entity_id(lua_State *L) {
    fg_lua_entity *le = luaL_checkudata(L, 1, FG_LUA_ENTITY_T);
    if (!le->lw->w) return luaL_error(L, "attempt to use an entity of a closed world");
    lua_pushinteger(L, le->id);
    return 1;
}

/* entity:direction() -> numpad held (absolute), and facing-relative. */
static int entity_direction(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    const fg_buffer *b = fg_world_buffer(w, e);
    lua_pushinteger(L, b->dir);
    lua_pushinteger(L, fg_numpad_relative(b->dir, fg_world_facing(w, e)));
    return 2;
}

static int entity_facing(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    if (!lua_isnoneornil(L, 2)) {
        static const char *const facings[] = {"right", "left", NULL};
        int f = luaL_checkoption(L, 2, NULL, facings);
        fg_error err = {0};
        if (fg_world_set_facing(w, e, (fg_facing)f, &err) != FG_OK) return fg_lua_raise(L, &err);
        return 0;
    }
    lua_pushstring(L, fg_world_facing(w, e) == FG_FACING_LEFT ? "left" : "right");
    return 1;
}

/* entity:ground() -> {grounded=, has_history=, permission=, last_grounded=, landed_at=} */
static int entity_ground(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    const fg_ground *g = fg_world_ground(w, e);
    lua_createtable(L, 0, 5);
    lua_pushboolean(L, g->grounded);
    lua_setfield(L, -2, "grounded");
    lua_pushboolean(L, g->has_history);
    lua_setfield(L, -2, "has_history");
    lua_pushboolean(L, !g->permission_spent);
    lua_setfield(L, -2, "permission");
    lua_pushinteger(L, g->last_grounded);
    lua_setfield(L, -2, "last_grounded");
    lua_pushinteger(L, g->landed_at);
    lua_setfield(L, -2, "landed_at");
    return 1;
}

/* entity:jump() -> result name, text (the jump decision of the last tick). */
static int entity_jump(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    const fg_jump_decision *d = fg_world_last_jump(w, e);
    char text[256];
    fg_jump_describe(d, text, sizeof text);
    lua_pushstring(L, fg_jump_result_name(d->result));
    lua_pushstring(L, text);
    return 2;
}

static void push_edge(lua_State *L, const fg_world *w, const fg_edge *e) {
    static const char *const kinds[] = {"press", "release", "dir"};
    lua_createtable(L, 0, 8);
    lua_pushinteger(L, (lua_Integer)e->id);
    lua_setfield(L, -2, "id");
    lua_pushinteger(L, e->tick);
    lua_setfield(L, -2, "tick");
    lua_pushinteger(L, e->time_us);
    lua_setfield(L, -2, "time_us");
    lua_pushstring(L, kinds[e->kind < 3 ? e->kind : 2]);
    lua_setfield(L, -2, "kind");
    if (e->kind == FG_EDGE_DIR) {
        lua_pushinteger(L, e->dir);
        lua_setfield(L, -2, "dir");
        lua_pushinteger(L, e->prev_dir);
        lua_setfield(L, -2, "prev_dir");
    } else {
        lua_pushstring(L, fg_action_names_get(fg_world_action_names(w), e->action));
        lua_setfield(L, -2, "action");
    }
    lua_pushboolean(L, (e->flags & FG_EDGE_CONSUMED) != 0);
    lua_setfield(L, -2, "consumed");
    lua_pushboolean(L, (e->flags & FG_EDGE_LATE) != 0);
    lua_setfield(L, -2, "late");
}

/* entity:edges() -> stored edges, oldest first; entity:pending() -> edges waiting. */
static int entity_edges(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    const fg_buffer *b = fg_world_buffer(w, e);
    lua_createtable(L, (int)fg_buffer_count(b), 0);
    for (uint32_t i = 0; i < fg_buffer_count(b); i++) {
        push_edge(L, w, fg_buffer_at(b, i));
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int entity_pending(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    const fg_buffer *b = fg_world_buffer(w, e);
    lua_createtable(L, (int)fg_buffer_pending_count(b), 0);
    for (uint32_t i = 0; i < fg_buffer_pending_count(b); i++) {
        push_edge(L, w, fg_buffer_pending_at(b, i));
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* entity:input() -> what the last tick consumed: {tick=, pressed={...}, released={...},
** held={...}, dir=}. */
static void push_mask(lua_State *L, const fg_world *w, uint32_t mask) {
    lua_newtable(L);
    int k = 0;
    for (int a = 0; a < FG_INPUT_MAX_ACTIONS; a++)
        if (mask & (1u << a)) {
            lua_pushstring(L, fg_action_names_get(fg_world_action_names(w), a));
            lua_rawseti(L, -2, ++k);
        }
}

static int entity_input(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    const fg_tick_input *in = fg_world_last_input(w, e);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, in->tick);
    lua_setfield(L, -2, "tick");
    push_mask(L, w, in->pressed);
    lua_setfield(L, -2, "pressed");
    push_mask(L, w, in->released);
    lua_setfield(L, -2, "released");
    push_mask(L, w, in->held);
    lua_setfield(L, -2, "held");
    lua_pushinteger(L, in->dir);
    lua_setfield(L, -2, "dir");
    return 1;
}

/* entity:bind(control, action): control is an integer code or a one-character string. */
static uint32_t check_control(lua_State *L, int idx) {
    if (lua_type(L, idx) == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        luaL_argcheck(L, len == 1, idx, "a one-character key or an integer control code expected");
        return (unsigned char)s[0];
    }
    return (uint32_t)fg_lua_check_range(L, idx, "control code", 0, UINT32_MAX);
}

static int entity_bind(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    uint32_t control = check_control(L, 2);
    int a = fg_lua_check_action(L, w, 3);
    fg_error err = {0};
    return push_result(L, fg_input_map_bind(fg_world_input_map(w, e), control, a, &err), &err);
}

/* entity:key(control, down, time_us) — device input through the map. */
static int entity_key(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    uint32_t control = check_control(L, 2);
    luaL_checktype(L, 3, LUA_TBOOLEAN);
    fg_error err; /* every failure writes it (the runtime's contract): nothing to clear */
    return push_result(L, fg_world_device_control(w, e, control, lua_toboolean(L, 3),
                                                  fg_lua_check_time(L, 4), &err), &err);
}

/* entity:stick(x, y, time_us) — a raw analog sample. */
static int entity_stick(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    float x = (float)luaL_checknumber(L, 2), y = (float)luaL_checknumber(L, 3);
    fg_error err = {0};
    if (fg_world_device_stick(w, e, x, y, fg_lua_check_time(L, 4), &err) != FG_OK)
        return fg_lua_raise(L, &err);
    fg_vec2 v = fg_world_stick(w, e);
    lua_pushnumber(L, v.x);
    lua_pushnumber(L, v.y);
    return 2;
}

/* entity:camera(fx, fy, fz) — the camera's forward vector for camera-relative sticks. */
static int entity_camera(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    fg_error err = {0};
    return push_result(L, fg_world_device_camera(w, e, (float)luaL_checknumber(L, 2),
                                                 (float)luaL_checknumber(L, 3),
                                                 (float)luaL_optnumber(L, 4, 0.0), &err), &err);
}

/* entity:input_map{socd_horizontal=, socd_vertical=, camera_relative=, deadzone=, outer=,
** exponent=, threshold=} */
static int entity_input_map(lua_State *L) {
    fg_world *w;
    fg_entity e = fg_lua_check_entity(L, 1, &w);
    luaL_checktype(L, 2, LUA_TTABLE);
    fg_input_map *m = fg_world_input_map(w, e);
    fg_input_map next = *m;
    const char *h = fg_lua_opt_str_field(L, 2, "socd_horizontal", NULL);
    const char *v = fg_lua_opt_str_field(L, 2, "socd_vertical", NULL);
    if (h) {
        int mode = fg_socd_parse(h);
        if (mode < 0 || mode == FG_SOCD_UP_WINS)
            return luaL_error(L, "field 'socd_horizontal': '%s', expected neutral, last, first or "
                                 "forward", h);
        next.socd_horizontal = (fg_socd)mode;
    }
    if (v) {
        int mode = fg_socd_parse(v);
        if (mode < 0 || mode == FG_SOCD_FORWARD_WINS)
            return luaL_error(L, "field 'socd_vertical': '%s', expected neutral, last, first or up",
                              v);
        next.socd_vertical = (fg_socd)mode;
    }
    next.camera_relative = fg_lua_opt_bool_field(L, 2, "camera_relative", next.camera_relative);
    next.stick.deadzone = (float)fg_lua_opt_num_field(L, 2, "deadzone", next.stick.deadzone);
    next.stick.outer = (float)fg_lua_opt_num_field(L, 2, "outer", next.stick.outer);
    next.stick.exponent = (float)fg_lua_opt_num_field(L, 2, "exponent", next.stick.exponent);
    next.stick.direction_threshold =
        (float)fg_lua_opt_num_field(L, 2, "threshold", next.stick.direction_threshold);
    fg_error err = {0};
    if (fg_stick_config_check(&next.stick, &err) != FG_OK) return fg_lua_raise(L, &err);
    *m = next;
    return 0;
}

static int entity_tostring(lua_State *L) {
    fg_lua_entity *le = luaL_checkudata(L, 1, FG_LUA_ENTITY_T);
    lua_pushfstring(L, "framegate.Entity (%d)", (int)le->id);
    return 1;
}

static int entity_eq(lua_State *L) {
    fg_lua_entity *a = luaL_checkudata(L, 1, FG_LUA_ENTITY_T);
    fg_lua_entity *b = luaL_checkudata(L, 2, FG_LUA_ENTITY_T);
    lua_getiuservalue(L, 1, 1);
    lua_getiuservalue(L, 2, 1);
    lua_pushboolean(L, a->id == b->id && lua_rawequal(L, -1, -2));
    return 1;
}

/* The world owns the entity (the user value keeps the world alive): only the self cache must
** let go of its address, which may hold something else once the userdata is freed. */
static int entity_gc(lua_State *L) {
    fg_lua_entity *le = luaL_testudata(L, 1, FG_LUA_ENTITY_T);
    if (le) {
        le->finalized = true;
        fg_lua_self_forget(L, le);
    }
    return 0;
}

/* }====================================================================== */

void fg_lua_open_world(lua_State *L) {
    static const luaL_Reg funcs[] = {{"world", l_world}, {NULL, NULL}};
    static const luaL_Reg world_methods[] = {
        {"spawn", world_spawn},     {"entity", world_entity},   {"advance", world_advance},
        {"run", world_advance},     {"stats", world_stats},
        {"tick", world_tick},       {"rate", world_rate},       {"hash", world_hash},
        {"save", world_save},       {"restore", world_restore}, {"trace", world_trace},
        {"trace_clear", world_trace_clear}, {"close", world_close},
        {NULL, NULL},
    };
    static const luaL_Reg world_meta[] = {
        {"__gc", world_close}, {"__close", world_close}, {"__tostring", world_tostring},
        {NULL, NULL},
    };
    static const luaL_Reg entity_methods[] = {
        {"press", entity_press},       {"release", entity_release}, {"dir", entity_dir},
        {"contact", entity_contact},   {"held", entity_held},       {"held_for", entity_held_for},
        {"id", entity_id},             {"direction", entity_direction},
        {"facing", entity_facing},     {"ground", entity_ground},   {"jump", entity_jump},
        {"edges", entity_edges},       {"pending", entity_pending}, {"input", entity_input},
        {"bind", entity_bind},         {"key", entity_key},         {"stick", entity_stick},
        {"camera", entity_camera},     {"input_map", entity_input_map},
        {NULL, NULL},
    };
    static const luaL_Reg entity_meta[] = {
        {"__tostring", entity_tostring}, {"__eq", entity_eq}, {"__gc", entity_gc}, {NULL, NULL},
    };
    luaL_setfuncs(L, funcs, 0);
    fg_lua_class(L, FG_LUA_WORLD_T, world_methods, world_meta);
    fg_lua_class(L, FG_LUA_ENTITY_T, entity_methods, entity_meta);
    fg_lua_open_queries(L);
    fg_lua_open_play(L);
    fg_lua_open_combat(L);
    fg_lua_open_stage(L);
    fg_lua_open_projectiles(L);
    fg_lua_open_vars(L);
}
