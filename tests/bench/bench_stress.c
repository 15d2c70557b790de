/* SPDX-License-Identifier: MIT */
/*
** bench_stress.c: the whole tick, measured. N fighters run the stress fighter (30 motion
** patterns, 45 actions, two layers, a Lua request rule and a Lua presentation hook), paired in
** duels, driven by seeded human-rate input (about 8 edges per second per fighter: motions,
** normals, cancels, walking and blocking), with the state hash taken every tick.
**
** For N = 2, 100, 1000, 3000 and 10000 it prints ns per fighter-tick (median of 5 runs, the
** sizes' runs interleaved), ticks per second, calls into Lua per fighter-tick, C heap
** allocations per tick, Lua garbage per tick, memory per fighter and the state hash's share of
** the tick: what taking it every tick adds to the tick, the work the tick does for it included
** (measured on interleaved blocks of ticks with and without it, see play_ticks; the median of
** the runs' shares). Then the input buffer and motion matcher alone against a pure-Lua
** implementation of the same job on the same stream (tests/bench/lua_reference_matcher.lua),
** the same pipeline at 4x the input rate, a long run (cost must not grow with past ticks), idle
** fighters against playing ones at 100 and 10,000 fighters (C only), and what a dependent load
** costs this machine by working-set size (where the caches end).
**
**   build/release/tests/bench_stress [--smoke] [--quick]
**   bench_stress --icount FIGHTERS TICKS   one run, for tools/icount.lua (callgrind)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "fg_lua.h"
#include "fg_test.h"
#include "../../runtime/src/internal.h"

#define RULES FG_TESTS_DIR "/bench/stress_rules.lua"
#define RULES_BOXES FG_TESTS_DIR "/bench/stress_rules_boxes.lua"
#define REFERENCE FG_TESTS_DIR "/bench/lua_reference_matcher.lua"

/* {====================================================================== the input stream */

typedef struct ev {
    int32_t tick;
    uint8_t kind;  /* 0 press, 1 release, 2 direction (value: relative numpad) */
    uint8_t value; /* button index 0..3 (LP HP LK HK) or numpad */
} ev;

typedef struct stream {
    ev *evs;
    uint32_t n, cap;
} stream;

static void put(stream *s, int32_t tick, uint8_t kind, uint8_t value) {
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->evs = realloc(s->evs, sizeof *s->evs * s->cap);
    }
    s->evs[s->n++] = (ev){tick, kind, value};
}

/* A fighter's input for `ticks` ticks: every so often an intention (a motion, a normal, a
** normal cancelled into a special, a walk, a block, a dash), as a player would. `rate` scales
** how often. Every intention ends back in neutral with every button up. */
static void make_stream(stream *s, uint64_t seed, int32_t ticks, int rate) {
    static const char *const motions[] = {"236", "623", "214", "41236", "63214", "421", "22"};
    fg_rng r = fg_rng_seeded(seed);
    int32_t t = (int32_t)fg_rng_range(&r, 0, 30);
    while (t < ticks - 40) {
        int kind = (int)fg_rng_range(&r, 0, 9);
        int button = (int)fg_rng_range(&r, 0, 3);
        if (kind <= 2) { /* a special: a motion then a button */
            const char *m = motions[fg_rng_range(&r, 0, 6)];
            for (const char *c = m; *c; c++, t += 2) put(s, t, 2, (uint8_t)(*c - '0'));
            put(s, t, 0, (uint8_t)button);
            put(s, t + 2, 1, (uint8_t)button);
            put(s, t + 3, 2, 5);
            t += 3;
        } else if (kind <= 4) { /* a normal, cancelled on hit into a fireball */
            put(s, t, 0, (uint8_t)button);
            put(s, t + 2, 1, (uint8_t)button);
            put(s, t + 4, 2, 2);
            put(s, t + 6, 2, 3);
            put(s, t + 8, 2, 6);
            put(s, t + 9, 0, 0);
            put(s, t + 11, 1, 0);
            put(s, t + 12, 2, 5);
            t += 12;
        } else if (kind <= 6) { /* walk or block for a while */
            int32_t hold = (int32_t)fg_rng_range(&r, 10, 40);
            put(s, t, 2, kind == 5 ? 6 : 4);
            put(s, t + hold, 2, 5);
            t += hold;
        } else if (kind == 7) { /* a dash */
            put(s, t, 2, 6);
            put(s, t + 2, 2, 5);
            put(s, t + 4, 2, 6);
            put(s, t + 6, 2, 5);
            t += 6;
        } else { /* a crouching normal */
            put(s, t, 2, 2);
            put(s, t + 1, 0, (uint8_t)button);
            put(s, t + 3, 1, (uint8_t)button);
            put(s, t + 5, 2, 5);
            t += 5;
        }
        /* About 8 edges per second at rate 1: the intentions above average ~6 edges. */
        t += (int32_t)fg_rng_range(&r, 8, 40) / rate;
    }
}

/* }====================================================================== */

/* {====================================================================== a counting Lua state */

typedef struct lua_counter {
    size_t allocations, bytes_allocated, live, peak;
} lua_counter;

static void *lua_counting_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    lua_counter *c = ud;
    if (nsize == 0) {
        if (ptr) c->live -= osize;
        free(ptr);
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (!p) return NULL;
    size_t old = ptr ? osize : 0;
    if (nsize > old) {
        c->allocations++;
        c->bytes_allocated += nsize - old;
    }
    c->live += nsize - old;
    if (c->live > c->peak) c->peak = c->live;
    return p;
}

static lua_State *new_state(lua_counter *c) {
    memset(c, 0, sizeof *c);
    lua_State *L = lua_newstate(lua_counting_alloc, c);
    luaL_openlibs(L);
    fg_lua_preload(L);
    lua_getglobal(L, "package");
    lua_pushstring(L, FG_TESTS_DIR "/../scripts/?.lua;" FG_TESTS_DIR "/bench/?.lua");
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
    return L;
}

static void check(lua_State *L, int status) {
    if (status != LUA_OK) {
        fprintf(stderr, "bench_stress: %s\n", lua_tostring(L, -1));
        exit(1);
    }
}

/* }====================================================================== */

/* {====================================================================== the whole pipeline */

typedef struct result {
    double ns_per_fighter_tick;
    double lua_calls_per_fighter_tick;
    double c_allocs_per_tick;
    double lua_bytes_per_tick;
    double cues_per_tick;
    double memory_per_fighter;
    double edges_per_fighter_second;
    double collide_ns_per_entity_tick; /* the collision phase alone, on the run's last state */
    double hash_share;                 /* what hashing every tick adds to the tick's time */
} result;

static int lp, hp, lk, hk;

/* n fighters face to face in pairs, and the button ids the streams press. */
static void spawn_fighters(fg_world *w, int n) {
    lp = fg_world_action_id(w, "LP");
    hp = fg_world_action_id(w, "HP");
    lk = fg_world_action_id(w, "LK");
    hk = fg_world_action_id(w, "HK");
    for (int i = 0; i < n; i++) {
        fg_spawn sp = {0};
        sp.grounded = true;
        sp.x = FG_FX(i % 2 ? 35 : -35);
        sp.facing = i % 2 ? FG_FACING_LEFT : FG_FACING_RIGHT;
        fg_world_spawn(w, &sp, NULL, NULL);
    }
}

/* The host's input for every fighter, tick by tick, as a replay or a network feed delivers it:
** the events of tick t are items [at[t], at[t + 1]), fighter by fighter, each fighter's in its
** stream's order. Read in that order the host walks one array forward, as a real host does;
** read fighter by fighter it would fetch a line from each fighter's own stream every tick, a
** cost of the benchmark's storage and not of the runtime. */
typedef struct feed_item {
    uint32_t fighter;
    uint8_t kind, value;
} feed_item;

typedef struct feed {
    feed_item *items;
    uint32_t *at; /* ticks + 1 offsets */
    uint64_t edges;
} feed;

static feed make_feed(int n, int32_t ticks, int rate) {
    stream *streams = calloc((size_t)n, sizeof *streams);
    uint32_t *cursor = calloc((size_t)n, sizeof *cursor);
    feed f = {NULL, calloc((size_t)ticks + 1, sizeof(uint32_t)), 0};
    for (int i = 0; i < n; i++) {
        make_stream(&streams[i], 1000 + (uint64_t)i, ticks, rate);
        f.edges += streams[i].n;
    }
    f.items = calloc(f.edges ? f.edges : 1, sizeof *f.items);
    uint32_t k = 0;
    for (int32_t t = 0; t < ticks; t++) {
        f.at[t] = k;
        for (int i = 0; i < n; i++)
            for (stream *s = &streams[i]; cursor[i] < s->n && s->evs[cursor[i]].tick == t;
                 cursor[i]++)
                f.items[k++] = (feed_item){(uint32_t)i, s->evs[cursor[i]].kind,
                                           s->evs[cursor[i]].value};
    }
    f.at[ticks] = k;
    for (int i = 0; i < n; i++) free(streams[i].evs);
    free(streams);
    free(cursor);
    return f;
}

static void free_feed(feed *f) {
    free(f->items);
    free(f->at);
}

/* Tick t's input: each fighter's events at the tick's time, a microsecond apart. Odd fighters
** face left (spawn_fighters). */
static void push_tick(fg_world *w, const feed *f, int32_t t) {
    const int buttons[4] = {lp, hp, lk, hk};
    int64_t us0 = fg_us_of_tick(t, 60), us = us0;
    uint32_t last = UINT32_MAX;
    for (uint32_t k = f->at[t]; k < f->at[t + 1]; k++) {
        const feed_item *v = &f->items[k];
        if (v->fighter != last) last = v->fighter, us = us0;
        fg_entity e = (fg_entity)v->fighter + 1;
        if (v->kind == 2)
            fg_world_direction(w, e,
                               fg_numpad_relative(v->value, v->fighter % 2 ? FG_FACING_LEFT
                                                                           : FG_FACING_RIGHT),
                               us, FG_SOURCE_DEVICE, NULL);
        else if (v->kind == 0)
            fg_world_press(w, e, buttons[v->value], us, FG_SOURCE_DEVICE, NULL);
        else
            fg_world_release(w, e, buttons[v->value], us, FG_SOURCE_DEVICE, NULL);
        us++;
    }
}

/* Read and drop the tick's presentation cues, as a host's presentation layer does every frame; a
** world whose cues are never drained fills its cue queue and every later hook call errors. */
static uint64_t drain_cues(fg_world *w) {
    uint32_t n = fg_world_cue_count(w);
    uint64_t seen = 0;
    for (uint32_t i = 0; i < n; i++) seen += fg_world_cue_at(w, i)->name[0] != '\0';
    fg_world_cues_clear(w);
    return seen;
}

/* The collision phase alone, repeated on a world's current state (it writes only its work
** space), per entity. */
static double time_collision(fg_world *w, int n) {
    fg_tick t = fg_world_tick(w) - 1;
    int reps = 200;
    double t0 = fg_bench_now_ns();
    for (int k = 0; k < reps; k++) fg_collide_find(w, t);
    return (fg_bench_now_ns() - t0) / ((double)reps * n);
}

/* A second of play warms a world up (every lazy structure exists before measuring); a short run
** warms up for half its ticks. */
static int32_t warm_ticks(int32_t ticks) { return ticks < 120 ? ticks / 2 : 60; }

/* One run's moving parts: the Lua world, its streams and where each stream is. */
typedef struct play {
    lua_State *L;
    fg_world *w;
    int widx, advance; /* stack slots of the world and its advance method */
    const feed *feed;
    uint64_t cues;
    bool ab; /* hash on alternate blocks of AB_BLOCK ticks, and time each tick (below) */
    double ns[2];   /* the steady ticks' time: [0] without the hash, [1] with it */
    int32_t nt[2];  /* and how many there were */
    double *each[2]; /* each steady tick's time, for the medians */
} play;

/* The state hash's cost is more than the time inside fg_world_hash: a world hashed every tick
** folds each entity's part of the hash during the tick, while the entity is in the cache
** (world_hash.c), and skips that work when nobody hashes it. So the measured ticks alternate
** blocks with the hash taken every tick and blocks without it, and each tick is timed; the first
** tick of a block still carries the other regime's work and is left out. The hash's share is
** then 1 - (median tick without) / (median tick with): medians, so that a garbage collection
** step landing in one block does not decide it. ns per fighter-tick is the mean tick with the
** hash. Interleaved, both see the same load on a busy machine. */
#define AB_BLOCK 8

/* Ticks [from, to) as a host plays them: the tick's input, w:advance(), the cues drained, the
** state hash taken (every tick, or in alternate blocks with p->ab). */
static void play_ticks(play *p, int32_t from, int32_t to) {
    for (int32_t t = from; t < to; t++) {
        int hashed = !p->ab || (t / AB_BLOCK) % 2 == 0;
        double t0 = p->ab ? fg_bench_now_ns() : 0;
        push_tick(p->w, p->feed, t);
        lua_pushvalue(p->L, p->advance);
        lua_pushvalue(p->L, p->widx);
        check(p->L, lua_pcall(p->L, 1, 0, 0));
        p->cues += drain_cues(p->w);
        if (hashed) (void)fg_world_hash(p->w);
        if (p->ab && t % AB_BLOCK != 0) {
            double dt = fg_bench_now_ns() - t0;
            p->ns[hashed] += dt;
            p->each[hashed][p->nt[hashed]++] = dt;
        }
    }
}

/* The measured ticks, kept out of line under their own name: tools/icount.lua counts the
** instructions executed inside this function only (callgrind --toggle-collect). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
void stress_measured_ticks(play *p, int32_t from, int32_t to);
void stress_measured_ticks(play *p, int32_t from, int32_t to) { play_ticks(p, from, to); }

/* One run of the full pipeline in a world created by the Lua bindings (rule and hook in Lua).
** ab: the hash in alternate blocks, timed (play_ticks); else every tick (tools/icount.lua). */
static result run_rules_as(const char *rules, int n, int32_t ticks, int rate, bool ab) {
    lua_counter lc;
    lua_State *L = new_state(&lc);
    check(L, luaL_dostring(L, "fg = require 'framegate'"));
    lua_getglobal(L, "fg");
    lua_getfield(L, -1, "world");
    lua_createtable(L, 0, 3);
    lua_getfield(L, -3, "rules");
    lua_pushstring(L, rules);
    check(L, lua_pcall(L, 1, 1, 0));
    lua_setfield(L, -2, "rules");
    lua_pushinteger(L, n);
    lua_setfield(L, -2, "entities");
    lua_pushinteger(L, 1024);
    lua_setfield(L, -2, "trace");
    check(L, lua_pcall(L, 1, 1, 0));
    int widx = lua_gettop(L);
    fg_lua_world *lw = fg_lua_check_world(L, widx);
    fg_world *w = lw->w;
    spawn_fighters(w, n);
    feed f = make_feed(n, ticks, rate);
    lua_getfield(L, widx, "advance"); /* the method, kept on the stack */
    play p = {L, w, widx, lua_gettop(L), &f, 0, false, {0, 0}, {0, 0}, {NULL, NULL}};
    p.each[0] = calloc((size_t)ticks, sizeof(double));
    p.each[1] = calloc((size_t)ticks, sizeof(double));
    /* Warm up: a second of play, so every lazy structure exists before measuring. */
    int32_t warm = warm_ticks(ticks);
    play_ticks(&p, 0, warm);
    uint64_t calls0 = lw->rule_calls + lw->hook_calls;
    size_t lua_bytes0 = lc.bytes_allocated;
    p.cues = 0;
    p.ab = ab;
    double t0 = fg_bench_now_ns();
    stress_measured_ticks(&p, warm, ticks);
    uint64_t cues = p.cues;
    double ns = fg_bench_now_ns() - t0;
    int32_t measured = ticks - warm;
    result r;
    memset(&r, 0, sizeof r);
    r.ns_per_fighter_tick = ns / ((double)n * measured);
    if (ab && p.nt[0] > 0 && p.nt[1] > 0) {
        r.ns_per_fighter_tick = p.ns[1] / p.nt[1] / n;
        r.hash_share = 1 - fg_bench_median(p.each[0], p.nt[0]) /
                               fg_bench_median(p.each[1], p.nt[1]);
    }
    r.lua_calls_per_fighter_tick =
        (double)(lw->rule_calls + lw->hook_calls - calls0) / ((double)n * measured);
    r.lua_bytes_per_tick = (double)(lc.bytes_allocated - lua_bytes0) / measured;
    r.cues_per_tick = (double)cues / measured;
    r.memory_per_fighter = ((double)fg_world_memory(w) + (double)lc.peak) / n;
    r.edges_per_fighter_second = (double)f.edges / n / ((double)ticks / 60.0);
    r.collide_ns_per_entity_tick = time_collision(w, n);
    free(p.each[0]);
    free(p.each[1]);
    free_feed(&f);
    lua_close(L);
    return r;
}

static result run_rules(const char *rules, int n, int32_t ticks, int rate) {
    return run_rules_as(rules, n, ticks, rate, true);
}

static result run_pipeline(int n, int32_t ticks, int rate) {
    return run_rules(RULES, n, ticks, rate);
}

/* The same ruleset decided in C only (no Lua rule or hook), in a world made with a counting
** allocator: proves no allocation per tick. `idle`: no input at all, so every fighter stands in
** its neutral state from the first tick to the last. */
static double run_c_only(int n, int32_t ticks, double *allocs_per_tick, bool idle) {
    lua_counter lc;
    lua_State *L = new_state(&lc);
    check(L, luaL_dostring(L, "return require('framegate').rules('" RULES "')"));
    fg_ruleset *rules = fg_lua_check_rules(L, -1)->rules;
    fg_counting_allocator counter;
    fg_world_config c = fg_world_config_default();
    c.rules = rules;
    c.max_entities = (uint32_t)n;
    c.trace_capacity = 1024;
    c.allocator = fg_test_counting_allocator(&counter);
    fg_world *w = fg_world_create(&c, NULL);
    spawn_fighters(w, n);
    feed f = make_feed(n, ticks, 1);
    int32_t warm = 60;
    size_t allocs0 = 0;
    double t0 = 0;
    for (int32_t t = 0; t < ticks; t++) {
        if (t == warm) {
            allocs0 = counter.allocations;
            t0 = fg_bench_now_ns();
        }
        if (!idle) push_tick(w, &f, t);
        fg_world_advance(w, NULL);
        (void)fg_world_hash(w);
    }
    double ns = fg_bench_now_ns() - t0;
    *allocs_per_tick = (double)(counter.allocations - allocs0) / (ticks - warm);
    free_feed(&f);
    fg_world_destroy(w);
    lua_close(L);
    return ns / ((double)n * (ticks - warm));
}

/* }====================================================================== */

/* {====================================================================== the machine's memory */

/* What a load costs when its address comes from the load before, in a working set of `mib` MiB
** taken from the allocator the world's arena comes from (so with the same pages): a random cycle
** through every 64-byte line, walked a fixed number of steps. An input edge's ring slot, the trie
** nodes it advances and the ledger an action begins are found that way. Where the figure jumps
** is the size of the cache this process can use; a world whose per-tick state outgrows it pays
** the larger figure on the lines its tick cannot have fetched ahead. */
static double dependent_load_ns(size_t mib, int steps) {
    size_t bytes = mib << 20, lines = bytes / 64;
    fg_allocator a = fg_allocator_default();
    unsigned char *mem = fg_alloc(&a, bytes);
    uint32_t *order = malloc(lines * sizeof *order);
    if (!mem || !order) {
        fprintf(stderr, "bench_stress: out of memory for a %zu MiB working set\n", mib);
        exit(1);
    }
    fg_rng r = fg_rng_seeded(7);
    for (size_t i = 0; i < lines; i++) order[i] = (uint32_t)i;
    for (size_t i = lines - 1; i > 0; i--) { /* Fisher-Yates: one cycle through every line */
        size_t j = (size_t)fg_rng_range(&r, 0, (int64_t)i);
        uint32_t x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    for (size_t i = 0; i < lines; i++)
        *(void **)(mem + (size_t)order[i] * 64) = mem + (size_t)order[(i + 1) % lines] * 64;
    free(order);
    void *q = mem;
    for (size_t i = 0; i < lines; i++) q = *(void **)q; /* once round: every line touched */
    double t0 = fg_bench_now_ns();
    for (int i = 0; i < steps; i++) q = *(void **)q;
    double ns = (fg_bench_now_ns() - t0) / steps;
    if (q == NULL) puts(""); /* keeps the walk */
    fg_free(&a, mem, bytes);
    return ns;
}

/* }====================================================================== */

/* {====================================================================== buffer + matcher only */

/* C: each fighter's input buffer and motion matcher with the stress fighter's compiled patterns. */
static double run_c_matcher(int n, int32_t ticks, uint64_t *commands) {
    lua_counter lc;
    lua_State *L = new_state(&lc);
    check(L, luaL_dostring(L, "return require('framegate').rules('" RULES "')"));
    const fg_ruleset *rules = fg_lua_check_rules(L, -1)->rules;
    const fg_motion_set *set = fg_ruleset_motions(rules);
    const fg_action_names *names = fg_ruleset_buttons(rules);
    lp = fg_action_names_find(names, "LP");
    hp = fg_action_names_find(names, "HP");
    lk = fg_action_names_find(names, "LK");
    hk = fg_action_names_find(names, "HK");
    int buttons[4] = {lp, hp, lk, hk};
    size_t bsize = fg_buffer_size(32), msize = fg_motion_state_size(set);
    unsigned char *bufs = calloc((size_t)n, bsize);
    unsigned char *states = calloc((size_t)n, msize);
    stream *streams = calloc((size_t)n, sizeof *streams);
    uint32_t *cursor = calloc((size_t)n, sizeof *cursor);
    for (int i = 0; i < n; i++) {
        fg_buffer_init((fg_buffer *)(bufs + i * bsize), 32, -1, NULL);
        fg_motion_state_init(set, (fg_motion_state *)(states + i * msize), -1);
        make_stream(&streams[i], 1000 + (uint64_t)i, ticks, 1);
    }
    fg_motion_command out[8];
    *commands = 0;
    double t0 = fg_bench_now_ns();
    for (int32_t t = 0; t < ticks; t++) {
        for (int i = 0; i < n; i++) {
            fg_buffer *b = (fg_buffer *)(bufs + i * bsize);
            const stream *s = &streams[i];
            int64_t us = fg_us_of_tick(t, 60);
            while (cursor[i] < s->n && s->evs[cursor[i]].tick == t) {
                const ev *v = &s->evs[cursor[i]++];
                if (v->kind == 2) fg_buffer_push(b, FG_EDGE_DIR, 0, v->value, us++, t, 0, NULL, NULL);
                else
                    fg_buffer_push(b, v->kind ? FG_EDGE_RELEASE : FG_EDGE_PRESS,
                                   buttons[v->value], 0, us++, t, 0, NULL, NULL);
            }
            fg_tick_input in;
            fg_buffer_consume_for_tick(b, t, &in, NULL);
            uint32_t nout = 0;
            fg_motion_ctx ctx = {NULL, false};
            fg_motion_step(set, (fg_motion_state *)(states + i * msize), b, &in, &ctx, out, 8,
                           &nout, NULL);
            for (uint32_t k = 0; k < nout; k++) *commands += out[k].age == 0;
        }
    }
    double ns = fg_bench_now_ns() - t0;
    for (int i = 0; i < n; i++) free(streams[i].evs);
    free(streams);
    free(cursor);
    free(bufs);
    free(states);
    lua_close(L);
    return ns / ((double)n * ticks);
}

/* Pure Lua: the reference buffer and matcher over the same stream, in the same process. */
static double run_lua_matcher(int n, int32_t ticks, uint64_t *commands) {
    lua_counter lc;
    lua_State *L = new_state(&lc);
    /* The stress fighter's declaration, read as plain Lua, gives the patterns. */
    check(L, luaL_dostring(L,
        "local ref = dofile('" REFERENCE "')\n"
        "local decl = dofile('" RULES "')\n"
        "local names = { LP = 1, HP = 2, LK = 3, HK = 4 }\n"
        "local patterns = {}\n"
        "for name, m in pairs(decl.motions) do\n"
        "  patterns[#patterns + 1] = ref.compile(name, m[1], names, decl.groups, m)\n"
        "end\n"
        "for _, b in ipairs({ 'LP', 'HP', 'LK', 'HK' }) do\n"
        "  patterns[#patterns + 1] = ref.compile(b, b, names, decl.groups, {})\n"
        "end\n"
        "table.sort(patterns, function(a, b) return a.name < b.name end)\n"
        "bench = { ref = ref, patterns = patterns, fighters = {}, streams = {} }"));
    stream *streams = calloc((size_t)n, sizeof *streams);
    for (int i = 0; i < n; i++) make_stream(&streams[i], 1000 + (uint64_t)i, ticks, 1);
    /* Hand the streams to Lua as flat arrays (not timed). */
    lua_getglobal(L, "bench");
    lua_getfield(L, -1, "streams");
    for (int i = 0; i < n; i++) {
        lua_createtable(L, (int)streams[i].n * 3, 0);
        for (uint32_t k = 0; k < streams[i].n; k++) {
            lua_pushinteger(L, streams[i].evs[k].tick);
            lua_rawseti(L, -2, k * 3 + 1);
            lua_pushinteger(L, streams[i].evs[k].kind);
            lua_rawseti(L, -2, k * 3 + 2);
            lua_pushinteger(L, streams[i].evs[k].value + (streams[i].evs[k].kind == 2 ? 0 : 1));
            lua_rawseti(L, -2, k * 3 + 3);
        }
        lua_rawseti(L, -2, i + 1);
    }
    lua_pop(L, 2);
    char setup[256];
    snprintf(setup, sizeof setup,
             "for i = 1, %d do bench.fighters[i] = bench.ref.fighter() end\n"
             "bench.cursor = {} for i = 1, %d do bench.cursor[i] = 1 end", n, n);
    check(L, luaL_dostring(L, setup));
    check(L, luaL_dostring(L,
        "function bench.tick(t)\n"
        "  local ref, patterns, out = bench.ref, bench.patterns, bench.out or {}\n"
        "  bench.out = out\n"
        "  local found = 0\n"
        "  for i = 1, #bench.fighters do\n"
        "    local f, s, c = bench.fighters[i], bench.streams[i], bench.cursor[i]\n"
        "    local fresh = 0\n"
        "    while s[c] == t do\n"
        "      ref.push(f, t, s[c + 1], s[c + 2])\n"
        "      fresh = fresh + 1\n"
        "      c = c + 3\n"
        "    end\n"
        "    bench.cursor[i] = c\n"
        "    if fresh > 0 then found = found + ref.step(f, patterns, t, fresh, out) end\n"
        "  end\n"
        "  return found\n"
        "end"));
    lua_getglobal(L, "bench");
    lua_getfield(L, -1, "tick");
    int tick_fn = lua_gettop(L);
    *commands = 0;
    double t0 = fg_bench_now_ns();
    for (int32_t t = 0; t < ticks; t++) {
        lua_pushvalue(L, tick_fn);
        lua_pushinteger(L, t);
        check(L, lua_pcall(L, 1, 1, 0));
        *commands += (uint64_t)lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    double ns = fg_bench_now_ns() - t0;
    for (int i = 0; i < n; i++) free(streams[i].evs);
    free(streams);
    lua_close(L);
    return ns / ((double)n * ticks);
}

/* }====================================================================== */

static int cmp_result(const void *a, const void *b) {
    double x = ((const result *)a)->ns_per_fighter_tick, y = ((const result *)b)->ns_per_fighter_tick;
    return x < y ? -1 : x > y;
}

/* One run for tools/icount.lua: N fighters, TICKS ticks (the first 60, or half when shorter,
** warm up), and how many fighter-ticks stress_measured_ticks played. */
static int icount_run(int argc, char **argv) {
    int n = argc > 2 ? atoi(argv[2]) : 0, ticks = argc > 3 ? atoi(argv[3]) : 0;
    if (n < 2 || n > 100000 || ticks < 2 || ticks > 100000) {
        fprintf(stderr, "usage: bench_stress --icount FIGHTERS TICKS (2-100000 each)\n");
        return 2;
    }
    run_rules_as(RULES, n, ticks, 1, false);
    int32_t warm = warm_ticks(ticks);
    printf("measured fighter-ticks: %lld\n", (long long)n * (ticks - warm));
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--icount") == 0) return icount_run(argc, argv);
    if (getenv("FG_BENCH_PROFILE_PIPE")) { /* one run of the pipeline, for profilers */
        result r = run_pipeline(atoi(getenv("FG_BENCH_PROFILE_PIPE")), 600, 1);
        printf("%.1f ns per fighter-tick, hash %.1f %%\n", r.ns_per_fighter_tick,
               100 * r.hash_share);
        return 0;
    }
    if (getenv("FG_BENCH_PROFILE_BOXES")) { /* one run with hit boxes, for profilers */
        result r = run_rules(RULES_BOXES, atoi(getenv("FG_BENCH_PROFILE_BOXES")), 600, 1);
        printf("%.1f ns per fighter-tick, collision %.1f ns per entity-tick\n",
               r.ns_per_fighter_tick, r.collide_ns_per_entity_tick);
        return 0;
    }
    if (getenv("FG_BENCH_PROFILE_C")) { /* the C-only world, for profilers */
        double a;
        printf("%.1f\n", run_c_only(atoi(getenv("FG_BENCH_PROFILE_C")), 600, &a, false));
        return 0;
    }
    bool smoke = fg_bench_smoke(argc, argv);
    bool quick = argc > 1 && strcmp(argv[argc - 1], "--quick") == 0;
    int sizes[] = {2, 100, 1000, 3000, 10000};
    int nsizes = smoke ? 1 : 5;
    int runs = smoke ? 1 : quick ? 3 : 5;
    printf("duel stress: the stress fighter (30 motions, 45 actions, 2 layers, Lua rule and hook),\n"
           "paired fighters, seeded human-rate input, state hash every tick; median of %d runs\n\n",
           runs);
    printf("%7s %12s %12s %12s %12s %12s %12s %8s\n", "fighters", "ns/f-tick", "ticks/s",
           "Lua calls/ft", "C allocs/t", "Lua B/tick", "bytes/fighter", "hash %");
    /* Round k runs every size once: a slow stretch of a shared machine then falls on every
    ** size alike rather than on the size that happened to run during it, so the medians'
    ** ratios (how flat the cost is in N) mean something on a busy machine too. */
    result all[5][7];
    for (int k = 0; k < runs; k++)
        for (int si = 0; si < nsizes; si++) {
            int n = smoke ? 4 : sizes[si];
            /* Each run long enough to outlast a burst of the machine's other load: at least
            ** 600,000 fighter-ticks from 100 fighters up (two fighters: 36,000). */
            int32_t ticks = smoke        ? 120
                            : n >= 10000 ? 180
                            : n >= 1000  ? 600
                            : n >= 100   ? 6000
                                         : 18000;
            all[si][k] = run_pipeline(n, ticks, 1);
        }
    for (int si = 0; si < nsizes; si++) {
        int n = smoke ? 4 : sizes[si];
        result *rs = all[si];
        double shares[7];
        /* The hash's share is the median of the runs' own (each from its alternating blocks),
        ** not the share of the run with the median time: one run has a few dozen blocks. */
        for (int k = 0; k < runs; k++) shares[k] = rs[k].hash_share;
        qsort(rs, (size_t)runs, sizeof rs[0], cmp_result);
        result m = rs[runs / 2];
        m.hash_share = fg_bench_median(shares, runs);
        double allocs = 0;
        run_c_only(n < 1000 ? n : 1000, smoke ? 120 : 300, &allocs, false);
        printf("%7d %12.1f %12.0f %12.3f %12.1f %12.1f %12.0f %8.1f\n", n,
               m.ns_per_fighter_tick, 1e9 / (m.ns_per_fighter_tick * n),
               m.lua_calls_per_fighter_tick, allocs, m.lua_bytes_per_tick, m.memory_per_fighter,
               100 * m.hash_share);
        if (si == 0) printf("        (input: %.1f edges per fighter per second)\n",
                            m.edges_per_fighter_second);
        printf("        (%.2f presentation cues per tick, drained every tick)\n",
               m.cues_per_tick);
    }
    /* Hits as boxes: the same fighter with hit boxes instead of ranges, default hurt and push
    ** boxes, combat rules. */
    int nb = smoke ? 4 : 1000;
    result plain[5], boxed[5];
    for (int k = 0; k < runs; k++) {
        plain[k] = run_rules(RULES, nb, smoke ? 120 : 600, 1);
        boxed[k] = run_rules(RULES_BOXES, nb, smoke ? 120 : 600, 1);
    }
    qsort(plain, (size_t)runs, sizeof plain[0], cmp_result);
    qsort(boxed, (size_t)runs, sizeof boxed[0], cmp_result);
    double coll[5];
    for (int k = 0; k < runs; k++) coll[k] = boxed[k].collide_ns_per_entity_tick;
    printf("\nhits as boxes, %d fighters: %.1f ns per fighter-tick with boxes, %.1f with the range "
           "shorthand (%.2fx); the collision phase alone: %.1f ns per entity-tick\n", nb,
           boxed[runs / 2].ns_per_fighter_tick, plain[runs / 2].ns_per_fighter_tick,
           boxed[runs / 2].ns_per_fighter_tick / plain[runs / 2].ns_per_fighter_tick,
           fg_bench_median(coll, runs));
    if (smoke) { /* the idle world and the memory walk, once each, small */
        double ignored;
        (void)run_c_only(4, 120, &ignored, true);
        (void)dependent_load_ns(1, 1000);
        return 0;
    }

    int n = 1000;
    double call_only = 0;
    double c_only = run_c_only(n, 600, &call_only, false);
    printf("\nthe same %d fighters decided in C only (no Lua rule or hook): %.1f ns per "
           "fighter-tick, %.1f allocations per tick\n", n, c_only, call_only);
    /* The ends of the range, C only, idle and playing, interleaved: whether what grows with the
    ** world's size is the tick every fighter pays or the work of fighters in action. */
    static const int ends[2] = {100, 10000};
    double idle[2][3], playing[2][3], ignored;
    for (int k = 0; k < 3; k++)
        for (int e = 0; e < 2; e++) {
            int32_t ticks = ends[e] < 1000 ? 6000 : 600; /* runs of 540,000 fighter-ticks or more */
            idle[e][k] = run_c_only(ends[e], ticks, &ignored, true);
            playing[e][k] = run_c_only(ends[e], ticks, &ignored, false);
        }
    printf("C only, idle (no input) and playing, median of 3: %d fighters %.1f and %.1f, %d "
           "fighters %.1f and %.1f ns per fighter-tick\n", ends[0], fg_bench_median(idle[0], 3),
           fg_bench_median(playing[0], 3), ends[1], fg_bench_median(idle[1], 3),
           fg_bench_median(playing[1], 3));
    result fast[3];
    for (int k = 0; k < 3; k++) fast[k] = run_pipeline(n, 600, 4);
    qsort(fast, 3, sizeof fast[0], cmp_result);
    printf("4x the input rate (%.1f edges per fighter per second), %d fighters: %.1f ns per "
           "fighter-tick\n", fast[1].edges_per_fighter_second, n, fast[1].ns_per_fighter_tick);
    result longer[3];
    for (int k = 0; k < 3; k++) longer[k] = run_pipeline(100, 18000, 1);
    qsort(longer, 3, sizeof longer[0], cmp_result);
    printf("a 5-minute match (18000 ticks), 100 fighters: %.1f ns per fighter-tick\n",
           longer[1].ns_per_fighter_tick);

    uint64_t c_cmds = 0, lua_cmds = 0;
    double cm[5], lm[5];
    for (int k = 0; k < 5; k++) {
        cm[k] = run_c_matcher(n, 600, &c_cmds);
        lm[k] = run_lua_matcher(n, 600, &lua_cmds);
    }
    double c_med = fg_bench_median(cm, 5), l_med = fg_bench_median(lm, 5);
    printf("\ninput buffer + motion matcher only, %d fighters, same stream:\n", n);
    printf("  framegate (C)        %8.1f ns per fighter-tick  (%llu commands)\n", c_med,
           (unsigned long long)c_cmds);
    printf("  pure Lua reference   %8.1f ns per fighter-tick  (%llu commands)\n", l_med,
           (unsigned long long)lua_cmds);
    printf("  ratio                %8.1fx\n", l_med / c_med);

    static const size_t sizes_mib[] = {1, 2, 4, 8, 16, 64};
    printf("\nmemory: ns per dependent load by working set (median of 3):");
    for (size_t k = 0; k < sizeof sizes_mib / sizeof sizes_mib[0]; k++) {
        double d[3];
        for (int j = 0; j < 3; j++) d[j] = dependent_load_ns(sizes_mib[k], 4000000);
        printf(" %zu MiB %.1f%s", sizes_mib[k], fg_bench_median(d, 3),
               k + 1 < sizeof sizes_mib / sizeof sizes_mib[0] ? "," : "\n");
    }
    return 0;
}
