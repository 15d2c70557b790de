/* SPDX-License-Identifier: MIT */
/*
** bench_motion.c: cost of the motion matcher. 30 patterns (a fighting-game character in numpad
** and MUGEN notation), many entities, input at human rate (about 8 edges a second at 60 Hz) and
** at one edge every tick. Prints ns per entity-tick, ns per edge and the allocations made while
** stepping (expected 0). Only fg_motion_step is timed; pushing and consuming edges are not.
** Usage: bench_motion [--smoke] [ENTITIES] [--cmd FILE.cmd [--mode flags|consume]]
** With --cmd the patterns are a MUGEN/IKEMEN command file's (flags mode unless --mode consume),
** e.g. tests/data/mugen/kfm.cmd, to compare the two command modes on a real character.
*/
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#endif
#include "fg_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const fg_motion_def bench_defs[] = {
    {.name = "hadouken", .notation = "236P"},
    {.name = "hadouken_k", .notation = "236K"},
    {.name = "tatsu", .notation = "214K"},
    {.name = "tatsu_p", .notation = "214P"},
    {.name = "shoryuken", .notation = "623P", .has_priority = true, .priority = 10},
    {.name = "shoryuken_k", .notation = "623K", .has_priority = true, .priority = 10},
    {.name = "super", .notation = "236236P", .has_priority = true, .priority = 20},
    {.name = "super_k", .notation = "236236K", .has_priority = true, .priority = 20},
    {.name = "hcf", .notation = "41236P", .has_priority = true, .priority = 5},
    {.name = "hcb", .notation = "63214K", .has_priority = true, .priority = 5},
    {.name = "dash", .notation = "66"},
    {.name = "backdash", .notation = "44"},
    {.name = "sonic", .notation = "[4]6P", .has_priority = true, .priority = 15},
    {.name = "flash", .notation = "[2]8K", .has_priority = true, .priority = 15},
    {.name = "throw", .notation = "LP+LK", .has_priority = true, .priority = 30},
    {.name = "parry", .notation = "MP+MK", .has_priority = true, .priority = 30},
    {.name = "ex_fireball", .notation = "236P+P", .has_priority = true, .priority = 12},
    {.name = "overhead", .notation = "6MP"},
    {.name = "sweep", .notation = "3HK"},
    {.name = "negative", .notation = "236]HP["},
    {.name = "charge_punch", .notation = "[HP]"},
    {.name = "high_jump", .notation = "28"},
    {.name = "rekka", .notation = "236LP~LP"},
    {.name = "qcf_x", .notation = "~D, DF, F, x"},
    {.name = "qcb_y", .notation = "~D, DB, B, y"},
    {.name = "dp_x", .notation = "F, D, DF, x", .has_priority = true, .priority = 10},
    {.name = "run", .notation = "F, F"},
    {.name = "strict_ab", .notation = "~D, >DF, >F, a+b"},
    {.name = "down_any", .notation = "$D, x"},
    {.name = "charge_z", .notation = "~30z"},
};
enum { NDEFS = sizeof bench_defs / sizeof bench_defs[0] };

/* Stick motions a player might do, as numpad sequences, and buttons. */
static const char *const motions[] = {"236", "214", "623", "41236", "63214", "656", "454", "28",
                                      "5",   "6",   "4",   "2",     "3",     "1",   "236236"};
static const char *const buttons[] = {"LP", "MP", "HP", "LK", "MK", "HK", "x", "y", "a", "z"};

typedef struct player {
    fg_rng rng;
    char plan[16];
    int plan_pos;
    fg_tick next;
    int dir;
    int held_button; /* button id held, -1 */
    fg_tick release_at;
} player;

/* Produces the edges of one tick for one player; returns how many were pushed. interval is the
** mean number of ticks between edges. */
static int feed(player *p, fg_buffer *b, const fg_motion_buttons *bt, fg_tick t, int interval) {
    int pushed = 0;
    int64_t us = fg_us_of_tick(t, 60);
    if (p->held_button >= 0 && t >= p->release_at) {
        if (fg_buffer_push(b, FG_EDGE_RELEASE, p->held_button, 0, us, t, FG_SOURCE_DEVICE, NULL,
                           NULL) == FG_OK)
            pushed++;
        p->held_button = -1;
    }
    if (t < p->next) return pushed;
    p->next = t + 1 + (interval > 1 ? fg_rng_range(&p->rng, 0, 2 * interval - 2) : 0);
    if (p->plan[p->plan_pos] == '\0') {
        if (fg_rng_range(&p->rng, 0, 2) == 0 && p->held_button < 0) {
            const char *bn = buttons[fg_rng_range(&p->rng, 0, 9)];
            int id = fg_action_names_find(&bt->names, bn);
            if (fg_buffer_push(b, FG_EDGE_PRESS, id, 0, us + 1, t, FG_SOURCE_DEVICE, NULL,
                               NULL) == FG_OK) {
                pushed++;
                p->held_button = id;
                p->release_at = t + fg_rng_range(&p->rng, 1, 40);
            }
            return pushed;
        }
        int64_t last = (int64_t)(sizeof motions / sizeof motions[0]) - 1;
        snprintf(p->plan, sizeof p->plan, "%s", motions[fg_rng_range(&p->rng, 0, last)]);
        p->plan_pos = 0;
    }
    int d = p->plan[p->plan_pos++] - '0';
    if (d != p->dir &&
        fg_buffer_push(b, FG_EDGE_DIR, 0, d, us + 2, t, FG_SOURCE_DEVICE, NULL, NULL) == FG_OK) {
        p->dir = d;
        pushed++;
    }
    return pushed;
}

/* CPU time of the process: time spent descheduled on a busy machine does not count. */
static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

typedef struct result {
    double ns;
    uint64_t entity_ticks, edges, commands;
    size_t allocations;
} result;

/* Runs the whole loop; with step false it only feeds and consumes, so the difference between
** the two runs (same seeds, same edges) is the matcher's cost. */
static result run(const fg_motion_set *set, const fg_motion_buttons *bt, int entities,
                  fg_tick ticks, int interval, bool step) {
    fg_counting_allocator counter;
    fg_allocator a = fg_test_counting_allocator(&counter);
    const uint32_t cap = 128;
    size_t bsize = fg_buffer_size(cap), ssize = fg_motion_state_size(set);
    fg_buffer **bufs = calloc((size_t)entities, sizeof *bufs);
    fg_motion_state **states = calloc((size_t)entities, sizeof *states);
    player *players = calloc((size_t)entities, sizeof *players);
    fg_tick_input *inputs = calloc((size_t)entities, sizeof *inputs);
    fg_motion_command *out = fg_alloc(&a, fg_motion_count(set) * sizeof *out);
    for (int i = 0; i < entities; i++) {
        bufs[i] = fg_alloc(&a, bsize);
        states[i] = fg_alloc(&a, ssize);
        fg_buffer_init(bufs[i], cap, -1, NULL);
        fg_motion_state_init(set, states[i], -1);
        players[i].rng = fg_rng_seeded(1000 + (uint64_t)i);
        players[i].dir = 5;
        players[i].held_button = -1;
        if (i & 1) fg_buffer_set_facing(bufs[i], FG_FACING_LEFT);
    }
    result r;
    memset(&r, 0, sizeof r);
    size_t allocs_before = counter.allocations;
    fg_motion_ctx ctx = {NULL, false};
    double t0 = now_ns();
    for (fg_tick t = 0; t < ticks; t++) {
        ctx.frozen = (t % 97) < 8; /* some hitstop */
        for (int i = 0; i < entities; i++) {
            if (interval > 0) r.edges += (uint64_t)feed(&players[i], bufs[i], bt, t, interval);
            fg_buffer_consume_for_tick(bufs[i], t, &inputs[i], NULL);
            if (!step) continue;
            uint32_t n = 0;
            fg_motion_step(set, states[i], bufs[i], &inputs[i], &ctx, out, fg_motion_count(set),
                           &n, NULL);
            r.commands += n;
        }
    }
    r.ns = now_ns() - t0;
    r.entity_ticks = (uint64_t)entities * (uint64_t)ticks;
    r.allocations = counter.allocations - allocs_before;
    for (int i = 0; i < entities; i++) {
        fg_free(&a, bufs[i], bsize);
        fg_free(&a, states[i], ssize);
    }
    fg_free(&a, out, fg_motion_count(set) * sizeof *out);
    free(bufs);
    free(states);
    free(players);
    free(inputs);
    return r;
}

/* Loads a .cmd file into *set; false (with a message) when it cannot. */
static bool load_cmd(const char *path, fg_motion_mode mode, const fg_motion_buttons *bt,
                     fg_motion_set **set) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bench_motion: cannot open %s\n", path);
        return false;
    }
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    fg_motion_options opts = {mode, path};
    fg_error err;
    if (fg_motion_set_load_cmd(bt, text, len, &opts, NULL, set, &err) != FG_OK) {
        fprintf(stderr, "bench_motion: %s\n", fg_error_message(&err));
        return false;
    }
    return true;
}

int main(int argc, char **argv) {
    bool smoke = false;
    int entities = 256;
    const char *cmd = NULL;
    fg_motion_mode mode = FG_MOTION_MODE_DEFAULT;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--smoke") == 0) smoke = true;
        else if (strcmp(argv[i], "--cmd") == 0 && i + 1 < argc) cmd = argv[++i];
        else if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc)
            mode = strcmp(argv[++i], "consume") == 0 ? FG_MOTION_MODE_CONSUME
                                                     : FG_MOTION_MODE_FLAGS;
        else if (atoi(argv[i]) > 0) entities = atoi(argv[i]);
    }
    if (smoke) entities = 4;
    fg_tick ticks = smoke ? 600 : 36000;
    fg_motion_buttons bt;
    fg_motion_buttons_default(&bt, FG_MOTION_AUTO);
    fg_motion_set *set;
    fg_error err;
    if (cmd) {
        if (!load_cmd(cmd, mode, &bt, &set)) return 1;
    } else if (fg_motion_set_compile(&bt, bench_defs, NDEFS, NULL, &set, &err) != FG_OK) {
        fprintf(stderr, "bench_motion: %s\n", fg_error_message(&err));
        return 1;
    }
    printf("motion bench: %u patterns (%s mode%s%s), state %zu bytes per entity, %d entities, "
           "%lld ticks%s\n",
           fg_motion_count(set),
           fg_motion_set_mode(set) == FG_MOTION_MODE_FLAGS ? "flags" : "consume",
           cmd ? ", " : "", cmd ? cmd : "", fg_motion_state_size(set), entities,
           (long long)ticks, smoke ? " (smoke)" : "");
    /* Each figure is the median over a few repetitions of (with matcher) minus (without),
    ** the two runs of a pair made back to back. */
    enum { REPS = 5 };
    int reps = smoke ? 1 : REPS;
    result idle = {0}, human = {0}, dense = {0};
    double di[REPS], dh[REPS], dd[REPS];
    for (int rep = 0; rep < reps; rep++) {
        result a = run(set, &bt, entities, ticks, 0, true);
        result a0 = run(set, &bt, entities, ticks, 0, false);
        result h = run(set, &bt, entities, ticks, 8, true);
        result h0 = run(set, &bt, entities, ticks, 8, false);
        result d = run(set, &bt, entities, ticks, 1, true);
        result d0 = run(set, &bt, entities, ticks, 1, false);
        di[rep] = (a.ns - a0.ns) / (double)a.entity_ticks;
        dh[rep] = (h.ns - h0.ns) / (double)h.entity_ticks;
        dd[rep] = (d.ns - d0.ns) / (double)d.entity_ticks;
        idle = a;
        human = h;
        dense = d;
    }
    double idle_ns = median(di, reps), human_ns = median(dh, reps), dense_ns = median(dd, reps);
    double human_rate = (double)human.edges / (double)human.entity_ticks * 60.0;
    double dense_per_tick = (double)dense.edges / (double)dense.entity_ticks;
    printf("  idle            %7.1f ns per entity-tick, %zu allocations\n", idle_ns,
           idle.allocations);
    printf("  human rate      %7.1f ns per entity-tick (%.1f edges/s, %llu commands), "
           "%zu allocations\n",
           human_ns, human_rate, (unsigned long long)human.commands, human.allocations);
    printf("  dense           %7.1f ns per entity-tick (%.2f edges/tick, %llu commands), "
           "%zu allocations\n",
           dense_ns, dense_per_tick, (unsigned long long)dense.commands, dense.allocations);
    printf("  per edge        %7.1f ns (dense minus idle, per edge)\n",
           dense_per_tick > 0 ? (dense_ns - idle_ns) / dense_per_tick : 0.0);
    fg_motion_set_destroy(set);
    return idle.allocations || human.allocations || dense.allocations ? 1 : 0;
}
