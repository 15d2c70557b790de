/* SPDX-License-Identifier: MIT */
/*
** l_hits.c: hits in a Lua declaration: an action's `boxes`, `invulnerable`, `hit` and `throw`;
** the ruleset's default `boxes` and `combat` rules. It only translates into the builder's
** structs (framegate/hit.h); the validator checks the values against the action.
**
**   boxes   = { { "hit", from = 3, to = 4, x = 20, y = 50, w = 40, h = 20, hit = 2 }, ... }
**   hit     = { damage =, chip =, hitstun =, blockstun =, hitstop =, hitstop_target =,
**               guard = "high"|"low"|"overhead"|"unblockable", pushback = { hit =, block = },
**               counter = { damage =, hitstun =, hitstop = }, hits =, interval =, priority =,
**               juggle =, reaction =, air_reaction =, launch = { vx =, vy = },
**               knockdown = "soft"|"hard", meter =, meter_target =, range =,
**               wall_bounce = { vx =, vy =, stun = }, ground_bounce = { vx =, vy =, stun = } }
**   throw   = { damage =, tech_window =, tech =, reaction =, stun =, launch =, knockdown = }
**
** A move whose hits differ lists its definitions, `hit = { { ... }, { ... } }` (and `throw`
** likewise); each box names the one it uses by position (`hit = 2`, `throw = 2`, default 1).
*/
#include "fg_lua.h"

#include <stdio.h>
#include <string.h>

/* One of `names` (by index), or fails naming them. */
static int pick(fg_lua_reader *rd, int t, const char *k, const char *const *names, int def) {
    char v[32] = "";
    fg_lua_read_name(rd, t, k, v, sizeof v);
    if (!v[0]) return def;
    char list[120] = "";
    for (int i = 0; names[i]; i++) {
        if (!strcmp(v, names[i])) return i;
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                 names[i]);
    }
    size_t old = fg_lua_reader_push(rd, ".%s", k);
    fg_lua_reader_note(rd, "'%s', expected %s", v, list);
    fg_lua_reader_pop(rd, old);
    return def;
}

/* Pushes field k if it is a table (true), or leaves nothing and returns false. */
static bool sub_table(fg_lua_reader *rd, int t, const char *k, const char *what) {
    if (!fg_lua_reader_get(rd, t, k)) {
        lua_pop(rd->L, 1);
        return false;
    }
    size_t old = fg_lua_reader_push(rd, ".%s", k);
    fg_lua_reader_table(rd, -1, what);
    fg_lua_reader_pop(rd, old);
    return true;
}

static void read_launch(fg_lua_reader *rd, int t, fg_fx *vx, fg_fx *vy) {
    if (!sub_table(rd, t, "launch", "{ vx =, vy = }")) return;
    size_t old = fg_lua_reader_push(rd, ".launch");
    static const char *const fields[] = {"vx", "vy", NULL};
    fg_lua_reader_only(rd, -1, fields);
    *vx = fg_lua_read_fx(rd, -1, "vx", 0);
    *vy = fg_lua_read_fx(rd, -1, "vy", 0);
    fg_lua_reader_pop(rd, old);
    lua_pop(rd->L, 1);
}

/* wall_bounce = { vx =, vy =, stun = }: declared by being there (the validator bounds it). */
static void read_bounce(fg_lua_reader *rd, int t, const char *k, fg_bounce_def *b) {
    if (!sub_table(rd, t, k, "{ vx =, vy =, stun = }")) return;
    size_t old = fg_lua_reader_push(rd, ".%s", k);
    static const char *const fields[] = {"vx", "vy", "stun", NULL};
    fg_lua_reader_only(rd, -1, fields);
    b->enabled = true;
    b->vx = fg_lua_read_fx(rd, -1, "vx", 0);
    b->vy = fg_lua_read_fx(rd, -1, "vy", 0);
    b->stun = (int32_t)fg_lua_read_int(rd, -1, "stun", 0, -1000000, 1000000);
    fg_lua_reader_pop(rd, old);
    lua_pop(rd->L, 1);
}

static const char *const knockdowns[] = {"none", "soft", "hard", NULL};

void fg_lua_read_hit_fields(fg_lua_reader *rd, fg_hit_def *h) {
    lua_State *L = rd->L;
    static const char *const fields[] = {
        "damage", "chip", "range", "hitstop", "hitstop_target", "hitstun", "blockstun", "meter",
        "meter_target", "low", "overhead", "guard", "pushback", "counter", "hits", "interval",
        "priority", "juggle", "reaction", "air_reaction", "launch", "knockdown", "wall_bounce",
        "ground_bounce", NULL};
    fg_lua_reader_only(rd, -1, fields);
    h->enabled = true;
    h->damage = (int32_t)fg_lua_read_int(rd, -1, "damage", 0, -1000000, 1000000);
    h->chip = (int32_t)fg_lua_read_int(rd, -1, "chip", 0, -1000000, 1000000);
    h->range = fg_lua_read_fx(rd, -1, "range", FG_FX(60));
    h->hitstop = (int32_t)fg_lua_read_int(rd, -1, "hitstop", 8, -1000, 1000);
    h->hitstop_target = (int32_t)fg_lua_read_int(rd, -1, "hitstop_target", 0, -1000, 1000);
    h->hitstun = (int32_t)fg_lua_read_int(rd, -1, "hitstun", 12, -1000, 1000);
    h->blockstun = (int32_t)fg_lua_read_int(rd, -1, "blockstun", 8, -1000, 1000);
    h->meter_gain = (int32_t)fg_lua_read_int(rd, -1, "meter", 0, -1000000, 1000000);
    h->meter_target = (int32_t)fg_lua_read_int(rd, -1, "meter_target", 0, -1000000, 1000000);
    h->low = fg_lua_read_bool(rd, -1, "low", false);
    h->overhead = fg_lua_read_bool(rd, -1, "overhead", false);
    static const char *const guards[] = {"high", "low", "overhead", "unblockable", NULL};
    h->guard = (fg_guard)pick(rd, -1, "guard", guards, FG_GUARD_HIGH);
    /* pushback = 12 (both) or { hit = 8, block = 14 } */
    if (fg_lua_reader_get(rd, -1, "pushback") && lua_type(L, -1) == LUA_TNUMBER) {
        lua_pop(L, 1);
        h->pushback_hit = h->pushback_block = fg_lua_read_fx(rd, -1, "pushback", 0);
    } else {
        lua_pop(L, 1);
        if (sub_table(rd, -1, "pushback", "a distance or { hit =, block = }")) {
            size_t old = fg_lua_reader_push(rd, ".pushback");
            static const char *const pf[] = {"hit", "block", NULL};
            fg_lua_reader_only(rd, -1, pf);
            h->pushback_hit = fg_lua_read_fx(rd, -1, "hit", 0);
            h->pushback_block = fg_lua_read_fx(rd, -1, "block", 0);
            fg_lua_reader_pop(rd, old);
            lua_pop(L, 1);
        }
    }
    if (sub_table(rd, -1, "counter", "{ damage =, hitstun =, hitstop = }")) {
        size_t old = fg_lua_reader_push(rd, ".counter");
        static const char *const cf[] = {"damage", "hitstun", "hitstop", NULL};
        fg_lua_reader_only(rd, -1, cf);
        h->counter_damage = (int32_t)fg_lua_read_int(rd, -1, "damage", 100, 0, 100000);
        h->counter_hitstun = (int32_t)fg_lua_read_int(rd, -1, "hitstun", 0, -1000, 1000);
        h->counter_hitstop = (int32_t)fg_lua_read_int(rd, -1, "hitstop", 0, -1000, 1000);
        fg_lua_reader_pop(rd, old);
        lua_pop(L, 1);
    }
    h->hits = (int32_t)fg_lua_read_int(rd, -1, "hits", 1, -1000, 1000);
    h->interval = (int32_t)fg_lua_read_int(rd, -1, "interval", 0, -1000, 1000);
    h->priority = (int32_t)fg_lua_read_int(rd, -1, "priority", 0, -1000000, 1000000);
    h->juggle = (int32_t)fg_lua_read_int(rd, -1, "juggle", 0, -1000000, 1000000);
    fg_lua_read_name(rd, -1, "reaction", h->reaction, sizeof h->reaction);
    fg_lua_read_name(rd, -1, "air_reaction", h->air_reaction, sizeof h->air_reaction);
    read_launch(rd, -1, &h->launch_vx, &h->launch_vy);
    h->knockdown = (fg_knockdown)pick(rd, -1, "knockdown", knockdowns, FG_KNOCKDOWN_NONE);
    read_bounce(rd, -1, "wall_bounce", &h->wall_bounce);
    read_bounce(rd, -1, "ground_bounce", &h->ground_bounce);
}

static void read_throw_fields(fg_lua_reader *rd, fg_throw_def *th) {
    static const char *const fields[] = {"damage",   "tech_window", "tech",      "reaction",
                                         "stun",     "launch",      "knockdown", NULL};
    fg_lua_reader_only(rd, -1, fields);
    th->enabled = true;
    th->damage = (int32_t)fg_lua_read_int(rd, -1, "damage", 0, -1000000, 1000000);
    th->tech_window = (int32_t)fg_lua_read_int(rd, -1, "tech_window", 7, -1000, 1000);
    fg_lua_read_name(rd, -1, "tech", th->tech_input, sizeof th->tech_input);
    snprintf(th->reaction, sizeof th->reaction, "%s", "");
    fg_lua_read_name(rd, -1, "reaction", th->reaction, sizeof th->reaction);
    th->stun = (int32_t)fg_lua_read_int(rd, -1, "stun", 20, -1000, 1000);
    read_launch(rd, -1, &th->launch_vx, &th->launch_vy);
    th->knockdown = (fg_knockdown)pick(rd, -1, "knockdown", knockdowns, FG_KNOCKDOWN_NONE);
}

static fg_box read_rect(fg_lua_reader *rd, int t) {
    fg_box b;
    b.x = fg_lua_read_fx(rd, t, "x", 0);
    b.y = fg_lua_read_fx(rd, t, "y", 0);
    b.w = fg_lua_read_fx(rd, t, "w", 0);
    b.h = fg_lua_read_fx(rd, t, "h", 0);
    return b;
}

static const char *const kinds[] = {"hurt", "hit", "push", "throw", NULL};

/* { "hit", from =, to =, x =, y =, w =, h =, hit = } or { kind = "hit", ... } */
static void read_box(fg_lua_reader *rd, fg_box_def *d, int32_t duration, fg_box_kind def) {
    lua_State *L = rd->L;
    static const char *const fields[] = {"kind", "from", "to", "x", "y", "w", "h", "hit",
                                         "throw", NULL};
    char kind[16] = "";
    if (lua_rawgeti(L, -1, 1) == LUA_TSTRING)
        snprintf(kind, sizeof kind, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    /* The positional kind is not a named field: check the others without it. */
    lua_pushnil(L);
    lua_rawseti(L, -2, 1);
    fg_lua_reader_only(rd, -1, fields);
    if (!kind[0]) fg_lua_read_name(rd, -1, "kind", kind, sizeof kind);
    if (!kind[0] && def < FG_BOX_KINDS) snprintf(kind, sizeof kind, "%s", kinds[def]);
    d->kind = FG_BOX_KINDS;
    for (int i = 0; kinds[i]; i++)
        if (!strcmp(kind, kinds[i])) d->kind = (fg_box_kind)i;
    if (d->kind == FG_BOX_KINDS) {
        fg_lua_reader_note(
            rd, "kind '%s', expected hurt, hit, push or throw (as { \"hit\", from =, ... })", kind);
        d->kind = FG_BOX_HURT;
    }
    bool has_from = fg_lua_reader_get(rd, -1, "from");
    lua_pop(L, 1);
    d->from = (int32_t)fg_lua_read_int(rd, -1, "from", 0, -1000000, 1000000);
    d->to = (int32_t)fg_lua_read_int(rd, -1, "to", has_from ? d->from : duration - 1, -1000000,
                                     1000000);
    d->box = read_rect(rd, -1);
    /* Which definition, by position (the validator says when there is no such one). Only a hit
    ** box picks a hit definition, only a throw box a throw definition. */
    static const char *const picks[] = {"hit", "throw"};
    const fg_box_kind picker[] = {FG_BOX_HIT, FG_BOX_THROW};
    for (int i = 0; i < 2; i++) {
        bool present = fg_lua_reader_get(rd, -1, picks[i]);
        lua_pop(L, 1);
        if (present && d->kind != picker[i]) {
            size_t old = fg_lua_reader_push(rd, ".%s", picks[i]);
            fg_lua_reader_note(rd, "a %s box picks no %s definition (a %s box does)",
                               kinds[d->kind], picks[i], picks[i]);
            fg_lua_reader_pop(rd, old);
        } else if (present) {
            d->def = (uint32_t)fg_lua_read_int(rd, -1, picks[i], 1, 1, 255) - 1;
        }
    }
}

void fg_lua_read_box_list(fg_lua_reader *rd, int t, fg_box_def *boxes, uint32_t *nboxes,
                          uint32_t max, int32_t duration, fg_box_kind def) {
    lua_State *L = rd->L;
    if (!sub_table(rd, t, "boxes", "a list of boxes { \"hit\", from =, to =, x =, y =, w =, h = }"))
        return;
    size_t old = fg_lua_reader_push(rd, ".boxes");
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    if (n > (lua_Integer)max)
        fg_lua_reader_fail(rd, "%lld boxes, at most %u", (long long)n, max);
    for (lua_Integer i = 1; i <= n; i++) {
        size_t o2 = fg_lua_reader_push(rd, "[%lld]", (long long)i);
        lua_rawgeti(L, -1, i);
        fg_lua_reader_table(rd, -1, "a box { \"hit\", from =, to =, x =, y =, w =, h = }");
        /* A copy: the reader removes the positional kind before checking the fields. */
        lua_newtable(L);
        lua_pushnil(L);
        while (lua_next(L, -3)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, -4);
        }
        read_box(rd, &boxes[(*nboxes)++], duration, def);
        lua_pop(L, 2);
        fg_lua_reader_pop(rd, o2);
    }
    fg_lua_reader_pop(rd, old);
    lua_pop(L, 1);
}

static void read_invulnerable(fg_lua_reader *rd, int t, fg_action_def *a) {
    lua_State *L = rd->L;
    if (!sub_table(rd, t, "invulnerable", "a list of { from =, to =, strike =, throw = }")) return;
    size_t old = fg_lua_reader_push(rd, ".invulnerable");
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    if (n > FG_MAX_INVULN)
        fg_lua_reader_fail(rd, "%lld ranges, at most %d", (long long)n, FG_MAX_INVULN);
    static const char *const fields[] = {"from", "to", "strike", "throw", NULL};
    for (lua_Integer i = 1; i <= n; i++) {
        size_t o2 = fg_lua_reader_push(rd, "[%lld]", (long long)i);
        lua_rawgeti(L, -1, i);
        fg_lua_reader_table(rd, -1, "{ from =, to =, strike =, throw = }");
        fg_lua_reader_only(rd, -1, fields);
        fg_invuln_def *v = &a->invuln[a->ninvuln++];
        v->from = (int32_t)fg_lua_read_int(rd, -1, "from", 0, -1000000, 1000000);
        v->to = (int32_t)fg_lua_read_int(rd, -1, "to", v->from, -1000000, 1000000);
        v->strike = fg_lua_read_bool(rd, -1, "strike", true);
        v->thrown = fg_lua_read_bool(rd, -1, "throw", false);
        lua_pop(L, 1);
        fg_lua_reader_pop(rd, o2);
    }
    fg_lua_reader_pop(rd, old);
    lua_pop(L, 1);
}

typedef void (*def_reader)(fg_lua_reader *rd, fg_action_def *a, uint32_t i);
static void hit_at(fg_lua_reader *rd, fg_action_def *a, uint32_t i) {
    fg_lua_read_hit_fields(rd, &a->hits[i]);
}
static void throw_at(fg_lua_reader *rd, fg_action_def *a, uint32_t i) {
    read_throw_fields(rd, &a->throws[i]);
}

/* `hit = { damage = ... }` (one definition) or `hit = { { ... }, { ... } }` (several). */
static void read_defs(fg_lua_reader *rd, int t, fg_action_def *a, const char *k, uint32_t max,
                      def_reader fn, const char *what) {
    lua_State *L = rd->L;
    if (!sub_table(rd, t, k, what)) return;
    size_t old = fg_lua_reader_push(rd, ".%s", k);
    bool list = lua_rawgeti(L, -1, 1) == LUA_TTABLE;
    lua_pop(L, 1);
    if (!list) {
        fn(rd, a, 0);
    } else {
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        if (n > (lua_Integer)max)
            fg_lua_reader_fail(rd, "%lld definitions, at most %u", (long long)n, max);
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pop(L, 1);
            if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 && lua_tointeger(L, -1) <= n)
                continue;
            char buf[64];
            if (lua_type(L, -1) == LUA_TSTRING)
                snprintf(buf, sizeof buf, "field '%.40s'", lua_tostring(L, -1));
            else
                fg_lua_describe_value(L, -1, buf, sizeof buf);
            fg_lua_reader_note(rd, "%s beside a list of definitions (a list holds only tables)",
                               buf);
            lua_pop(L, 1); /* one note is enough: more would come in the table's own order */
            break;
        }
        for (lua_Integer i = 1; i <= n; i++) {
            size_t o2 = fg_lua_reader_push(rd, "[%lld]", (long long)i);
            lua_rawgeti(L, -1, i);
            fg_lua_reader_table(rd, -1, what);
            fn(rd, a, (uint32_t)i - 1);
            lua_pop(L, 1);
            fg_lua_reader_pop(rd, o2);
        }
    }
    fg_lua_reader_pop(rd, old);
    lua_pop(L, 1);
}

void fg_lua_read_action_hits(fg_lua_reader *rd, int t, fg_action_def *a) {
    t = lua_absindex(rd->L, t);
    read_defs(rd, t, a, "hit", FG_MAX_HIT_DEFS, hit_at,
              "{ damage =, hitstun =, blockstun =, hitstop =, ... } or a list of them");
    read_defs(rd, t, a, "throw", FG_MAX_THROW_DEFS, throw_at,
              "{ damage =, tech_window =, reaction =, ... } or a list of them");
    fg_lua_read_box_list(rd, t, a->boxes, &a->nboxes, FG_MAX_BOXES, a->duration, FG_BOX_KINDS);
    read_invulnerable(rd, t, a);
    fg_lua_read_spawn(rd, t, a);
}

/* boxes = { hurt = {...}, push = {...}, airborne = { hurt = {...} }, ... } */
static void read_default_boxes(fg_lua_reader *rd, int t, const char *group, fg_ruleset_builder *b) {
    lua_State *L = rd->L;
    t = lua_absindex(L, t);
    int n = fg_lua_reader_keys(rd, t);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        const char *k = lua_tostring(L, -1);
        size_t old = fg_lua_reader_push(rd, ".%s", k);
        lua_getfield(L, t, k);
        fg_lua_reader_table(rd, -1, "a box { x =, y =, w =, h = } or a group's { hurt =, push = }");
        bool kind = !strcmp(k, "hurt") || !strcmp(k, "push");
        if (kind) {
            static const char *const fields[] = {"x", "y", "w", "h", NULL};
            fg_lua_reader_only(rd, -1, fields);
            fg_error err = {0};
            fg_box box = read_rect(rd, -1);
            if (fg_ruleset_add_default_box(b, group, !strcmp(k, "hurt") ? FG_BOX_HURT : FG_BOX_PUSH,
                                           box, &err) != FG_OK)
                fg_lua_reader_note_error(rd, &err);
        } else if (group) {
            fg_lua_reader_note(rd, "unknown field (expected hurt or push)");
        } else {
            read_default_boxes(rd, -1, k, b);
        }
        lua_pop(L, 2);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
}

void fg_lua_read_ruleset_hits(fg_lua_reader *rd, int idx, fg_ruleset_builder *b) {
    lua_State *L = rd->L;
    idx = lua_absindex(L, idx);
    fg_lua_read_projectiles(rd, idx, b);
    if (fg_lua_reader_get(rd, idx, "boxes")) {
        size_t old = fg_lua_reader_push(rd, "boxes");
        fg_lua_reader_table(rd, -1, "{ hurt = { x =, y =, w =, h = }, push =, <group> = {...} }");
        read_default_boxes(rd, -1, NULL, b);
        fg_lua_reader_pop(rd, old);
    }
    lua_pop(L, 1);
    if (!fg_lua_reader_get(rd, idx, "combat")) {
        lua_pop(L, 1);
        return;
    }
    size_t old = fg_lua_reader_push(rd, "combat");
    fg_lua_reader_table(rd, -1, "{ trade =, juggle_limit =, scaling =, ... }");
    static const char *const fields[] = {"trade",       "juggle_limit", "scaling",
                                         "soft_wakeup", "hard_wakeup",  "wakeup_throw_invuln",
                                         "bounce_limit", NULL};
    fg_lua_reader_only(rd, -1, fields);
    fg_combat_def c = fg_combat_def_default();
    static const char *const trades[] = {"both", "priority", NULL};
    c.trade_priority = pick(rd, -1, "trade", trades, 0) == 1;
    c.juggle_limit = (int32_t)fg_lua_read_int(rd, -1, "juggle_limit", 0, -1000000, 1000000);
    c.bounce_limit = (int32_t)fg_lua_read_int(rd, -1, "bounce_limit", 0, -1000000, 1000000);
    c.soft_wakeup = (int32_t)fg_lua_read_int(rd, -1, "soft_wakeup", c.soft_wakeup, -1000, 1000);
    c.hard_wakeup = (int32_t)fg_lua_read_int(rd, -1, "hard_wakeup", c.hard_wakeup, -1000, 1000);
    c.wakeup_throw_invuln =
        (int32_t)fg_lua_read_int(rd, -1, "wakeup_throw_invuln", c.wakeup_throw_invuln, -1000, 1000);
    if (sub_table(rd, -1, "scaling", "a list of percentages { 100, 90, 80 }")) {
        size_t o2 = fg_lua_reader_push(rd, ".scaling");
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        if (n > FG_MAX_SCALING)
            fg_lua_reader_fail(rd, "%lld entries, at most %d", (long long)n, FG_MAX_SCALING);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            int ok;
            lua_Integer v = lua_tointegerx(L, -1, &ok);
            if (!ok || v < 0 || v > 1000) {
                char buf[64];
                size_t o3 = fg_lua_reader_push(rd, "[%lld]", (long long)i);
                fg_lua_reader_note(rd, "%s, expected a percentage 0..1000",
                                   fg_lua_describe_value(L, -1, buf, sizeof buf));
                fg_lua_reader_pop(rd, o3);
                v = 100;
            }
            c.scaling[c.nscaling++] = (int32_t)v;
            lua_pop(L, 1);
        }
        fg_lua_reader_pop(rd, o2);
        lua_pop(L, 1);
    }
    fg_ruleset_set_combat(b, &c);
    fg_lua_reader_pop(rd, old);
    lua_pop(L, 1);
}

/* {====================================================================== reading back */

static void set_num(lua_State *L, const char *k, fg_fx v) {
    lua_pushnumber(L, (lua_Number)v / FG_FX_ONE);
    lua_setfield(L, -2, k);
}

static void set_int(lua_State *L, const char *k, lua_Integer v) {
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
}

static void set_str(lua_State *L, const char *k, const char *v) {
    if (!v[0]) return;
    lua_pushstring(L, v);
    lua_setfield(L, -2, k);
}

static void push_hit(lua_State *L, const fg_hit_def *h) {
    static const char *const guards[] = {"high", "low", "overhead", "unblockable"};
    lua_createtable(L, 0, 24);
    set_num(L, "range", h->range);
    const struct { const char *k; int32_t v; } f[] = {
        {"damage", h->damage},       {"chip", h->chip},
        {"hitstop", h->hitstop},     {"hitstop_target", h->hitstop_target},
        {"hitstun", h->hitstun},     {"blockstun", h->blockstun},
        {"meter", h->meter_gain},    {"meter_target", h->meter_target},
        {"hits", h->hits},           {"interval", h->interval},
        {"priority", h->priority},   {"juggle", h->juggle}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) set_int(L, f[i].k, f[i].v);
    lua_pushboolean(L, h->low);
    lua_setfield(L, -2, "low");
    lua_pushboolean(L, h->overhead);
    lua_setfield(L, -2, "overhead");
    lua_pushstring(L, (unsigned)h->guard < 4 ? guards[h->guard] : "?");
    lua_setfield(L, -2, "guard");
    lua_createtable(L, 0, 2);
    set_num(L, "hit", h->pushback_hit);
    set_num(L, "block", h->pushback_block);
    lua_setfield(L, -2, "pushback");
    lua_createtable(L, 0, 3);
    set_int(L, "damage", h->counter_damage);
    set_int(L, "hitstun", h->counter_hitstun);
    set_int(L, "hitstop", h->counter_hitstop);
    lua_setfield(L, -2, "counter");
    set_str(L, "reaction", h->reaction);
    set_str(L, "air_reaction", h->air_reaction);
    lua_createtable(L, 0, 2);
    set_num(L, "vx", h->launch_vx);
    set_num(L, "vy", h->launch_vy);
    lua_setfield(L, -2, "launch");
    lua_pushstring(L, fg_knockdown_name(h->knockdown));
    lua_setfield(L, -2, "knockdown");
    const fg_bounce_def *b[2] = {&h->wall_bounce, &h->ground_bounce};
    static const char *const bounces[2] = {"wall_bounce", "ground_bounce"};
    for (int k = 0; k < 2; k++) {
        if (!b[k]->enabled) continue;
        lua_createtable(L, 0, 3);
        set_num(L, "vx", b[k]->vx);
        set_num(L, "vy", b[k]->vy);
        set_int(L, "stun", b[k]->stun);
        lua_setfield(L, -2, bounces[k]);
    }
}

static void push_throw(lua_State *L, const fg_throw_def *t) {
    lua_createtable(L, 0, 8);
    set_int(L, "damage", t->damage);
    set_int(L, "tech_window", t->tech_window);
    set_int(L, "stun", t->stun);
    set_str(L, "tech", t->tech_input);
    set_str(L, "reaction", t->reaction);
    lua_pushstring(L, fg_knockdown_name(t->knockdown));
    lua_setfield(L, -2, "knockdown");
}

void fg_lua_push_action_hits(lua_State *L, const fg_action_def *a) {
    /* As declared: one table, or a list when there are several. */
    uint32_t nh = 0, nt = 0;
    while (nh < FG_MAX_HIT_DEFS && a->hits[nh].enabled) nh++;
    while (nt < FG_MAX_THROW_DEFS && a->throws[nt].enabled) nt++;
    if (nh == 1) push_hit(L, &a->hit);
    if (nh > 1) {
        lua_createtable(L, (int)nh, 0);
        for (uint32_t i = 0; i < nh; i++) {
            push_hit(L, &a->hits[i]);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
    }
    if (nh) lua_setfield(L, -2, "hit");
    if (nt == 1) push_throw(L, &a->throw_def);
    if (nt > 1) {
        lua_createtable(L, (int)nt, 0);
        for (uint32_t i = 0; i < nt; i++) {
            push_throw(L, &a->throws[i]);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
    }
    if (nt) lua_setfield(L, -2, "throw");
    lua_createtable(L, (int)a->nboxes, 0);
    for (uint32_t i = 0; i < a->nboxes; i++) {
        const fg_box_def *b = &a->boxes[i];
        lua_createtable(L, 0, 7);
        lua_pushstring(L, fg_box_kind_name(b->kind));
        lua_setfield(L, -2, "kind");
        set_int(L, "from", b->from);
        set_int(L, "to", b->to);
        set_num(L, "x", b->box.x);
        set_num(L, "y", b->box.y);
        set_num(L, "w", b->box.w);
        set_num(L, "h", b->box.h);
        if (b->def > 0) set_int(L, b->kind == FG_BOX_THROW ? "throw" : "hit", b->def + 1);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "boxes");
}

/* }====================================================================== */
