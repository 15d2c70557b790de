/* SPDX-License-Identifier: MIT */
/*
** l_replication.c: Lua bindings of framegate/replication.h. fg.replication{...} declares the
** replicated properties and predicted actions (as a ruleset would) and returns a session userdata,
** framegate.replication. Properties are booleans, bounded integers or enums (a list of names);
** the bindings translate them to the integers the runtime replicates and back.
**
** Hooks are Lua functions per node: on_replicated(name, value, node), on_action(name, seq, how,
** node) and on_rollback(name, seq, reason, text, node). They run inside the call that caused them
** (set, try, advance) under pcall; the session stays consistent whatever they do, and the first
** hook error is raised once the call has finished.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fg_lua.h"

#define REP_MT "framegate.Replication"

enum { KIND_INT = 0, KIND_BOOL = 1, KIND_ENUM = 2 };

typedef struct l_rep {
    fg_rep_session *s;
    lua_State *L; /* the state of the call in progress, for hooks; the userdata is its index 1 */
    uint8_t kind[FG_REP_MAX_PROPERTIES];
    bool has_error; /* the first hook error of the call in progress waits in the registry */
} l_rep;

/* The userdata's one user value is its environment table:
**   env.hooks[node] = {on_replicated = f, on_action = f, on_rollback = f}
**   env.enums[property id + 1] = {"name1", "name2", ...} */

static l_rep *check_rep(lua_State *L, int i) {
    l_rep *r = luaL_checkudata(L, i, REP_MT);
    if (!r->s) luaL_error(L, "replication: the session is closed");
    return r;
}

/* {====================================================================== reading declarations */

/* Keys of table t (strings), sorted bytewise, pushed as a new array; returns its length. */
static int sorted_keys(lua_State *L, int t, const char *what) {
    lua_Integer n = fg_lua_sorted_keys(L, t);
    if (n < 0)
        luaL_error(L, "replication: %s names must be strings, got a %s key", what,
                   luaL_typename(L, -1));
    return (int)n;
}

static fg_rep_link read_link(lua_State *L, int t, const char *what, fg_rep_link def) {
    fg_rep_link l = def;
    if (lua_isnoneornil(L, t)) return l;
    lua_Integer lat = fg_lua_opt_int_field(L, t, "latency", (lua_Integer)def.latency_ticks);
    if (lat < 1 || lat > 1000)
        fg_lua_range_error(L, lua_pushfstring(L, "replication: %s.latency", what), lat, 1, 1000,
                           NULL);
    lua_Number loss = fg_lua_opt_num_field(L, t, "loss", def.loss);
    if (!(loss >= 0 && loss < 1))
        luaL_error(L, "replication: %s.loss: %f, expected a value in [0, 1)", what, loss);
    l.latency_ticks = (uint32_t)lat;
    l.loss = (double)loss;
    return l;
}

static const char *const hook_names[] = {"on_replicated", "on_action", "on_rollback", NULL};

/* Checks that the hook fields of table t (if any) are functions. */
static void check_hooks(lua_State *L, int t, const char *what) {
    if (lua_isnoneornil(L, t)) return;
    for (int i = 0; hook_names[i]; i++) {
        int ty = lua_getfield(L, t, hook_names[i]);
        if (ty != LUA_TNIL && ty != LUA_TFUNCTION)
            luaL_error(L, "replication: %s.%s: expected a function, got %s", what, hook_names[i],
                       luaL_typename(L, -1));
        lua_pop(L, 1);
    }
}

/* Stores the hook functions of table t (checked already; none when t is nil) as
** env.hooks[node]; env is at index e. */
static void store_hooks(lua_State *L, int e, int t, fg_rep_node node) {
    e = lua_absindex(L, e);
    if (t) t = lua_absindex(L, t);
    lua_getfield(L, e, "hooks");
    lua_createtable(L, 0, 3);
    if (t && !lua_isnoneornil(L, t)) {
        for (int i = 0; hook_names[i]; i++) {
            lua_getfield(L, t, hook_names[i]);
            lua_setfield(L, -2, hook_names[i]);
        }
    }
    lua_rawseti(L, -2, (lua_Integer)node);
    lua_pop(L, 1);
}

/* Reads one property declaration (the value at index v, named `name`) into def; records its kind
** and, for an enum, leaves env.enums[slot] to be filled by the caller: pushes the values table
** (or nil). */
static void read_property(lua_State *L, int v, const char *name, fg_rep_property_def *def,
                          uint8_t *kind) {
    static const char *const fields[] = {"type", "min", "max", "initial", "values", "replicate",
                                         NULL};
    char what[96];
    snprintf(what, sizeof what, "replication: property '%s'", name);
    v = lua_absindex(L, v);
    memset(def, 0, sizeof *def);
    def->name = name;
    if (lua_type(L, v) == LUA_TSTRING) { /* shorthand: "bool" or "int" */
        const char *ty = lua_tostring(L, v);
        if (strcmp(ty, "bool") == 0) {
            *kind = KIND_BOOL;
            def->max = 1;
        } else if (strcmp(ty, "int") == 0) {
            *kind = KIND_INT;
            def->min = INT32_MIN;
            def->max = INT32_MAX;
        } else {
            luaL_error(L, "%s: type '%s', expected \"bool\", \"int\" or a table", what, ty);
        }
        lua_pushnil(L);
        return;
    }
    if (!lua_istable(L, v))
        luaL_error(L, "%s: expected a table or a type name, got %s", what, luaL_typename(L, v));
    fg_lua_check_fields(L, v, what, fields);
    const char *rep = fg_lua_opt_str_field(L, v, "replicate", "simulated_only");
    if (strcmp(rep, "simulated_only") == 0)
        def->condition = FG_REP_COND_SIMULATED_ONLY;
    else if (strcmp(rep, "all") == 0)
        def->condition = FG_REP_COND_ALL;
    else
        luaL_error(L, "%s: replicate '%s', expected \"simulated_only\" or \"all\"", what, rep);
    bool has_values = lua_getfield(L, v, "values") != LUA_TNIL;
    lua_pop(L, 1);
    const char *ty = fg_lua_opt_str_field(L, v, "type", has_values ? "enum" : "bool");
    if (has_values && strcmp(ty, "enum") != 0)
        luaL_error(L, "%s: values are for an enum, but type is '%s'", what, ty);
    if (strcmp(ty, "enum") == 0) {
        *kind = KIND_ENUM;
        if (lua_getfield(L, v, "values") != LUA_TTABLE)
            luaL_error(L, "%s: an enum needs values = {\"name\", ...}", what);
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        if (n < 1) luaL_error(L, "%s: values is empty", what);
        for (lua_Integer i = 1; i <= n; i++) {
            if (lua_rawgeti(L, -1, i) != LUA_TSTRING)
                luaL_error(L, "%s: values[%I] is a %s, expected a string", what, (LUAI_UACINT)i,
                           luaL_typename(L, -1));
            lua_pop(L, 1);
        }
        def->min = 0;
        def->max = n - 1;
        const char *init = fg_lua_opt_str_field(L, v, "initial", NULL);
        def->initial = 0;
        if (init) {
            def->initial = -1;
            for (lua_Integer i = 1; i <= n && def->initial < 0; i++) {
                lua_rawgeti(L, -1, i);
                if (strcmp(lua_tostring(L, -1), init) == 0) def->initial = i - 1;
                lua_pop(L, 1);
            }
            if (def->initial < 0)
                luaL_error(L, "%s: initial '%s' is not one of its values", what, init);
        }
        return; /* the values table stays pushed */
    }
    if (strcmp(ty, "bool") == 0) {
        *kind = KIND_BOOL;
        def->max = 1;
        def->initial = fg_lua_opt_bool_field(L, v, "initial", 0);
    } else if (strcmp(ty, "int") == 0) {
        *kind = KIND_INT;
        def->min = fg_lua_opt_int_field(L, v, "min", INT32_MIN);
        def->max = fg_lua_opt_int_field(L, v, "max", INT32_MAX);
        def->initial = fg_lua_opt_int_field(L, v, "initial", def->min > 0 ? def->min : 0);
    } else {
        luaL_error(L, "%s: type '%s', expected \"bool\", \"int\" or \"enum\"", what, ty);
    }
    lua_pushnil(L);
}

/* }====================================================================== */

/* {====================================================================== values and nodes */

static void push_value(lua_State *L, l_rep *r, int env, uint32_t p, int64_t v) {
    switch (r->kind[p]) {
    case KIND_BOOL: lua_pushboolean(L, v != 0); break;
    case KIND_ENUM:
        lua_getfield(L, env, "enums");
        lua_rawgeti(L, -1, (lua_Integer)p + 1);
        lua_rawgeti(L, -1, (lua_Integer)v + 1);
        lua_replace(L, -3);
        lua_pop(L, 1);
        break;
    default: lua_pushinteger(L, (lua_Integer)v); break;
    }
}

/* A Lua value for property `name` as the integer the runtime replicates. Unknown names are left
** to the runtime, whose message lists the declared ones. */
static int64_t check_value(lua_State *L, l_rep *r, const char *name, int i) {
    int p = fg_rep_property_id(r->s, name);
    if (p < 0) return lua_isinteger(L, i) ? (int64_t)lua_tointeger(L, i) : 0;
    switch (r->kind[p]) {
    case KIND_BOOL:
        if (!lua_isboolean(L, i))
            luaL_error(L, "replication: %s expects a boolean, got %s", name, luaL_typename(L, i));
        return lua_toboolean(L, i);
    case KIND_ENUM: {
        if (lua_type(L, i) != LUA_TSTRING)
            luaL_error(L, "replication: %s expects one of its names, got %s", name,
                       luaL_typename(L, i));
        const char *s = lua_tostring(L, i);
        lua_getiuservalue(L, 1, 1);
        lua_getfield(L, -1, "enums");
        lua_rawgeti(L, -1, p + 1);
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        for (lua_Integer k = 1; k <= n; k++) {
            lua_rawgeti(L, -1, k);
            bool eq = strcmp(lua_tostring(L, -1), s) == 0;
            lua_pop(L, 1);
            if (eq) {
                lua_pop(L, 3);
                return k - 1;
            }
        }
        char list[256];
        size_t at = 0;
        list[0] = '\0';
        for (lua_Integer k = 1; k <= n && at < sizeof list; k++) {
            lua_rawgeti(L, -1, k);
            int w = snprintf(list + at, sizeof list - at, "%s%s", k > 1 ? ", " : "",
                             lua_tostring(L, -1));
            lua_pop(L, 1);
            if (w < 0) break;
            at += (size_t)w;
        }
        luaL_error(L, "replication: %s: '%s' is not one of %s", name, s, list);
        return 0;
    }
    default: {
        int ok = 0;
        lua_Integer v = lua_tointegerx(L, i, &ok);
        if (!ok)
            luaL_error(L, "replication: %s expects an integer, got %s", name,
                       lua_type(L, i) == LUA_TNUMBER ? "a number with a fraction"
                                                     : luaL_typename(L, i));
        return (int64_t)v;
    }
    }
}

/* A node: an integer id, or "authority" / "owner". */
static fg_rep_node check_node(lua_State *L, int i) {
    if (lua_type(L, i) == LUA_TSTRING) {
        const char *s = lua_tostring(L, i);
        if (strcmp(s, "authority") == 0) return FG_REP_NODE_AUTHORITY;
        if (strcmp(s, "owner") == 0) return FG_REP_NODE_OWNER;
        luaL_error(L, "replication: node '%s', expected \"authority\", \"owner\" or an observer id",
                   s);
    }
    lua_Integer n = luaL_checkinteger(L, i);
    if (n < 0 || n > UINT32_MAX)
        luaL_error(L, "replication: node %I does not exist", (LUAI_UACINT)n);
    return (fg_rep_node)n;
}

/* }====================================================================== */

/* {====================================================================== hooks */

/* What a runtime hook hands over, for the protected call below. */
typedef struct hook_call {
    l_rep *r;
    const char *hook; /* "on_replicated", ... */
    fg_rep_node node;
    uint32_t id;
    const char *name;
    int64_t value;
    uint32_t seq;
    const char *how; /* run name or reason name */
    const char *text;
} hook_call;

/* Runs inside lua_pcall: 1 = the hook_call, 2 = the session userdata. Everything that may
** allocate or fail happens here, so no Lua error ever crosses the runtime's frames. */
static int protected_hook(lua_State *L) {
    hook_call *c = lua_touserdata(L, 1);
    lua_getiuservalue(L, 2, 1); /* 3: env */
    lua_getfield(L, 3, "hooks");
    if (lua_rawgeti(L, -1, (lua_Integer)c->node) != LUA_TTABLE) return 0;
    if (lua_getfield(L, -1, c->hook) != LUA_TFUNCTION) return 0;
    lua_pushstring(L, c->name);
    int nargs = 1;
    if (c->how == NULL) { /* on_replicated(name, value, node) */
        push_value(L, c->r, 3, c->id, c->value);
        nargs++;
    } else { /* on_action(name, seq, how, node), on_rollback(name, seq, reason, text, node) */
        lua_pushinteger(L, (lua_Integer)c->seq);
        lua_pushstring(L, c->how);
        nargs += 2;
        if (c->text) {
            lua_pushstring(L, c->text);
            nargs++;
        }
    }
    lua_pushinteger(L, (lua_Integer)c->node);
    lua_call(L, nargs + 1, 0);
    return 0;
}

static void run_hook(hook_call *c) {
    l_rep *r = c->r;
    lua_State *L = r->L;
    if (!L || !lua_checkstack(L, 4)) return;
    lua_pushcfunction(L, protected_hook);
    lua_pushlightuserdata(L, c);
    lua_pushvalue(L, 1);
    if (lua_pcall(L, 2, 0, 0) == LUA_OK) return;
    if (!r->has_error) {
        const char *msg = lua_tostring(L, -1);
        r->has_error = true;
        lua_pushfstring(L, "replication: %s of node %I failed: %s", c->hook, (LUAI_UACINT)c->node,
                        msg ? msg : "(error object is not a string)");
        lua_rawsetp(L, LUA_REGISTRYINDEX, r); /* whole, however long */
    }
    lua_pop(L, 1);
}

static void hook_replicated(void *ud, fg_rep_node node, uint32_t p, const char *name, int64_t v) {
    hook_call c = {ud, "on_replicated", node, p, name, v, 0, NULL, NULL};
    run_hook(&c);
}

static void hook_action(void *ud, fg_rep_node node, uint32_t a, const char *name, uint32_t seq,
                        fg_rep_run run) {
    hook_call c = {ud, "on_action", node, a, name, 0, seq, fg_rep_run_name(run), NULL};
    run_hook(&c);
}

static void hook_rollback(void *ud, fg_rep_node node, uint32_t a, const char *name, uint32_t seq,
                          fg_rep_reason reason, const char *text) {
    hook_call c = {ud, "on_rollback", node, a, name, 0, seq, fg_rep_reason_name(reason), text};
    run_hook(&c);
}

static fg_rep_hooks c_hooks(l_rep *r) {
    fg_rep_hooks h = {hook_replicated, hook_action, hook_rollback, r};
    return h;
}

/* Brackets a runtime call that may run hooks: hooks use this call's state, and the first hook
** error is raised after the runtime has finished. */
static lua_State *enter(l_rep *r, lua_State *L) {
    lua_State *saved = r->L;
    r->L = L;
    r->has_error = false;
    return saved;
}

static void leave(l_rep *r, lua_State *L, lua_State *saved, fg_status st, fg_error *err) {
    r->L = saved;
    if (r->has_error) {
        r->has_error = false;
        lua_rawgetp(L, LUA_REGISTRYINDEX, r);
        lua_pushnil(L);
        lua_rawsetp(L, LUA_REGISTRYINDEX, r);
        if (st == FG_OK) lua_error(L);
        lua_pop(L, 1);
    }
    if (st != FG_OK) fg_lua_raise(L, err);
}

/* }====================================================================== */

/* {====================================================================== constructor */

/* fg.replication{properties=, actions=, owner=, authority=, seed=, max_observers=, ...} */
int fg_lua_replication_new(lua_State *L) {
    static const char *const fields[] = {"properties", "actions",          "owner",
                                         "authority",  "seed",             "max_observers",
                                         "channel_capacity", "inflight_capacity", NULL};
    static const char *const link_fields[] = {"latency", "loss", "on_replicated", "on_action",
                                              "on_rollback", NULL};
    static const char *const hook_fields[] = {"on_replicated", "on_action", "on_rollback", NULL};
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    fg_lua_check_fields(L, 1, "replication", fields);

    fg_rep_config cfg = fg_rep_config_default();
    lua_Integer seed = fg_lua_opt_int_field(L, 1, "seed", 1);
    cfg.seed = (uint64_t)seed;
    lua_Integer mo = fg_lua_opt_int_field(L, 1, "max_observers", cfg.max_observers);
    lua_Integer cc = fg_lua_opt_int_field(L, 1, "channel_capacity", cfg.channel_capacity);
    lua_Integer ic = fg_lua_opt_int_field(L, 1, "inflight_capacity", cfg.inflight_capacity);
    if (mo < 0 || mo > FG_REP_MAX_OBSERVERS)
        fg_lua_range_error(L, "replication.max_observers", mo, 0, FG_REP_MAX_OBSERVERS, NULL);
    if (cc < 1 || cc > 65536)
        fg_lua_range_error(L, "replication.channel_capacity", cc, 1, 65536, NULL);
    if (ic < 1 || ic > (1 << 20))
        fg_lua_range_error(L, "replication.inflight_capacity", ic, 1, 1 << 20, NULL);
    cfg.max_observers = (uint32_t)mo;
    cfg.channel_capacity = (uint32_t)cc;
    cfg.inflight_capacity = (uint32_t)ic;
    if (lua_getfield(L, 1, "owner") != LUA_TNIL) { /* index 2 */
        luaL_checktype(L, 2, LUA_TTABLE);
        fg_lua_check_fields(L, 2, "replication.owner", link_fields);
        cfg.owner_link = read_link(L, 2, "owner", cfg.owner_link);
        check_hooks(L, 2, "owner");
    }
    if (lua_getfield(L, 1, "authority") != LUA_TNIL) { /* index 3 */
        luaL_checktype(L, 3, LUA_TTABLE);
        fg_lua_check_fields(L, 3, "replication.authority", hook_fields);
        check_hooks(L, 3, "authority");
    }

    /* The environment: hooks and enum names. */
    lua_createtable(L, 0, 3); /* index 4 */
    lua_newtable(L);
    lua_setfield(L, 4, "hooks");
    lua_newtable(L);
    lua_setfield(L, 4, "enums");

    fg_rep_property_def props[FG_REP_MAX_PROPERTIES];
    uint8_t kinds[FG_REP_MAX_PROPERTIES];
    fg_rep_action_def acts[FG_REP_MAX_ACTIONS];
    uint32_t nprops = 0, nacts = 0;
    if (lua_getfield(L, 1, "properties") != LUA_TNIL) { /* index 5 */
        luaL_checktype(L, 5, LUA_TTABLE);
        int n = sorted_keys(L, 5, "property"); /* index 6 */
        if (n > FG_REP_MAX_PROPERTIES)
            luaL_error(L, "replication: %d properties declared, at most %d", n,
                       FG_REP_MAX_PROPERTIES);
        lua_getfield(L, 4, "enums"); /* index 7: filled by sorted position = runtime id */
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, 6, i);
            lua_gettable(L, 5);
            lua_rawgeti(L, 6, i); /* the name stays alive: it is a key of properties */
            const char *name = lua_tostring(L, -1);
            read_property(L, -2, name, &props[nprops], &kinds[nprops]);
            lua_rawseti(L, 7, (lua_Integer)nprops + 1); /* the enum's values, or nil */
            lua_pop(L, 2);
            nprops++;
        }
        lua_pop(L, 2);
    } else {
        lua_pop(L, 1);
    }
    lua_settop(L, 4);
    if (lua_getfield(L, 1, "actions") != LUA_TNIL) { /* index 5 */
        luaL_checktype(L, 5, LUA_TTABLE);
        int n = sorted_keys(L, 5, "action");
        if (n > FG_REP_MAX_ACTIONS)
            luaL_error(L, "replication: %d actions declared, at most %d", n, FG_REP_MAX_ACTIONS);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, 6, i);
            const char *name = lua_tostring(L, -1);
            lua_pushvalue(L, -1);
            lua_gettable(L, 5);
            lua_Integer cd = 0;
            if (lua_isinteger(L, -1)) {
                cd = lua_tointeger(L, -1);
            } else if (lua_istable(L, -1)) {
                static const char *const afields[] = {"cooldown", NULL};
                char what[64];
                snprintf(what, sizeof what, "replication: action '%s'", name);
                fg_lua_check_fields(L, -1, what, afields);
                cd = fg_lua_opt_int_field(L, -1, "cooldown", 0);
            } else {
                luaL_error(L, "replication: action '%s': expected {cooldown = ticks} or a number "
                              "of ticks, got %s",
                           name, luaL_typename(L, -1));
            }
            if (cd < 0 || cd > INT32_MAX)
                fg_lua_range_error(L, lua_pushfstring(L, "replication.actions.%s.cooldown", name),
                                   cd, 0, INT32_MAX, "ticks");
            acts[nacts].name = name;
            acts[nacts].cooldown_ticks = (uint32_t)cd;
            nacts++;
            lua_pop(L, 2);
        }
    }

    l_rep *r = lua_newuserdatauv(L, sizeof *r, 1);
    memset(r, 0, sizeof *r);
    luaL_setmetatable(L, REP_MT);
    lua_pushvalue(L, 4);
    lua_setiuservalue(L, -2, 1);
    fg_rep_spec spec = {props, nprops, acts, nacts};
    fg_error err = {0};
    fg_rep_session *s = NULL;
    if (fg_rep_create(&spec, &cfg, NULL, &s, &err) != FG_OK) fg_lua_raise(L, &err);
    r->s = s;
    /* Kinds by runtime id: the runtime sorted the names the same way we did. */
    for (uint32_t i = 0; i < nprops; i++) r->kind[fg_rep_property_id(s, props[i].name)] = kinds[i];
    store_hooks(L, 4, 2, FG_REP_NODE_OWNER);
    store_hooks(L, 4, 3, FG_REP_NODE_AUTHORITY);
    fg_rep_hooks h = c_hooks(r);
    fg_rep_set_hooks(s, FG_REP_NODE_AUTHORITY, &h, NULL);
    fg_rep_set_hooks(s, FG_REP_NODE_OWNER, &h, NULL);
    return 1;
}

/* }====================================================================== */

/* {====================================================================== methods */

/* s:advance([n = 1]) -> tick */
static int l_advance(lua_State *L) {
    l_rep *r = check_rep(L, 1);
    lua_Integer n = luaL_optinteger(L, 2, 1);
    if (n < 0) luaL_error(L, "replication: advance(%I): expected a count of at least 0",
                          (LUAI_UACINT)n);
    fg_error err = {0};
    fg_status st = FG_OK;
    lua_State *saved = enter(r, L);
    for (lua_Integer i = 0; i < n && st == FG_OK; i++) st = fg_rep_advance(r->s, &err);
    leave(r, L, saved, st, &err);
    lua_pushinteger(L, (lua_Integer)fg_rep_tick(r->s));
    return 1;
}

static int l_tick(lua_State *L) {
    lua_pushinteger(L, (lua_Integer)fg_rep_tick(check_rep(L, 1)->s));
    return 1;
}

/* s:join{latency=, loss=, on_replicated=, on_action=, on_rollback=} -> node id */
static int l_join(lua_State *L) {
    static const char *const fields[] = {"latency", "loss", "on_replicated", "on_action",
                                         "on_rollback", NULL};
    l_rep *r = check_rep(L, 1);
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        fg_lua_check_fields(L, 2, "replication join", fields);
    }
    fg_rep_link def = {3, 0.0};
    fg_rep_link link = read_link(L, 2, "join", def);
    check_hooks(L, 2, "join"); /* before joining: an error leaves no half-joined observer */
    fg_rep_hooks h = c_hooks(r);
    fg_rep_node id;
    fg_error err = {0};
    lua_getiuservalue(L, 1, 1);
    if (fg_rep_join(r->s, link, &h, &id, &err) != FG_OK) fg_lua_raise(L, &err);
    store_hooks(L, -1, lua_isnoneornil(L, 2) ? 0 : 2, id);
    lua_pushinteger(L, (lua_Integer)id);
    return 1;
}

/* s:observers() -> {ids in slot order} */
static int l_observers(lua_State *L) {
    l_rep *r = check_rep(L, 1);
    fg_rep_node ids[FG_REP_MAX_OBSERVERS];
    uint32_t n = fg_rep_observers(r->s, ids, FG_REP_MAX_OBSERVERS);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        lua_pushinteger(L, (lua_Integer)ids[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int l_leave(lua_State *L) {
    l_rep *r = check_rep(L, 1);
    fg_rep_node node = check_node(L, 2);
    fg_error err = {0};
    if (fg_rep_leave(r->s, node, &err) != FG_OK) fg_lua_raise(L, &err);
    lua_getiuservalue(L, 1, 1);
    lua_getfield(L, -1, "hooks");
    lua_pushnil(L);
    lua_rawseti(L, -2, (lua_Integer)node);
    return 0;
}

/* s:hooks(node, {on_replicated=, on_action=, on_rollback=}) */
static int l_hooks(lua_State *L) {
    static const char *const fields[] = {"on_replicated", "on_action", "on_rollback", NULL};
    l_rep *r = check_rep(L, 1);
    fg_rep_node node = check_node(L, 2);
    luaL_checktype(L, 3, LUA_TTABLE);
    fg_lua_check_fields(L, 3, "replication hooks", fields);
    fg_rep_role role;
    fg_error err = {0};
    if (fg_rep_role_of(r->s, node, &role, &err) != FG_OK) fg_lua_raise(L, &err);
    check_hooks(L, 3, "hooks");
    lua_getiuservalue(L, 1, 1);
    store_hooks(L, -1, 3, node);
    return 0;
}

/* s:set(node, name, value) */
static int l_set(lua_State *L) {
    l_rep *r = check_rep(L, 1);
    fg_rep_node node = check_node(L, 2);
    const char *name = luaL_checkstring(L, 3);
    luaL_checkany(L, 4);
    int64_t v = check_value(L, r, name, 4);
    fg_error err = {0};
    lua_State *saved = enter(r, L);
    fg_status st = fg_rep_set(r->s, node, name, v, &err);
    leave(r, L, saved, st, &err);
    return 0;
}

/* s:get(node, name) -> value */
static int l_get(lua_State *L) {
    l_rep *r = check_rep(L, 1);
    fg_rep_node node = check_node(L, 2);
    const char *name = luaL_checkstring(L, 3);
    int64_t v;
    fg_error err = {0};
    if (fg_rep_get(r->s, node, name, &v, &err) != FG_OK) fg_lua_raise(L, &err);
    lua_getiuservalue(L, 1, 1);
    push_value(L, r, lua_gettop(L), (uint32_t)fg_rep_property_id(r->s, name), v);
    return 1;
}

/* s:try(action) -> true, seq | false, ready_tick */
static int l_try(lua_State *L) {
    l_rep *r = check_rep(L, 1);
    const char *name = luaL_checkstring(L, 2);
    fg_rep_try t;
    fg_error err = {0};
    lua_State *saved = enter(r, L);
    fg_status st = fg_rep_try_action(r->s, name, &t, &err);
    leave(r, L, saved, st, &err);
    lua_pushboolean(L, t.started);
    lua_pushinteger(L, t.started ? (lua_Integer)t.seq : (lua_Integer)t.ready_tick);
    return 2;
}

/* s:set_cooldown(node, action, ready_tick) */
static int l_set_cooldown(lua_State *L) {
    l_rep *r = check_rep(L, 1);
    fg_rep_node node = check_node(L, 2);
    const char *name = luaL_checkstring(L, 3);
    lua_Integer t = luaL_checkinteger(L, 4);
    fg_error err = {0};
    if (fg_rep_set_cooldown(r->s, node, name, (fg_tick)t, &err) != FG_OK) fg_lua_raise(L, &err);
    return 0;
}

/* s:cooldown(node, action) -> ready tick */
static int l_cooldown(lua_State *L) {
    l_rep *r = check_rep(L, 1);
    fg_rep_node node = check_node(L, 2);
    const char *name = luaL_checkstring(L, 3);
    fg_tick t;
    fg_error err = {0};
    if (fg_rep_cooldown(r->s, node, name, &t, &err) != FG_OK) fg_lua_raise(L, &err);
    lua_pushinteger(L, (lua_Integer)t);
    return 1;
}

/* s:stats(node) -> table of counters */
static int l_stats(lua_State *L) {
    l_rep *r = check_rep(L, 1);
    fg_rep_node node = check_node(L, 2);
    fg_rep_stats st;
    fg_error err = {0};
    if (fg_rep_stats_of(r->s, node, &st, &err) != FG_OK) fg_lua_raise(L, &err);
    lua_createtable(L, 0, 13);
#define F(f)                                                                                     \
    lua_pushinteger(L, (lua_Integer)st.f);                                                       \
    lua_setfield(L, -2, #f)
    F(sent);
    F(lost);
    F(retransmitted);
    F(delivered);
    F(duplicates);
    F(out_of_order);
    F(predicted);
    F(confirmed);
    F(rejected);
    F(performed);
    F(replicated);
    F(applied);
    F(pending);
#undef F
    return 1;
}

/* s:role(node) -> "authority" | "owner" | "observer" */
static int l_role(lua_State *L) {
    l_rep *r = check_rep(L, 1);
    fg_rep_node node = check_node(L, 2);
    fg_rep_role role;
    fg_error err = {0};
    if (fg_rep_role_of(r->s, node, &role, &err) != FG_OK) fg_lua_raise(L, &err);
    lua_pushstring(L, fg_rep_role_name(role));
    return 1;
}

/* s:connected(node) -> bool [, reason] */
static int l_connected(lua_State *L) {
    l_rep *r = check_rep(L, 1);
    const char *why = NULL;
    bool c = fg_rep_connected(r->s, check_node(L, 2), &why);
    lua_pushboolean(L, c);
    if (c || !why) return 1;
    lua_pushstring(L, why);
    return 2;
}

static int l_hash(lua_State *L) {
    l_rep *r = check_rep(L, 1);
    fg_hasher h = fg_hasher_begin(0);
    fg_rep_hash(r->s, &h);
    lua_pushinteger(L, (lua_Integer)fg_hasher_end(&h));
    return 1;
}

/* s:close(): frees the session now (also done by the garbage collector). */
static int l_close(lua_State *L) {
    l_rep *r = luaL_checkudata(L, 1, REP_MT);
    if (r->L) luaL_error(L, "replication: close() called from inside a hook");
    fg_rep_destroy(r->s);
    r->s = NULL;
    return 0;
}

static int l_gc(lua_State *L) {
    l_rep *r = luaL_checkudata(L, 1, REP_MT);
    fg_rep_destroy(r->s);
    r->s = NULL;
    return 0;
}

static int l_tostring(lua_State *L) {
    l_rep *r = luaL_checkudata(L, 1, REP_MT);
    if (!r->s) {
        lua_pushliteral(L, "framegate.Replication (closed)");
        return 1;
    }
    lua_pushfstring(L, "framegate.Replication (tick %I, %d observers)",
                    (LUAI_UACINT)fg_rep_tick(r->s), (int)fg_rep_observers(r->s, NULL, 0));
    return 1;
}

/* }====================================================================== */

void fg_lua_open_replication(lua_State *L) {
    static const luaL_Reg methods[] = {
        {"advance", l_advance}, {"tick", l_tick},
        {"join", l_join},       {"leave", l_leave},
        {"observers", l_observers},
        {"hooks", l_hooks},     {"set", l_set},
        {"get", l_get},         {"try", l_try},
        {"set_cooldown", l_set_cooldown}, {"cooldown", l_cooldown},
        {"stats", l_stats},     {"role", l_role},
        {"connected", l_connected}, {"hash", l_hash},
        {"close", l_close},     {NULL, NULL}};
    static const luaL_Reg meta[] = {{"__gc", l_gc}, {"__tostring", l_tostring}, {NULL, NULL}};
    fg_lua_class(L, REP_MT, methods, meta);
    lua_pushcfunction(L, fg_lua_replication_new);
    lua_setfield(L, -2, "replication");
}
