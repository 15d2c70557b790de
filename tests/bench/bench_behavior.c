/* SPDX-License-Identifier: MIT */
/*
** bench_behavior.c: the cost of the behavior pipeline per entity and tick. A ruleset of 40
** actions on 2 layers (neutral states by hold, 27 attacks with hits and cancel windows, specials
** with costs and motions, 6 upper-body actions that forbid specials), pairs of fighters in range
** of each other, and one request per entity every 10 ticks: first decided in C, then with a Lua
** request rule through the real bindings. Prints figures; asserts nothing about time.
**
**   bench_behavior           full run (build with the release preset to measure)
**   bench_behavior --smoke   a tiny run so CI keeps it compiling and working
**   --c or --lua             only one of the two runs (for a profiler); --ticks N
*/
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "fg_test.h"

#if defined(__has_include)
#if __has_include("fg_lua.h")
#include "fg_lua.h"
#define BENCH_LUA 1
#endif
#endif

#define BODY_ATTACKS 27
#define UPPER_ACTIONS 6
#define REQUEST_EVERY 10

/* {====================================================================== the ruleset */

/* Frame data and hit data of body attack i, shared by the C and the Lua declaration. */
typedef struct attack {
    int startup, active, recovery, range, damage, hitstop, hitstun, blockstun, cost;
    bool special;
    int window_to;
    fg_contact window_on;
} attack;

static attack attack_of(int i) {
    attack a;
    a.startup = 3 + i % 7;
    a.active = 2 + i % 3;
    a.recovery = 8 + i % 11;
    a.range = 60 + (i % 4) * 10;
    a.damage = 10 + i;
    a.hitstop = 4 + i % 5;
    a.hitstun = 12 + i % 6;
    a.blockstun = 8 + i % 5;
    a.special = i % 4 == 3;
    a.cost = i % 8 == 7 ? 50 : 0;
    a.window_to = a.startup + a.active + 3;
    a.window_on = i % 2 ? FG_ON_CONTACT : FG_ON_HIT;
    return a;
}

static const char *const MOTIONS[][2] = {
    {"b03", "236P"}, {"b07", "623P"}, {"b11", "214K"}, {"b15", "22P"}};

static void add(fg_ruleset_builder *b, const fg_action_def *a) {
    fg_error err;
    if (fg_ruleset_add_action(b, a, &err) != FG_OK) {
        fprintf(stderr, "bench: %s\n", fg_error_message(&err));
        exit(1);
    }
}

static fg_action_def neutral(const char *name, int hold, const char *layer) {
    fg_action_def a = fg_action_def_default(name);
    a.neutral = true;
    a.loop = true;
    a.hold_dir = hold;
    snprintf(a.layer, sizeof a.layer, "%s", layer);
    return a;
}

static fg_ruleset *build_rules(void) {
    fg_ruleset_builder *b = fg_ruleset_builder_create("bench", NULL);
    static const char *const buttons[] = {"LP", "HP", "LK", "HK"};
    for (int i = 0; i < 4; i++) fg_ruleset_add_button(b, buttons[i], NULL);
    const char *p[] = {"LP", "HP"}, *k[] = {"LK", "HK"};
    fg_ruleset_add_group(b, "P", p, 2, NULL);
    fg_ruleset_add_group(b, "K", k, 2, NULL);
    fg_ruleset_add_layer(b, "body", NULL);
    fg_ruleset_add_layer(b, "upper", NULL);
    fg_resource_def health = {"health", 1000, 1000, 0, 1};
    fg_resource_def meter = {"meter", 300, 150, 1, 2};
    fg_ruleset_add_resource(b, &health, NULL);
    fg_ruleset_add_resource(b, &meter, NULL);

    fg_action_def a = neutral("idle", 0, "body");
    add(b, &a);
    a = neutral("walk_forward", 6, "body");
    a.nmoves = 1;
    a.moves[0] = (fg_move_def){.from = 0, .to = 0, .vx = FG_FX(3)};
    add(b, &a);
    a = neutral("walk_back", 4, "body");
    a.nmoves = 1;
    a.moves[0] = (fg_move_def){.from = 0, .to = 0, .vx = FG_FX(-3)};
    add(b, &a);
    a = neutral("crouch", 2, "body");
    a.priority = 1;
    add(b, &a);
    a = fg_action_def_default("hitstun");
    a.interrupts = true;
    add(b, &a);
    a = fg_action_def_default("blockstun");
    add(b, &a);
    a = neutral("upper_idle", 0, "upper");
    add(b, &a);
    for (int i = 0; i < BODY_ATTACKS; i++) {
        attack x = attack_of(i);
        char name[8];
        snprintf(name, sizeof name, "b%02d", i);
        a = fg_action_def_default(name);
        a.startup = x.startup;
        a.active = x.active;
        a.recovery = x.recovery;
        snprintf(a.requires, sizeof a.requires, "grounded");
        a.ntags = 2;
        snprintf(a.tags[0], FG_NAME_MAX, "attack");
        snprintf(a.tags[1], FG_NAME_MAX, "%s", x.special ? "special" : "normal");
        a.nmarkers = 1;
        a.markers[0].tick = x.startup;
        snprintf(a.markers[0].name, FG_NAME_MAX, "hit");
        a.hit.enabled = true;
        a.hit.range = FG_FX(x.range);
        a.hit.damage = x.damage;
        a.hit.hitstop = x.hitstop;
        a.hit.hitstun = x.hitstun;
        a.hit.blockstun = x.blockstun;
        a.hit.meter_gain = 5;
        if (!x.special) {
            a.ncancels = 1;
            a.cancels[0].from = x.startup;
            a.cancels[0].to = x.window_to;
            a.cancels[0].on = x.window_on;
            a.cancels[0].buffer = 4;
            a.cancels[0].ntargets = 1;
            snprintf(a.cancels[0].targets[0], FG_NAME_MAX, "special");
        }
        if (x.cost) {
            a.ncosts = 1;
            snprintf(a.cost_names[0], FG_NAME_MAX, "meter");
            a.cost[0] = x.cost;
        }
        add(b, &a);
    }
    for (int i = 0; i < UPPER_ACTIONS; i++) {
        char name[8];
        snprintf(name, sizeof name, "u%02d", i);
        a = fg_action_def_default(name);
        a.startup = 5;
        a.active = 10;
        a.recovery = 5;
        snprintf(a.layer, sizeof a.layer, "upper");
        a.ntags = 1;
        snprintf(a.tags[0], FG_NAME_MAX, "emote");
        if (i < 3) {
            a.nforbids = 1;
            snprintf(a.forbids[0], FG_NAME_MAX, "special");
        }
        add(b, &a);
    }
    for (size_t i = 0; i < sizeof MOTIONS / sizeof MOTIONS[0]; i++) {
        fg_motion_def m;
        memset(&m, 0, sizeof m);
        m.name = MOTIONS[i][0];
        m.notation = MOTIONS[i][1];
        fg_ruleset_add_motion(b, &m, NULL);
    }
    fg_error err;
    fg_ruleset *r = fg_ruleset_build(b, NULL, &err);
    fg_ruleset_builder_destroy(b);
    if (!r) {
        fprintf(stderr, "bench: %s\n", fg_error_message(&err));
        exit(1);
    }
    return r;
}

/* }====================================================================== */

/* {====================================================================== running */

typedef struct run {
    fg_world *w;
    uint32_t entities;
    const fg_ruleset *r;
    uint32_t requestable[64];
    uint32_t nrequestable;
    void *lua;   /* lua_State when the Lua rule runs */
    int world;   /* its World on the Lua stack */
} run;

static void spawn_pairs(run *x) {
    for (uint32_t e = 0; e < x->entities; e++) {
        fg_spawn s;
        memset(&s, 0, sizeof s);
        s.grounded = true;
        s.x = FG_FX(e % 2 ? 35 : -35);
        s.facing = e % 2 ? FG_FACING_LEFT : FG_FACING_RIGHT;
        fg_entity id;
        fg_error err;
        if (fg_world_spawn(x->w, &s, &id, &err) != FG_OK) {
            fprintf(stderr, "bench: %s\n", fg_error_message(&err));
            exit(1);
        }
    }
    x->nrequestable = 0;
    for (uint32_t i = 0; i < fg_ruleset_action_count(x->r); i++) {
        const fg_action_def *a = fg_ruleset_action(x->r, i);
        if (a->name[0] == 'b' || a->name[0] == 'u') x->requestable[x->nrequestable++] = i;
    }
}

static void advance(run *x, int ticks) {
#ifdef BENCH_LUA
    if (x->lua) {
        lua_State *L = x->lua;
        lua_getfield(L, x->world, "advance");
        lua_pushvalue(L, x->world);
        lua_pushinteger(L, ticks);
        if (lua_pcall(L, 2, 0, 0) != LUA_OK) {
            fprintf(stderr, "bench: %s\n", lua_tostring(L, -1));
            exit(1);
        }
        return;
    }
#endif
    for (int i = 0; i < ticks; i++) fg_world_advance(x->w, NULL);
}

/* CPU time of this thread: a busy machine preempting the benchmark does not count. */
static double cpu_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Runs `ticks` ticks; entity e asks for an action on every tick t with t % 10 == e % 10. Returns
** the seconds of CPU time taken. */
static double run_ticks(run *x, int64_t ticks, uint64_t *requests) {
    fg_rng rng = fg_rng_seeded(42);
    double t0 = cpu_now_ns();
    for (int64_t t = 0; t < ticks; t++) {
        for (uint32_t e = 0; e < x->entities; e++) {
            if ((uint32_t)(t % REQUEST_EVERY) != e % REQUEST_EVERY) continue;
            uint32_t pick = (uint32_t)fg_rng_range(&rng, 0, x->nrequestable - 1);
            fg_world_request(x->w, e + 1, x->requestable[pick], FG_REQ_AI, NULL);
            (*requests)++;
        }
        advance(x, 1);
    }
    return (cpu_now_ns() - t0) * 1e-9;
}

typedef struct tally {
    uint64_t accepted, queued, rejected, other;
} tally;

static tally count_decisions(const fg_world *w) {
    tally c = {0, 0, 0, 0};
    for (uint32_t i = 0; i < fg_world_trace_count(w); i++) {
        const fg_trace_record *r = fg_world_trace_at(w, i);
        if (r->kind != FG_TRACE_DECISION) continue;
        switch (r->decision.kind) {
        case FG_DECIDE_ACCEPTED: c.accepted++; break;
        case FG_DECIDE_QUEUED: c.queued++; break;
        case FG_DECIDE_REJECTED: c.rejected++; break;
        default: c.other++; break;
        }
    }
    return c;
}

static void report(const char *what, uint32_t entities, int64_t ticks, double secs[], int reps,
                   uint64_t requests, tally t) {
    double med = fg_bench_median(secs, reps); /* sorts: secs[0] is the fastest */
    double n = (double)ticks * entities;
    printf("%-36s %3u entities x %6lld ticks: %7.1f ns per entity-tick (median of %d, best "
           "%.1f; CPU time)\n", what, entities, (long long)ticks, med * 1e9 / n, reps,
           secs[0] * 1e9 / n);
    printf("%-36s %llu requests; decisions still in the trace: %llu accepted, %llu queued, "
           "%llu rejected, %llu replaced or expired\n", "", (unsigned long long)requests,
           (unsigned long long)t.accepted, (unsigned long long)t.queued,
           (unsigned long long)t.rejected, (unsigned long long)t.other);
}

static void bench_c(fg_ruleset *r, uint32_t entities, int64_t ticks, int reps) {
    double secs[9];
    uint64_t requests = 0;
    tally t = {0, 0, 0, 0};
    for (int k = 0; k < reps; k++) {
        fg_world_config c = fg_world_config_default();
        c.rules = r;
        c.max_entities = entities;
        c.trace_capacity = 4096;
        run x = {0};
        x.w = fg_world_create(&c, NULL);
        x.entities = entities;
        x.r = r;
        spawn_pairs(&x);
        run_ticks(&x, 120, &requests); /* warm */
        requests = 0;
        fg_world_trace_clear(x.w);
        secs[k] = run_ticks(&x, ticks, &requests);
        t = count_decisions(x.w);
        fg_world_destroy(x.w);
    }
    report("requests decided in C", entities, ticks, secs, reps, requests, t);
}

/* }====================================================================== */

/* {====================================================================== with Lua */

#ifdef BENCH_LUA
/* The same ruleset as build_rules, declared in Lua, plus a request rule. */
static const char *LUA_RULES =
    "local fg = require 'framegate'\n"
    "local actions = {\n"
    "  idle = { neutral = true, loop = true },\n"
    "  walk_forward = { hold = 6, loop = true, move = { { from = 0, to = 0, vx = 3 } } },\n"
    "  walk_back = { hold = 4, loop = true, move = { { from = 0, to = 0, vx = -3 } } },\n"
    "  crouch = { hold = 2, priority = 1, loop = true },\n"
    "  hitstun = { duration = 1, interrupts = true },\n"
    "  blockstun = { duration = 1 },\n"
    "  upper_idle = { layer = 'upper', neutral = true, loop = true },\n"
    "}\n"
    "for i = 0, 26 do\n"
    "  local s, act = 3 + i % 7, 2 + i % 3\n"
    "  local special = i % 4 == 3\n"
    "  local a = { startup = s, active = act, recovery = 8 + i % 11, requires = 'grounded',\n"
    "    tags = { 'attack', special and 'special' or 'normal' },\n"
    "    markers = { { tick = s, marker = 'hit' } },\n"
    "    hit = { range = 60 + (i % 4) * 10, damage = 10 + i, hitstop = 4 + i % 5,\n"
    "            hitstun = 12 + i % 6, blockstun = 8 + i % 5, meter = 5 } }\n"
    "  if not special then\n"
    "    a.cancels = { { from = s, to = s + act + 3, on = i % 2 == 1 and 'contact' or 'hit',\n"
    "                    buffer = 4, into = { 'special' } } }\n"
    "  end\n"
    "  if i % 8 == 7 then a.cost = { meter = 50 } end\n"
    "  actions[string.format('b%02d', i)] = a\n"
    "end\n"
    "for i = 0, 5 do\n"
    "  actions[string.format('u%02d', i)] = { layer = 'upper', startup = 5, active = 10,\n"
    "    recovery = 5, tags = { 'emote' }, forbids = i < 3 and { 'special' } or nil }\n"
    "end\n"
    "local rules = fg.ruleset 'bench' {\n"
    "  buttons = { 'LP', 'HP', 'LK', 'HK' },\n"
    "  groups = { P = { 'LP', 'HP' }, K = { 'LK', 'HK' } },\n"
    "  layers = { 'body', 'upper' },\n"
    "  resources = { health = { max = 1000, start = 1000 },\n"
    "                meter = { max = 300, start = 150, regen = 1, every = 2 } },\n"
    "  motions = { b03 = { '236P' }, b07 = { '623P' }, b11 = { '214K' }, b15 = { '22P' } },\n"
    "  actions = actions,\n"
    "  request = function(me, req)\n"
    "    if req.action == 'b07' and me.resources.meter < 100 then\n"
    "      return fg.reject('b07 needs 100 meter')\n"
    "    end\n"
    "    return fg.default\n"
    "  end,\n"
    "}\n"
    "return fg.world { rules = rules, entities = ENTITIES, trace = 4096 }\n";

static void bench_lua(uint64_t c_hash, uint32_t entities, int64_t ticks, int reps) {
    double secs[9];
    uint64_t requests = 0;
    tally t = {0, 0, 0, 0};
    for (int k = 0; k < reps; k++) {
        lua_State *L = luaL_newstate();
        luaL_openlibs(L);
        fg_lua_preload(L);
        lua_pushinteger(L, entities);
        lua_setglobal(L, "ENTITIES");
        if (luaL_dostring(L, LUA_RULES) != LUA_OK) {
            fprintf(stderr, "bench: %s\n", lua_tostring(L, -1));
            exit(1);
        }
        run x = {0};
        x.lua = L;
        x.world = lua_gettop(L);
        x.w = fg_lua_check_world(L, x.world)->w;
        x.entities = entities;
        x.r = fg_world_rules_version(x.w, 0);
        if (k == 0 && fg_ruleset_hash(x.r) != c_hash) {
            fprintf(stderr, "bench: the Lua ruleset differs from the C one\n");
            exit(1);
        }
        spawn_pairs(&x);
        run_ticks(&x, 120, &requests);
        requests = 0;
        fg_world_trace_clear(x.w);
        secs[k] = run_ticks(&x, ticks, &requests);
        t = count_decisions(x.w);
        lua_close(L);
    }
    report("requests through a Lua request rule", entities, ticks, secs, reps, requests, t);
}
#endif

/* }====================================================================== */

int main(int argc, char **argv) {
    bool smoke = fg_bench_smoke(argc, argv);
    uint32_t entities = smoke ? 4 : 16;
    int64_t ticks = smoke ? 200 : 60000;
    int reps = smoke ? 1 : 5;
    bool run_c = true, run_lua = true;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--c")) run_lua = false;
        if (!strcmp(argv[i], "--lua")) run_c = false;
        if (!strcmp(argv[i], "--ticks") && i + 1 < argc) {
            ticks = atoll(argv[++i]);
            reps = 1;
        }
    }
    fg_ruleset *r = build_rules();
    printf("bench_behavior: ruleset of %u actions on %u layers, one request per entity every %d "
           "ticks%s\n", fg_ruleset_action_count(r), fg_ruleset_layer_count(r), REQUEST_EVERY,
           smoke ? " (smoke)" : "");
    if (run_c) bench_c(r, entities, ticks, reps);
#ifdef BENCH_LUA
    if (run_lua) bench_lua(fg_ruleset_hash(r), entities, ticks, reps);
#else
    (void)run_lua;
    printf("(built without Lua: the request-rule run is skipped)\n");
#endif
    fg_ruleset_unref(r);
    return 0;
}
