/* SPDX-License-Identifier: MIT */
/*
** lua_host.c: the installed C API for Lua rules (framegate/lua.h). A Lua host is a Lua state of
** its own with the framegate module, driven through the module's own functions (fg.rules,
** fg.world, world:advance, world:reload, world:what_if, fg.watcher), so a C engine gets exactly
** the behaviour, messages and budgets a Lua host gets. Every call into Lua is protected: a Lua
** error comes back as an fg_error and leaves the host as it was.
*/
#include <stdlib.h>
#include <string.h>

#include "fg_lua.h"
#include "framegate/lua.h"

struct fg_lua_host {
    lua_State *L;
    fg_world *w;
    int self; /* registry ref: { world =, rules =, watcher =, info =, report = } */
};

fg_lua_options fg_lua_options_default(void) {
    fg_lua_options o;
    memset(&o, 0, sizeof o);
    return o;
}

/* Calls method `name` of self.k with the nargs values on the stack; leaves nres results.
** [-nargs, +nres, e] */
static void call_method(lua_State *L, int self, const char *k, const char *name, int nargs,
                        int nres) {
    lua_getfield(L, self, k);
    lua_getfield(L, -1, name);
    lua_insert(L, -2 - nargs);
    lua_insert(L, -1 - nargs);
    lua_call(L, nargs + 1, nres);
}

/* Watches the files the rules at the top of the stack were read from. [-0, +0, e] */
static void watch_sources(lua_State *L, int self) {
    int rules = lua_gettop(L);
    lua_newtable(L);
    int files = lua_gettop(L);
    lua_getfield(L, rules, "sources");
    lua_pushvalue(L, rules);
    lua_call(L, 1, 1);
    for (lua_Integer i = 1; lua_rawgeti(L, -1, i) == LUA_TTABLE; i++) {
        lua_getfield(L, -1, "path");
        lua_rawseti(L, files, i);
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
    if (lua_getfield(L, self, "watcher") != LUA_TNIL) {
        lua_pushvalue(L, files);
        call_method(L, self, "watcher", "set", 1, 0);
        lua_pop(L, 2);
        return;
    }
    lua_pop(L, 1);
    lua_getglobal(L, "require");
    lua_pushliteral(L, "framegate");
    lua_call(L, 1, 1);
    lua_getfield(L, -1, "watcher");
    lua_createtable(L, 0, 2);
    lua_pushvalue(L, files);
    lua_setfield(L, -2, "files");
    lua_pushboolean(L, 1); /* stat on demand: no descriptor, nothing between calls */
    lua_setfield(L, -2, "poll");
    lua_call(L, 1, 1);
    lua_setfield(L, self, "watcher");
    lua_pop(L, 2);
}

/* host_open(options, path, text | nil) -> host table. */
static int host_open(lua_State *L) {
    const fg_lua_options *o = lua_touserdata(L, 1);
    lua_getglobal(L, "require");
    lua_pushliteral(L, "framegate");
    lua_call(L, 1, 1);
    int fg = lua_gettop(L);
    const int64_t *limit[] = {&o->limits.instructions, &o->limits.memory,
                              &o->limits.load_instructions, &o->limits.load_memory};
    const char *key[] = {"instructions", "memory", "load_instructions", "load_memory"};
    lua_getfield(L, fg, "limits");
    lua_newtable(L);
    for (int i = 0; i < 4; i++) {
        if (*limit[i] == 0) continue;
        lua_pushinteger(L, *limit[i]);
        lua_setfield(L, -2, key[i]);
    }
    lua_call(L, 1, 0);

    if (lua_isnil(L, 3)) {
        lua_getfield(L, fg, "rules");
        lua_pushvalue(L, 2);
        lua_call(L, 1, 1);
    } else {
        size_t len;
        const char *text = lua_tolstring(L, 3, &len);
        fg_lua_load_rules_source(L, lua_tostring(L, 2), text, len);
    }
    int rules = lua_gettop(L);

    lua_getfield(L, fg, "world");
    lua_createtable(L, 0, 6);
    lua_pushvalue(L, rules);
    lua_setfield(L, -2, "rules");
    const struct {
        const char *k;
        lua_Integer v;
    } cfg[] = {{"rate", o->tick_rate},
               {"seed", (lua_Integer)o->seed},
               {"entities", o->max_entities},
               {"buffer", o->buffer_capacity},
               {"trace", o->trace_capacity}};
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
        if (cfg[i].v == 0) continue;
        lua_pushinteger(L, cfg[i].v);
        lua_setfield(L, -2, cfg[i].k);
    }
    lua_call(L, 1, 1);
    int world = lua_gettop(L);

    lua_createtable(L, 0, 5);
    int self = lua_gettop(L);
    lua_pushvalue(L, world);
    lua_setfield(L, self, "world");
    lua_pushvalue(L, rules);
    lua_setfield(L, self, "rules");
    lua_pushvalue(L, rules);
    watch_sources(L, self);
    lua_pop(L, 1);
    return 1;
}

/* Runs f(self, args...) protected; on failure err gets the message and nothing is left. */
static fg_status run(fg_lua_host *s, lua_CFunction f, int nargs, int nres, fg_error *err) {
    lua_State *L = s->L;
    lua_pushcfunction(L, f);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->self);
    lua_rotate(L, -2 - nargs, 2);
    if (lua_pcall(L, nargs + 1, nres, 0) != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        fg_error_set(err, FG_ERULE, "%s", msg ? msg : "(error object is not a string)");
        lua_pop(L, 1);
        return FG_ERULE;
    }
    return FG_OK;
}

static fg_lua_host *host_new(const char *path, const char *text, size_t len,
                                   const fg_lua_options *opt, fg_error *err) {
    fg_lua_options defaults = fg_lua_options_default();
    if (!path) {
        fg_error_set(err, FG_EINVAL, "fg_lua_host: no rules path (NULL)");
        return NULL;
    }
    fg_lua_host *s = calloc(1, sizeof *s);
    lua_State *L = s ? luaL_newstate() : NULL;
    if (!L) {
        free(s);
        fg_error_set(err, FG_ENOMEM, "fg_lua_host: out of memory for a Lua state");
        return NULL;
    }
    s->L = L;
    luaL_openlibs(L);
    fg_lua_preload(L);
    lua_pushcfunction(L, host_open);
    lua_pushlightuserdata(L, (void *)(opt ? opt : &defaults));
    lua_pushstring(L, path);
    if (text) lua_pushlstring(L, text, len);
    else lua_pushnil(L);
    if (lua_pcall(L, 3, 1, 0) != LUA_OK) {
        fg_error_set(err, FG_ERULE, "%s", lua_tostring(L, -1));
        lua_close(L);
        free(s);
        return NULL;
    }
    lua_getfield(L, -1, "world");
    s->w = fg_lua_check_world(L, -1)->w;
    lua_pop(L, 1);
    s->self = luaL_ref(L, LUA_REGISTRYINDEX);
    return s;
}

fg_lua_host *fg_lua_host_load_file(const char *path, const fg_lua_options *opt,
                                         fg_error *err) {
    return host_new(path, NULL, 0, opt, err);
}

fg_lua_host *fg_lua_host_load_string(const char *name, const char *text, size_t len,
                                           const fg_lua_options *opt, fg_error *err) {
    if (!text) {
        fg_error_set(err, FG_EINVAL, "fg_lua_host_load_string: no text (NULL)");
        return NULL;
    }
    return host_new(name, text, len, opt, err);
}

void fg_lua_host_destroy(fg_lua_host *s) {
    if (!s) return;
    lua_close(s->L); /* the world and the watcher go with their userdata */
    free(s);
}

fg_world *fg_lua_host_world(fg_lua_host *s) { return s->w; }

const fg_ruleset *fg_lua_host_ruleset(const fg_lua_host *s) {
    lua_State *L = s->L;
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->self);
    lua_getfield(L, -1, "rules");
    fg_lua_rules *r = fg_lua_test_rules(L, -1);
    lua_pop(L, 2);
    return r ? r->rules : NULL;
}

static int host_advance(lua_State *L) {
    call_method(L, 1, "world", "advance", 0, 0);
    return 0;
}

fg_status fg_lua_host_advance(fg_lua_host *s, fg_error *err) {
    return run(s, host_advance, 0, 0, err);
}

/* host_reload(self, text | nil) -> true | false, message; self.info is the reload's info. */
static int host_reload(lua_State *L) {
    int nargs = 0;
    if (!lua_isnil(L, 2)) {
        size_t len;
        const char *text = lua_tolstring(L, 2, &len);
        lua_getfield(L, 1, "rules");
        lua_getiuservalue(L, -1, 1);
        lua_getfield(L, -1, "root");
        const char *path = lua_tostring(L, -1);
        fg_lua_load_rules_source(L, path ? path : "rules", text, len);
        lua_replace(L, 3);
        lua_settop(L, 3);
        nargs = 1;
    }
    call_method(L, 1, "world", "reload", nargs, 2);
    if (lua_isnil(L, -2)) {
        lua_pushboolean(L, 0);
        lua_replace(L, -3);
        return 2;
    }
    lua_pop(L, 1);
    lua_setfield(L, 1, "info");
    /* The new Rules are the world's now: watch what they read. */
    lua_getfield(L, 1, "world");
    lua_getiuservalue(L, -1, 1);
    lua_getfield(L, -1, "rules");
    lua_rawgeti(L, -1, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, 1, "rules");
    watch_sources(L, 1);
    lua_pushboolean(L, 1);
    return 1;
}

static uint32_t count_list(lua_State *L, int t, const char *k) {
    lua_getfield(L, t, k);
    uint32_t n = lua_istable(L, -1) ? (uint32_t)lua_rawlen(L, -1) : 0;
    lua_pop(L, 1);
    return n;
}

fg_status fg_lua_host_reload(fg_lua_host *s, const char *text, size_t len,
                                fg_lua_reload_info *info, fg_error *err) {
    lua_State *L = s->L;
    int top = lua_gettop(L);
    if (text) lua_pushlstring(L, text, len);
    else lua_pushnil(L);
    fg_status st = run(s, host_reload, 1, 2, err);
    if (st != FG_OK) return st;
    if (!lua_toboolean(L, -2)) {
        fg_error_set(err, FG_ERULE, "%s", lua_tostring(L, -1));
        lua_settop(L, top);
        return FG_ERULE;
    }
    lua_settop(L, top);
    if (info) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, s->self);
        lua_getfield(L, -1, "info");
        int t = lua_gettop(L);
        memset(info, 0, sizeof *info);
        lua_getfield(L, t, "name");
        info->name = lua_tostring(L, -1);
        lua_getfield(L, t, "hash");
        info->hash = lua_tostring(L, -1);
        lua_getfield(L, t, "message");
        info->message = lua_tostring(L, -1);
        lua_getfield(L, t, "tick");
        info->tick = (fg_tick)lua_tointeger(L, -1);
        lua_getfield(L, t, "changes");
        info->added = count_list(L, -1, "added");
        info->changed = count_list(L, -1, "changed");
        info->removed = count_list(L, -1, "removed");
        /* The strings live in self.info until the next reload. */
        lua_settop(L, top);
    }
    return FG_OK;
}

static int host_changed(lua_State *L) {
    lua_pushinteger(L, 0);
    call_method(L, 1, "watcher", "wait", 1, 1);
    lua_pushboolean(L, lua_rawlen(L, -1) > 0);
    return 1;
}

bool fg_lua_host_files_changed(fg_lua_host *s) {
    if (run(s, host_changed, 0, 1, NULL) != FG_OK) return false;
    bool changed = lua_toboolean(s->L, -1);
    lua_pop(s->L, 1);
    return changed;
}

/* host_what_if(self, snapshot) -> report; kept as self.report. */
static int host_what_if(lua_State *L) {
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, 2);
    lua_setfield(L, -2, "from");
    call_method(L, 1, "world", "what_if", 1, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, 1, "report");
    return 1;
}

static lua_Integer int_field(lua_State *L, int t, const char *k) {
    lua_getfield(L, t, k);
    lua_Integer v = lua_tointeger(L, -1);
    lua_pop(L, 1);
    return v;
}

fg_status fg_lua_host_what_if(fg_lua_host *s, const void *snapshot, size_t size,
                                 fg_lua_what_if *report, fg_error *err) {
    if (!snapshot) return fg_error_set(err, FG_EINVAL, "fg_lua_host_what_if: no snapshot (NULL)");
    lua_State *L = s->L;
    lua_pushlstring(L, snapshot, size);
    fg_status st = run(s, host_what_if, 1, 1, err);
    if (st != FG_OK) return st;
    if (report) {
        int t = lua_gettop(L);
        report->from = int_field(L, t, "from");
        report->to = int_field(L, t, "to");
        report->differences = (uint32_t)int_field(L, t, "differences");
        lua_getfield(L, t, "complete");
        report->complete = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return FG_OK;
}

const char *fg_lua_host_what_if_line(const fg_lua_host *s, uint32_t i) {
    lua_State *L = s->L;
    int top = lua_gettop(L);
    const char *line = NULL;
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->self);
    if (lua_getfield(L, -1, "report") == LUA_TTABLE && lua_getfield(L, -1, "lines") == LUA_TTABLE &&
        lua_rawgeti(L, -1, (lua_Integer)i + 1) == LUA_TSTRING)
        line = lua_tostring(L, -1); /* stays alive in self.report */
    lua_settop(L, top);
    return line;
}
