/* SPDX-License-Identifier: MIT */
/*
** l_motion.c: Lua bindings of framegate/motion.h.
**
**   fg.motion(notation [, opts])   one compiled pattern (framegate.Motion), for REPL experiments
**   fg.motion_set(spec)            a ruleset's motions table (framegate.MotionSet)
**   fg.motion_cmd(text [, opts])   the [Command] blocks of a MUGEN .cmd text (framegate.MotionSet)
**
** A set has a mode: "consume" (a command uses its inputs up; fg.motion_set's default) or "flags"
** (MUGEN: every completed command is true, several at once; fg.motion_cmd's default).
**
** Both objects have match(script [, profile]) and explain(...) over the input script syntax of
** docs/motion.md ("2@0 3@2 6@4 LP@5"), lint() and describe(). Errors name the caller's line.
*/
#include <string.h>

#include "fg_lua.h"

#define MOTION_T "framegate.Motion"
#define MOTION_SET_T "framegate.MotionSet"
#define MAX_DEFS FG_MOTION_MAX_PATTERNS

typedef struct lmotion {
    fg_motion_set *set;
    fg_motion_profile profile; /* used by match/explain when none is passed */
} lmotion;

static const char *const why_names[] = {"alone", "priority", "length", "specificity", "order"};
static const char *const fail_names[] = {"none",  "gap",     "time",     "strict",
                                         "charge", "hold",   "chord",    "facing",
                                         "consumed", "lost", "expired"};

/* {====================================================================== options */

static const char *const option_keys[] = {"name",     "priority", "time",        "window",
                                          "buffer",   "gap",      "gaps",        "charge",
                                          "frozen",   "absolute", "notation",    "autogreater",
                                          NULL};

static bool is_option(const char *k, const char *const *extra) {
    for (int i = 0; option_keys[i]; i++)
        if (strcmp(k, option_keys[i]) == 0) return true;
    for (int i = 0; extra && extra[i]; i++)
        if (strcmp(k, extra[i]) == 0) return true;
    return false;
}

/* Refuses keys nobody reads, so a typo (`tim = 20`) is an error rather than silently ignored. */
static void check_keys(lua_State *L, int t, const char *what, const char *const *extra,
                       bool allow_array) {
    t = lua_absindex(L, t);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) == LUA_TSTRING) {
            const char *k = lua_tostring(L, -2);
            if (!is_option(k, extra))
                luaL_error(L, "%s: unknown option '%s', expected name, priority, time, window, "
                              "buffer, gap, gaps, charge, frozen, absolute, notation or autogreater%s",
                           what, k, extra ? " (or buttons, groups, profile)" : "");
        } else if (!allow_array || !lua_isinteger(L, -2)) {
            luaL_error(L, "%s: unexpected %s key", what, luaL_typename(L, -2));
        }
        lua_pop(L, 1);
    }
}

/* gaps = { 12, 0, 6 }: per-step gap overrides, in the order tostring prints the steps' gaps
** (0 keeps a step's default). Leaves the stack as it found it. */
void fg_lua_read_motion_gaps(fg_lua_reader *rd, int t, fg_motion_def *def) {
    lua_State *L = rd->L;
    if (!fg_lua_reader_get(rd, t, "gaps")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = fg_lua_reader_push(rd, ".gaps");
    char v[64];
    if (!lua_istable(L, -1))
        fg_lua_reader_fail(rd, "expected a list of step gaps such as { 12, 12, 8 }, got %s",
             fg_lua_describe_value(L, -1, v, sizeof v));
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    if (n > FG_MOTION_MAX_STEPS - 1)
        fg_lua_reader_fail(rd, "%lld entries, a motion has at most %d step gaps", (long long)n,
             FG_MOTION_MAX_STEPS - 1);
    for (lua_Integer i = 1; i <= n; i++) {
        size_t o2 = fg_lua_reader_push(rd, "[%lld]", (long long)i);
        int ok;
        lua_rawgeti(L, -1, i);
        lua_Integer g = lua_tointegerx(L, -1, &ok);
        if (!ok)
            fg_lua_reader_fail(rd, "expected an integer, got %s (0 = the step's default)",
                               fg_lua_describe_value(L, -1, v, sizeof v));
        if (g < 0 || g > FG_MOTION_MAX_TICKS)
            fg_lua_reader_fail(rd, "%lld is out of range, expected 0-%d ticks (0 = the step's "
                               "default)", (long long)g, FG_MOTION_MAX_TICKS);
        def->gaps[i - 1] = (int32_t)g;
        lua_pop(L, 1);
        fg_lua_reader_pop(rd, o2);
    }
    fg_lua_reader_pop(rd, old);
    lua_pop(L, 1);
}

/* Fills the options of a def from the table at t (names and notations stay owned by Lua);
** errors name what.field. */
static void read_def_options(lua_State *L, int t, fg_motion_def *d, const char *what) {
    t = lua_absindex(L, t);
    fg_lua_reader rd;
    fg_lua_reader_init(&rd, L, what, NULL);
    lua_getfield(L, t, "priority");
    d->has_priority = !lua_isnil(L, -1);
    lua_pop(L, 1);
    d->priority = (int32_t)fg_lua_read_int(&rd, t, "priority", 0, -1000000, 1000000);
    int32_t time = (int32_t)fg_lua_read_int(&rd, t, "time", 0, -1000000, 1000000);
    int32_t window = (int32_t)fg_lua_read_int(&rd, t, "window", 0, -1000000, 1000000);
    if (time && window && time != window)
        luaL_error(L, "%s: time = %d and window = %d disagree; give one of them", what, (int)time,
                   (int)window);
    d->time = time ? time : window;
    d->buffer = (int32_t)fg_lua_read_int(&rd, t, "buffer", 0, -1000000, 1000000);
    d->gap = (int32_t)fg_lua_read_int(&rd, t, "gap", 0, -1000000, 1000000);
    fg_lua_read_motion_gaps(&rd, t, d);
    d->charge = (int32_t)fg_lua_read_int(&rd, t, "charge", 0, -1000000, 1000000);
    const char *frozen = fg_lua_read_str(&rd, t, "frozen", NULL);
    if (frozen) {
        if (strcmp(frozen, "skip") == 0) d->frozen = FG_MOTION_FROZEN_SKIP;
        else if (strcmp(frozen, "count") == 0) d->frozen = FG_MOTION_FROZEN_COUNT;
        else luaL_error(L, "%s: frozen = '%s', expected 'skip' or 'count'", what, frozen);
    }
    d->absolute = fg_lua_read_bool(&rd, t, "absolute", false);
    d->no_autogreater = !fg_lua_read_bool(&rd, t, "autogreater", true);
    const char *syn = fg_lua_read_str(&rd, t, "notation", NULL);
    if (syn) {
        if (strcmp(syn, "numpad") == 0) d->syntax = FG_MOTION_NUMPAD;
        else if (strcmp(syn, "mugen") == 0) d->syntax = FG_MOTION_MUGEN;
        else if (strcmp(syn, "auto") == 0) d->syntax = FG_MOTION_AUTO;
        else luaL_error(L, "%s: notation = '%s', expected 'numpad', 'mugen' or 'auto'", what, syn);
    }
    lua_remove(L, rd.box);
}

/* buttons = {...}, groups = { P = {...} } from the table at t; false when neither is given. */
static bool read_buttons(lua_State *L, int t, fg_motion_buttons *out) {
    t = lua_absindex(L, t);
    int bt = lua_getfield(L, t, "buttons");
    int gt = lua_getfield(L, t, "groups");
    if (bt == LUA_TNIL && gt == LUA_TNIL) {
        lua_pop(L, 2);
        return false;
    }
    if (bt != LUA_TTABLE) luaL_error(L, "field 'buttons': expected a list of button names");
    const char *names[FG_INPUT_MAX_ACTIONS];
    lua_Integer nb = luaL_len(L, -2);
    if (nb > FG_INPUT_MAX_ACTIONS - FG_IN_FIRST_BUTTON)
        luaL_error(L, "field 'buttons': %I names, at most %d are supported", (LUAI_UACINT)nb,
                   FG_INPUT_MAX_ACTIONS - FG_IN_FIRST_BUTTON);
    for (lua_Integer i = 1; i <= nb; i++) {
        if (lua_geti(L, -2, i) != LUA_TSTRING)
            luaL_error(L, "field 'buttons'[%I]: expected a string, got %s", (LUAI_UACINT)i,
                       luaL_typename(L, -1));
        names[i - 1] = lua_tostring(L, -1);
        lua_pop(L, 1); /* the string stays in the table */
    }
    fg_motion_group_def groups[FG_MOTION_MAX_GROUPS];
    const char *members[FG_MOTION_MAX_GROUPS][FG_INPUT_MAX_ACTIONS];
    uint32_t ng = 0;
    if (gt == LUA_TTABLE) {
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TTABLE)
                luaL_error(L, "field 'groups': expected name = { button, ... } entries");
            if (ng == FG_MOTION_MAX_GROUPS)
                luaL_error(L, "field 'groups': at most %d groups are supported",
                           FG_MOTION_MAX_GROUPS);
            groups[ng].name = lua_tostring(L, -2);
            lua_Integer nm = luaL_len(L, -1);
            if (nm > FG_INPUT_MAX_ACTIONS) nm = FG_INPUT_MAX_ACTIONS;
            for (lua_Integer i = 1; i <= nm; i++) {
                if (lua_geti(L, -1, i) != LUA_TSTRING)
                    luaL_error(L, "groups.%s[%I]: expected a button name", groups[ng].name,
                               (LUAI_UACINT)i);
                members[ng][i - 1] = lua_tostring(L, -1);
                lua_pop(L, 1);
            }
            groups[ng].members = members[ng];
            groups[ng].nmembers = (uint32_t)nm;
            ng++;
            lua_pop(L, 1);
        }
    } else if (gt != LUA_TNIL) {
        luaL_error(L, "field 'groups': expected a table, got %s", luaL_typename(L, -1));
    }
    fg_error err = {0};
    if (fg_motion_buttons_init(out, names, (uint32_t)nb, gt == LUA_TTABLE ? groups : NULL, ng,
                               &err) != FG_OK)
        fg_lua_raise(L, &err);
    lua_pop(L, 2);
    return true;
}

static void read_profile(lua_State *L, int idx, fg_motion_profile *out) {
    const char *name = luaL_optstring(L, idx, NULL);
    if (!name) return;
    fg_error err = {0};
    if (fg_motion_profile_named(name, out, &err) != FG_OK) fg_lua_raise(L, &err);
}

/* }====================================================================== */

/* {====================================================================== results */

static void push_command(lua_State *L, const fg_motion_set *set, const fg_motion_command *c) {
    lua_createtable(L, 0, 10);
    lua_pushstring(L, fg_motion_name(set, c->motion));
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, c->motion);
    lua_setfield(L, -2, "motion");
    lua_pushinteger(L, c->tick);
    lua_setfield(L, -2, "tick");
    lua_pushinteger(L, c->age);
    lua_setfield(L, -2, "age");
    lua_pushinteger(L, c->priority);
    lua_setfield(L, -2, "priority");
    lua_pushstring(L, why_names[c->why < 5 ? c->why : 0]);
    lua_setfield(L, -2, "why");
    lua_pushstring(L, c->facing == FG_FACING_LEFT ? "left" : "right");
    lua_setfield(L, -2, "facing");
    if (c->beat != FG_MOTION_NONE) {
        lua_pushstring(L, fg_motion_name(set, c->beat));
        lua_setfield(L, -2, "beat");
    }
    if (c->replaces != FG_MOTION_NONE) {
        lua_pushstring(L, fg_motion_name(set, c->replaces));
        lua_setfield(L, -2, "replaces");
    }
    lua_pushboolean(L, (c->flags & FG_MOTION_CMD_LEVEL) != 0);
    lua_setfield(L, -2, "held");
    lua_createtable(L, c->nedges, 0);
    for (int i = 0; i < c->nedges; i++) {
        lua_createtable(L, 0, 2);
        lua_pushinteger(L, (lua_Integer)c->edges[i]);
        lua_setfield(L, -2, "id");
        lua_pushinteger(L, c->edge_ticks[i]);
        lua_setfield(L, -2, "tick");
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "edges");
    char line[512];
    size_t len = fg_motion_command_format(set, c, line, sizeof line);
    if (len < sizeof line) {
        lua_pushstring(L, line);
    } else { /* long motion names: formatted again at its length */
        luaL_Buffer b;
        fg_motion_command_format(set, c, luaL_buffinitsize(L, &b, len + 1), len + 1);
        luaL_pushresultsize(&b, len);
    }
    lua_setfield(L, -2, "text");
}

/* Runs a script; leaves the run userdata on the stack and returns it. */
static fg_motion_run *run_script(lua_State *L, const lmotion *m, const char *script,
                                 const fg_motion_profile *profile, fg_motion_miss *misses) {
    fg_motion_run *run = lua_newuserdatauv(L, sizeof *run, 0);
    fg_error err = {0};
    if (fg_motion_run_script(m->set, script, profile, NULL, run, misses, &err) != FG_OK)
        fg_lua_raise(L, &err);
    return run;
}

static int push_matches(lua_State *L, const lmotion *m, const fg_motion_run *run) {
    lua_createtable(L, (int)run->ncommands, 0);
    for (uint32_t i = 0; i < run->ncommands; i++) {
        push_command(L, m->set, &run->commands[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

/* Explanation of one motion after a run: the text, and a table of the numbers. */
static int push_explain(lua_State *L, const lmotion *m, const fg_motion_run *run,
                        const fg_motion_miss *miss, uint32_t id) {
    const fg_motion_command *fired = NULL;
    for (uint32_t i = 0; i < run->ncommands; i++)
        if (run->commands[i].motion == id && run->commands[i].age == 0) fired = &run->commands[i];
    return fg_lua_push_explanation(L, m->set, fired, miss);
}

int fg_lua_push_explanation(lua_State *L, const fg_motion_set *set,
                            const fg_motion_command *fired, const fg_motion_miss *miss) {
    /* Formatted at the length it needs: the line a designer reads is never cut. */
    size_t need = fired ? fg_motion_command_format(set, fired, NULL, 0)
                        : fg_motion_miss_format(set, miss, NULL, 0);
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, need + 1);
    if (fired) fg_motion_command_format(set, fired, p, need + 1);
    else fg_motion_miss_format(set, miss, p, need + 1);
    luaL_pushresultsize(&b, need);
    if (fired) {
        lua_pushliteral(L, "fired: ");
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    lua_createtable(L, 0, 8);
    lua_pushboolean(L, fired != NULL);
    lua_setfield(L, -2, "fired");
    lua_pushstring(L, fail_names[miss->reason < 11 ? miss->reason : 0]);
    lua_setfield(L, -2, "reason");
    lua_pushinteger(L, miss->step + 1);
    lua_setfield(L, -2, "step");
    lua_pushinteger(L, miss->reached);
    lua_setfield(L, -2, "reached");
    lua_pushinteger(L, miss->nsteps);
    lua_setfield(L, -2, "steps");
    lua_pushinteger(L, miss->value);
    lua_setfield(L, -2, "value");
    lua_pushinteger(L, miss->limit);
    lua_setfield(L, -2, "limit");
    lua_pushinteger(L, miss->tick);
    lua_setfield(L, -2, "tick");
    if (miss->other != FG_MOTION_NONE) {
        lua_pushstring(L, fg_motion_name(set, miss->other));
        lua_setfield(L, -2, "other");
    }
    return 2;
}

static int push_lint(lua_State *L, const lmotion *m) {
    uint32_t n;
    const fg_motion_finding *f = fg_motion_lint(m->set, &n);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        lua_pushstring(L, f[i].text);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

/* }====================================================================== */

/* {====================================================================== fg.motion */

static lmotion *check_motion(lua_State *L, int idx, const char *tname) {
    lmotion *m = luaL_checkudata(L, idx, tname);
    if (!m->set) luaL_error(L, "attempt to use a freed %s", tname);
    return m;
}

static lmotion *new_lmotion(lua_State *L, const char *tname) {
    lmotion *m = lua_newuserdatauv(L, sizeof *m, 0);
    m->set = NULL;
    m->profile = fg_motion_profile_preset(FG_MOTION_PROFILE_STANDARD);
    luaL_setmetatable(L, tname);
    return m;
}

static int motion_new(lua_State *L) {
    const char *notation = luaL_checkstring(L, 1);
    static const char *const extra[] = {"buttons", "groups", "profile", NULL};
    bool has_opts = !lua_isnoneornil(L, 2);
    if (has_opts) {
        luaL_checktype(L, 2, LUA_TTABLE);
        check_keys(L, 2, "fg.motion", extra, false);
    }
    fg_motion_def d;
    memset(&d, 0, sizeof d);
    d.notation = notation;
    d.name = has_opts ? fg_lua_opt_str_field(L, 2, "name", notation) : notation;
    if (has_opts) read_def_options(L, 2, &d, "fg.motion");
    fg_motion_buttons b;
    if (!has_opts || !read_buttons(L, 2, &b)) {
        fg_motion_syntax syn = d.syntax ? d.syntax : fg_motion_detect(notation, NULL);
        fg_motion_buttons_default(&b, syn);
    }
    lmotion *m = new_lmotion(L, MOTION_T);
    if (has_opts) {
        lua_getfield(L, 2, "profile");
        read_profile(L, -1, &m->profile);
        lua_pop(L, 1);
    }
    fg_error err = {0};
    if (fg_motion_set_compile(&b, &d, 1, NULL, &m->set, &err) != FG_OK) {
        /* One pattern: the message needs no "name: " prefix. */
        size_t nl = strlen(d.name);
        const char *msg = fg_error_message(&err);
        if (strncmp(msg, d.name, nl) == 0 && msg[nl] == ':' && msg[nl + 1] == ' ') msg += nl + 2;
        lua_pushstring(L, msg);
        fg_error_clear(&err);
        return fg_lua_raise_top(L);
    }
    return 1;
}

static int motion_match(lua_State *L) {
    lmotion *m = check_motion(L, 1, MOTION_T);
    const char *script = luaL_checkstring(L, 2);
    fg_motion_profile p = m->profile;
    read_profile(L, 3, &p);
    fg_motion_run *run = run_script(L, m, script, &p, NULL);
    return push_matches(L, m, run);
}

/* A notation with alternatives (`236P|214P`, `360P`) compiles to several patterns: explain
** reports the one that fired, else the one that got furthest (the first among equals). */
static int motion_explain(lua_State *L) {
    lmotion *m = check_motion(L, 1, MOTION_T);
    const char *script = luaL_checkstring(L, 2);
    fg_motion_profile p = m->profile;
    read_profile(L, 3, &p);
    uint32_t n = fg_motion_count(m->set);
    fg_motion_miss *miss = lua_newuserdatauv(L, n * sizeof *miss, 0);
    fg_motion_run *run = run_script(L, m, script, &p, miss);
    uint32_t best = 0;
    for (uint32_t i = 0; i < run->ncommands; i++)
        if (run->commands[i].age == 0) {
            best = run->commands[i].motion;
            return push_explain(L, m, run, &miss[best], best);
        }
    for (uint32_t i = 1; i < n; i++)
        if (miss[i].reached > miss[best].reached) best = i;
    return push_explain(L, m, run, &miss[best], best);
}

/* Every alternative's compiled form, one line each. */
/* Pushes a motion's description at whatever length it needs. [-0, +1, m] */
static const char *push_describe(lua_State *L, const fg_motion_set *set, uint32_t id) {
    char buf[512];
    size_t n = fg_motion_describe(set, id, buf, sizeof buf);
    if (n < sizeof buf) return lua_pushstring(L, buf);
    luaL_Buffer b;
    fg_motion_describe(set, id, luaL_buffinitsize(L, &b, n + 1), n + 1);
    luaL_pushresultsize(&b, n);
    return lua_tostring(L, -1);
}

static int motion_describe(lua_State *L) {
    lmotion *m = check_motion(L, 1, MOTION_T);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (uint32_t i = 0; i < fg_motion_count(m->set); i++) {
        if (i) luaL_addchar(&b, '\n');
        push_describe(L, m->set, i);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    return 1;
}

static int motion_tostring(lua_State *L) {
    lmotion *m = luaL_checkudata(L, 1, MOTION_T);
    if (!m->set) {
        lua_pushstring(L, MOTION_T " (freed)");
        return 1;
    }
    const char *text = push_describe(L, m->set, 0);
    uint32_t n = fg_motion_count(m->set);
    if (n > 1) lua_pushfstring(L, MOTION_T " %s, and %d more alternatives", text, (int)n - 1);
    else lua_pushfstring(L, MOTION_T " %s", text);
    return 1;
}

static int motion_gc(lua_State *L) {
    lmotion *m = lua_touserdata(L, 1);
    if (m && m->set) {
        fg_motion_set_destroy(m->set);
        m->set = NULL;
    }
    return 0;
}

/* }====================================================================== */

/* {====================================================================== fg.motion_set */

/* opts.mode: "consume" or "flags"; def when absent. */
static fg_motion_mode read_mode(lua_State *L, int t, const char *what, fg_motion_mode def) {
    const char *mode = fg_lua_opt_str_field(L, t, "mode", NULL);
    if (!mode) return def;
    if (strcmp(mode, "consume") == 0) return FG_MOTION_MODE_CONSUME;
    if (strcmp(mode, "flags") == 0) return FG_MOTION_MODE_FLAGS;
    return (fg_motion_mode)luaL_error(L, "%s: mode '%s', expected consume or flags", what, mode);
}

static const char *mode_name(const fg_motion_set *set) {
    return fg_motion_set_mode(set) == FG_MOTION_MODE_FLAGS ? "flags" : "consume";
}

/* motions = { name = "236P" | { "236P", "~D, DF, F, x", priority = 10, ... } } */
static int motion_set_new(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    static const char *const top[] = {"motions", "buttons", "groups", "profile", "mode", NULL};
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        bool known = false;
        for (int i = 0; k && top[i]; i++) known |= strcmp(k, top[i]) == 0;
        if (!known)
            return luaL_error(L, "fg.motion_set: unknown field '%s', expected motions, buttons, "
                                 "groups, profile or mode",
                              k ? k : luaL_typename(L, -2));
        lua_pop(L, 1);
    }
    if (lua_getfield(L, 1, "motions") != LUA_TTABLE)
        return luaL_error(L, "fg.motion_set: field 'motions': expected a table of name = "
                             "notation entries");
    int mt = lua_gettop(L);
    fg_motion_def *defs = lua_newuserdatauv(L, MAX_DEFS * sizeof *defs, 0);
    uint32_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, mt)) {
        if (lua_type(L, -2) != LUA_TSTRING)
            return luaL_error(L, "motions: expected name = notation entries, got a %s key",
                              luaL_typename(L, -2));
        const char *name = lua_tostring(L, -2);
        int vt = lua_type(L, -1);
        if (vt == LUA_TSTRING) {
            if (n == MAX_DEFS) return luaL_error(L, "motions: more than %d patterns", MAX_DEFS);
            memset(&defs[n], 0, sizeof defs[n]);
            defs[n].name = name;
            defs[n].notation = lua_tostring(L, -1);
            n++;
        } else if (vt == LUA_TTABLE) {
            char what[64];
            snprintf(what, sizeof what, "motions.%.40s", name);
            check_keys(L, -1, what, NULL, true);
            lua_Integer alts = luaL_len(L, -1);
            if (alts < 1)
                return luaL_error(L, "%s: expected at least one notation string at [1]", what);
            fg_motion_def base;
            memset(&base, 0, sizeof base);
            read_def_options(L, lua_gettop(L), &base, what);
            for (lua_Integer i = 1; i <= alts; i++) {
                if (lua_geti(L, -1, i) != LUA_TSTRING)
                    return luaL_error(L, "%s[%I]: expected a notation string, got %s", what,
                                      (LUAI_UACINT)i, luaL_typename(L, -1));
                if (n == MAX_DEFS) return luaL_error(L, "motions: more than %d patterns", MAX_DEFS);
                defs[n] = base;
                defs[n].name = name;
                defs[n].notation = lua_tostring(L, -1);
                n++;
                lua_pop(L, 1);
            }
        } else {
            return luaL_error(L, "motions.%s: expected a notation string or a table, got %s",
                              name, luaL_typename(L, -1));
        }
        lua_pop(L, 1);
    }
    fg_motion_buttons b;
    if (!read_buttons(L, 1, &b)) fg_motion_buttons_default(&b, FG_MOTION_AUTO);
    lmotion *m = new_lmotion(L, MOTION_SET_T);
    lua_getfield(L, 1, "profile");
    read_profile(L, -1, &m->profile);
    lua_pop(L, 1);
    fg_motion_options opts = {read_mode(L, 1, "fg.motion_set", FG_MOTION_MODE_CONSUME), NULL};
    fg_error err = {0};
    if (fg_motion_set_compile_with(&b, defs, n, &opts, NULL, &m->set, &err) != FG_OK)
    {
        lua_pushfstring(L, "motions.%s", fg_error_message(&err));
        fg_error_clear(&err);
        return fg_lua_raise_top(L);
    }
    return 1;
}

static int motion_cmd_new(lua_State *L) {
    size_t len;
    const char *text = luaL_checklstring(L, 1, &len);
    fg_motion_buttons b;
    fg_motion_options opts = {FG_MOTION_MODE_FLAGS, "commands"};
    fg_motion_profile profile = fg_motion_profile_preset(FG_MOTION_PROFILE_STANDARD);
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        static const char *const keys[] = {"source", "mode", "buttons", "groups", "profile", NULL};
        lua_pushnil(L);
        while (lua_next(L, 2)) {
            const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
            bool known = false;
            for (int i = 0; k && keys[i]; i++) known |= strcmp(k, keys[i]) == 0;
            if (!known)
                return luaL_error(L, "fg.motion_cmd: unknown option '%s', expected source, mode, "
                                     "buttons, groups or profile",
                                  k ? k : luaL_typename(L, -2));
            lua_pop(L, 1);
        }
        opts.source = fg_lua_opt_str_field(L, 2, "source", opts.source);
        opts.mode = read_mode(L, 2, "fg.motion_cmd", FG_MOTION_MODE_FLAGS);
        if (!read_buttons(L, 2, &b)) fg_motion_buttons_default(&b, FG_MOTION_MUGEN);
        lua_getfield(L, 2, "profile");
        read_profile(L, -1, &profile);
        lua_pop(L, 1);
    } else {
        fg_motion_buttons_default(&b, FG_MOTION_MUGEN);
    }
    lmotion *m = new_lmotion(L, MOTION_SET_T);
    m->profile = profile;
    fg_error err = {0};
    if (fg_motion_set_load_cmd(&b, text, len, &opts, NULL, &m->set, &err) != FG_OK)
        return fg_lua_raise(L, &err);
    return 1;
}

static uint32_t check_name(lua_State *L, const lmotion *m, int idx) {
    const char *name = luaL_checkstring(L, idx);
    int id = fg_motion_find(m->set, name);
    if (id < 0) luaL_error(L, "no motion named '%s' in this set", name);
    return (uint32_t)id;
}

static int set_match(lua_State *L) {
    lmotion *m = check_motion(L, 1, MOTION_SET_T);
    const char *script = luaL_checkstring(L, 2);
    fg_motion_profile p = m->profile;
    read_profile(L, 3, &p);
    fg_motion_run *run = run_script(L, m, script, &p, NULL);
    return push_matches(L, m, run);
}

static int set_explain(lua_State *L) {
    lmotion *m = check_motion(L, 1, MOTION_SET_T);
    uint32_t id = check_name(L, m, 2);
    const char *script = luaL_checkstring(L, 3);
    fg_motion_profile p = m->profile;
    read_profile(L, 4, &p);
    uint32_t n = fg_motion_count(m->set);
    fg_motion_miss *misses = lua_newuserdatauv(L, n * sizeof *misses, 0);
    fg_motion_run *run = run_script(L, m, script, &p, misses);
    return push_explain(L, m, run, &misses[id], id);
}

static int set_lint(lua_State *L) { return push_lint(L, check_motion(L, 1, MOTION_SET_T)); }

static int set_mode(lua_State *L) {
    lua_pushstring(L, mode_name(check_motion(L, 1, MOTION_SET_T)->set));
    return 1;
}

/* { { kind = "contained"|"ambiguous"|"never"|"note", text =, motion =, other = }, ... } */
static int set_findings(lua_State *L) {
    static const char *const kinds[] = {"contained", "ambiguous", "never", "note"};
    lmotion *m = check_motion(L, 1, MOTION_SET_T);
    uint32_t n;
    const fg_motion_finding *f = fg_motion_lint(m->set, &n);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        lua_createtable(L, 0, 4);
        lua_pushstring(L, kinds[f[i].kind < 4 ? f[i].kind : 3]);
        lua_setfield(L, -2, "kind");
        lua_pushstring(L, f[i].text);
        lua_setfield(L, -2, "text");
        if (f[i].a != FG_MOTION_NONE) {
            lua_pushstring(L, fg_motion_name(m->set, f[i].a));
            lua_setfield(L, -2, "motion");
        }
        if (f[i].b != FG_MOTION_NONE) {
            lua_pushstring(L, fg_motion_name(m->set, f[i].b));
            lua_setfield(L, -2, "other");
        }
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int set_names(lua_State *L) {
    lmotion *m = check_motion(L, 1, MOTION_SET_T);
    uint32_t n = fg_motion_count(m->set);
    lua_createtable(L, (int)n, 0);
    int k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(fg_motion_name(m->set, i), fg_motion_name(m->set, i - 1)) == 0)
            continue; /* alternatives share a name */
        lua_pushstring(L, fg_motion_name(m->set, i));
        lua_rawseti(L, -2, ++k);
    }
    return 1;
}

static int set_describe(lua_State *L) {
    lmotion *m = check_motion(L, 1, MOTION_SET_T);
    uint32_t id = check_name(L, m, 2);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (uint32_t i = id; i < fg_motion_count(m->set) &&
                          strcmp(fg_motion_name(m->set, i), fg_motion_name(m->set, id)) == 0;
         i++) {
        if (i > id) luaL_addchar(&b, '\n');
        push_describe(L, m->set, i);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    return 1;
}

static int set_tostring(lua_State *L) {
    lmotion *m = luaL_checkudata(L, 1, MOTION_SET_T);
    if (!m->set) lua_pushstring(L, MOTION_SET_T " (freed)");
    else lua_pushfstring(L, MOTION_SET_T " (%d patterns)", (int)fg_motion_count(m->set));
    return 1;
}

/* }====================================================================== */

static int motion_lint(lua_State *L) { return push_lint(L, check_motion(L, 1, MOTION_T)); }

void fg_lua_open_motion(lua_State *L) {
    static const luaL_Reg motion_methods[] = {{"match", motion_match},
                                              {"explain", motion_explain},
                                              {"describe", motion_describe},
                                              {"lint", motion_lint},
                                              {NULL, NULL}};
    static const luaL_Reg motion_meta[] = {
        {"__tostring", motion_tostring}, {"__gc", motion_gc}, {"__close", motion_gc}, {NULL, NULL}};
    static const luaL_Reg set_methods[] = {{"match", set_match},       {"explain", set_explain},
                                           {"describe", set_describe}, {"lint", set_lint},
                                           {"names", set_names},       {"mode", set_mode},
                                           {"findings", set_findings}, {NULL, NULL}};
    static const luaL_Reg set_meta[] = {
        {"__tostring", set_tostring}, {"__gc", motion_gc}, {"__close", motion_gc}, {NULL, NULL}};
    fg_lua_class(L, MOTION_T, motion_methods, motion_meta);
    fg_lua_class(L, MOTION_SET_T, set_methods, set_meta);
    static const luaL_Reg funcs[] = {{"motion", motion_new},
                                     {"motion_set", motion_set_new},
                                     {"motion_cmd", motion_cmd_new},
                                     {NULL, NULL}};
    luaL_setfuncs(L, funcs, 0);
}
