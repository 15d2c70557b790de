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

typedef struct reader {
    lua_State *L;
    char path[160];
    const char *chunk; /* where the declaration came from, for messages */
} reader;

static int fail(reader *rd, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (rd->chunk) return luaL_error(rd->L, "%s: %s: %s", rd->chunk, rd->path, msg);
    return luaL_error(rd->L, "%s: %s", rd->path, msg);
}

/* Path helpers: push a segment, returning the old length to restore. */
static size_t path_push(reader *rd, const char *fmt, ...) {
    size_t old = strlen(rd->path);
    /* A field of the declaration itself has no parent: "actoins", not ".actoins". */
    if (old == 0 && fmt[0] == '.') fmt++;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rd->path + old, sizeof rd->path - old, fmt, ap);
    va_end(ap);
    return old;
}

static void path_pop(reader *rd, size_t old) { rd->path[old] = '\0'; }

static const char *describe_value(lua_State *L, int idx, char *buf, size_t size) {
    switch (lua_type(L, idx)) {
    case LUA_TSTRING: snprintf(buf, size, "string '%s'", lua_tostring(L, idx)); break;
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx)) snprintf(buf, size, "%lld", (long long)lua_tointeger(L, idx));
        else snprintf(buf, size, "%g", lua_tonumber(L, idx));
        break;
    default: snprintf(buf, size, "%s", luaL_typename(L, idx));
    }
    return buf;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Pushes the string keys of the table at idx as a sorted array (a new table) and returns their
** count. Keys are strings only: a list item where a name was expected is an error. */
static int sorted_keys(reader *rd, int idx) {
    lua_State *L = rd->L;
    idx = lua_absindex(L, idx);
    int n = 0;
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            char v[64];
            fail(rd, "expected name = value entries, found key %s", describe_value(L, -1, v, sizeof v));
        }
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, ++n);
    }
    /* Sort through a C array of pointers; the strings stay alive in the keys table. */
    const char **keys = n ? lua_newuserdatauv(L, sizeof(char *) * (size_t)n, 0) : NULL;
    if (n) {
        for (int i = 0; i < n; i++) {
            lua_rawgeti(L, -2, i + 1);
            keys[i] = lua_tostring(L, -1);
            lua_pop(L, 1);
        }
        qsort(keys, (size_t)n, sizeof keys[0], cmp_str);
        lua_createtable(L, n, 0);
        for (int i = 0; i < n; i++) {
            lua_pushstring(L, keys[i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_replace(L, -3); /* sorted table replaces the unsorted one */
        lua_pop(L, 1);      /* the pointer array */
    }
    return n;
}

/* Checks that every key of the table at idx is one of `allowed`. */
static void only_fields(reader *rd, int idx, const char *const *allowed) {
    lua_State *L = rd->L;
    idx = lua_absindex(L, idx);
    int n = sorted_keys(rd, idx);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *k = lua_tostring(L, -1);
        bool ok = false;
        for (const char *const *a = allowed; *a; a++) ok |= strcmp(*a, k) == 0;
        if (!ok) {
            char list[300] = "";
            for (const char *const *a = allowed; *a; a++) {
                strncat(list, *a, sizeof list - strlen(list) - 3);
                if (a[1]) strncat(list, ", ", sizeof list - strlen(list) - 1);
            }
            size_t old = path_push(rd, ".%s", k);
            fail(rd, "unknown field (expected one of: %s)", list);
            path_pop(rd, old);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static bool get_field(reader *rd, int t, const char *k) {
    return lua_getfield(rd->L, t, k) != LUA_TNIL;
}

static lua_Integer int_field(reader *rd, int t, const char *k, lua_Integer def, lua_Integer lo,
                             lua_Integer hi) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    lua_Integer v = def;
    if (get_field(rd, t, k)) {
        int ok;
        char buf[80];
        size_t old = path_push(rd, ".%s", k);
        v = lua_tointegerx(L, -1, &ok);
        if (!ok) fail(rd, "expected an integer, got %s", describe_value(L, -1, buf, sizeof buf));
        if (v < lo || v > hi) fail(rd, "%lld, expected %lld..%lld", (long long)v, (long long)lo,
                                   (long long)hi);
        path_pop(rd, old);
    }
    lua_pop(L, 1);
    return v;
}

/* A distance or speed in pixels (fractions allowed), stored as 16.16 fixed point. */
static fg_fx fx_field(reader *rd, int t, const char *k, fg_fx def) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    fg_fx v = def;
    if (get_field(rd, t, k)) {
        char buf[80];
        size_t old = path_push(rd, ".%s", k);
        if (lua_type(L, -1) != LUA_TNUMBER)
            fail(rd, "expected a number, got %s", describe_value(L, -1, buf, sizeof buf));
        double d = lua_tonumber(L, -1);
        if (!isfinite(d) || fabs(d) > 30000.0)
            fail(rd, "%g, expected a finite value within +-30000", d);
        v = (fg_fx)lround(d * FG_FX_ONE);
        path_pop(rd, old);
    }
    lua_pop(L, 1);
    return v;
}

static bool bool_field(reader *rd, int t, const char *k, bool def) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    bool v = def;
    if (get_field(rd, t, k)) {
        char buf[80];
        size_t old = path_push(rd, ".%s", k);
        if (!lua_isboolean(L, -1))
            fail(rd, "expected true or false, got %s", describe_value(L, -1, buf, sizeof buf));
        v = lua_toboolean(L, -1);
        path_pop(rd, old);
    }
    lua_pop(L, 1);
    return v;
}

static void str_field(reader *rd, int t, const char *k, char *out, size_t size) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    if (get_field(rd, t, k)) {
        char buf[80];
        size_t old = path_push(rd, ".%s", k);
        if (lua_type(L, -1) != LUA_TSTRING)
            fail(rd, "expected a string, got %s", describe_value(L, -1, buf, sizeof buf));
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        if (len >= size) fail(rd, "'%s' is longer than %zu characters", s, size - 1);
        memcpy(out, s, len + 1);
        path_pop(rd, old);
    }
    lua_pop(L, 1);
}

/* Reads a list of names (or one name) at field k into out[max][FG_NAME_MAX]. */
static uint32_t names_field(reader *rd, int t, const char *k, char (*out)[FG_NAME_MAX],
                           uint32_t max) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    uint32_t n = 0;
    if (get_field(rd, t, k)) {
        char buf[80];
        size_t old = path_push(rd, ".%s", k);
        if (lua_type(L, -1) == LUA_TSTRING) {
            snprintf(out[n++], FG_NAME_MAX, "%s", lua_tostring(L, -1));
        } else if (lua_istable(L, -1)) {
            lua_Integer len = luaL_len(L, -1);
            if (len > (lua_Integer)max) fail(rd, "%lld names, at most %u", (long long)len, max);
            for (lua_Integer i = 1; i <= len; i++) {
                lua_geti(L, -1, i);
                if (lua_type(L, -1) != LUA_TSTRING) {
                    size_t o2 = path_push(rd, "[%lld]", (long long)i);
                    fail(rd, "expected a name, got %s", describe_value(L, -1, buf, sizeof buf));
                    path_pop(rd, o2);
                }
                const char *s = lua_tostring(L, -1);
                if (strlen(s) >= FG_NAME_MAX) fail(rd, "'%s' is too long", s);
                snprintf(out[n++], FG_NAME_MAX, "%s", s);
                lua_pop(L, 1);
            }
        } else {
            fail(rd, "expected a name or a list of names, got %s",
                 describe_value(L, -1, buf, sizeof buf));
        }
        path_pop(rd, old);
    }
    lua_pop(L, 1);
    return n;
}

static void check_table(reader *rd, int idx, const char *what) {
    char buf[80];
    if (!lua_istable(rd->L, idx))
        fail(rd, "expected %s, got %s", what, describe_value(rd->L, idx, buf, sizeof buf));
}

/* }====================================================================== */

/* {====================================================================== the declaration */

static fg_contact parse_on(reader *rd, int t) {
    char on[16] = "always";
    str_field(rd, t, "on", on, sizeof on);
    static const char *const names[] = {"always", "hit", "block", "whiff", "contact"};
    for (int i = 0; i < 5; i++)
        if (strcmp(on, names[i]) == 0) return (fg_contact)i;
    size_t old = path_push(rd, ".on");
    fail(rd, "'%s', expected always, hit, block, whiff or contact", on);
    path_pop(rd, old);
    return FG_ON_ALWAYS;
}

static void read_cancels(reader *rd, int t, fg_action_def *a) {
    lua_State *L = rd->L;
    if (!get_field(rd, t, "cancels")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = path_push(rd, ".cancels");
    check_table(rd, -1, "a list of windows");
    lua_Integer n = luaL_len(L, -1);
    if (n > FG_MAX_CANCELS) fail(rd, "%lld windows, at most %d", (long long)n, FG_MAX_CANCELS);
    static const char *const fields[] = {"from", "to", "on", "into", "buffer", NULL};
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, -1, i);
        size_t o2 = path_push(rd, "[%lld]", (long long)i);
        check_table(rd, -1, "a window { from =, to =, into = }");
        only_fields(rd, -1, fields);
        fg_cancel_def *c = &a->cancels[a->ncancels++];
        c->from = (int32_t)int_field(rd, -1, "from", 0, -1000000, 1000000);
        c->to = (int32_t)int_field(rd, -1, "to", c->from, -1000000, 1000000);
        c->buffer = (int32_t)int_field(rd, -1, "buffer", 0, -1000000, 1000000);
        c->on = parse_on(rd, -1);
        c->ntargets = names_field(rd, -1, "into", c->targets, FG_MAX_TARGETS);
        path_pop(rd, o2);
        lua_pop(L, 1);
    }
    path_pop(rd, old);
    lua_pop(L, 1);
}

static void read_markers(reader *rd, int t, fg_action_def *a) {
    lua_State *L = rd->L;
    if (!get_field(rd, t, "markers")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = path_push(rd, ".markers");
    check_table(rd, -1, "a list of { tick =, marker = }");
    lua_Integer n = luaL_len(L, -1);
    if (n > FG_MAX_MARKERS) fail(rd, "%lld markers, at most %d", (long long)n, FG_MAX_MARKERS);
    static const char *const fields[] = {"tick", "marker", "once", NULL};
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, -1, i);
        size_t o2 = path_push(rd, "[%lld]", (long long)i);
        check_table(rd, -1, "{ tick =, marker = }");
        only_fields(rd, -1, fields);
        fg_marker_def *m = &a->markers[a->nmarkers++];
        m->tick = (int32_t)int_field(rd, -1, "tick", 0, -1000000, 1000000);
        m->once = bool_field(rd, -1, "once", false);
        str_field(rd, -1, "marker", m->name, sizeof m->name);
        if (!m->name[0]) fail(rd, "needs a marker name");
        path_pop(rd, o2);
        lua_pop(L, 1);
    }
    path_pop(rd, old);
    lua_pop(L, 1);
}

static void read_moves(reader *rd, int t, fg_action_def *a) {
    lua_State *L = rd->L;
    if (!get_field(rd, t, "move")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = path_push(rd, ".move");
    check_table(rd, -1, "a list of { from =, to =, vx =, vy = }");
    lua_Integer n = luaL_len(L, -1);
    if (n > FG_MAX_MOVES) fail(rd, "%lld segments, at most %d", (long long)n, FG_MAX_MOVES);
    static const char *const fields[] = {"from", "to", "vx", "vy", NULL};
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, -1, i);
        size_t o2 = path_push(rd, "[%lld]", (long long)i);
        check_table(rd, -1, "{ from =, to =, vx =, vy = }");
        only_fields(rd, -1, fields);
        fg_move_def *m = &a->moves[a->nmoves++];
        m->from = (int32_t)int_field(rd, -1, "from", 0, -1000000, 1000000);
        m->to = (int32_t)int_field(rd, -1, "to", m->from, -1000000, 1000000);
        m->vx = fx_field(rd, -1, "vx", 0);
        m->vy = fx_field(rd, -1, "vy", 0);
        path_pop(rd, o2);
        lua_pop(L, 1);
    }
    path_pop(rd, old);
    lua_pop(L, 1);
}

static void read_costs(reader *rd, int t, fg_action_def *a) {
    lua_State *L = rd->L;
    if (!get_field(rd, t, "cost")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = path_push(rd, ".cost");
    check_table(rd, -1, "a table of resource = amount");
    int n = sorted_keys(rd, -1);
    if (n > FG_MAX_RESOURCES) fail(rd, "%d costs, at most %d", n, FG_MAX_RESOURCES);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *k = lua_tostring(L, -1);
        snprintf(a->cost_names[a->ncosts], FG_NAME_MAX, "%s", k);
        a->cost[a->ncosts] = (int32_t)int_field(rd, -3, k, 0, -1000000000, 1000000000);
        a->ncosts++;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    path_pop(rd, old);
    lua_pop(L, 1);
}

static void read_hit(reader *rd, int t, fg_action_def *a) {
    lua_State *L = rd->L;
    if (!get_field(rd, t, "hit")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = path_push(rd, ".hit");
    check_table(rd, -1, "{ damage =, range =, hitstop =, hitstun =, blockstun = }");
    static const char *const fields[] = {"damage", "range", "hitstop", "hitstun", "blockstun",
                                         "meter", "low", "overhead", NULL};
    only_fields(rd, -1, fields);
    fg_hit_def *h = &a->hit;
    h->enabled = true;
    h->damage = (int32_t)int_field(rd, -1, "damage", 0, -1000000, 1000000);
    h->range = fx_field(rd, -1, "range", FG_FX(60));
    h->hitstop = (int32_t)int_field(rd, -1, "hitstop", 8, -1000, 1000);
    h->hitstun = (int32_t)int_field(rd, -1, "hitstun", 12, -1000, 1000);
    h->blockstun = (int32_t)int_field(rd, -1, "blockstun", 8, -1000, 1000);
    h->meter_gain = (int32_t)int_field(rd, -1, "meter", 0, -1000000, 1000000);
    h->low = bool_field(rd, -1, "low", false);
    h->overhead = bool_field(rd, -1, "overhead", false);
    path_pop(rd, old);
    lua_pop(L, 1);
}

static int parse_dir(reader *rd, int t, const char *k) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    int d = 0;
    if (get_field(rd, t, k)) {
        size_t old = path_push(rd, ".%s", k);
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
            fail(rd, "%s, expected a numpad direction 1..9 (2 = down, 6 = forward)",
                 describe_value(L, -1, buf, sizeof buf));
        d = (int)v;
        path_pop(rd, old);
    }
    lua_pop(L, 1);
    return d;
}

static void read_action(reader *rd, int t, const char *name, fg_action_def *a) {
    static const char *const fields[] = {
        "startup", "active", "recovery", "duration", "loop", "neutral", "hold", "priority",
        "group", "requires", "layer", "input", "next", "tags", "cancels", "markers", "move",
        "root_motion", "cost", "hit", "interrupts", "forbids", NULL};
    check_table(rd, t, "an action table { startup =, active =, recovery = }");
    only_fields(rd, t, fields);
    *a = fg_action_def_default(name);
    a->startup = (int32_t)int_field(rd, t, "startup", 0, -1000000, 1000000);
    a->active = (int32_t)int_field(rd, t, "active", 0, -1000000, 1000000);
    a->recovery = (int32_t)int_field(rd, t, "recovery", 0, -1000000, 1000000);
    int32_t duration = (int32_t)int_field(rd, t, "duration", -1, -1000000, 1000000);
    if (duration >= 0) {
        /* "duration = n" alone: a state with no phases (idle, walk, hitstun). */
        if (a->startup + a->active + a->recovery == 0) a->recovery = duration;
        else if (a->startup + a->active + a->recovery != duration) {
            size_t old = path_push(rd, ".duration");
            fail(rd, "%d, but startup + active + recovery = %d", duration,
                 a->startup + a->active + a->recovery);
            path_pop(rd, old);
        }
    }
    if (a->startup + a->active + a->recovery == 0) a->recovery = 1;
    a->duration = a->startup + a->active + a->recovery;
    a->loop = bool_field(rd, t, "loop", false);
    a->neutral = bool_field(rd, t, "neutral", false);
    a->hold_dir = parse_dir(rd, t, "hold");
    if (a->hold_dir) a->neutral = true;
    a->priority = (int32_t)int_field(rd, t, "priority", 0, -1000000, 1000000);
    str_field(rd, t, "group", a->group, sizeof a->group);
    str_field(rd, t, "requires", a->requires, sizeof a->requires);
    str_field(rd, t, "layer", a->layer, sizeof a->layer);
    str_field(rd, t, "input", a->input, sizeof a->input);
    str_field(rd, t, "next", a->next, sizeof a->next);
    a->ntags = names_field(rd, t, "tags", a->tags, FG_MAX_TAGS);
    a->nforbids = names_field(rd, t, "forbids", a->forbids, FG_MAX_TAGS);
    a->interrupts = bool_field(rd, t, "interrupts", false);
    char rm[16] = "authoritative";
    str_field(rd, t, "root_motion", rm, sizeof rm);
    if (!strcmp(rm, "authoritative")) a->root_motion = FG_ROOT_AUTHORITATIVE;
    else if (!strcmp(rm, "suggested")) a->root_motion = FG_ROOT_SUGGESTED;
    else if (!strcmp(rm, "presentation")) a->root_motion = FG_ROOT_PRESENTATION;
    else {
        size_t old = path_push(rd, ".root_motion");
        fail(rd, "'%s', expected authoritative, suggested or presentation", rm);
        path_pop(rd, old);
    }
    read_cancels(rd, t, a);
    read_markers(rd, t, a);
    read_moves(rd, t, a);
    read_costs(rd, t, a);
    read_hit(rd, t, a);
}

/* gaps = { 12, 0, 6 }: per-step gap overrides, in the order tostring prints the steps' gaps
** (0 keeps a step's default). Leaves the stack as it found it. */
static void read_motion_gaps(reader *rd, int t, fg_motion_def *def) {
    lua_State *L = rd->L;
    if (!get_field(rd, t, "gaps")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = path_push(rd, ".gaps");
    char v[64];
    if (!lua_istable(L, -1))
        fail(rd, "expected a list of step gaps such as { 12, 12, 8 }, got %s",
             describe_value(L, -1, v, sizeof v));
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    if (n > FG_MOTION_MAX_STEPS - 1)
        fail(rd, "%lld entries, a motion has at most %d step gaps", (long long)n,
             FG_MOTION_MAX_STEPS - 1);
    for (lua_Integer i = 1; i <= n; i++) {
        size_t o2 = path_push(rd, "[%lld]", (long long)i);
        int ok;
        lua_rawgeti(L, -1, i);
        lua_Integer g = lua_tointegerx(L, -1, &ok);
        if (!ok || g < 0 || g > FG_MOTION_MAX_TICKS)
            fail(rd, "%s, expected 0..%d ticks (0 = the step's default)",
                 describe_value(L, -1, v, sizeof v), FG_MOTION_MAX_TICKS);
        def->gaps[i - 1] = (int32_t)g;
        lua_pop(L, 1);
        path_pop(rd, o2);
    }
    path_pop(rd, old);
    lua_pop(L, 1);
}

/* { "236P", window = 12, buffer = 2, priority = 5, gap = 8, charge = 40, absolute = true,
**   frozen = "skip"|"count" }: the notations first (several = alternatives under one name),
** then the matcher options, as fg.motion_set takes them. Returns how many notations. */
static int read_motion_options(reader *rd, int t, fg_motion_def *def) {
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
            fail(rd, "unknown field %s (expected the notations first, then window, buffer, "
                 "priority, gap, gaps, charge, absolute or frozen)", describe_value(L, -1, v, sizeof v));
        }
    }
    if (n < 1) fail(rd, "needs a notation, as in { \"236P\", window = 12 }");
    for (lua_Integer i = 1; i <= n; i++) {
        if (lua_rawgeti(L, t, i) != LUA_TSTRING) {
            char v[64];
            size_t old = path_push(rd, "[%lld]", (long long)i);
            fail(rd, "expected a notation string, got %s", describe_value(L, -1, v, sizeof v));
            path_pop(rd, old);
        }
        lua_pop(L, 1);
    }
    def->time = (int32_t)int_field(rd, t, "window", 0, 0, FG_MOTION_MAX_TICKS);
    def->time = (int32_t)int_field(rd, t, "time", def->time, 0, FG_MOTION_MAX_TICKS);
    def->buffer = (int32_t)int_field(rd, t, "buffer", 0, 0, FG_MOTION_MAX_TICKS);
    def->gap = (int32_t)int_field(rd, t, "gap", 0, 0, FG_MOTION_MAX_TICKS);
    read_motion_gaps(rd, t, def);
    def->charge = (int32_t)int_field(rd, t, "charge", 0, 0, FG_MOTION_MAX_TICKS);
    def->absolute = bool_field(rd, t, "absolute", false);
    if (get_field(rd, t, "priority")) def->has_priority = true;
    lua_pop(L, 1);
    def->priority = (int32_t)int_field(rd, t, "priority", 0, -1000000, 1000000);
    char frozen[8] = "skip";
    str_field(rd, t, "frozen", frozen, sizeof frozen);
    if (!strcmp(frozen, "skip")) def->frozen = FG_MOTION_FROZEN_SKIP;
    else if (!strcmp(frozen, "count")) def->frozen = FG_MOTION_FROZEN_COUNT;
    else {
        size_t old = path_push(rd, ".frozen");
        fail(rd, "'%s', expected skip or count", frozen);
        path_pop(rd, old);
    }
    return (int)n;
}

/* Feeds a declaration table (at idx) into the builder. Raises on the first malformed field. */
static void read_declaration(reader *rd, int idx, fg_ruleset_builder *b) {
    lua_State *L = rd->L;
    idx = lua_absindex(L, idx);
    static const char *const fields[] = {"name",    "buttons",  "groups",   "layers",
                                         "resources", "motions", "actions", "physics",
                                         "request", "on_event", "on_reload", "replicated",
                                         "jump",    NULL};
    rd->path[0] = '\0';
    only_fields(rd, idx, fields);
    fg_error err;
    if (get_field(rd, idx, "buttons")) {
        size_t old = path_push(rd, "buttons");
        check_table(rd, -1, "a list of button names");
        lua_Integer n = luaL_len(L, -1);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_geti(L, -1, i);
            if (lua_type(L, -1) != LUA_TSTRING) {
                char buf[80];
                path_push(rd, "[%lld]", (long long)i);
                fail(rd, "expected a button name, got %s", describe_value(L, -1, buf, sizeof buf));
            }
            if (fg_ruleset_add_button(b, lua_tostring(L, -1), &err) != FG_OK) fail(rd, "%s", err.msg);
            lua_pop(L, 1);
        }
        path_pop(rd, old);
    }
    lua_pop(L, 1);
    if (get_field(rd, idx, "layers")) {
        char layers[FG_MAX_LAYERS][FG_NAME_MAX];
        lua_pop(L, 1);
        uint32_t n = names_field(rd, idx, "layers", layers, FG_MAX_LAYERS);
        for (uint32_t i = 0; i < n; i++)
            if (fg_ruleset_add_layer(b, layers[i], &err) != FG_OK) fail(rd, "%s", err.msg);
    } else {
        lua_pop(L, 1);
    }
    if (get_field(rd, idx, "groups")) {
        size_t old = path_push(rd, "groups");
        check_table(rd, -1, "a table of group = { buttons }");
        int n = sorted_keys(rd, -1);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            const char *k = lua_tostring(L, -1);
            char members[FG_MAX_TARGETS][FG_NAME_MAX];
            uint32_t m = names_field(rd, -3, k, members, FG_MAX_TARGETS);
            const char *ptrs[FG_MAX_TARGETS];
            for (uint32_t j = 0; j < m; j++) ptrs[j] = members[j];
            if (fg_ruleset_add_group(b, k, ptrs, m, &err) != FG_OK) fail(rd, "%s", err.msg);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        path_pop(rd, old);
    }
    lua_pop(L, 1);
    if (get_field(rd, idx, "resources")) {
        size_t old = path_push(rd, "resources");
        check_table(rd, -1, "a table of name = { max =, start = }");
        int n = sorted_keys(rd, -1);
        static const char *const rfields[] = {"max", "start", "regen", "every", NULL};
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            const char *k = lua_tostring(L, -1);
            lua_getfield(L, -3, k);
            size_t o2 = path_push(rd, ".%s", k);
            check_table(rd, -1, "{ max =, start = }");
            only_fields(rd, -1, rfields);
            fg_resource_def r;
            memset(&r, 0, sizeof r);
            snprintf(r.name, sizeof r.name, "%s", k);
            r.max = (int32_t)int_field(rd, -1, "max", 100, -1000000000, 1000000000);
            r.start = (int32_t)int_field(rd, -1, "start", 0, -1000000000, 1000000000);
            r.regen = (int32_t)int_field(rd, -1, "regen", 0, -1000000000, 1000000000);
            r.regen_every = (int32_t)int_field(rd, -1, "every", 1, -1000000000, 1000000000);
            if (fg_ruleset_add_resource(b, &r, &err) != FG_OK) fail(rd, "%s", err.msg);
            path_pop(rd, o2);
            lua_pop(L, 2);
        }
        lua_pop(L, 1);
        path_pop(rd, old);
    }
    lua_pop(L, 1);
    if (get_field(rd, idx, "physics")) {
        size_t old = path_push(rd, "physics");
        check_table(rd, -1, "{ gravity =, ground =, min_gap =, stage = { min, max } }");
        static const char *const pfields[] = {"gravity", "ground", "min_gap", "stage_min",
                                              "stage_max", NULL};
        only_fields(rd, -1, pfields);
        fg_physics_def p = fg_physics_def_default();
        p.gravity = fx_field(rd, -1, "gravity", p.gravity);
        p.ground_y = fx_field(rd, -1, "ground", p.ground_y);
        p.min_gap = fx_field(rd, -1, "min_gap", p.min_gap);
        p.stage_min = fx_field(rd, -1, "stage_min", p.stage_min);
        p.stage_max = fx_field(rd, -1, "stage_max", p.stage_max);
        fg_ruleset_set_physics(b, &p);
        path_pop(rd, old);
    }
    lua_pop(L, 1);
    if (get_field(rd, idx, "replicated")) {
        size_t old = path_push(rd, "replicated");
        check_table(rd, -1, "{ properties = { ... }, actions = { ... } }");
        static const char *const rfields[] = {"properties", "actions", NULL};
        only_fields(rd, -1, rfields);
        path_pop(rd, old);
    }
    lua_pop(L, 1);
    if (get_field(rd, idx, "jump")) {
        size_t old = path_push(rd, "jump");
        check_table(rd, -1, "{ button =, buffer =, coyote = }");
        static const char *const jfields[] = {"button", "buffer", "coyote", NULL};
        only_fields(rd, -1, jfields);
        int_field(rd, -1, "buffer", 0, 0, 600);
        int_field(rd, -1, "coyote", 0, 0, 600);
        char button[FG_IN_NAME_MAX] = "";
        str_field(rd, -1, "button", button, sizeof button);
        path_pop(rd, old);
    }
    lua_pop(L, 1);
    if (get_field(rd, idx, "motions")) {
        size_t old = path_push(rd, "motions");
        check_table(rd, -1, "a table of name = { \"notation\", ... }");
        int n = sorted_keys(rd, -1);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            const char *k = lua_tostring(L, -1);
            lua_getfield(L, -3, k);
            size_t o2 = path_push(rd, ".%s", k);
            fg_motion_def def;
            memset(&def, 0, sizeof def);
            def.name = k;
            if (lua_type(L, -1) == LUA_TSTRING) {
                def.notation = lua_tostring(L, -1);
                if (fg_ruleset_add_motion(b, &def, &err) != FG_OK) fail(rd, "%s", err.msg);
            } else {
                check_table(rd, -1, "a notation string or { \"236P\", window = 12 }");
                int nn = read_motion_options(rd, -1, &def);
                for (int j = 1; j <= nn; j++) {
                    lua_rawgeti(L, -1, j);
                    def.notation = lua_tostring(L, -1); /* alive in the table */
                    lua_pop(L, 1);
                    if (fg_ruleset_add_motion(b, &def, &err) != FG_OK) fail(rd, "%s", err.msg);
                }
            }
            path_pop(rd, o2);
            lua_pop(L, 2);
        }
        lua_pop(L, 1);
        path_pop(rd, old);
    }
    lua_pop(L, 1);
    if (get_field(rd, idx, "actions")) {
        size_t old = path_push(rd, "actions");
        check_table(rd, -1, "a table of name = { ... }");
        int n = sorted_keys(rd, -1);
        fg_action_def *a = lua_newuserdatauv(L, sizeof *a, 0);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, -2, i);
            const char *k = lua_tostring(L, -1);
            lua_getfield(L, -4, k);
            size_t o2 = path_push(rd, ".%s", k);
            read_action(rd, -1, k, a);
            if (fg_ruleset_add_action(b, a, &err) != FG_OK) fail(rd, "%s", err.msg);
            path_pop(rd, o2);
            lua_pop(L, 2);
        }
        lua_pop(L, 2);
        path_pop(rd, old);
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
        fg_ruleset_release(lr->rules);
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
    return 1;
}

/* Pushes the findings of a build as a list of {path=, message=, warning=}. */
static void push_findings(lua_State *L, const fg_findings *f) {
    lua_createtable(L, (int)f->count, 0);
    for (uint32_t i = 0; i < f->count; i++) {
        lua_createtable(L, 0, 3);
        lua_pushstring(L, f->items[i].path);
        lua_setfield(L, -2, "path");
        lua_pushstring(L, f->items[i].msg);
        lua_setfield(L, -2, "message");
        lua_pushboolean(L, f->items[i].warning);
        lua_setfield(L, -2, "warning");
        lua_rawseti(L, -2, i + 1);
    }
}

int fg_lua_build_rules(lua_State *L, int decl, const char *chunk, uint64_t source_hash) {
    decl = lua_absindex(L, decl);
    reader rd;
    memset(&rd, 0, sizeof rd);
    rd.L = L;
    rd.chunk = chunk;
    if (!lua_istable(L, decl)) {
        char buf[80];
        return luaL_error(L, "%s%sexpected a ruleset table (fg.ruleset \"name\" { ... }), got %s",
                          chunk ? chunk : "", chunk ? ": " : "",
                          describe_value(L, decl, buf, sizeof buf));
    }
    char name[FG_NAME_MAX] = "rules";
    str_field(&rd, decl, "name", name, sizeof name);
    fg_ruleset_builder *b = fg_ruleset_builder_new(name, NULL);
    if (!b) return luaL_error(L, "rules: out of memory");
    /* The hash of the files' text, so the trace of a reload names exactly what was loaded. */
    fg_ruleset_set_source_hash(b, source_hash);
    /* The builder must not leak if reading raises: a guard userdata frees it when collected. */
    fg_ruleset_builder **guard = lua_newuserdatauv(L, sizeof *guard, 0);
    *guard = b;
    int guard_idx = lua_gettop(L);
    if (luaL_newmetatable(L, "framegate.BuilderGuard")) {
        lua_pushcfunction(L, builder_guard_close);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    read_declaration(&rd, decl, b);
    fg_findings findings;
    fg_error err;
    fg_ruleset *r = fg_ruleset_build(b, &findings, &err);
    fg_ruleset_builder_free(b);
    *guard = NULL;
    if (!r) {
        luaL_Buffer buf;
        luaL_buffinit(L, &buf);
        if (chunk) {
            luaL_addstring(&buf, chunk);
            luaL_addstring(&buf, ": ");
        }
        luaL_addstring(&buf, "invalid ruleset '");
        luaL_addstring(&buf, name);
        luaL_addstring(&buf, "':");
        /* One finding per line, "  path: message": errors, then the lint warnings found on the
        ** way (`framegate check` lists every finding from these lines). */
        for (int pass = 0; pass < 2; pass++)
            for (uint32_t i = 0; i < findings.count; i++) {
                const fg_finding *x = &findings.items[i];
                if (x->warning != (pass == 1)) continue;
                luaL_addstring(&buf, "\n  ");
                luaL_addstring(&buf, x->path);
                luaL_addstring(&buf, ": ");
                if (x->warning && strncmp(x->msg, "warning", 7) != 0)
                    luaL_addstring(&buf, "warning: ");
                luaL_addstring(&buf, x->msg);
            }
        luaL_pushresult(&buf);
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
    push_findings(L, &findings);
    lua_setfield(L, -2, "findings");
    lua_pushvalue(L, decl);
    lua_setfield(L, -2, "declaration");
    lua_setiuservalue(L, -2, 1);
    lua_remove(L, guard_idx);
    return 1;
}

static int builder_guard_close(lua_State *L) {
    fg_ruleset_builder **guard = lua_touserdata(L, 1);
    if (guard && *guard) {
        fg_ruleset_builder_free(*guard);
        *guard = NULL;
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

/* Verdicts are small tables with a metatable, so a rule's result is easy to check:
** fg.default, fg.accept(text), fg.queue(ticks, text), fg.reject(text). */
static int push_verdict(lua_State *L, const char *kind, int ticks, int text_idx) {
    lua_createtable(L, 0, 3);
    lua_pushstring(L, kind);
    lua_setfield(L, -2, "verdict");
    if (ticks > 0) {
        lua_pushinteger(L, ticks);
        lua_setfield(L, -2, "ticks");
    }
    if (text_idx && !lua_isnoneornil(L, text_idx)) {
        luaL_checkstring(L, text_idx);
        lua_pushvalue(L, text_idx);
        lua_setfield(L, -2, "text");
    }
    luaL_setmetatable(L, VERDICT_T);
    return 1;
}

static int l_accept(lua_State *L) { return push_verdict(L, "accept", 0, 1); }
static int l_reject(lua_State *L) { return push_verdict(L, "reject", 0, 1); }

static int l_queue(lua_State *L) {
    lua_Integer ticks = luaL_checkinteger(L, 1);
    luaL_argcheck(L, ticks >= 1 && ticks <= 600, 1, "ticks to wait, 1..600, expected");
    return push_verdict(L, "queue", (int)ticks, 2);
}

static int verdict_tostring(lua_State *L) {
    lua_getfield(L, 1, "verdict");
    lua_getfield(L, 1, "text");
    if (lua_isstring(L, -1)) lua_pushfstring(L, "framegate.Verdict (%s: %s)", lua_tostring(L, -2),
                                             lua_tostring(L, -1));
    else lua_pushfstring(L, "framegate.Verdict (%s)", lua_tostring(L, -2));
    return 1;
}

static bool is_verdict(lua_State *L, int idx) {
    if (!lua_istable(L, idx) || !lua_getmetatable(L, idx)) return false;
    luaL_getmetatable(L, VERDICT_T);
    bool yes = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return yes;
}

bool fg_lua_read_verdict(lua_State *L, int idx, fg_verdict *out, fg_error *err) {
    memset(out, 0, sizeof *out);
    idx = lua_absindex(L, idx);
    if (!is_verdict(L, idx)) {
        fg_error_set(err, FG_ERULE, "request rule returned %s; expected fg.default, "
                     "fg.accept(...), fg.queue(...) or fg.reject(...)",
                     lua_istable(L, idx) ? "a plain table" : luaL_typename(L, idx));
        return false;
    }
    lua_getfield(L, idx, "verdict");
    const char *kind = lua_tostring(L, -1);
    if (kind && !strcmp(kind, "accept")) out->kind = FG_VERDICT_ACCEPT;
    else if (kind && !strcmp(kind, "reject")) out->kind = FG_VERDICT_REJECT;
    else if (kind && !strcmp(kind, "queue")) out->kind = FG_VERDICT_QUEUE;
    else out->kind = FG_VERDICT_DEFAULT;
    lua_pop(L, 1);
    lua_getfield(L, idx, "ticks");
    out->queue_ticks = (int32_t)lua_tointeger(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, idx, "text");
    if (lua_isstring(L, -1)) snprintf(out->text, sizeof out->text, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
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
        {"replication", rules_replication},
        {NULL, NULL},
    };
    static const luaL_Reg meta[] = {
        {"__gc", rules_gc}, {"__close", rules_gc}, {"__tostring", rules_tostring}, {NULL, NULL},
    };
    luaL_setfuncs(L, funcs, 0);
    fg_lua_class(L, RULES_T, methods, meta);
    luaL_newmetatable(L, VERDICT_T);
    lua_pushcfunction(L, verdict_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);
    push_verdict(L, "default", 0, 0);
    lua_setfield(L, -2, "default");
}
