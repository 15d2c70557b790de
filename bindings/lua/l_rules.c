/* SPDX-License-Identifier: MIT */
/*
** l_rules.c: rulesets from Lua tables. `fg.ruleset "name" { ... }` marks a table as a ruleset
** declaration; `fg.rules(decl)` translates it into the runtime's builder, validates and compiles it
** into a framegate.Rules userdata that keeps the ruleset and the declaration's functions (the
** request rule and the presentation hooks).
**
** Tables are read in sorted key order and every field is checked against the fields it may have,
** so a typo is an error, not a silently ignored setting. Errors name the path of the field and
** the value: `actions.jab.startup: expected an integer, got string 'fast'`.
*/
#include "fg_lua.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULES_T "framegate.Rules"
#define DECL_T "framegate.RulesetDeclaration"
#define VERDICT_T "framegate.Verdict"

/* {====================================================================== reading tables */

/* The declaration is read with the bindings' field reader (util.c) in its collecting mode:
** rd->extra is the stack index of { [action name] = true } for actions whose ticks could not be
** read. */

/* Whether a validator finding is about an action whose length could not be read: its windows
** and markers were checked against a default length, so the finding would mislead. */
static bool about_shaky_action(fg_lua_reader *rd, const char *path) {
    if (strncmp(path, "actions.", 8) != 0) return false;
    const char *name = path + 8, *end = strchr(name, '.');
    if (!end) return false;
    lua_pushlstring(rd->L, name, (size_t)(end - name));
    bool shaky = lua_rawget(rd->L, rd->extra) != LUA_TNIL;
    lua_pop(rd->L, 1);
    return shaky;
}

/* Pushes "CHUNK: invalid ruleset 'NAME':" and one "\n  finding" line per noted finding, then
** the extra lines of the builder's findings (`more`, may be NULL) and an error of the build no
** finding holds (`built_err`, may be NULL: memory ran out). */
static void push_invalid(fg_lua_reader *rd, const fg_findings *more, const char *built_err) {
    lua_State *L = rd->L;
    luaL_Buffer buf;
    luaL_buffinit(L, &buf);
    if (rd->chunk) {
        luaL_addstring(&buf, rd->chunk);
        luaL_addstring(&buf, ": ");
    }
    luaL_addstring(&buf, "invalid ruleset '");
    luaL_addstring(&buf, rd->name ? rd->name : "rules");
    luaL_addstring(&buf, "':");
    lua_Integer n = (lua_Integer)lua_rawlen(L, rd->notes);
    for (lua_Integer i = 1; i <= n; i++) {
        luaL_addstring(&buf, "\n  ");
        lua_rawgeti(L, rd->notes, i);
        luaL_addvalue(&buf);
    }
    /* One finding per line, "  path: message": errors, then the lint warnings found on the way
    ** (`framegate check` lists every finding from these lines). */
    for (int pass = 0; more && pass < 2; pass++)
        for (uint32_t i = 0; i < fg_findings_count(more); i++) {
            fg_finding x = fg_findings_get(more, i);
            bool warning = x.severity == FG_SEVERITY_WARNING;
            if (warning != (pass == 1) || about_shaky_action(rd, x.path)) continue;
            luaL_addstring(&buf, "\n  ");
            luaL_addstring(&buf, x.path);
            luaL_addstring(&buf, ": ");
            if (warning && strncmp(x.message, "warning", 7) != 0)
                luaL_addstring(&buf, "warning: ");
            luaL_addstring(&buf, x.message);
        }
    if (built_err) {
        luaL_addstring(&buf, "\n  ");
        luaL_addstring(&buf, built_err);
    }
    luaL_pushresult(&buf);
}

static void summary(fg_lua_reader *rd) { push_invalid(rd, NULL, NULL); }

/* }====================================================================== */

/* {====================================================================== the declaration */

static fg_contact parse_on(fg_lua_reader *rd, int t) {
    char on[16] = "always";
    fg_lua_read_name(rd, t, "on", on, sizeof on);
    static const char *const names[] = {"always", "hit", "block", "whiff", "contact"};
    for (int i = 0; i < 5; i++)
        if (strcmp(on, names[i]) == 0) return (fg_contact)i;
    size_t old = fg_lua_reader_push(rd, ".on");
    fg_lua_reader_note(rd, "'%s', expected always, hit, block, whiff or contact", on);
    fg_lua_reader_pop(rd, old);
    return FG_ON_ALWAYS;
}

static void read_cancels(fg_lua_reader *rd, int t, fg_action_def *a) {
    lua_State *L = rd->L;
    if (!fg_lua_reader_get(rd, t, "cancels")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = fg_lua_reader_push(rd, ".cancels");
    fg_lua_reader_table(rd, -1, "a list of windows");
    lua_Integer n = luaL_len(L, -1);
    if (n > FG_MAX_CANCELS)
        fg_lua_reader_fail(rd, "%lld windows, at most %d", (long long)n, FG_MAX_CANCELS);
    static const char *const fields[] = {"from", "to", "on", "into", "buffer", "when", NULL};
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, -1, i);
        size_t o2 = fg_lua_reader_push(rd, "[%lld]", (long long)i);
        fg_lua_reader_table(rd, -1, "a window { from =, to =, into = }");
        fg_lua_reader_only(rd, -1, fields);
        fg_cancel_def *c = &a->cancels[a->ncancels++];
        c->from = (int32_t)fg_lua_read_int(rd, -1, "from", 0, -1000000, 1000000);
        c->to = (int32_t)fg_lua_read_int(rd, -1, "to", c->from, -1000000, 1000000);
        c->buffer = (int32_t)fg_lua_read_int(rd, -1, "buffer", 0, -1000000, 1000000);
        c->on = parse_on(rd, -1);
        c->ntargets = fg_lua_read_names(rd, -1, "into", c->targets, FG_MAX_TARGETS);
        fg_lua_read_window_when(rd, -1, c);
        fg_lua_reader_pop(rd, o2);
        lua_pop(L, 1);
    }
    fg_lua_reader_pop(rd, old);
    lua_pop(L, 1);
}

static void read_markers(fg_lua_reader *rd, int t, fg_action_def *a) {
    lua_State *L = rd->L;
    if (!fg_lua_reader_get(rd, t, "markers")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = fg_lua_reader_push(rd, ".markers");
    fg_lua_reader_table(rd, -1, "a list of { tick =, marker = }");
    lua_Integer n = luaL_len(L, -1);
    if (n > FG_MAX_MARKERS)
        fg_lua_reader_fail(rd, "%lld markers, at most %d", (long long)n, FG_MAX_MARKERS);
    static const char *const fields[] = {"tick", "marker", "once", NULL};
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, -1, i);
        size_t o2 = fg_lua_reader_push(rd, "[%lld]", (long long)i);
        fg_lua_reader_table(rd, -1, "{ tick =, marker = }");
        fg_lua_reader_only(rd, -1, fields);
        fg_marker_def *m = &a->markers[a->nmarkers++];
        m->tick = (int32_t)fg_lua_read_int(rd, -1, "tick", 0, -1000000, 1000000);
        m->once = fg_lua_read_bool(rd, -1, "once", false);
        fg_lua_read_name(rd, -1, "marker", m->name, sizeof m->name);
        if (!m->name[0]) fg_lua_reader_note(rd, "needs a marker name");
        fg_lua_reader_pop(rd, o2);
        lua_pop(L, 1);
    }
    fg_lua_reader_pop(rd, old);
    lua_pop(L, 1);
}

static void read_moves(fg_lua_reader *rd, int t, fg_action_def *a) {
    lua_State *L = rd->L;
    if (!fg_lua_reader_get(rd, t, "move")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = fg_lua_reader_push(rd, ".move");
    fg_lua_reader_table(rd, -1, "a list of { from =, to =, vx =, vy =, ax =, ay = }");
    lua_Integer n = luaL_len(L, -1);
    if (n > FG_MAX_MOVES)
        fg_lua_reader_fail(rd, "%lld segments, at most %d", (long long)n, FG_MAX_MOVES);
    static const char *const fields[] = {"from", "to", "vx", "vy", "ax", "ay", NULL};
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, -1, i);
        size_t o2 = fg_lua_reader_push(rd, "[%lld]", (long long)i);
        fg_lua_reader_table(rd, -1, "{ from =, to =, vx =, vy = }");
        fg_lua_reader_only(rd, -1, fields);
        fg_move_def *m = &a->moves[a->nmoves++];
        m->from = (int32_t)fg_lua_read_int(rd, -1, "from", 0, -1000000, 1000000);
        m->to = (int32_t)fg_lua_read_int(rd, -1, "to", m->from, -1000000, 1000000);
        /* A segment without vx keeps the horizontal speed the body has (a running jump keeps
        ** its run) and only adds ax to it. */
        bool has_vx = fg_lua_reader_get(rd, -1, "vx");
        lua_pop(L, 1);
        m->vx = fg_lua_read_fx(rd, -1, "vx", 0);
        m->vy = fg_lua_read_fx(rd, -1, "vy", 0);
        m->ax = fg_lua_read_fx(rd, -1, "ax", 0);
        m->ay = fg_lua_read_fx(rd, -1, "ay", 0);
        if (!has_vx) m->flags |= FG_MOVE_KEEP_VX;
        fg_lua_reader_pop(rd, o2);
        lua_pop(L, 1);
    }
    fg_lua_reader_pop(rd, old);
    lua_pop(L, 1);
}

static void read_costs(fg_lua_reader *rd, int t, fg_action_def *a) {
    lua_State *L = rd->L;
    if (!fg_lua_reader_get(rd, t, "cost")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = fg_lua_reader_push(rd, ".cost");
    fg_lua_reader_table(rd, -1, "a table of resource = amount");
    int n = fg_lua_reader_keys(rd, -1);
    if (n > FG_MAX_RESOURCES) fg_lua_reader_fail(rd, "%d costs, at most %d", n, FG_MAX_RESOURCES);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *k = lua_tostring(L, -1);
        snprintf(a->cost_names[a->ncosts], FG_NAME_MAX, "%s", k);
        a->cost[a->ncosts] = (int32_t)fg_lua_read_int(rd, -3, k, 0, -1000000000, 1000000000);
        a->ncosts++;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    fg_lua_reader_pop(rd, old);
    lua_pop(L, 1);
}

static int parse_dir(fg_lua_reader *rd, int t, const char *k) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    int d = 0;
    if (fg_lua_reader_get(rd, t, k)) {
        size_t old = fg_lua_reader_push(rd, ".%s", k);
        char buf[80];
        int ok = 0;
        lua_Integer v = lua_tointegerx(L, -1, &ok);
        if (!ok && lua_type(L, -1) == LUA_TSTRING) {
            const char *s = lua_tostring(L, -1);
            if (strlen(s) == 1 && s[0] >= '1' && s[0] <= '9') {
                v = s[0] - '0';
                ok = 1;
            }
        }
        if (!ok || v < 1 || v > 9)
            fg_lua_reader_note(rd, "%s, expected a numpad direction 1..9 (2 = down, 6 = forward)",
                               fg_lua_describe_value(L, -1, buf, sizeof buf));
        else
            d = (int)v;
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    return d;
}

/* on_start = { set = { stance = 1 }, add = { charge = 1 } } (on_hit alike): the action's own
** variable changes, the sets then the adds, each in name order. */
static void read_var_effects(fg_lua_reader *rd, int t, const char *key, uint8_t when,
                             fg_action_def *a) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    if (!fg_lua_reader_get(rd, t, key)) {
        lua_pop(L, 1);
        return;
    }
    size_t old = fg_lua_reader_push(rd, ".%s", key);
    fg_lua_reader_table(rd, -1, "{ set = { name = value }, add = { name = amount } }");
    static const char *const fields[] = {"set", "add", NULL};
    fg_lua_reader_only(rd, -1, fields);
    for (uint8_t op = 0; op < 2; op++) {
        const char *k = op ? "add" : "set";
        if (!fg_lua_reader_get(rd, -1, k)) {
            lua_pop(L, 1);
            continue;
        }
        size_t o2 = fg_lua_reader_push(rd, ".%s", k);
        fg_lua_reader_table(rd, -1, "{ <variable> = <integer>, ... }");
        int n = fg_lua_reader_keys(rd, -1);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            const char *var = lua_tostring(L, -1);
            lua_Integer v;
            bool flag = lua_getfield(L, -3, var) == LUA_TBOOLEAN && op == FG_VAR_SET;
            if (flag) v = lua_toboolean(L, -1); /* a flag: true is 1 */
            lua_pop(L, 1);
            if (!flag) v = fg_lua_read_int(rd, -3, var, 0, -2000000000, 2000000000);
            if (strlen(var) >= FG_NAME_MAX) {
                fg_lua_reader_note(rd, "'%s': a variable name has at most %d characters", var,
                                   FG_NAME_MAX - 1);
            } else if (a->nvar_effects >= FG_MAX_VAR_EFFECTS) {
                fg_lua_reader_note(rd, "'%s': an action makes at most %d variable changes "
                                   "(on_start and on_hit together)", var, FG_MAX_VAR_EFFECTS);
            } else {
                fg_var_effect_def *e = &a->var_effects[a->nvar_effects++];
                snprintf(e->var, sizeof e->var, "%s", var);
                e->when = when;
                e->op = op;
                e->value = (int32_t)v;
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 2); /* the key list, the table */
        fg_lua_reader_pop(rd, o2);
    }
    lua_pop(L, 1);
    fg_lua_reader_pop(rd, old);
}

static void read_action(fg_lua_reader *rd, int t, const char *name, fg_action_def *a) {
    static const char *const fields[] = {
        "startup", "active", "recovery", "duration", "loop", "neutral", "hold", "priority",
        "group", "requires", "layer", "input", "next", "tags", "cancels", "markers", "move",
        "root_motion", "cost", "hit", "interrupts", "forbids", "boxes", "invulnerable",
        "throw", "followup", "spawn", "landing", "landing_recovery", "gravity", "on_start",
        "on_hit", NULL};
    fg_lua_reader_table(rd, t, "an action table { startup =, active =, recovery = }");
    fg_lua_reader_only(rd, t, fields);
    *a = fg_action_def_default(name);
    size_t noted = lua_rawlen(rd->L, rd->notes);
    a->startup = (int32_t)fg_lua_read_int(rd, t, "startup", 0, -1000000, 1000000);
    a->active = (int32_t)fg_lua_read_int(rd, t, "active", 0, -1000000, 1000000);
    a->recovery = (int32_t)fg_lua_read_int(rd, t, "recovery", 0, -1000000, 1000000);
    int32_t duration = (int32_t)fg_lua_read_int(rd, t, "duration", -1, -1000000, 1000000);
    if (duration >= 0) {
        /* "duration = n" alone: a state with no phases (idle, walk, hitstun). */
        if (a->startup + a->active + a->recovery == 0) a->recovery = duration;
        else if (a->startup + a->active + a->recovery != duration) {
            size_t old = fg_lua_reader_push(rd, ".duration");
            fg_lua_reader_note(rd, "%d, but startup + active + recovery = %d", (int)duration,
                               (int)(a->startup + a->active + a->recovery));
            fg_lua_reader_pop(rd, old);
        }
    }
    if (a->startup + a->active + a->recovery == 0) a->recovery = 1;
    a->duration = a->startup + a->active + a->recovery;
    if (lua_rawlen(rd->L, rd->notes) > noted) {
        lua_pushboolean(rd->L, 1);
        lua_setfield(rd->L, rd->extra, name);
    }
    a->loop = fg_lua_read_bool(rd, t, "loop", false);
    a->neutral = fg_lua_read_bool(rd, t, "neutral", false);
    a->hold_dir = parse_dir(rd, t, "hold");
    if (a->hold_dir) a->neutral = true;
    a->priority = (int32_t)fg_lua_read_int(rd, t, "priority", 0, -1000000, 1000000);
    fg_lua_read_name(rd, t, "group", a->group, sizeof a->group);
    fg_lua_read_name(rd, t, "requires", a->requires, sizeof a->requires);
    fg_lua_read_name(rd, t, "layer", a->layer, sizeof a->layer);
    fg_lua_read_name(rd, t, "input", a->input, sizeof a->input);
    fg_lua_read_name(rd, t, "next", a->next, sizeof a->next);
    a->ntags = fg_lua_read_names(rd, t, "tags", a->tags, FG_MAX_TAGS);
    a->nforbids = fg_lua_read_names(rd, t, "forbids", a->forbids, FG_MAX_TAGS);
    a->interrupts = fg_lua_read_bool(rd, t, "interrupts", false);
    a->followup = fg_lua_read_bool(rd, t, "followup", false);
    char rm[16] = "authoritative";
    fg_lua_read_name(rd, t, "root_motion", rm, sizeof rm);
    if (!strcmp(rm, "authoritative"))
        a->root_motion = FG_ROOT_AUTHORITATIVE;
    else if (!strcmp(rm, "suggested"))
        a->root_motion = FG_ROOT_SUGGESTED;
    else if (!strcmp(rm, "presentation")) a->root_motion = FG_ROOT_PRESENTATION;
    else {
        size_t old = fg_lua_reader_push(rd, ".root_motion");
        fg_lua_reader_note(rd, "'%s', expected authoritative, suggested or presentation", rm);
        fg_lua_reader_pop(rd, old);
    }
    fg_lua_read_name(rd, t, "landing", a->landing, sizeof a->landing);
    a->landing_recovery = (int32_t)fg_lua_read_int(rd, t, "landing_recovery", 0, 0, 600);
    if (fg_lua_reader_get(rd, t, "gravity")) a->has_gravity = true;
    lua_pop(rd->L, 1);
    a->gravity = fg_lua_read_fx(rd, t, "gravity", 0);
    read_cancels(rd, t, a);
    read_markers(rd, t, a);
    read_moves(rd, t, a);
    read_costs(rd, t, a);
    fg_lua_read_action_hits(rd, t, a);
    read_var_effects(rd, t, "on_start", FG_VAR_ON_START, a);
    read_var_effects(rd, t, "on_hit", FG_VAR_ON_HIT, a);
}

/* { "236P", window = 12, buffer = 2, priority = 5, gap = 8, charge = 40, absolute = true,
**   frozen = "skip"|"count" }: the notations first (several = alternatives under one name),
** then the matcher options, as fg.motion_set takes them. Returns how many notations. */
static int read_motion_options(fg_lua_reader *rd, int t, fg_motion_def *def) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    static const char *const fields[] = {"window", "time",   "buffer",   "priority", "gap",
                                         "gaps",   "charge", "absolute", "frozen",   NULL};
    lua_Integer n = (lua_Integer)lua_rawlen(L, t);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        bool ok = lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 && lua_tointeger(L, -1) <= n;
        for (const char *const *f = fields; !ok && *f; f++)
            ok = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), *f) == 0;
        if (!ok) {
            char v[64];
            fg_lua_reader_note(
                rd,
                "unknown field %s (expected the notations first, then window, buffer, "
                "priority, gap, gaps, charge, absolute or frozen)",
                fg_lua_describe_value(L, -1, v, sizeof v));
        }
    }
    if (n < 1) fg_lua_reader_fail(rd, "needs a notation, as in { \"236P\", window = 12 }");
    for (lua_Integer i = 1; i <= n; i++) {
        if (lua_rawgeti(L, t, i) != LUA_TSTRING) {
            char v[64];
            size_t old = fg_lua_reader_push(rd, "[%lld]", (long long)i);
            fg_lua_reader_fail(rd, "expected a notation string, got %s",
                               fg_lua_describe_value(L, -1, v, sizeof v));
            fg_lua_reader_pop(rd, old);
        }
        lua_pop(L, 1);
    }
    def->time = (int32_t)fg_lua_read_int(rd, t, "window", 0, 0, FG_MOTION_MAX_TICKS);
    def->time = (int32_t)fg_lua_read_int(rd, t, "time", def->time, 0, FG_MOTION_MAX_TICKS);
    def->buffer = (int32_t)fg_lua_read_int(rd, t, "buffer", 0, 0, FG_MOTION_MAX_TICKS);
    def->gap = (int32_t)fg_lua_read_int(rd, t, "gap", 0, 0, FG_MOTION_MAX_TICKS);
    fg_lua_read_motion_gaps(rd, t, def);
    def->charge = (int32_t)fg_lua_read_int(rd, t, "charge", 0, 0, FG_MOTION_MAX_TICKS);
    def->absolute = fg_lua_read_bool(rd, t, "absolute", false);
    if (fg_lua_reader_get(rd, t, "priority")) def->has_priority = true;
    lua_pop(L, 1);
    def->priority = (int32_t)fg_lua_read_int(rd, t, "priority", 0, -1000000, 1000000);
    char frozen[8] = "skip";
    fg_lua_read_name(rd, t, "frozen", frozen, sizeof frozen);
    if (!strcmp(frozen, "skip"))
        def->frozen = FG_MOTION_FROZEN_SKIP;
    else if (!strcmp(frozen, "count"))
        def->frozen = FG_MOTION_FROZEN_COUNT;
    else {
        size_t old = fg_lua_reader_push(rd, ".frozen");
        fg_lua_reader_note(rd, "'%s', expected skip or count", frozen);
        fg_lua_reader_pop(rd, old);
    }
    return (int)n;
}

/* Feeds a declaration table (at idx) into the builder. A field that cannot be read is noted and
** reading goes on; a structure that cannot be read raises with the findings so far. */
static void read_declaration(fg_lua_reader *rd, int idx, fg_ruleset_builder *b) {
    lua_State *L = rd->L;
    idx = lua_absindex(L, idx);
    static const char *const fields[] = {"name",    "buttons",  "groups",   "layers",
                                         "resources", "motions", "actions", "physics",
                                         "request", "on_event", "on_reload", "replicated",
                                         "jump",    "boxes",    "combat",   "commands",
                                         "queue",   "stage",    "vars",     "projectiles",
                                         NULL};
    fg_lua_reader_pop(rd, 0);
    fg_lua_reader_only(rd, idx, fields);
    fg_error err = {0};
    if (fg_lua_reader_get(rd, idx, "buttons")) {
        size_t old = fg_lua_reader_push(rd, "buttons");
        fg_lua_reader_table(rd, -1, "a list of button names");
        lua_Integer n = luaL_len(L, -1);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_geti(L, -1, i);
            if (lua_type(L, -1) != LUA_TSTRING) {
                char buf[80];
                fg_lua_reader_push(rd, "[%lld]", (long long)i);
                fg_lua_reader_fail(rd, "expected a button name, got %s",
                                   fg_lua_describe_value(L, -1, buf, sizeof buf));
            }
            if (fg_ruleset_add_button(b, lua_tostring(L, -1), &err) != FG_OK)
                fg_lua_reader_note_error(rd, &err);
            lua_pop(L, 1);
        }
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    if (fg_lua_reader_get(rd, idx, "layers")) {
        char layers[FG_MAX_LAYERS][FG_NAME_MAX];
        lua_pop(L, 1);
        uint32_t n = fg_lua_read_names(rd, idx, "layers", layers, FG_MAX_LAYERS);
        for (uint32_t i = 0; i < n; i++)
            if (fg_ruleset_add_layer(b, layers[i], &err) != FG_OK)
                fg_lua_reader_note_error(rd, &err);
    } else {
        lua_pop(L, 1);
    }
    if (fg_lua_reader_get(rd, idx, "groups")) {
        size_t old = fg_lua_reader_push(rd, "groups");
        fg_lua_reader_table(rd, -1, "a table of group = { buttons }");
        int n = fg_lua_reader_keys(rd, -1);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            const char *k = lua_tostring(L, -1);
            char members[FG_MAX_TARGETS][FG_NAME_MAX];
            uint32_t m = fg_lua_read_names(rd, -3, k, members, FG_MAX_TARGETS);
            const char *ptrs[FG_MAX_TARGETS];
            for (uint32_t j = 0; j < m; j++)
                ptrs[j] = members[j];
            if (fg_ruleset_add_group(b, k, ptrs, m, &err) != FG_OK)
                fg_lua_reader_note_error(rd, &err);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    if (fg_lua_reader_get(rd, idx, "resources")) {
        size_t old = fg_lua_reader_push(rd, "resources");
        fg_lua_reader_table(rd, -1, "a table of name = { max =, start = }");
        int n = fg_lua_reader_keys(rd, -1);
        static const char *const rfields[] = {"max", "start", "regen", "every", NULL};
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            const char *k = lua_tostring(L, -1);
            lua_getfield(L, -3, k);
            size_t o2 = fg_lua_reader_push(rd, ".%s", k);
            fg_lua_reader_table(rd, -1, "{ max =, start = }");
            fg_lua_reader_only(rd, -1, rfields);
            fg_resource_def r;
            memset(&r, 0, sizeof r);
            snprintf(r.name, sizeof r.name, "%s", k);
            r.max = (int32_t)fg_lua_read_int(rd, -1, "max", 100, -1000000000, 1000000000);
            r.start = (int32_t)fg_lua_read_int(rd, -1, "start", 0, -1000000000, 1000000000);
            r.regen = (int32_t)fg_lua_read_int(rd, -1, "regen", 0, -1000000000, 1000000000);
            r.regen_every = (int32_t)fg_lua_read_int(rd, -1, "every", 1, -1000000000, 1000000000);
            if (fg_ruleset_add_resource(b, &r, &err) != FG_OK)
                fg_lua_reader_note_error(rd, &err);
            fg_lua_reader_pop(rd, o2);
            lua_pop(L, 2);
        }
        lua_pop(L, 1);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    if (fg_lua_reader_get(rd, idx, "queue")) {
        size_t old = fg_lua_reader_push(rd, "queue");
        fg_lua_reader_table(rd, -1, "{ depth =, order = \"fifo\"|\"latest\", expiry = }");
        static const char *const qfields[] = {"depth", "order", "expiry", NULL};
        fg_lua_reader_only(rd, -1, qfields);
        fg_queue_policy q = fg_queue_policy_default();
        char order[16] = "fifo";
        fg_lua_read_name(rd, -1, "order", order, sizeof order);
        if (!strcmp(order, "latest")) q.order = FG_QUEUE_LATEST;
        else if (strcmp(order, "fifo") != 0) {
            size_t o2 = fg_lua_reader_push(rd, ".order");
            fg_lua_reader_note(rd, "'%s', expected fifo or latest", order);
            fg_lua_reader_pop(rd, o2);
        }
        /* "latest" keeps one request: its depth is 1 unless given. */
        q.depth = (uint32_t)fg_lua_read_int(rd, -1, "depth", q.order == FG_QUEUE_LATEST ? 1 : 3, 1,
                                      FG_QUEUE_MAX);
        q.expiry = (int32_t)fg_lua_read_int(rd, -1, "expiry", 0, 0, 600);
        fg_ruleset_set_queue(b, &q);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    fg_lua_read_ruleset_hits(rd, idx, b);
    fg_lua_read_ruleset_vars(rd, idx, b);
    if (fg_lua_reader_get(rd, idx, "physics")) {
        size_t old = fg_lua_reader_push(rd, "physics");
        fg_lua_reader_table(rd, -1, "{ gravity =, ground =, min_gap =, stage = { min, max } }");
        static const char *const pfields[] = {"gravity", "ground", "min_gap", "stage_min",
                                              "stage_max", NULL};
        fg_lua_reader_only(rd, -1, pfields);
        fg_physics_def p = fg_physics_def_default();
        p.gravity = fg_lua_read_fx(rd, -1, "gravity", p.gravity);
        p.ground_y = fg_lua_read_fx(rd, -1, "ground", p.ground_y);
        p.min_gap = fg_lua_read_fx(rd, -1, "min_gap", p.min_gap);
        p.stage_min = fg_lua_read_fx(rd, -1, "stage_min", p.stage_min);
        p.stage_max = fg_lua_read_fx(rd, -1, "stage_max", p.stage_max);
        fg_ruleset_set_physics(b, &p);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    if (fg_lua_reader_get(rd, idx, "replicated")) {
        size_t old = fg_lua_reader_push(rd, "replicated");
        fg_lua_reader_table(rd, -1, "{ properties = { ... }, actions = { ... } }");
        static const char *const rfields[] = {"properties", "actions", NULL};
        fg_lua_reader_only(rd, -1, rfields);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    if (fg_lua_reader_get(rd, idx, "jump")) {
        size_t old = fg_lua_reader_push(rd, "jump");
        fg_lua_reader_table(rd, -1, "{ button =, buffer =, coyote =, action = }");
        static const char *const jfields[] = {"button", "buffer", "coyote", "action", NULL};
        fg_lua_reader_only(rd, -1, jfields);
        fg_lua_read_int(rd, -1, "buffer", 0, 0, 600);
        fg_lua_read_int(rd, -1, "coyote", 0, 0, 600);
        char button[FG_IN_NAME_MAX] = "";
        fg_lua_read_name(rd, -1, "button", button, sizeof button);
        char action[FG_NAME_MAX] = "";
        fg_lua_read_name(rd, -1, "action", action, sizeof action);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    if (fg_lua_reader_get(rd, idx, "stage")) {
        size_t old = fg_lua_reader_push(rd, "stage");
        fg_stage s = fg_stage_default();
        fg_lua_read_stage(rd, lua_gettop(L), &s);
        fg_ruleset_set_stage(b, &s);
        fg_lua_reader_pop(rd, old);
        /* The floor and walls are said once: a stage's, or the physics' older fields. */
        static const char *const said[] = {"ground", "stage_min", "stage_max", NULL};
        if (lua_getfield(L, idx, "physics") == LUA_TTABLE) {
            for (int i = 0; said[i]; i++) {
                bool given = lua_getfield(L, -1, said[i]) != LUA_TNIL;
                lua_pop(L, 1);
                if (!given) continue;
                size_t o2 = fg_lua_reader_push(rd, "physics.%s", said[i]);
                fg_lua_reader_note(rd, "the stage gives the floor and walls: say them once "
                                   "(stage.floor, stage.walls)");
                fg_lua_reader_pop(rd, o2);
            }
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (fg_lua_reader_get(rd, idx,
                          "commands")) { /* the motion command mode: "consume" or "flags" */
        size_t old = fg_lua_reader_push(rd, "commands");
        const char *mode = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        if (mode && strcmp(mode, "flags") == 0) {
            fg_ruleset_set_command_mode(b, FG_MOTION_MODE_FLAGS);
        } else if (mode && strcmp(mode, "consume") == 0) {
            fg_ruleset_set_command_mode(b, FG_MOTION_MODE_CONSUME);
        } else {
            char buf[80];
            fg_lua_reader_note(rd, "%s, expected \"consume\" or \"flags\"",
                               fg_lua_describe_value(L, -1, buf, sizeof buf));
        }
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    if (fg_lua_reader_get(rd, idx, "motions")) {
        size_t old = fg_lua_reader_push(rd, "motions");
        fg_lua_reader_table(rd, -1, "a table of name = { \"notation\", ... }");
        int n = fg_lua_reader_keys(rd, -1);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            const char *k = lua_tostring(L, -1);
            lua_getfield(L, -3, k);
            size_t o2 = fg_lua_reader_push(rd, ".%s", k);
            fg_motion_def def;
            memset(&def, 0, sizeof def);
            def.name = k;
            if (lua_type(L, -1) == LUA_TSTRING) {
                def.notation = lua_tostring(L, -1);
                if (fg_ruleset_add_motion(b, &def, &err) != FG_OK)
                    fg_lua_reader_note_error(rd, &err);
            } else {
                fg_lua_reader_table(rd, -1, "a notation string or { \"236P\", window = 12 }");
                int nn = read_motion_options(rd, -1, &def);
                for (int j = 1; j <= nn; j++) {
                    lua_rawgeti(L, -1, j);
                    def.notation = lua_tostring(L, -1); /* alive in the table */
                    lua_pop(L, 1);
                    if (fg_ruleset_add_motion(b, &def, &err) != FG_OK)
                        fg_lua_reader_note_error(rd, &err);
                }
            }
            fg_lua_reader_pop(rd, o2);
            lua_pop(L, 2);
        }
        lua_pop(L, 1);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    if (fg_lua_reader_get(rd, idx, "actions")) {
        size_t old = fg_lua_reader_push(rd, "actions");
        fg_lua_reader_table(rd, -1, "a table of name = { ... }");
        int n = fg_lua_reader_keys(rd, -1);
        fg_action_def *a = lua_newuserdatauv(L, sizeof *a, 0);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -2, i);
            const char *k = lua_tostring(L, -1);
            lua_getfield(L, -4, k);
            size_t o2 = fg_lua_reader_push(rd, ".%s", k);
            read_action(rd, -1, k, a);
            if (fg_ruleset_add_action(b, a, &err) != FG_OK) fg_lua_reader_note_error(rd, &err);
            fg_lua_reader_pop(rd, o2);
            lua_pop(L, 2);
        }
        lua_pop(L, 2);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
}

/* }====================================================================== */

/* {====================================================================== Rules userdata */

static int builder_guard_close(lua_State *L);

fg_lua_rules *fg_lua_check_rules(lua_State *L, int idx) {
    fg_lua_rules *lr = luaL_checkudata(L, idx, RULES_T);
    if (!lr->rules) luaL_error(L, "attempt to use released rules");
    return lr;
}

fg_lua_rules *fg_lua_test_rules(lua_State *L, int idx) {
    fg_lua_rules *lr = luaL_testudata(L, idx, RULES_T);
    return lr && lr->rules ? lr : NULL;
}

static int rules_gc(lua_State *L) {
    fg_lua_rules *lr = luaL_checkudata(L, 1, RULES_T);
    if (lr->rules) {
        fg_ruleset_unref(lr->rules);
        lr->rules = NULL;
    }
    return 0;
}

static int rules_tostring(lua_State *L) {
    fg_lua_rules *lr = luaL_checkudata(L, 1, RULES_T);
    if (!lr->rules) {
        lua_pushliteral(L, "framegate.Rules (released)");
        return 1;
    }
    lua_pushfstring(L, "framegate.Rules '%s' (%d actions, hash %s)", fg_ruleset_name(lr->rules),
                    (int)fg_ruleset_action_count(lr->rules), lr->hash_hex);
    return 1;
}

static int rules_name(lua_State *L) {
    lua_pushstring(L, fg_ruleset_name(fg_lua_check_rules(L, 1)->rules));
    return 1;
}

static int rules_hash(lua_State *L) {
    lua_pushstring(L, fg_lua_check_rules(L, 1)->hash_hex);
    return 1;
}

/* rules:actions() -> sorted list of action names. */
static int rules_actions(lua_State *L) {
    const fg_ruleset *r = fg_lua_check_rules(L, 1)->rules;
    lua_createtable(L, (int)fg_ruleset_action_count(r), 0);
    for (uint32_t i = 0; i < fg_ruleset_action_count(r); i++) {
        lua_pushstring(L, fg_ruleset_action(r, i)->name);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* The action's hit as rules:action reports it: range in pixels, the rest in ticks and points. */

/* rules:action(name) -> table of the compiled definition, or nil. */
static int rules_action(lua_State *L) {
    const fg_ruleset *r = fg_lua_check_rules(L, 1)->rules;
    int id = fg_ruleset_find_action(r, luaL_checkstring(L, 2));
    if (id < 0) {
        lua_pushnil(L);
        return 1;
    }
    const fg_action_def *a = fg_ruleset_action(r, (uint32_t)id);
    lua_createtable(L, 0, 12);
    lua_pushstring(L, a->name);
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, a->startup);
    lua_setfield(L, -2, "startup");
    lua_pushinteger(L, a->active);
    lua_setfield(L, -2, "active");
    lua_pushinteger(L, a->recovery);
    lua_setfield(L, -2, "recovery");
    lua_pushinteger(L, a->duration);
    lua_setfield(L, -2, "duration");
    lua_pushstring(L, a->group);
    lua_setfield(L, -2, "group");
    lua_pushstring(L, fg_ruleset_layer_name(r, fg_ruleset_action_layer(r, (uint32_t)id)));
    lua_setfield(L, -2, "layer");
    lua_pushboolean(L, a->neutral);
    lua_setfield(L, -2, "neutral");
    lua_createtable(L, (int)a->ntags, 0);
    for (uint32_t i = 0; i < a->ntags; i++) {
        lua_pushstring(L, a->tags[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "tags");
    lua_pushinteger(L, id);
    lua_setfield(L, -2, "id");
    fg_lua_push_action_hits(L, a);
    return 1;
}

/* rules:stage() -> the stage a world with these rules starts with. */
static int rules_stage(lua_State *L) {
    fg_lua_push_stage(L, fg_ruleset_stage(fg_lua_check_rules(L, 1)->rules));
    return 1;
}

/* rules:vars() -> { name = { min =, max =, start =, flag = } } as declared. */
static int rules_vars(lua_State *L) {
    return fg_lua_push_rules_vars(L, fg_lua_check_rules(L, 1)->rules);
}

/* rules:physics() -> {gravity=, ground_y=, min_gap=, stage_min=, stage_max=} in pixels. */
static int rules_physics(lua_State *L) {
    const fg_physics_def *p = fg_ruleset_physics(fg_lua_check_rules(L, 1)->rules);
    lua_createtable(L, 0, 5);
    const struct { const char *k; fg_fx v; } f[] = {
        {"gravity", p->gravity},     {"ground_y", p->ground_y},   {"min_gap", p->min_gap},
        {"stage_min", p->stage_min}, {"stage_max", p->stage_max}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        lua_pushnumber(L, (lua_Number)f[i].v / FG_FX_ONE);
        lua_setfield(L, -2, f[i].k);
    }
    return 1;
}

/* Pushes the findings of a build as a list of {path=, message=, severity=, warning=}. */
static void push_findings(lua_State *L, const fg_findings *f) {
    uint32_t n = fg_findings_count(f);
    lua_createtable(L, (int)n, 0);
    for (uint32_t i = 0; i < n; i++) {
        fg_finding x = fg_findings_get(f, i);
        lua_createtable(L, 0, 5);
        lua_pushstring(L, x.path);
        lua_setfield(L, -2, "path");
        lua_pushstring(L, x.message);
        lua_setfield(L, -2, "message");
        lua_pushstring(L, fg_severity_name(x.severity));
        lua_setfield(L, -2, "severity");
        lua_pushboolean(L, x.severity == FG_SEVERITY_WARNING);
        lua_setfield(L, -2, "warning");
        if (x.line > 0) {
            lua_pushinteger(L, x.line);
            lua_setfield(L, -2, "line");
        }
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
}

/* What a build holds while the declaration is read and the result translated: freed by the
** guard's __gc if anything raises on the way. */
typedef struct build_guard {
    fg_ruleset_builder *b;
    fg_findings *findings;
} build_guard;

int fg_lua_build_rules(lua_State *L, int decl, const char *chunk, uint64_t source_hash) {
    decl = lua_absindex(L, decl);
    if (!lua_istable(L, decl)) {
        char buf[80];
        return luaL_error(L, "%s%sexpected a ruleset table (fg.ruleset \"name\" { ... }), got %s",
                          chunk ? chunk : "", chunk ? ": " : "",
                          fg_lua_describe_value(L, decl, buf, sizeof buf));
    }
    fg_lua_reader rd;
    fg_lua_reader_init(&rd, L, NULL, chunk);
    rd.summary = summary;
    lua_newtable(L);
    rd.notes = lua_gettop(L);
    lua_newtable(L);
    rd.extra = lua_gettop(L);
    char name[FG_NAME_MAX] = "rules";
    fg_lua_read_name(&rd, decl, "name", name, sizeof name);
    rd.name = name;
    /* The builder and the findings must not leak if reading raises: a guard userdata frees
    ** them when collected. */
    build_guard *guard = lua_newuserdatauv(L, sizeof *guard, 0);
    memset(guard, 0, sizeof *guard);
    int guard_idx = lua_gettop(L);
    if (luaL_newmetatable(L, "framegate.BuilderGuard")) {
        lua_pushcfunction(L, builder_guard_close);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    fg_ruleset_builder *b = guard->b = fg_ruleset_builder_create(name, NULL);
    fg_error err = {0};
    if (!b || fg_findings_create(NULL, &guard->findings, &err) != FG_OK)
        return luaL_error(L, "rules: out of memory");
    /* The hash of the files' text, so the trace of a reload names exactly what was loaded. */
    fg_ruleset_set_source_hash(b, source_hash);
    read_declaration(&rd, decl, b);
    fg_findings *findings = guard->findings;
    fg_ruleset *r = fg_ruleset_build(b, findings, &err);
    fg_ruleset_builder_destroy(b);
    guard->b = NULL;
    /* What could not be read refuses the ruleset too; the validator's findings on the rest
    ** follow, so one load lists everything. */
    if (!r || lua_rawlen(L, rd.notes) > 0) {
        if (r) fg_ruleset_unref(r);
        push_invalid(&rd, findings, !r && fg_findings_errors(findings) == 0 ? fg_error_message(&err) : NULL);
        fg_error_clear(&err);
        return lua_error(L);
    }
    fg_lua_rules *lr = lua_newuserdatauv(L, sizeof *lr, 1);
    memset(lr, 0, sizeof *lr);
    lr->rules = r;
    snprintf(lr->hash_hex, sizeof lr->hash_hex, "%016llx", (unsigned long long)fg_ruleset_hash(r));
    luaL_setmetatable(L, RULES_T);
    /* User value: { request =, on_event =, on_reload =, findings =, declaration = }. */
    lua_createtable(L, 0, 5);
    static const char *const hooks[] = {"request", "on_event", "on_reload", NULL};
    for (const char *const *h = hooks; *h; h++) {
        int ty = lua_getfield(L, decl, *h);
        if (ty != LUA_TNIL && ty != LUA_TFUNCTION)
            return luaL_error(L, "%s%s%s: expected a function, got %s", chunk ? chunk : "",
                              chunk ? ": " : "", *h, luaL_typename(L, -1));
        lua_setfield(L, -2, *h);
    }
    push_findings(L, findings);
    lua_setfield(L, -2, "findings");
    fg_lua_plain_copy(L, decl); /* read later by the host, outside any budget */
    lua_setfield(L, -2, "declaration");
    lua_setiuservalue(L, -2, 1);
    fg_findings_destroy(guard->findings);
    guard->findings = NULL;
    lua_remove(L, guard_idx);
    lua_remove(L, rd.extra);
    lua_remove(L, rd.notes);
    lua_remove(L, rd.box);
    return 1;
}

static int builder_guard_close(lua_State *L) {
    build_guard *guard = lua_touserdata(L, 1);
    if (guard) {
        fg_ruleset_builder_destroy(guard->b);
        fg_findings_destroy(guard->findings);
        guard->b = NULL;
        guard->findings = NULL;
    }
    return 0;
}

/* rules:sources() -> { { path =, text = }, ... }: every file the rules were read from. */
static int rules_sources(lua_State *L) {
    fg_lua_check_rules(L, 1);
    lua_getiuservalue(L, 1, 1);
    if (lua_getfield(L, -1, "sources") == LUA_TNIL) {
        lua_pop(L, 1);
        lua_newtable(L);
    }
    return 1;
}

/* rules:replication([opts]) -> a replication session (fg.replication) for the properties and
** predicted actions the ruleset declares in `replicated = { properties =, actions = }`; opts
** adds the links, seed and hooks. */
static int rules_replication(lua_State *L) {
    fg_lua_check_rules(L, 1);
    lua_settop(L, 2);
    lua_getiuservalue(L, 1, 1);
    lua_getfield(L, -1, "declaration");
    if (lua_getfield(L, -1, "replicated") != LUA_TTABLE)
        return luaL_error(L, "rules '%s' declare nothing to replicate (no 'replicated' table)",
                          fg_ruleset_name(fg_lua_check_rules(L, 1)->rules));
    int decl = lua_gettop(L);
    lua_newtable(L); /* the arguments of fg.replication */
    int args = lua_gettop(L);
    if (lua_istable(L, 2)) {
        lua_pushnil(L);
        while (lua_next(L, 2)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_settable(L, args);
        }
    }
    static const char *const parts[] = {"properties", "actions", NULL};
    for (const char *const *p = parts; *p; p++)
        if (lua_getfield(L, args, *p) == LUA_TNIL) {
            lua_getfield(L, decl, *p);
            lua_setfield(L, args, *p);
        }
    lua_settop(L, args);
    lua_replace(L, 1);
    lua_settop(L, 1);
    return fg_lua_replication_new(L);
}

/* rules:findings() -> the validator's warnings. */
static int rules_findings(lua_State *L) {
    fg_lua_check_rules(L, 1);
    lua_getiuservalue(L, 1, 1);
    lua_getfield(L, -1, "findings");
    return 1;
}

/* fg.ruleset "name" { ... } -> the declaration, named. [-1, +1, v] */
static int ruleset_apply(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_setfield(L, 1, "name");
    lua_settop(L, 1);
    return 1;
}

static int l_ruleset(lua_State *L) {
    size_t len;
    luaL_checklstring(L, 1, &len);
    luaL_argcheck(L, len > 0 && len < FG_NAME_MAX, 1, "a name of 1 to 31 characters expected");
    lua_pushvalue(L, 1);
    lua_pushcclosure(L, ruleset_apply, 1);
    return 1;
}

/* }====================================================================== */

/* {====================================================================== verdicts */

/* Verdicts are immutable userdata (fg.default is one value shared by every rule of every world,
** so a rule must not be able to change it): fg.default, fg.accept(text), fg.queue(ticks, text),
** fg.reject(text). A reason longer than a decision holds is refused here, at the rule's line,
** rather than cut. */
static int push_verdict(lua_State *L, fg_verdict_kind kind, int ticks, int text_idx) {
    fg_verdict *v = lua_newuserdatauv(L, sizeof *v, 0);
    memset(v, 0, sizeof *v);
    v->kind = kind;
    v->queue_ticks = ticks;
    if (text_idx && !lua_isnoneornil(L, text_idx)) {
        size_t len;
        const char *text = luaL_checklstring(L, text_idx, &len);
        if (len >= sizeof v->text)
            return luaL_error(L, "framegate: a verdict's reason holds at most %d bytes, this one "
                              "has %d: \"%.40s...\"", (int)sizeof v->text - 1, (int)len, text);
        memcpy(v->text, text, len);
    }
    luaL_setmetatable(L, VERDICT_T);
    return 1;
}

static int l_accept(lua_State *L) { return push_verdict(L, FG_VERDICT_ACCEPT, 0, 1); }
static int l_reject(lua_State *L) { return push_verdict(L, FG_VERDICT_REJECT, 0, 1); }

static int l_queue(lua_State *L) {
    lua_Integer ticks = luaL_checkinteger(L, 1);
    luaL_argcheck(L, ticks >= 1 && ticks <= 600, 1, "ticks to wait, 1..600, expected");
    return push_verdict(L, FG_VERDICT_QUEUE, (int)ticks, 2);
}

static const char *verdict_name(fg_verdict_kind k) {
    switch (k) {
    case FG_VERDICT_ACCEPT: return "accept";
    case FG_VERDICT_REJECT: return "reject";
    case FG_VERDICT_QUEUE: return "queue";
    default: return "default";
    }
}

static int verdict_index(lua_State *L) {
    const fg_verdict *v = luaL_checkudata(L, 1, VERDICT_T);
    const char *k = luaL_checkstring(L, 2);
    if (strcmp(k, "verdict") == 0) lua_pushstring(L, verdict_name(v->kind));
    else if (strcmp(k, "ticks") == 0 && v->kind == FG_VERDICT_QUEUE) lua_pushinteger(L, v->queue_ticks);
    else if (strcmp(k, "text") == 0 && v->text[0]) lua_pushstring(L, v->text);
    else lua_pushnil(L);
    return 1;
}

static int verdict_newindex(lua_State *L) {
    return luaL_error(L, "framegate: verdicts are read-only (make a new one with fg.accept, "
                      "fg.queue or fg.reject)");
}

static int verdict_tostring(lua_State *L) {
    const fg_verdict *v = luaL_checkudata(L, 1, VERDICT_T);
    if (v->text[0]) lua_pushfstring(L, "framegate.Verdict (%s: %s)", verdict_name(v->kind), v->text);
    else lua_pushfstring(L, "framegate.Verdict (%s)", verdict_name(v->kind));
    return 1;
}

bool fg_lua_read_verdict(lua_State *L, int idx, fg_verdict *out, fg_error *err) {
    memset(out, 0, sizeof *out);
    const fg_verdict *v = luaL_testudata(L, idx, VERDICT_T);
    if (!v) {
        fg_error_set(err, FG_ERULE, "request rule returned %s; expected fg.default, "
                     "fg.accept(...), fg.queue(...) or fg.reject(...)",
                     lua_istable(L, idx) ? "a plain table" : luaL_typename(L, idx));
        return false;
    }
    *out = *v;
    return true;
}

/* }====================================================================== */

void fg_lua_open_rules(lua_State *L) {
    static const luaL_Reg funcs[] = {
        {"ruleset", l_ruleset}, {"accept", l_accept},
        {"reject", l_reject}, {"queue", l_queue},     {NULL, NULL},
    };
    static const luaL_Reg methods[] = {
        {"name", rules_name},       {"hash", rules_hash},         {"actions", rules_actions},
        {"action", rules_action},   {"findings", rules_findings}, {"sources", rules_sources},
        {"replication", rules_replication}, {"physics", rules_physics}, {"stage", rules_stage},
        {"vars", rules_vars},
        {NULL, NULL},
    };
    static const luaL_Reg meta[] = {
        {"__gc", rules_gc}, {"__close", rules_gc}, {"__tostring", rules_tostring}, {NULL, NULL},
    };
    luaL_setfuncs(L, funcs, 0);
    fg_lua_class(L, RULES_T, methods, meta);
    static const luaL_Reg verdict_meta[] = {
        {"__index", verdict_index}, {"__newindex", verdict_newindex},
        {"__tostring", verdict_tostring}, {NULL, NULL},
    };
    fg_lua_class(L, VERDICT_T, NULL, verdict_meta);
    push_verdict(L, FG_VERDICT_DEFAULT, 0, 0);
    lua_setfield(L, -2, "default");
}
