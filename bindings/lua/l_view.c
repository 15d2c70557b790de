/* SPDX-License-Identifier: MIT */
/*
** l_view.c: the read-only views rules and hooks receive (`me`, `me.resources`, `req`).
**
** A view is a small userdata that reads the world when a field is indexed, instead of a table
** filled in advance: a rule that looks at two fields pays for two, and a call allocates nothing,
** because each world keeps one view of each kind and re-points it for every call. Writing to a
** view is an error naming the field; pairs() walks the fields in sorted order, like everything a
** rule may iterate.
**
** `me.vars` reads the entity's variables; `fg.set(me, name, value)` and `fg.add(me, name, n)`
** propose changes to them from a request rule (the gate commits them at the end of the tick).
*/
#include "fg_lua.h"

#include <string.h>

#define VIEW_T "framegate.View"

typedef enum view_kind {
    VIEW_ENTITY = 0,
    VIEW_RESOURCES = 1, /* me.resources.meter: the amount now */
    VIEW_REQUEST = 2,
    VIEW_MAXIMA = 3,    /* me.max.meter: the declared maximum */
    VIEW_TAGS = 4,      /* me.tags.special: whether the body's action has the tag */
    VIEW_VARS = 5       /* me.vars.stance: the variable's value (a boolean for a flag) */
} view_kind;

typedef struct view {
    const fg_lua_world *lw; /* its world's userdata (kept alive by user value 1) */
    const fg_world *w;      /* refreshed from lw on every access: a closed world reads NULL */
    fg_entity e;
    view_kind kind;
    fg_decision d; /* VIEW_REQUEST: a copy, so the view never points into the tick's stack */
} view;

/* Field names of each kind, sorted bytewise: the order pairs() walks them in. */
static const char *const entity_fields[] = {
    "action", "airborne", "combo",     "combo_damage", "elapsed",  "facing",   "frozen", "grounded",
    "group",  "id",       "juggle",    "juggle_limit", "launched", "max",      "opponent", "phase",
    "resources", "sequence", "tags",   "tick",         "vars",     "x",        "y",      NULL};
static const char *const request_fields[] = {"action", "default", "layer",  "reason",
                                             "source", "text",    "tick",   NULL};

static view *check_view(lua_State *L, int idx) { return luaL_checkudata(L, idx, VIEW_T); }

static const fg_action_def *body_action(const view *v) {
    const fg_instance *body = fg_world_instance(v->w, v->e, 0);
    if (!body || body->action == FG_NO_ACTION) return NULL;
    const fg_ruleset *r = fg_world_rules_version(v->w, body->version);
    return r ? fg_ruleset_action(r, body->action) : NULL;
}

/* Pushes the entity view's sub-view kept in user value `uv` (resources, maxima, tags), pointed
** at the same entity. */
static int sub_view(lua_State *L, int self, int uv, const view *v) {
    lua_getiuservalue(L, self, uv);
    view *sv = lua_touserdata(L, -1);
    sv->lw = v->lw;
    sv->e = v->e;
    return 1;
}

static view *new_view(lua_State *L, int world_idx, view_kind kind);

/* me.opponent: an entity view of the fighter's opponent (nil without one), made on first use and
** kept in user value 6. */
static int opponent_view(lua_State *L, int self, const view *v) {
    fg_entity o = fg_world_opponent(v->w, v->e);
    if (!o) {
        lua_pushnil(L);
        return 1;
    }
    if (lua_getiuservalue(L, self, 6) != LUA_TUSERDATA) {
        lua_pop(L, 1);
        lua_getiuservalue(L, self, 1); /* the world */
        new_view(L, -1, VIEW_ENTITY);
        lua_remove(L, -2);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, self, 6);
    }
    view *ov = lua_touserdata(L, -1);
    ov->lw = v->lw;
    ov->e = o;
    return 1;
}

/* The combo and juggle fields: the counts of hits this entity has taken. */
static int combat_field(lua_State *L, const view *v, const char *k) {
    fg_combat_view c;
    if (fg_world_combat(v->w, v->e, &c, NULL) != FG_OK) return 0;
    if (!strcmp(k, "combo")) lua_pushinteger(L, c.combo);
    else if (!strcmp(k, "combo_damage")) lua_pushinteger(L, c.combo_damage);
    else if (!strcmp(k, "juggle")) lua_pushinteger(L, c.juggle);
    else if (!strcmp(k, "juggle_limit")) lua_pushinteger(L, c.juggle_limit);
    else if (!strcmp(k, "launched")) lua_pushboolean(L, c.launched);
    else return 0;
    return 1;
}

/* Pushes the value of an entity field, or returns 0 when there is no such field. */
static int entity_field(lua_State *L, int self, const view *v, const char *k) {
    const fg_world *w = v->w;
    fg_entity e = v->e;
    switch (k[0]) {
    case 'a':
        if (!strcmp(k, "action")) {
            const fg_action_def *a = body_action(v);
            lua_pushstring(L, a ? a->name : "none");
            return 1;
        }
        if (!strcmp(k, "airborne")) {
            const fg_action_def *a = body_action(v);
            lua_pushboolean(L, a && !strcmp(a->group, "airborne"));
            return 1;
        }
        break;
    case 'c':
    case 'j':
    case 'l': return combat_field(L, v, k);
    case 'o':
        if (!strcmp(k, "opponent")) return opponent_view(L, self, v);
        break;
    case 'v':
        if (!strcmp(k, "vars")) return sub_view(L, self, 5, v);
        break;
    case 'e':
        if (!strcmp(k, "elapsed")) {
            const fg_instance *body = fg_world_instance(w, e, 0);
            lua_pushinteger(L, body ? body->elapsed : 0);
            return 1;
        }
        break;
    case 'f':
        if (!strcmp(k, "facing")) {
            lua_pushstring(L, fg_world_facing(w, e) == FG_FACING_LEFT ? "left" : "right");
            return 1;
        }
        if (!strcmp(k, "frozen")) {
            lua_pushinteger(L, fg_world_frozen_for(w, e));
            return 1;
        }
        break;
    case 'g':
        if (!strcmp(k, "group") || !strcmp(k, "grounded")) {
            const fg_action_def *a = body_action(v);
            const char *g = a ? a->group : "grounded";
            if (k[5] == '\0') lua_pushstring(L, g);
            else lua_pushboolean(L, !strcmp(g, "grounded"));
            return 1;
        }
        break;
    case 'i':
        if (!strcmp(k, "id")) {
            lua_pushinteger(L, e);
            return 1;
        }
        break;
    case 'm':
        if (!strcmp(k, "max")) return sub_view(L, self, 3, v);
        break;
    case 'p':
        if (!strcmp(k, "phase")) {
            lua_pushstring(L, fg_phase_name(fg_world_phase(w, e, 0)));
            return 1;
        }
        break;
    case 'r':
        if (!strcmp(k, "resources")) return sub_view(L, self, 2, v);
        break;
    case 's':
        if (!strcmp(k, "sequence")) {
            const fg_instance *body = fg_world_instance(w, e, 0);
            lua_pushinteger(L, body ? (lua_Integer)body->seq : 0);
            return 1;
        }
        break;
    case 't':
        if (!strcmp(k, "tick")) {
            lua_pushinteger(L, fg_world_tick(w));
            return 1;
        }
        if (!strcmp(k, "tags")) return sub_view(L, self, 4, v);
        break;
    case 'x':
    case 'y':
        if (k[1] == '\0') {
            fg_fx x, y;
            fg_world_position(w, e, &x, &y);
            lua_pushnumber(L, (double)(k[0] == 'x' ? x : y) / FG_FX_ONE);
            return 1;
        }
        break;
    }
    return 0;
}

static int resource_field(lua_State *L, const view *v, const char *k) {
    const fg_ruleset *r = fg_world_rules(v->w, v->e);
    int id = r ? fg_ruleset_find_resource(r, k) : -1;
    if (id < 0) return 0;
    if (v->kind == VIEW_MAXIMA) lua_pushinteger(L, fg_ruleset_resource(r, (uint32_t)id)->max);
    else lua_pushinteger(L, fg_world_resource(v->w, v->e, (uint32_t)id));
    return 1;
}

/* me.tags.special: true when the body's action has the tag, false otherwise (any name). */
static int tag_field(lua_State *L, const view *v, const char *k) {
    const fg_action_def *a = body_action(v);
    lua_pushboolean(L, a && fg_action_has_tag(a, k));
    return 1;
}

/* The body action's tag that sorts right after `key` (the first with NULL), or NULL: pairs walks
** tags in sorted order without building a list. */
static const char *next_tag(const view *v, const char *key) {
    const fg_action_def *a = body_action(v);
    const char *best = NULL;
    for (uint32_t i = 0; a && i < a->ntags; i++) {
        const char *t = a->tags[i];
        if (key && strcmp(t, key) <= 0) continue;
        if (!best || strcmp(t, best) < 0) best = t;
    }
    return best;
}

static int var_field(lua_State *L, const view *v, const char *k) {
    const fg_ruleset *r = fg_world_rules(v->w, v->e);
    int id = r ? fg_ruleset_find_var(r, k) : -1;
    if (id < 0) return 0;
    int32_t value = fg_world_var(v->w, v->e, (uint32_t)id);
    if (fg_ruleset_var(r, (uint32_t)id)->flag) lua_pushboolean(L, value != 0);
    else lua_pushinteger(L, value);
    return 1;
}

static int request_field(lua_State *L, const view *v, const char *k) {
    const fg_ruleset *r = fg_world_rules(v->w, v->d.entity);
    const fg_decision *d = &v->d;
    if (!strcmp(k, "action")) {
        const fg_action_def *a = r ? fg_ruleset_action(r, d->action) : NULL;
        lua_pushstring(L, a ? a->name : "?");
    } else if (!strcmp(k, "source")) {
        lua_pushstring(L, fg_request_source_name((fg_request_source)d->source));
    } else if (!strcmp(k, "tick")) {
        lua_pushinteger(L, d->tick);
    } else if (!strcmp(k, "default")) {
        lua_pushstring(L, fg_decision_kind_name((fg_decision_kind)d->kind));
    } else if (!strcmp(k, "reason")) {
        lua_pushstring(L, fg_reason_name((fg_reason)d->reason));
    } else if (!strcmp(k, "text")) {
        fg_lua_push_decision_text(L, r, d);
    } else if (!strcmp(k, "layer")) {
        lua_pushstring(L, r ? fg_ruleset_layer_name(r, d->layer) : "?");
    } else {
        return 0;
    }
    return 1;
}

static int view_field(lua_State *L, int self, const view *v, const char *k) {
    switch (v->kind) {
    case VIEW_ENTITY: return entity_field(L, self, v, k);
    case VIEW_RESOURCES:
    case VIEW_MAXIMA: return resource_field(L, v, k);
    case VIEW_REQUEST: return request_field(L, v, k);
    case VIEW_TAGS: return tag_field(L, v, k);
    case VIEW_VARS: return var_field(L, v, k);
    }
    return 0;
}

/* Checks the view and that its world is still open. */
static view *open_view(lua_State *L, view *v) {
    v->w = v->lw ? v->lw->w : NULL;
    if (!v->w) luaL_error(L, "framegate: this view's world is closed");
    return v;
}

static view *live_view(lua_State *L, int idx) { return open_view(L, check_view(L, idx)); }

/* A rule reads a few fields per call: the view at index 1 is checked against the class's
** metatable (upvalue 1), not looked up by name; anything else takes check_view's message. */
static int view_index(lua_State *L) {
    bool cached;
    view *v = fg_lua_self_udata(L, &cached);
    v = open_view(L, v ? v : check_view(L, 1));
    const char *k = lua_tostring(L, 2);
    if (!k || !view_field(L, 1, v, k)) lua_pushnil(L);
    return 1;
}

static int view_newindex(lua_State *L) {
    const char *k = lua_tostring(L, 2);
    return luaL_error(L, "framegate: '%s' is read-only in rules (rules propose, the runtime "
                      "decides)", k ? k : luaL_typename(L, 2));
}

/* The name after `key` in the view's sorted field list (NULL at the end). */
static const char *next_name(lua_State *L, const view *v, const char *key, int *index) {
    if (v->kind == VIEW_TAGS) {
        *index = 0;
        return next_tag(v, key);
    }
    if (v->kind == VIEW_RESOURCES || v->kind == VIEW_MAXIMA) {
        const fg_ruleset *r = fg_world_rules(v->w, v->e);
        uint32_t n = r ? fg_ruleset_resource_count(r) : 0;
        uint32_t i = 0;
        if (key) {
            int at = r ? fg_ruleset_find_resource(r, key) : -1;
            if (at < 0) luaL_error(L, "framegate: '%s' is not a field of this view", key);
            i = (uint32_t)at + 1;
        }
        *index = (int)i;
        return i < n ? fg_ruleset_resource(r, i)->name : NULL; /* ids follow sorted names */
    }
    if (v->kind == VIEW_VARS) {
        const fg_ruleset *r = fg_world_rules(v->w, v->e);
        uint32_t n = r ? fg_ruleset_var_count(r) : 0, i = 0;
        if (key) {
            int at = r ? fg_ruleset_find_var(r, key) : -1;
            if (at < 0) luaL_error(L, "framegate: '%s' is not a field of this view", key);
            i = (uint32_t)at + 1;
        }
        *index = (int)i;
        return i < n ? fg_ruleset_var(r, i)->name : NULL; /* ids follow sorted names */
    }
    const char *const *names = v->kind == VIEW_ENTITY ? entity_fields : request_fields;
    int i = 0;
    if (key) {
        while (names[i] && strcmp(names[i], key) != 0) i++;
        if (!names[i]) luaL_error(L, "framegate: '%s' is not a field of this view", key);
        i++;
    }
    *index = i;
    return names[i];
}

static int view_next(lua_State *L) {
    view *v = live_view(L, 1);
    int i;
    const char *name = next_name(L, v, lua_isnil(L, 2) ? NULL : luaL_checkstring(L, 2), &i);
    if (!name) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushstring(L, name);
    if (!view_field(L, 1, v, name)) lua_pushnil(L);
    return 2;
}

static int view_pairs(lua_State *L) {
    check_view(L, 1);
    lua_pushcfunction(L, view_next);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

static int view_tostring(lua_State *L) {
    view *v = check_view(L, 1);
    static const char *const kinds[] = {"entity", "resources", "request", "maxima", "tags",
                                        "vars"};
    lua_pushfstring(L, "framegate.View (%s of entity %d)", kinds[v->kind],
                    (int)(v->kind == VIEW_REQUEST ? v->d.entity : v->e));
    return 1;
}

/* A new view; an entity view carries its resources, maxima, tags and vars views in user values
** 2-5 (6: its opponent's view, once asked for), and user value 1 keeps the world alive.
** [-0, +1, m] */
static view *new_view(lua_State *L, int world_idx, view_kind kind) {
    world_idx = lua_absindex(L, world_idx);
    view *v = lua_newuserdatauv(L, sizeof *v, kind == VIEW_ENTITY ? 6 : 1);
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->lw = fg_lua_check_world(L, world_idx);
    luaL_setmetatable(L, VIEW_T);
    lua_pushvalue(L, world_idx);
    lua_setiuservalue(L, -2, 1);
    if (kind == VIEW_ENTITY) {
        new_view(L, world_idx, VIEW_RESOURCES);
        lua_setiuservalue(L, -2, 2);
        new_view(L, world_idx, VIEW_MAXIMA);
        lua_setiuservalue(L, -2, 3);
        new_view(L, world_idx, VIEW_TAGS);
        lua_setiuservalue(L, -2, 4);
        new_view(L, world_idx, VIEW_VARS);
        lua_setiuservalue(L, -2, 5);
    }
    return v;
}

/* The world's reusable view of `kind`, created on first use and kept in the world's user value
** 2 (at index hot, FG_LUA_HOT_*): every rule call pushes one or two. */
static view *cached_view(lua_State *L, int world_idx, int hot, view_kind kind) {
    int key = kind == VIEW_ENTITY ? FG_LUA_HOT_ENTITY_VIEW : FG_LUA_HOT_REQUEST_VIEW;
    if (lua_rawgeti(L, hot, key) == LUA_TUSERDATA) return lua_touserdata(L, -1);
    lua_pop(L, 1);
    view *v = new_view(L, world_idx, kind);
    lua_pushvalue(L, -1);
    lua_rawseti(L, hot, key);
    return v;
}

fg_entity fg_lua_check_view_entity(lua_State *L, int idx, fg_world **w) {
    view *v = live_view(L, idx);
    if (v->kind != VIEW_ENTITY)
        luaL_argerror(L, idx, "expected the rule's entity view (me)");
    *w = v->lw->w;
    return v->e;
}

void fg_lua_push_rule_view(lua_State *L, int world_idx, int hot, fg_entity e) {
    view *v = cached_view(L, world_idx, hot, VIEW_ENTITY);
    v->e = e;
}

void fg_lua_push_request_view(lua_State *L, int world_idx, int hot, const fg_decision *d) {
    view *v = cached_view(L, world_idx, hot, VIEW_REQUEST);
    v->d = *d;
}

void fg_lua_push_view(lua_State *L, int world_idx, fg_entity e) {
    view *v = new_view(L, world_idx, VIEW_ENTITY);
    v->e = e;
}

void fg_lua_open_view(lua_State *L) {
    static const luaL_Reg meta[] = {
        {"__index", view_index}, {"__newindex", view_newindex}, {"__pairs", view_pairs},
        {"__tostring", view_tostring}, {NULL, NULL},
    };
    fg_lua_class(L, VIEW_T, NULL, meta);
}
